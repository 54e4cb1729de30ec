"""The window's chats: the list filled and searched, a chat opened a page at a time, renamed, deleted, its persona."""

from __future__ import annotations

import datetime
import logging
import sqlite3
import time
from typing import Callable, Iterator

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from ..chats import ChatInfo, ChatStoreError, StoredMessage
from ..times import local_date
from .catch_up import catch_up_timer, in_sight
from .chat_loading import load_slice
from .header import fill_personas, persona_gone_words

log = logging.getLogger(__name__)

LOAD_BUDGET = 0.015  # seconds of chat building per event-loop turn when a chat is opened
# Messages built when a chat is opened, and then per page scrolled up: a chat of 1,000 questions, built
# whole, took 15 s or more and 300 MB for 28,000 widgets.
HISTORY_PAGE = 40
# The longest the list waits to look at the calendar again: a clock changed, a summer-time change or a machine
# woken from sleep past midnight is caught up within this, not a day late.
DAY_CHECK_MS = 15 * 60 * 1000


def ms_to_next_day(now: float) -> int:
    """Milliseconds from the Unix time ``now`` to a second past the next local midnight."""
    today = datetime.datetime.fromtimestamp(now)
    midnight = datetime.datetime.combine(today.date() + datetime.timedelta(days=1), datetime.time())
    return max(1000, int((midnight - today).total_seconds() * 1000) + 1000)


class ChatsMixin:
    """MainWindow's chats (mixed into it, see main_window.py: it uses the window's store, sidebar, view and
    composer)."""

    def _refresh_chats(self, keep_place: bool = False, later: bool = False) -> None:
        """Fill the chats list: every chat at once, or, with words in the search box, the chats holding
        them once the search (in a worker thread) has found them; until then the list stays as it was.
        ``keep_place``: the list is read again as it is (see catch_up_chats), kept where it was scrolled;
        ``later``: every chat too is read in that thread (the timer's catch-up: 16-25 ms at 5,000 chats)."""
        self._listed_version = self.store.changes_elsewhere()  # before reading: a change meanwhile reads again
        self._listed_day = local_date(time.time())
        self._watch_the_calendar()
        if self.sidebar.search.text().strip() or later:
            self._catching_up = self.sidebar.search.text() if keep_place else None
            self.chat_search.search(self.sidebar.search.text())
            return
        self._catching_up = None
        self.chat_search.cancel()  # a search still on its way would replace the whole list with its hits
        chats = self.store.list_chats()
        self._open_chat_as_listed(chats)
        self.sidebar.set_chats(chats, self.chat_id, keep_place=keep_place)

    def _chats_found(self, words: str, chats: list[ChatInfo]) -> None:
        keep, self._catching_up = words == self._catching_up, None
        self._catch_up_failed = False
        if keep and self.sidebar.renaming:  # begun since the catch-up was asked for: refilling the list would
            self._listed_version = None  # close the title's editor and lose what was typed; read again later
            return
        self._open_chat_as_listed(chats)
        self.sidebar.set_chats(chats, self.chat_id, words, keep_place=keep)

    def _open_chat_as_listed(self, chats: list[ChatInfo]) -> None:
        """The open chat's title and persona as they are stored, once the list was read: renamed in another
        window (an ``--ask`` run's) while it was open here, its new title showed in the list, and the header
        and the window's title kept the old one until the chat was opened again; given another persona there,
        it answered here as the one before. Its row is read again now, not taken from the list: a read begun
        in the worker before a persona was picked here put the one before back in the header, and the next
        question was asked as that one."""
        if not self.chat_id or all(c.id != self.chat_id for c in chats):
            return
        try:
            chat = self.store.get_chat(self.chat_id)
        except sqlite3.Error as exc:  # locked or gone now: the header stays as it is, until the next read
            log.warning("could not read the open chat again: %s", exc)
            return
        if chat is None:
            return
        if chat.title != self.title_label.text():
            self.title_label.setText(chat.title)
        if chat.persona != self.persona.currentText() and self.persona.findText(chat.persona) >= 0:
            self.persona.blockSignals(True)  # stored already: not stored again
            self.persona.setCurrentText(chat.persona)
            self.persona.blockSignals(False)

    def _busy_with_the_list(self) -> bool:
        """Whether the user is in the middle of something the list's rows must not go from under: a title
        edited (refilling the list would close its editor and lose what was typed), a menu open, a mouse
        button held (a row or the scroll bar dragged)."""
        return self.sidebar.renaming or QApplication.activePopupWidget() is not None \
            or QApplication.mouseButtons() != Qt.MouseButton.NoButton

    def catch_up_chats(self, later: bool = False) -> bool:
        """Read the chats list again if another program changed the history since it was read (``ask`` in a
        terminal, another window) or the local day has changed since (the headings move on: "Today" becomes
        "Yesterday"): called as a new chat is started, at midnight and, with ``later`` (read off the GUI
        thread), as the window is activated again and by the timer (see _look_for_chats).
        One PRAGMA when nothing changed; the window's own questions and answers leave that number as it is
        (they keep the list right as they are stored). The list keeps its search words, the open chat's row
        and where it was scrolled to. True when it was read again (or, ``later``, is being read)."""
        if self.store.closed or self.sidebar.renaming:  # a title being edited would be lost
            return False
        if later and (self.chat_search.waiting or self.sidebar.typing):
            return False  # a read on its way shows what was there as it began: a change since, the next look
        version = self.store.changes_elsewhere()
        if version is None and later and self._catch_up_failed:
            return False  # the file locked or gone, and its list could not be read: not again every 2 s
        if version is not None and version == self._listed_version and self._listed_day == local_date(time.time()):
            return False
        try:
            self._refresh_chats(keep_place=True, later=later)
        except (ChatStoreError, sqlite3.Error) as exc:  # locked or unreadable now: the list stays as it was
            log.warning("could not read the chats list again: %s", exc)
            self._listed_day = None  # tried again at the calendar's next look (or the next activation)
            return False
        return True

    def _watch_chats(self) -> None:
        """Look at the history every CATCH_UP_EVERY_MS while the chats list is in sight (catch_up.py): a window
        left in sight beside the terminal where ``--ask`` ran was never activated again, and listed nothing."""
        self._chats_timer = catch_up_timer(self, self._look_for_chats)
        self._chats_timer.start()

    def _look_for_chats(self) -> None:
        """The timer's tick: catch_up_chats, read off the GUI thread. Not while the list is out of sight (the
        window minimized, the list folded away: the next tick after it shows), nor while the user is in the
        middle of something its rows must not go from under: a title edited, words typed or searched for,
        a menu open, a mouse button held (a row or the scroll bar dragged). Then at the next tick."""
        if in_sight(self.sidebar) and not self._busy_with_the_list():
            self.catch_up_chats(later=True)

    def _list_changed_here(self) -> None:
        """The window moved or took out a row itself (a question stored, a chat deleted): a catch-up read
        still on its way was read before that, and would put the row back as it was. It is given up, and
        read again at the next tick."""
        if self._catching_up is not None and self.chat_search.waiting:
            self.chat_search.cancel()
            self._catching_up, self._listed_version = None, None

    def _watch_the_calendar(self) -> None:
        """Read the list again at the next local midnight: in a window left open overnight, yesterday's
        chats stayed under "Today", and a question asked then put its chat on top of them, under that heading."""
        timer = getattr(self, "_day_timer", None)
        if timer is None:
            timer = self._day_timer = QTimer(self)
            timer.setSingleShot(True)
            timer.timeout.connect(self._new_day)
        timer.start(min(ms_to_next_day(time.time()), DAY_CHECK_MS))

    def _new_day(self) -> None:
        if not self.catch_up_chats() and not self.store.closed:
            self._watch_the_calendar()  # not midnight yet (or a title being edited): look again later

    def _chat_used(self, chat: ChatInfo | None) -> None:
        """A question or an answer was just stored in ``chat``: its row goes first in the list, or, when the
        list cannot be kept right so (a search's hits are shown), the list is filled again."""
        self._list_changed_here()
        if chat is None or not self.sidebar.touch(chat):
            self._refresh_chats()
        elif chat.id == self.chat_id:
            self.sidebar.mark_current(chat.id)

    def _chat_search_failed(self, text: str, reason: str) -> None:
        """A search could not be made (logged already): every chat is listed, and the status bar says why.
        Every chat read again by the timer (no words): the list stays as it was, read again at the next
        change (not every 2 s, logged each time)."""
        if not text.strip():
            self._catching_up, self._catch_up_failed = None, True
            return
        try:
            chats = self.store.list_chats()
        except sqlite3.Error as exc:  # the same lock or damage as the search met
            log.warning("could not list the chats either: %s", exc)
            chats = []
        self.sidebar.set_chats(chats, self.chat_id)
        self.statusBar().showMessage(f"{reason.rstrip('.')}. Every chat is listed instead.", 10000)

    def say_about_chat(self, text: str, timeout: int) -> None:
        """Say ``text`` in the status bar until ``timeout`` ms have passed or another chat is shown: it is
        about this one (a source of its answers that could not be opened, its persona removed)."""
        self._said_about_chat = text
        self.statusBar().showMessage(text, timeout)

    def _chat_left(self) -> None:
        """Another chat is shown: what the status bar said of the one before goes (a source of an answer
        there that moved stayed 8 s over the new chat, as if of it)."""
        said, self._said_about_chat = self._said_about_chat, ""
        if said and self.statusBar().currentMessage() == said:
            self.statusBar().clearMessage()
        self._saver.retry_pending()  # the answer leaving the screen that a full disk kept out of the history

    def _when_idle(self, action: Callable[[], None]) -> None:
        """Run ``action`` now, or once the answer being streamed has been stopped and stored."""
        if self.bridge.is_running():
            self._after_stream.append(action)
            self.bridge.stop()
        else:
            action()

    # An answer still streaming goes on when its chat is left for another (ChatView.clear keeps it, out of
    # sight): it is shown again when its chat is opened, and stored when it ends, as if it had stayed.
    def new_chat(self) -> None:
        self.catch_up_chats()  # chats asked in a terminal since are listed above it (Ctrl+N after `ask`)
        self._leave_edit()
        self.places.keep()
        self.composer.switch_draft(self.chat_id, None)
        self._chat_left()
        self.chat_id = None
        self._loading, self._earlier, self._insert_at = None, None, None
        self._placed, self._unbuilt = None, []
        self.view.clear(keep=self._answer)
        self.title_label.setText("New chat")
        self.sidebar.mark_current(None)
        if self.welcome.visible():  # opened over the chat left (its error's help): no chat to go back to now
            self.welcome.show()
        self.composer.setFocus()

    def open_chat(self, chat_id: str, rebuild: bool = False, in_place: bool = False) -> None:
        """Show ``chat_id``'s last page (or, ``rebuild``, build it again though it is shown). ``in_place``: the
        open chat built again as it is (in a new theme's colours, see recolour.py): the same messages, the
        message box as it is (a question being edited, a draft)."""
        def go() -> None:
            chat = self.store.get_chat(chat_id)
            if chat is None:
                return
            if not in_place:
                self._leave_edit()
                self.composer.switch_draft(self.chat_id, chat_id)
                self._resume_edit(chat_id)
            if chat_id != self.chat_id:
                self.places.keep()
                self._chat_left()
            self.chat_id = chat_id
            self.sidebar.mark_current(chat_id)  # opened from elsewhere too (Undo): the list says which
            self.welcome.hide()
            self.view.clear(keep=self._answer)
            self.message_ids.clear()
            self.title_label.setText(chat.title)
            # A persona removed in Settings since: the chat answers as the first one, and says so, rather
            # than as whichever persona the chat open before it had.
            if not self._select_persona(chat.persona) and self.persona.count():
                self.persona.setCurrentIndex(0)
                if chat.persona:
                    self.say_about_chat(persona_gone_words(chat.persona, self.persona.currentText()), 8000)
            start, earlier = self.store.page_start(chat_id, HISTORY_PAGE)
            if in_place:  # from the first message built (0: all were)
                start, earlier = self._earlier or 0, self._earlier is not None
            else:  # down from where it was being read, if it was left scrolled up (see reading_places)
                start, earlier = self.places.first_to_build(chat_id, start, earlier, HISTORY_PAGE)
            messages = self.store.messages(chat_id, first=start)
            self._live_rows = self._saver.live_ids() | self.waiting.stand_ins()  # as read now (see waiting)
            self._earlier, self._insert_at = start if earlier else None, None
            self.view.set_has_earlier(earlier)
            self._placed, self._unbuilt = None, []
            self._loading = iter(messages)
            self._load_step(self._loading)
        if rebuild or chat_id != self.chat_id or not self.view.answers():
            go()

    def _leave_edit(self) -> None:
        """The chat left keeps the question being edited: its text goes with the chat's draft, the edit with it
        (Composer.edit, kept in the drafts file too), and coming back, or the next start, resumes the edit
        (see _resume_edit). Cancelled, as before, the box was emptied first and the rewrite lost."""
        self._editing = False
        self.show_edit_hint(False)

    def _resume_edit(self, chat_id: str) -> None:
        """Back in a chat left while its last question was edited: the edit goes on, with the words typed.
        A question asked there meanwhile (or the one edited deleted): the words stay, as an ordinary draft."""
        edited = self.composer.edited(chat_id)
        if edited is not None and self.composer.toPlainText().strip() and edited == self._last_question_id(chat_id):
            self._editing = True
            self.show_edit_hint(True)
        elif edited is not None:
            self.composer.edit(chat_id, None)

    def _last_question_id(self, chat_id: str) -> int | None:
        """The stored id of the chat's last question."""
        return next((m.id for m in reversed(self.store.messages(chat_id)) if m.role == "user"), None)

    def _load_step(self, batch: Iterator[StoredMessage], budget: float | None = None) -> None:
        """Show stored messages for up to ``budget`` seconds, then continue on the next loop turn (see
        chat_loading.load_slice)."""
        load_slice(self, batch, LOAD_BUDGET if budget is None else budget)

    def show_earlier(self) -> int:
        """Build the page of messages above the first one shown (the conversation was scrolled to its top,
        or "Show earlier messages" pressed); how many messages it starts building."""
        if self._loading is not None or self._earlier is None or self.chat_id is None:
            return 0
        start, earlier = self.store.page_start(self.chat_id, HISTORY_PAGE, before=self._earlier)
        page = self.store.messages(self.chat_id, first=start, before=self._earlier)
        self._earlier = start if earlier else None
        self.view.hold_position()
        self._insert_at = 0
        self._placed, self._unbuilt = None, []
        self._loading = iter(page)
        self._load_step(self._loading)
        return len(page)

    def finish_loading(self) -> None:
        """Show the rest of the chat being opened now (before a new question is added below it); its answers'
        text may go on rendering a few segments a turn."""
        if self._loading is not None:
            self._load_step(self._loading, budget=float("inf"))

    @property
    def loading(self) -> bool:
        return self._loading is not None

    @property
    def first_shown(self) -> int | None:
        """The id of the first message shown while earlier ones are not built yet; None when all are."""
        return self._earlier

    def rename_chat(self, chat_id: str, title: str) -> None:
        if self._stored(self.store.rename, chat_id, title) and chat_id == self.chat_id:
            self.title_label.setText(" ".join(title.split()))
        # not inside the list's own itemChanged handler; nor after the history closed (a title typed, then Quit)
        QTimer.singleShot(0, self, lambda: self.store.closed or self._refresh_chats())

    def delete_chat(self, chat_id: str) -> None:
        chat = self.store.get_chat(chat_id)
        if chat is None:
            return
        def go() -> None:
            if not self._stored(self.store.delete, chat_id):
                return
            self._deleted.add(chat_id)
            self._list_changed_here()
            self.sidebar.remove(chat_id)  # at once: the search hits are only refreshed once searched again
            self.sidebar.show_undo(chat_id, chat.title)
            self.waiting.chat_deleted(chat_id)
            if chat_id == self.chat_id:
                # Deleted with Delete in the list, the open chat gives way to the one that takes its row (as
                # a mail program opens the next message), so the list's current row is the chat shown.
                # Either way the box's unsent text is kept as the deleted chat's draft, and comes back with it
                # on Undo: given to the new chat, it wrote over that one's own draft.
                if (near := self.sidebar.taking_place_of(chat_id)) is not None:
                    self.open_chat(near)
                else:
                    self.new_chat()
            if not self.sidebar.lists_all_chats():  # search hits are searched again; else the row is gone
                self._refresh_chats()
            self.sidebar.chat_deleted(chat_id, self.chat_id)  # a Delete in the list keeps the focus there
        if chat_id == self._stream_chat:
            self._when_idle(go)  # stop and store the answer first, then delete its chat
        else:
            go()

    def forget_purged(self) -> None:
        """Drafts, edits and reading places of chats no longer in the history (purged, here or by another
        window) go, from their files too: a chat deleted takes its unsent words with it."""
        chats = self.composer.chats() | self.places.chats()
        if not chats or self.store.closed:
            return
        try:
            gone = chats - self.store.still_kept(chats)
        except (ChatStoreError, sqlite3.Error) as exc:  # kept until the next time
            log.warning("could not read which chats are still kept: %s", exc)
            return
        self.composer.forget(gone)
        self.places.forget(gone)

    def undo_delete(self, chat_id: str) -> None:
        if not self._stored(self.store.undelete, chat_id):
            return
        self._deleted.discard(chat_id)
        self._refresh_chats()
        self.open_chat(chat_id)

    def _fill_personas(self) -> str:
        """The personas of the settings in the header's box; the chosen one's name if it was removed."""
        return fill_personas(self.persona, self.settings["personas"])

    def _personas_renamed(self, renamed: dict[str, str]) -> None:
        """Chats follow their persona's new name, and so does the header's choice."""
        renames = list(renamed.items())
        for old, new in renames:  # through a free name first, so swapping two names works
            self._stored(self.store.rename_persona, old, f"\x1frenamed:{new}")
        for _old, new in renames:
            self._stored(self.store.rename_persona, f"\x1frenamed:{new}", new)
        index = self.persona.findText(self.persona.currentText())
        if self.persona.currentText() in renamed and index >= 0:
            self.persona.blockSignals(True)
            self.persona.setItemText(index, renamed[self.persona.currentText()])
            self.persona.blockSignals(False)

    def _select_persona(self, name: str) -> bool:
        if name and self.persona.findText(name) >= 0:
            self.persona.setCurrentText(name)
            return True
        return False

    def _persona_changed(self, name: str) -> None:
        if self.chat_id and name:
            self._stored(self.store.set_persona, self.chat_id, name)

    def _stored(self, change: Callable[..., object], *args: object) -> bool:
        """Make a change to the chat history; False, and the status bar says why, when it could not be."""
        try:
            change(*args)
        except ChatStoreError as exc:
            self.say_unstored(str(exc))
            return False
        self.stored_again()
        return True

    def say_unstored(self, why: str) -> None:
        """Say in the status bar why a change to the chat history failed, for 10 s or until one is stored."""
        self._failed = why
        self.statusBar().showMessage(why, 10000)

    def stored_again(self) -> None:
        """A change was stored: the status bar's words of an earlier one that failed ("A chat needs a title",
        "the disk is full") go, out of date once one has worked."""
        if self._failed and self.statusBar().currentMessage() == self._failed:
            self.statusBar().clearMessage()

    def system_prompt(self, chat_id: str | None = None) -> str:
        """The open chat's persona's prompt, or another chat's (its persona removed: the first one's)."""
        personas = self.settings["personas"]
        chat = self.store.get_chat(chat_id) if chat_id and chat_id != self.chat_id else None
        name = self.persona.currentText() if chat is None else chat.persona
        return str(personas.get(name, "" if chat is None else next(iter(personas.values()), "")))
