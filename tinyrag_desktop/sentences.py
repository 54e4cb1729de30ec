"""A sentence carried on after a colon or a joining phrase ("Could not connect: ", "Nothing was removed: "), so
that the two read as one sentence, not as two glued ("Could not connect: The model server …"). No Qt: the
Settings dialog and the knowledge panel both join their reasons so.
"""

from __future__ import annotations

# First words that keep their capital: names, not the start of a sentence. Words in capitals or with a capital
# inside ("HTTP", "LM Studio", "SQLite", "URLs", "vLLM") are kept without being listed.
_NAMES = frozenset({"I", "Ollama", "Jan", "Go", "Python", "Windows", "Settings", "Wikipedia", "Word", "Excel",
                    "PowerPoint", "Markdown"})


def after_colon(text: str) -> str:
    """``text`` as it reads going on a sentence ("…: " or "Connected, but "): its first word without its
    capital, unless that word is a name."""
    first = text.split(" ", 1)[0].rstrip(":,;.")
    plain_word = first.isalpha() and first[0].isupper() and (len(first) == 1 or first[1:].islower())
    return text[:1].lower() + text[1:] if plain_word and first not in _NAMES else text


def listed(items: list[str]) -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]
