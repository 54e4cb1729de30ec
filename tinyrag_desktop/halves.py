"""Half characters in text from outside, made whole enough to keep: each lone surrogate becomes U+FFFD (�).

JSON's "\\ud800" without its second half is read by Python as half a character (a lone surrogate), which no
UTF-8 file, database or console can hold: a model's name, a server's error or a chat's text holding one
failed the save of the answer, and `ask --jsonl`, with a traceback. A pair of halves is one character, kept.
"""

from __future__ import annotations

import re
from typing import Any

_HALF = re.compile("[\ud800-\udfff]")


def mended(text: str) -> str:
    """``text`` with each half character that has no other half beside it replaced by U+FFFD."""
    if not isinstance(text, str) or _HALF.search(text) is None:  # a None (no reasoning) or a number as given
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def mended_json(value: Any) -> Any:
    """``value`` (decoded JSON: dicts, lists, texts, numbers) with its texts, keys too, mended."""
    if isinstance(value, str):
        return mended(value)
    if isinstance(value, dict):
        return {mended(k) if isinstance(k, str) else k: mended_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [mended_json(v) for v in value]
    return value
