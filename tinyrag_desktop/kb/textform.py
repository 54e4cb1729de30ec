"""The form text takes before the full-text index sees it: one function for what is indexed and what is searched.

SQLite's unicode61 tokenizer splits words at spaces and punctuation and folds case and accents; two
things escape it:

- compatibility forms: full-width letters ("ｕｎｉｔ"), ligatures ("ﬁ"), half-width katakana are other
  characters than the ordinary ones, so they never match them. Unicode NFKC maps them to the ordinary
  forms.
- Chinese and Japanese are written without spaces, and Korean ties particles to its words: unicode61
  keeps a whole run of such characters as one token, so a word inside a sentence cannot be found. Here
  every ideograph, kana and hangul syllable is set apart by spaces and becomes a token of its own; a
  search asks for a word's characters as a phrase (in order, side by side, see ``query_words.query_terms``).

Only the index sees this form: the text stored in ``chunks`` and shown to people stays as imported. The
index is contentless, so forgetting a row means giving it the very values it was indexed with: the
store passes those through :func:`index_form` too, and rebuilds the index when the form may have
changed (a new schema version, or a Python whose Unicode tables differ: NFKC depends on them).
"""

from __future__ import annotations

import re
import unicodedata

from .code_files import CODE_TYPES

# Ideographs, kana, hangul and bopomofo: the characters written without spaces between words. Fixed
# ranges rather than Unicode properties, so that the form does not change with Python's Unicode tables.
CJK_CHARACTERS = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3005-\u3007"  # 々 〆 〇
    "\u3021-\u3029\u3031-\u3035\u3038-\u303c"  # Hangzhou numerals, kana repeat marks, 〻 〼
    "\u3041-\u30ff"  # Hiragana, Katakana
    "\u3105-\u312f\u3131-\u318e\u31a0-\u31bf"  # Bopomofo, Hangul compatibility jamo
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"  # small katakana, CJK ideographs and extension A
    "\ua960-\ua97f\uac00-\ud7ff"  # Hangul jamo extensions, syllables
    "\uf900-\ufaff\uff66-\uffdc"  # compatibility ideographs, half-width katakana and hangul
    "\U0001b000-\U0001b16f\U00020000-\U0003ffff"  # kana supplement, ideograph extensions B and on
)
_CJK = re.compile(f"[{CJK_CHARACTERS}]")
# A place between a CJK character and any other character but a space: one space goes there. Spaces
# only where none is, so the form of a form is the form itself.
_CJK_EDGE = re.compile(f"(?<=[{CJK_CHARACTERS}])(?=\\S)|(?<=\\S)(?=[{CJK_CHARACTERS}])")


def nfkc(text: str) -> str:
    """``text`` in Unicode NFKC: full-width and other compatibility forms become the ordinary ones."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def index_form(text: str, kind: str = "") -> str:
    """``text`` as the full-text index is given it: NFKC, each CJK character a word of its own; in a source
    of ``kind`` "code" or "config", each identifier in mixed case followed by its words (identifier_words)."""
    if kind in CODE_TYPES:
        text = identifier_words(text)
    if text.isascii():  # most text: nothing to do, at the cost of one flag check
        return text
    text = unicodedata.normalize("NFKC", text)
    return _CJK_EDGE.sub(" ", text) if _CJK.search(text) else text


# A change of case inside an identifier: "parseConfig" → parse|Config, "HTTPServer" → HTTP|Server.
_CASE_CHANGE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_MIXED_CASE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*")


def identifier_words(text: str) -> str:
    """``text`` with each identifier written in mixed case followed by its words ("parseConfig" → "parseConfig
    parse Config"), so that a search for the words finds it; the identifier itself stays as it is. (The
    index splits "parse_config" at its "_" by itself.)"""
    return _MIXED_CASE.sub(_with_words, text) if _MIXED_CASE.search(text) else text


def identifier_parts(word: str) -> list[str]:
    """The words of an identifier in mixed case ("parseConfig" → parse, Config; "HTTPServer" → HTTP, Server);
    ``[word]`` for any other word."""
    return _CASE_CHANGE.sub(" ", word).split(" ") if _MIXED_CASE.fullmatch(word) else [word]


def _with_words(match: re.Match[str]) -> str:
    word = match.group()
    words = _CASE_CHANGE.sub(" ", word)
    return word if words == word else f"{word} {words}"  # "HTTP" is one word already


def is_cjk(char: str) -> bool:
    return _CJK.match(char) is not None


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None
