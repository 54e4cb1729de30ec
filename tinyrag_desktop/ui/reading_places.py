"""Where each chat was being read: a chat left scrolled up opens there again, after a restart too.

A chat left while reading an earlier answer opened at its end when it was opened again, and so did the chat
reopened at the next start. Its place is kept as the message at the top of the view, by its number from the
chat's first message (not among the messages built: a long chat is built a page at a time, see
window_chats.open_chat), and how far down that message the view's top was, as a share of its height (not in
pixels: the window's width, the font and the theme change a message's height). Opened again, the chat is built
from the page holding that message, and the view goes back to it. A place more than FARTHEST_PAGES pages above
the chat's end opens it at its end instead: every message below the place was built, and a place near the top
of a chat of 200 exchanges took 15 s to open (the place is forgotten as the chat is left at its end; scrolling
up builds the pages above as usual).

A chat left at its end keeps no place: it opens at its end, following what comes, as before. An answer that
came or ended while the chat was away (a question left streaming while reading above it) does not move the
place either: it is below what was being read, and "Latest" says there is more there.

Kept in ``places.json`` in the data folder, written whole (as the drafts are) as a chat is left, a second
after scrolling stops (a crash loses no more) and as the window closes; by a window that reopens the last
chat only (an ``--ask`` run keeps none).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from ..chats import ChatStoreError
from ..files import write_whole

if TYPE_CHECKING:
    from .main_window import MainWindow

log = logging.getLogger(__name__)

PLACES_FILE = "places.json"  # in the data folder: by chat, [the message's number, the share down it]
MOST_KEPT = 500  # chats whose place is kept; the one left longest ago goes first
SAVE_AFTER_MS = 1000  # after scrolling stops
FARTHEST_PAGES = 3  # a place further above the end than so many pages opens its chat at its end


class ReadingPlaces(QObject):
    """The window's chats' reading places (see the module's docstring)."""

    def __init__(self, win: "MainWindow", path: Path | None) -> None:
        super().__init__(win)
        self._win = win
        self._path = path
        self._places: dict[str, tuple[int, float]] = _read(path) if path is not None else {}
        self._written = dict(self._places)
        self._going_to: tuple[str, int, float] | None = None  # the chat being opened, where it is to be shown
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SAVE_AFTER_MS)
        self._timer.timeout.connect(self.keep)
        win.view.verticalScrollBar().valueChanged.connect(lambda _value: self._timer.start())

    def keep(self) -> None:
        """Note where the open chat is being read (it is about to be left, the window to close, or scrolling
        stopped), and write the file if that changed. Not while the chat is still being built: the view is not
        where it will be, and the place noted before stays."""
        win = self._win
        if win.chat_id is None or win.loading or win.store.closed:
            return
        place = win.view.reading_place()
        if place is None:
            self._places.pop(win.chat_id, None)
        else:
            try:
                before = 0 if win.first_shown is None else win.store.position(win.chat_id, win.first_shown)
            except (ChatStoreError, sqlite3.Error) as exc:
                log.warning("could not read where the chat is: %s", exc)
                return
            self._places.pop(win.chat_id, None)  # last in the file: the one left most recently
            self._places[win.chat_id] = (before + place[0], round(place[1], 4))
            for chat in list(self._places)[:-MOST_KEPT]:
                del self._places[chat]
        self._write()

    def first_to_build(self, chat_id: str, start: int, earlier: bool, page: int) -> tuple[int, bool]:
        """The first message to build as ``chat_id`` opens, and whether messages come before it: ``start`` and
        ``earlier`` (its last page), or the start of the ``page`` messages ending with its reading place, when
        that is above them (not more than FARTHEST_PAGES above the end).
        The place is noted, to go to once the chat is built (see ``arrive``)."""
        self._going_to = None
        place = self._places.get(chat_id)
        if place is None:
            return start, earlier
        store = self._win.store
        try:
            message = store.message_at(chat_id, place[0])
            if message is None:  # its messages since deleted (a question rewritten): at its end
                return start, earlier
            if start and message < start:
                if message < store.page_start(chat_id, FARTHEST_PAGES * page)[0]:
                    return start, earlier  # too far up to build all below it: at its end
                start, earlier = store.page_start(chat_id, page, before=message + 1)
            self._going_to = (chat_id, place[0] - (store.position(chat_id, start) if start else 0), place[1])
        except (ChatStoreError, sqlite3.Error) as exc:
            log.warning("could not find where the chat was being read: %s", exc)
        return start, earlier

    def arrive(self) -> None:
        """The chat opened is built: show it where it was being read, or at its end."""
        going_to, self._going_to = self._going_to, None
        if going_to is None or going_to[0] != self._win.chat_id:
            self._win.view.scroll_to_bottom()
        else:
            self._win.view.go_to_reading_place(*going_to[1:])

    def chats(self) -> set[str]:
        """The chats whose place is kept."""
        return set(self._places)

    def forget(self, chats: set[str]) -> None:
        """``chats`` are gone from the history for good: their places go, from the file too."""
        for chat in chats:
            self._places.pop(chat, None)
        self._write()

    def _write(self) -> None:
        if self._path is None or self._places == self._written:
            return
        try:
            write_whole(self._path, json.dumps({chat: list(place) for chat, place in self._places.items()}),
                        private=True)
        except OSError as exc:  # a full disk: the chats open at their end next time
            log.warning("could not keep the reading places in %s: %s", self._path, exc)
            return
        self._written = dict(self._places)


def _read(path: Path) -> dict[str, tuple[int, float]]:
    """The places kept in ``path``; those a hand-edited or damaged file garbled are passed over."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # none yet, damaged, a folder, or nested past reading
        return {}
    if not isinstance(kept, dict):
        return {}
    return {chat: (place[0], float(place[1])) for chat, place in kept.items()
            if isinstance(place, list) and len(place) == 2 and type(place[0]) is int and place[0] >= 0
            and type(place[1]) in (int, float) and 0 <= place[1] <= 1}
