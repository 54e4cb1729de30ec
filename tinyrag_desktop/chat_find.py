"""Finding chats by their words: the chats list's search (ChatSearcher, in a worker thread, and
ChatStore.search), each word anywhere in a chat at the start of a word, letter case and accents aside (see
search_text), the best matches first."""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from pathlib import Path
from typing import Callable

from . import search_text
from .sqlitefiles import file_uri
from .chats import ChatInfo, ChatStoreError, chat_from_row, chats_in

# A search in a worker thread (ChatSearcher) waits this long (s) for a lock another program holds on the file,
# then says it could not search: in WAL mode a reader waits for no writer, so this is a rare, short wait.
SEARCH_LOCK_WAIT = 1.0
# Every so many steps of a search's query, whether to give it up is asked: 2–4 ms apart on 3,000 chats.
_STOP_CHECK_STEPS = 10_000


class ChatSearcher:
    """Searches a chat history on a read-only connection of its own, for a worker thread beside the
    :class:`ChatStore` that writes: in WAL mode a reader sees every chat committed before its search began,
    and neither waits for the other.

    The connection is opened by the first search, in the thread that searches, and is used by that thread
    alone; :meth:`close` may come from another thread once that one has ended. ``stop`` is asked, from the
    searching thread, every few milliseconds of a query: when it answers True the search is given up halfway
    and :meth:`search` returns None (the window says so when newer words are typed, or as it closes).
    """

    def __init__(self, path: Path | str, stop: Callable[[], bool] = lambda: False) -> None:
        self.path = Path(path)
        self._stop = stop
        self._db: sqlite3.Connection | None = None

    def search(self, text: str) -> list[ChatInfo] | None:
        """As :meth:`ChatStore.search`, or None when ``stop`` gave the search up. Raises ChatStoreError, in
        words, when the history cannot be read (locked by another program, removed, damaged)."""
        try:
            if self._db is None:
                self._db = self._open()
            return find_chats(self._db, text)
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "") == "SQLITE_INTERRUPT":
                return None  # stop said so
            raise ChatStoreError(f"Could not search the chat history {self.path}: {exc}") from exc

    def _open(self) -> sqlite3.Connection:
        # check_same_thread off only so that close() can come from the thread that waited for this one.
        db = sqlite3.connect(f"{file_uri(self.path.resolve())}?mode=ro", uri=True, isolation_level=None,
                             timeout=SEARCH_LOCK_WAIT, check_same_thread=False)
        db.row_factory = sqlite3.Row
        search_text.register(db)
        db.set_progress_handler(lambda: bool(self._stop()), _STOP_CHECK_STEPS)
        return db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def find_chats(db: sqlite3.Connection, text: str) -> list[ChatInfo]:
    """Chats whose title or messages hold ``text``'s words, each at the start of a word, letter case and
    accents aside (see search_text); every chat for empty ``text``, newest first. Each word may be anywhere in
    the chat: "capital France" finds "the capital of France" (only the words as one phrase did).

    The best first: the chats whose title holds the words as typed, then those whose title holds each of
    them, then those with a message holding them as typed, then the rest; newest first among equals ("topic
    C" listed the chat titled "… about topic C" below 20 others). Each chat carries as its snippet the words
    around the first message holding them as typed, else around its longest word (see search_words)."""
    needle = _phrase(text)
    if not needle:
        return chats_in(db)
    words = search_words(text)
    if len(words) == 1:  # "capital capital" too
        needle = words[0]
    folded = search_text.fold(needle)
    args = search_text.holds_args(folded, needle)
    if len(words) == 1:
        rows = db.execute(_SEARCH.format(content=_holds("m.content", folded), title=_holds("title", folded)),
                          args)
        found = [(chat_from_row(r, _snippet(r["hit"], needle)), r["hit"] is not None) for r in rows]
        return _best_first(found, needle, words)
    each = []
    for key, word in enumerate(words):
        folded_word = search_text.fold(word)
        args |= search_text.holds_args(folded_word, word, str(key))
        each.append(f"({_holds('c.title', folded_word, str(key))} OR EXISTS (SELECT 1 FROM messages m "
                    f"WHERE m.chat_id = c.id AND {_holds('m.content', folded_word, str(key))}))")
    longest = max(words, key=len)
    rows = db.execute(_SEARCH_WORDS.format(
        phrase=_holds("m.content", folded),
        longest=_holds("m.content", search_text.fold(longest), str(words.index(longest))),
        each=" AND ".join(each)), args)
    found = [(chat_from_row(r, _snippet(r["hit"], needle) if r["hit"] is not None else _snippet(r["near"], longest)),
              r["hit"] is not None) for r in rows]
    return _best_first(found, needle, words)


def _holds(column: str, folded: str, key: str = "") -> str:
    return search_text.holds(column, folded, key, word_start=True)


def _best_first(found: list[tuple[ChatInfo, bool]], needle: str, words: list[str]) -> list[ChatInfo]:
    """The chats ``found`` (newest first, each with whether a message holds the words as typed), the best
    matches first and newest first among equals: the title holds the words as typed, as whole words ("number
    2", not "number 24"); the title holds them as typed; the title holds each; a message holds them as
    typed; the rest (the words spread over the chat)."""
    def rank(item: tuple[ChatInfo, bool]) -> int:
        chat, in_message = item
        at = search_text.find(chat.title, needle, word_start=True)
        if at is not None:
            return 0 if search_text.ends_word(chat.title, at[1]) else 1
        if len(words) > 1 and all(search_text.find(chat.title, word, word_start=True) for word in words):
            return 2
        return 3 if in_message else 4

    return [chat for chat, _ in sorted(found, key=rank)]  # sorted() keeps the order of equals


def search_words(text: str) -> list[str]:
    """The words a chats search looks for each of: ``text``'s, as a person reads them, once each (as folded),
    the first _MOST_WORDS of them (each costs a look through every message; more add little).

    Punctuation typed around a word is not part of it ("tax:", "(tax)", "Paris?" look for "tax", "Paris":
    they found nothing), and a dash, slash, bracket or quote inside one parts it ("tax-return" looks for
    "tax" and "return", and finds "tax return" too). Marks that belong to a word stay ("C++", "C#", "100%",
    "a*b", "snake_case", "don't", "<b>"), and so does a dot that starts a name (".NET", ".py", "*.py": these
    are looked for as written, not as "net" or "py", which found "network" and "Python" first); dots before
    a word that are an ellipsis ("...so") are punctuation. Words of marks alone ("?", "->") are looked for
    as typed."""
    seen: dict[str, str] = {}
    for word in _typed_words(text):
        seen.setdefault(search_text.fold(word), word)
    return list(seen.values())[:_MOST_WORDS]


def _typed_words(text: str) -> list[str]:
    """``text``'s words as search_words reads them, every one, in their order."""
    parted = "".join(" " if _parts_words(ch) else ch for ch in text)
    return [word for word in map(_trimmed, parted.split()) if word] or text.split()


def _phrase(text: str) -> str:
    """``text``'s words as one phrase, as typed but for the punctuation around each ("(tax-return)?":
    "tax-return"), and single spaces; of punctuation alone, as typed."""
    return " ".join(filter(None, map(_trimmed, text.split()))) or " ".join(text.split())


def _trimmed(word: str) -> str:
    """``word`` (no spaces in it) without the punctuation around it (see search_words); "" when none of it
    is a word's."""
    kept = [i for i, ch in enumerate(word) if not _parts_words(ch) and ch not in _ENDS]
    if not kept or not word[kept[0]:kept[-1] + 1].strip(_NO_WORD_ALONE):
        return ""
    start = kept[0]
    if word[start - 1:start] == "." and word[start - 2:start - 1] != ".":  # a name's dot, not an ellipsis
        start -= 1
    return word[start:kept[-1] + 1]


# Punctuation that is part of a word typed, and taken off its ends only (see search_words); marks that are
# part of a word ("<b>", "a|b") but no word alone ("->": "-" parts it, ">" is left).
_KEPT_IN_WORDS, _ENDS, _NO_WORD_ALONE = "_.'’%#&@*", ".'’*&", "<>|"


def _parts_words(ch: str) -> bool:
    """Whether ``ch``, typed, parts words: punctuation of any script (brackets, quotes, dashes, slashes, the
    ends of sentences), but for the marks that belong to words (see search_words)."""
    return ch == "`" or (unicodedata.category(ch).startswith("P") and ch not in _KEPT_IN_WORDS)


_MOST_WORDS = 6

# Each message is folded once: its chat's first one holding the words is the snippet's, and says the chat does.
_SEARCH = """SELECT * FROM (SELECT c.*, c.rowid AS n, (SELECT m.content FROM messages m WHERE m.chat_id = c.id
                             AND {content} ORDER BY m.id LIMIT 1) AS hit
                           FROM chats c WHERE c.deleted IS NULL)
             WHERE hit IS NOT NULL OR {title} ORDER BY updated DESC, n DESC"""
# Several words: each somewhere in the chat; the snippet from the first message holding them as typed, else
# from the first holding the longest (looked for only in the chats found).
_SEARCH_WORDS = """SELECT c.*, c.rowid AS n,
                          (SELECT m.content FROM messages m WHERE m.chat_id = c.id AND {phrase}
                           ORDER BY m.id LIMIT 1) AS hit,
                          (SELECT m.content FROM messages m WHERE m.chat_id = c.id AND {longest}
                           ORDER BY m.id LIMIT 1) AS near
                   FROM chats c WHERE c.deleted IS NULL AND {each} ORDER BY updated DESC, n DESC"""
# How much of a message a search hit shows before the words found, and after them. The list shows about
# 30 characters of it: with 40 before, the words found were cut off ("Answer about Tax return deadlin…").
_SNIPPET_BEFORE, _SNIPPET_AFTER = 12, 60
# A message whose words found end within the characters the list shows is shown from its start ("…4 about
# café menu" was shown of "Question 4 about café menu").
_SNIPPET_SHOWN = 30


def _snippet(text: str | None, needle: str) -> str:
    """The words around ``needle`` in ``text``: a few before it (from the start of a word), more after, as
    the answer reads (Markdown's marks taken out, so a link's address takes none of the room)."""
    if not text:
        return ""
    found, found_end = search_text.find(text, needle, word_start=True) or (0, len(needle))  # case, accents aside
    lo, hi = max(0, found - 200), found_end + 400
    part = _MARKUP.sub(_unmarked, text[lo:hi])
    at, at_end = search_text.find(part, needle, word_start=True) or (-1, -1)
    if at < 0:  # the words are in what the marks took out (a link's address): shown as written
        part, at, at_end = text[lo:hi], found - lo, found_end - lo
    shown_whole = not lo and len(" ".join(part[:at_end].split())) <= _SNIPPET_SHOWN
    start = 0 if shown_whole else max(0, at - _SNIPPET_BEFORE)
    if start and not part[start - 1].isspace():  # not from the middle of a word
        space = part.find(" ", start, at)
        start = space + 1 if space >= 0 else at
    end = at_end + _SNIPPET_AFTER
    piece = " ".join(part[start:end].split())
    return ("…" if start or lo else "") + piece + ("…" if end < len(part) or hi < len(text) else "")


# Markdown's marks, which a snippet shows as the answer reads, not as it was written: a link's words, no
# "**", "~~" or backticks, no "#" of a heading nor ">" of a quote at a line's start, no fence line (its
# language read as a word: "| A long code line: js const x"), no table rule, no bars between a row's cells.
_MARKUP = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n]*$|^[ \t]*+\|?(?:[ \t]*+:?-{3,}+:?[ \t]*+\|?)++[ \t]*$"
                     r"|!?\[([^\]\n]*)\]\([^)\s]*\)|\*\*|~~|`+|^[ \t]*(?:#{1,6}|>+)[ \t]+|(?<!\\)\|(?=[^\n]*\|[ \t]*$)"
                     r"|\|[ \t]*$", re.M)


def _unmarked(m: re.Match[str]) -> str:
    return m.group(1) or (" " if m.group(0).startswith("|") else "")
