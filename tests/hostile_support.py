"""Shared by the tests/test_hostile_*.py files: what a bilingual error message must contain."""

import re

CJK = re.compile(r"[\u4e00-\u9fff]")


def assert_bilingual(exc_info, *words):
    """The raised message has Chinese text, an English term in parentheses, and every word in ``words``."""
    message = str(exc_info.value)
    assert CJK.search(message) and re.search(r"\([^)]*[A-Za-z]", message), message
    for word in words:
        assert word in message, message
    return message


def assert_bilingual_text(text, *words):
    """``text`` (e.g. what a command printed to stderr) is a bilingual message containing every word."""
    assert CJK.search(text) and re.search(r"\([^)]*[A-Za-z]", text), text
    assert "Traceback" not in text, text
    for word in words:
        assert word in text, text
    return text
