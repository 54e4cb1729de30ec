"""The chats list's search, run in a worker thread: typing in the search box never waits for SQLite.

3,000 chats take 30–110 ms to search; on the GUI thread each search froze the window that long, a pause per
word typed. Here the window asks, goes on, and fills the list when ``found`` brings the chats back.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from ..chat_find import ChatSearcher
from ..chats import ChatInfo, ChatStoreError

log = logging.getLogger(__name__)


class ChatSearch(QObject):
    """Runs the chats list's searches one after another in one worker thread, on a read connection of its own.

    Only the latest search's chats come back: a search overtaken by newer words (or by :meth:`cancel`, the box
    cleared) is given up halfway, and a result that was already on its way is dropped, so an older, slower
    search never replaces a newer one in the list. A search that fails (the file locked by another program,
    removed) comes back as ``failed`` with the reason in words; nothing is raised into Qt. :meth:`close`
    gives up the running search and waits for the thread to end (the window calls it as it closes).
    """

    found = Signal(str, object)  # the words searched for, and the chats holding them (list[ChatInfo])
    failed = Signal(str, str)  # the words, and why they could not be searched for
    _done = Signal(int, str, object)  # from the worker: search number, words, chats or the error's words

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._asked = 0  # the latest search's number: the one whose chats are wanted
        self._answered = 0  # the latest search whose chats (or failure) came, or that was given up
        self._running = 0  # the search the worker is on (read in the worker, to give up an overtaken one)
        self._closed = False
        self._searcher = ChatSearcher(path, stop=self._overtaken)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chat-search")
        self._done.connect(self._on_done)  # queued: it is emitted in the worker thread

    def search(self, text: str) -> None:
        """Search for ``text``; ``found`` or ``failed`` says when it is done, unless newer words come first."""
        self._asked += 1
        if self._closed:
            return
        self._worker.submit(self._work, self._asked, text)

    def cancel(self) -> None:
        """Give up the search under way: its chats are no longer wanted (the list shows every chat)."""
        self._asked += 1
        self._answered = self._asked

    @property
    def waiting(self) -> bool:
        """Whether the latest search asked for has not come back yet (the chats list's catch-up waits)."""
        return self._answered != self._asked

    def close(self) -> None:
        """Give up the running search, wait for the worker thread to end, close its connection."""
        if self._closed:
            return
        self._closed = True
        self._worker.shutdown(wait=True, cancel_futures=True)
        self._searcher.close()

    def _overtaken(self) -> bool:
        return self._closed or self._running != self._asked

    def _work(self, number: int, text: str) -> None:
        """In the worker thread: search, unless newer words came while this one waited its turn."""
        self._running = number
        if self._overtaken():
            return
        result: list[ChatInfo] | str | None
        try:
            result = self._searcher.search(text)
        except ChatStoreError as exc:
            log.warning("%s", exc)
            result = str(exc)
        except Exception as exc:  # a bug: logged with its traceback, the list still filled
            log.exception("the chats search failed")
            result = f"The chats could not be searched: {exc.__class__.__name__}: {exc}"
        if result is not None and not self._overtaken():
            try:
                self._done.emit(number, text, result)
            except RuntimeError:  # the window was deleted without closing this first: nobody to tell
                pass

    def _on_done(self, number: int, text: str, result: list[ChatInfo] | str) -> None:
        if number != self._asked or self._closed:
            return  # newer words were typed after it had ended
        self._answered = number
        if isinstance(result, str):
            self.failed.emit(text, result)
        else:
            self.found.emit(text, result)
