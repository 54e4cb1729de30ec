"""English words: a question word in this list is a word, not a typo, even when no passage uses it.

Spelling tolerance (spelling.py) searches a word the index has never seen as its nearest indexed
neighbour. For a typo that is right ("permisions" → "permissions"); for a real word the documents lack it
is not ("passport" → "password", "cats" → "cast", "seasons" → "reasons"): the question is about
something the knowledge base does not hold, and the neighbour's passages are noise. So a word found here
is never corrected.

The list is pyspellchecker's English word-frequency list (SCOWL and subtitle counts), its alphabetic
words. It is read once, when a search first meets an absent word (0.2 to 0.5 s), and kept as one string
of 1.2 MB: a word is looked for as a line of it, 0.6 ms a look-up, and only absent words are looked up.

Measured with the PostgreSQL and git manuals (benchmarks/bench_kb_relevance.py, one typing mistake in each
development question, four seeds): the rag route used to search the words as typed, so a question with a
typo got its right page into the prompt 68, 66, 62 and 62 times of 103; correcting the words not in this
list, 80, 84, 80 and 85, and no off-topic question gets passages it did not get before (correcting every
absent word gave 17 and 22 of 40 instead of 10 and 14 in the PostgreSQL manual, 17 and 20 instead of 10
and 11 in git's). The model's own searches (rag_knowledge, kb search), which corrected every absent word,
find the right page for 1 question fewer of the 412 typo'd ones: a typo that makes another real word is
no longer corrected.
"""

from __future__ import annotations

import importlib.util
import logging
import threading

log = logging.getLogger(__name__)

_lock = threading.Lock()
_words: str | None = None
_failed = False


def is_word(word: str) -> bool:
    """Whether ``word`` (lower case) is an English word of the list; False when the list cannot be read."""
    words = _load()
    return words is not None and f"\n{word}\n" in words


def available() -> bool:
    """Whether the word list is installed (it ships with the app; a broken install may lack it). Cheap:
    the list itself is read only when a search meets a word no passage uses."""
    if _words is not None or _failed:
        return _words is not None
    try:
        return importlib.util.find_spec("spellchecker") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules holds None for it, as if uninstalled
        return False


def _load() -> str | None:
    global _words, _failed
    if _words is not None or _failed:
        return _words
    with _lock:
        if _words is None and not _failed:
            try:
                from spellchecker import SpellChecker

                counts = SpellChecker(language="en", distance=1).word_frequency.dictionary
                listed = sorted(w for w in counts if w.isalpha())
                _words = "\n" + "\n".join(listed) + "\n"
            except Exception as exc:  # without the list, every word no passage uses is taken for a typo
                log.warning("the English word list could not be read (%s); every word no passage uses will be "
                            "searched as its nearest neighbour", exc)
                _failed = True
    return _words
