"""A live chat keeps a bounded number of messages built: the oldest go back to the history.

A chat opened from the history builds its last page and more as it is scrolled up (MainWindow.open_chat and
show_earlier); one asked in all day built every answer it got: after 300 answers the window held 12,000
widgets and 515 MB, and each answer cost more than the one before. Once an answer ends with more than
LIVE_MOST messages built (or answers of more than LIVE_MOST_CHARS characters), and the user is reading the
latest, the oldest are taken out down to LIVE_KEEP (and LIVE_KEEP_CHARS), whole exchanges at a time, and
"Show earlier messages" builds them again from the history when wanted.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..chats import ChatStoreError
from .answer import AnswerWidget

if TYPE_CHECKING:
    from .main_window import MainWindow

LIVE_MOST = 160  # messages built in a live chat before the oldest go
LIVE_KEEP = 100  # messages left built
# The same by the answers' characters: a chat of long answers (30,000 characters and 20 cards each) held
# 523 MB after 79 of them, fewer than LIVE_MOST messages; one answer longer than this stays built whole
LIVE_MOST_CHARS = 1_000_000
LIVE_KEEP_CHARS = 500_000


def _cut_by_size(items: list) -> int:
    """Where to cut for the answers built below the cut to hold at most LIVE_KEEP_CHARS (0: no need)."""
    sizes = [len(w.content()) if isinstance(w, AnswerWidget) else 0 for w in items]
    if sum(sizes) <= LIVE_MOST_CHARS:
        return 0
    kept, at = 0, len(items)
    while at > 0 and kept + sizes[at - 1] <= LIVE_KEEP_CHARS:
        at -= 1
        kept += sizes[at]
    last_answer = max(i for i, w in enumerate(items) if isinstance(w, AnswerWidget))
    return min(at, last_answer)


def trim_live_chat(win: "MainWindow") -> int:
    """Take the oldest messages of ``win``'s chat out of the view, when it holds too many; how many went."""
    items = win.view._widgets()
    if win.chat_id is None or win._loading is not None or not win.view.following():
        return 0
    by_size = _cut_by_size(items)
    if len(items) <= LIVE_MOST and not by_size:
        return 0
    # Cut before the question of the first answer kept: the question's id starts the earlier messages still
    # to be shown. Every answer above the cut must be stored (an answer not saved stays in sight).
    cut = max(len(items) - LIVE_KEEP, by_size)
    while cut < len(items) and not isinstance(items[cut], AnswerWidget):
        cut += 1
    cut -= 1  # its question
    answers_above = [w for w in items[:cut] if isinstance(w, AnswerWidget)]
    kept = items[cut + 1] if cut + 1 < len(items) else None
    if cut <= 0 or isinstance(items[cut], AnswerWidget) or not answers_above or not isinstance(kept, AnswerWidget):
        return 0
    last_gone, first_kept = win.message_ids.get(id(answers_above[-1])), win.message_ids.get(id(kept))
    if last_gone is None or first_kept is None or any(win.message_ids.get(id(a)) is None for a in answers_above):
        return 0
    try:
        between = win.store.messages(win.chat_id, first=last_gone + 1, before=first_kept)
    except (ChatStoreError, sqlite3.Error):
        return 0
    if not between or between[0].role != "user":
        return 0
    for answer in answers_above:
        win.message_ids.pop(id(answer), None)
    win.view.drop_first(cut)
    win._earlier = between[0].id
    return cut
