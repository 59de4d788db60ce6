"""Chinese search with the English stemmer named correctly in the page's JavaScript.

Sphinx 9.0's ``zh`` search language ships ``english-stemmer.js`` (Latin words are stemmed the English
way) but ends ``language_data.js`` with ``window.Stemmer = ChineseStemmer;``, a class that does not
exist: every page logs ``ReferenceError: ChineseStemmer is not defined`` and the search page finds
nothing (sphinx-doc/sphinx issue 14229, fixed upstream by deriving the name from the stemmer file).
This registers the same language under the name of the stemmer it really uses. Words are still split
with jieba, plus the chapter's terms from ``search_terms.txt`` (``html_search_options["dict"]``).
"""

from sphinx.search.zh import SearchChinese


class SearchChineseEnglishStemmer(SearchChinese):
    language_name = "English"  # -> window.Stemmer = EnglishStemmer (the class english-stemmer.js defines)


def setup(app):
    app.add_search_language(SearchChineseEnglishStemmer)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
