"""The parts ``helpers.translate`` uses around a model (``helpers.decode`` calls them).

* ``source``     the source side: English as a student types it -> the ids a model reads (``read_source``)
* ``copying``    unknown words copied back through attention (``copy_unknown``)
* ``penalties``  decoding rules for long sentences: length normalisation, coverage penalty, end guard
"""
