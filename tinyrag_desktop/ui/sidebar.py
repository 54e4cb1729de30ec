"""The chats sidebar: search, new chat, the list (newest first), rename in place, delete with Undo."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, QItemSelectionModel, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QIcon, QKeySequence, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QFrame, QHBoxLayout, QLabel, QLineEdit,
                               QListView, QListWidgetItem, QMenu, QPushButton, QVBoxLayout, QWidget)

from ..chats import ChatInfo
from .chat_list import (ANSWERING, TIP_ROLE, ChatList, ask_title, chat_tip, day_group, day_heading,
                        is_search_hit, last_used_order, snippet_repeats_title)
from .access import caret_placed
from .icons import status_pixmap
from .item_menu import keyboard_menu_at_current_row
from .key_text import key_text
from .plain_text import plain_label, plain_tip

UNDO_SECONDS = 10


# Rows added to the chats list at once when it is filled (more than a window shows), then per event-loop turn.
FILL_AT_ONCE = 200
FILL_SLICE = 200


class _Fill:
    """The chats being put in the list: ``done`` of them are in, ``current`` is marked when it comes."""

    def __init__(self, chats: list[ChatInfo], current: str | None, searched: bool = False) -> None:
        self.chats, self.current = chats, current
        self.searched = searched  # search hits, the best first: no day headings
        self.done = 0
        self.group: str | None = None  # the day heading the last row went under
        self.keep_place = False  # read again to catch up: the open chat's row is marked without scrolling to it


class ChatsSidebar(QFrame):
    """Shows chats and asks the window to act; the window owns the ChatStore."""

    chatSelected = Signal(str)
    newRequested = Signal()
    renamed = Signal(str, str)
    deleteRequested = Signal(str)
    undoRequested = Signal(str)
    exportRequested = Signal(str, str)   # chat id, "md" or "html"
    searchChanged = Signal(str)
    escaped = Signal()  # Esc in the empty search box

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setAccessibleName("Chats")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        self.new_button = QPushButton("New chat", self)
        self.new_button.setAccessibleName("New chat")
        self.new_button.setObjectName("newChat")
        self.new_button.setToolTip(f"Start a new chat ({key_text('Ctrl+N')})")
        self.new_button.clicked.connect(self.newRequested)
        self.search = caret_placed(QLineEdit(self))
        self.search.setObjectName("chatSearch")
        self.search.setPlaceholderText("Search chats")
        self.search.setAccessibleName("Search chats")
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(150)  # search once typing pauses, not per key
        self._search_timer.timeout.connect(lambda: self.searchChanged.emit(self.search.text()))
        self.search.textChanged.connect(self._on_search_text)
        self.search.installEventFilter(self)
        self._open_first = False  # Enter came before the search's hits: the first is opened when they come
        self._listed_for = ""  # the words whose hits the list shows ("" : every chat)
        self.list = ChatList(self)
        self.list.setObjectName("chatList")
        self.list.setAccessibleName("Chat list, newest first")
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        keyboard_menu_at_current_row(self.list)
        self.list.currentItemChanged.connect(self._on_current)
        self.list.itemActivated.connect(self._open)  # Enter (or a double click) on the current chat
        # A click on the row the focus made current (but did not open) opens it: it is no change of row.
        self.list.itemClicked.connect(lambda item: item is self._unopened and self._open(item))
        self._unopened: QListWidgetItem | None = None
        self.list.itemChanged.connect(self._on_item_changed)
        self.list.itemDelegate().closeEditor.connect(self._renamed_back)
        self.list.setWordWrap(False)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setUniformItemSizes(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)

        self.undo_bar = QFrame(self)
        self.undo_bar.setObjectName("undoBar")
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.setContentsMargins(8, 4, 4, 4)
        self.undo_label = plain_label(QLabel("", self.undo_bar))  # it shows a chat's title
        self.undo_label.setWordWrap(True)
        self.undo_button = QPushButton("Undo", self.undo_bar)
        self.undo_button.setObjectName("undoDelete")
        self.undo_button.clicked.connect(self._undo)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)
        self.undo_bar.hide()
        self._undo_id = ""
        self._refocus: tuple[str, int] | None = None  # (chat, row) deleted with the focus in the list
        self._renamed_from: QWidget | None = None  # where F2 was pressed, outside the list: the focus goes back
        self._after_rename: Callable[[], object] | None = None  # see when_renamed
        self._undo_timer = QTimer(self)
        self._undo_timer.setSingleShot(True)
        self._undo_timer.timeout.connect(self.undo_bar.hide)

        # Said in words instead of a blank list: nothing yet, or nothing matching the search.
        self.empty_hint = QLabel("", self)
        self.empty_hint.setObjectName("chatListEmpty")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.empty_hint.hide()

        layout.addWidget(self.new_button)
        layout.addWidget(self.search)
        layout.addWidget(self.empty_hint)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.undo_bar)
        self._filling = False
        self._fill: _Fill | None = None  # the rows still to be added to the list, if any
        self._filled_on: datetime.date | None = None  # the day every chat was listed on (None: search hits)
        self._rows: dict[str, QListWidgetItem] = {}  # chat id → its row (looking through 3,000 took 8 ms)
        # What set_chats listed (its words, day and chats as read), while the rows are still those: the same
        # read again to catch up is not listed again. None once a row was moved or taken out here.
        self._listed: tuple | None = None
        self._answering: str | None = None  # the chat whose answer is being written

        # F2 is the window's Edit → Rename chat (it calls rename_current): an F2 of the list's own beside it
        # made Qt find the key ambiguous, and neither ran. Delete is the list's alone.
        delete = QAction("Delete", self.list)
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self.delete_current)
        self.list.addAction(delete)
        # Ctrl+Z in the list brings back the chat just deleted there (only Tab reached the Undo button); in
        # the message box it stays the box's own undo.
        undo = QAction("Undo delete", self.list)
        undo.setShortcut(QKeySequence(QKeySequence.StandardKey.Undo))
        undo.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        undo.triggered.connect(lambda: self.pending_undo() and self._undo())
        self.list.addAction(undo)

    # content --------------------------------------------------------------------------------------
    def set_chats(self, chats: list[ChatInfo], current: str | None, words: str = "", *,
                  keep_place: bool = False) -> None:
        """List ``chats`` (newest first, or the search hits for ``words``), with ``current`` as the open chat.

        The first FILL_AT_ONCE rows are there when this returns, the rest follow FILL_SLICE rows per
        event-loop turn: building 3,000 rows at once held the window 130–240 ms (at every search typed
        and every chat deleted), long enough to feel. With ``keep_place`` (the same list read again, changed
        by another program), the chats in sight stay where they were, and the row the keyboard is on."""
        listed = (self.search.text(), words, datetime.date.today(),
                  [(c.id, c.title, c.persona, c.updated, c.snippet) for c in chats])
        if keep_place and listed == self._listed:
            return  # read again, unchanged (another program's change left the rows as they are): left alone
        self._listed = listed
        place = self.list.place() if keep_place else None
        self._filling = True
        try:
            self.list.setCurrentItem(None)  # cleared around a current row, 2,500 rows took 70–120 ms
            self.list.clear()
            self._rows = {}
        finally:
            self._filling = False
        hits = any(c.snippet for c in chats)
        self.list.setUniformItemSizes(not hits)
        # Search hits, of one line or two, are measured row by row: laid out in one go, 2,500 of them took
        # 100–200 ms, and as long again at each slice added, so they are laid out a batch per loop turn. The
        # full list's rows are all of one height, quick to lay out in one go, which keeps the open chat
        # scrolled into view when its row comes in a later slice (batches are not yet laid out then).
        self.list.setLayoutMode(QListView.LayoutMode.Batched if hits else QListView.LayoutMode.SinglePass)
        self._filled_on = None if hits or self.search.text().strip() else datetime.date.today()
        self._fill = _Fill(list(chats), current, searched=bool(words.strip()))
        at_once = FILL_AT_ONCE
        if place is not None:
            self._fill.keep_place = True
            at_once = max(at_once, next((n for n, chat in enumerate(chats) if chat.id == place.top), 0) + FILL_SLICE)
        self._add_rows(self._fill, at_once)
        if place is not None:
            self.list.restore_place(place, self.item_for)
        self.empty_hint.setText(self._empty_text())
        self.empty_hint.setVisible(not chats)
        self._listed_for = words.strip()
        if self._open_first and self._listed_for and self._listed_for == self.search.text().strip():
            self._open_first = False
            self._to_first_hit(open_it=True)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        """The search box's keys: Down goes to the first hit, Enter opens it, Esc empties the box, or, empty,
        gives the keyboard back (``escaped``); Esc here stops no answer."""
        kind = event.type()
        if watched is not self.search or kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return super().eventFilter(watched, event)
        key, words = event.key(), self.search.text().strip()
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if kind == QEvent.Type.ShortcutOverride:  # Esc is also the window's Stop: not here, where it stopped
            if key == Qt.Key.Key_Escape:          # an answer the user could not see (in another chat)
                event.accept()
                return True
            return False
        if key == Qt.Key.Key_Escape:  # empties the box; an empty box gives the keyboard back to the message box
            self.search.clear() if self.search.text() else self.escaped.emit()
        elif key == Qt.Key.Key_Down:
            self._to_first_hit(open_it=False)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and words:
            if self._search_timer.isActive() or words != self._listed_for:  # its hits are not in yet
                self._open_first = True  # the first is opened when they come
                if self._search_timer.isActive():  # typed a moment ago: searched now
                    self._search_timer.stop()
                    self.searchChanged.emit(self.search.text())
            else:
                self._to_first_hit(open_it=True)
        else:
            return False
        return True

    def _to_first_hit(self, *, open_it: bool) -> None:
        """Put the keyboard on the list's first chat (opening it, with ``open_it``)."""
        items = self._chat_items()
        if not items:
            return
        self.list.focusing = True  # made current, not chosen: as Tab into the list
        try:
            self.list.setCurrentItem(items[0])
        finally:
            self.list.focusing = False
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)
        if open_it:
            self._open(items[0])

    def _add_rows(self, fill: "_Fill", count: int) -> None:
        """Add the next ``count`` rows of ``fill``, and the rest on the next loop turn (unless refilled)."""
        if fill is not self._fill:
            return  # the list was filled again since
        self._filling = True
        try:
            for chat in fill.chats[fill.done:fill.done + count]:
                self._add_row(fill, chat)
            fill.done = min(len(fill.chats), fill.done + count)
        finally:
            self._filling = False
        if fill.done < len(fill.chats):
            QTimer.singleShot(1, self, lambda: self._add_rows(fill, FILL_SLICE))  # a timer: see _load_step
        else:
            self._fill = None

    def _add_row(self, fill: "_Fill", chat: ChatInfo) -> None:
        # Grouped by when last used (the list is newest first); search results are ranked, not grouped.
        if not fill.searched and not chat.snippet and (heading := day_group(chat.updated)) != fill.group:
            fill.group = heading
            self.list.addItem(self._heading(heading))
        item = self._chat_item(chat)
        self.list.addItem(item)
        self._rows[chat.id] = item
        if chat.id == fill.current:
            # read again to catch up, the list stays where it was scrolled to, not at the open chat
            scrolls = self.list.hasAutoScroll()
            self.list.setAutoScroll(scrolls and not fill.keep_place)
            self.list.setCurrentItem(item)
            self.list.setAutoScroll(scrolls)

    def _chat_item(self, chat: ChatInfo) -> QListWidgetItem:
        item = QListWidgetItem()
        item.setData(Qt.ItemDataRole.UserRole, chat.id)
        if not chat.snippet:  # a search hit shows two lines; rename it from the full list
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self._fill_row(item, chat)
        if chat.id == self._answering:
            self._mark_answering(item, True)
        return item

    def _fill_row(self, item: QListWidgetItem, chat: ChatInfo) -> None:
        """Show ``chat`` as it is now in its row ``item``: its title (and the words a search found), and its
        tooltip's title, time and persona."""
        # While searching, the matching words show under the title, unless they are the title again
        # (a word of the first question, which names the chat, showed every such hit twice).
        extra = chat.snippet if chat.snippet and not snippet_repeats_title(chat.title, chat.snippet) else ""
        item.setText(f"{chat.title}\n{extra}" if extra else chat.title)
        item.setData(TIP_ROLE, (chat.title, chat.updated, chat.persona, chat.snippet))
        item.setToolTip(chat_tip(item))

    def set_answering(self, chat_id: str | None) -> None:
        """Mark the chat whose answer is being written (``None``: none is): it goes on when another chat is
        opened, and its row says so with the tool cards' running badge."""
        previous, self._answering = self._answering, chat_id
        for row_id, on in ((previous, False), (chat_id, True)):
            if row_id is not None and (item := self.item_for(row_id)) is not None:
                self._mark_answering(item, on)

    def _mark_answering(self, item: QListWidgetItem, on: bool) -> None:
        was, self._filling = self._filling, True  # a row's badge changed is no rename
        try:
            ratio = self.devicePixelRatioF()
            item.setIcon(QIcon(status_pixmap("running", 14, ratio)) if on else QIcon())
            tip = item.toolTip().removesuffix(ANSWERING)
            item.setToolTip(tip + ANSWERING if on else tip)
            # and to a screen reader, which the badge (an icon) said nothing to
            item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, ANSWERING.strip() if on else None)
        finally:
            self._filling = was

    def lists_all_chats(self) -> bool:
        """Whether the list shows every chat, all its rows are in, and its day headings are today's: the
        list ``touch`` and ``remove`` keep right without filling it again."""
        return self._filled_on == datetime.date.today() and self._fill is None and not self.search.text().strip()

    def touch(self, chat: ChatInfo) -> bool:
        """Put ``chat``'s row first, as the chat is now (just asked or answered in: its title, its time).

        This is what filling the list again would change, without the cost: at 3,000 chats, reading and
        listing them all held the window about 40 ms at every question sent and every answer. False, and
        nothing done, when the list is not ``lists_all_chats()``: it must be filled again."""
        if not self.lists_all_chats():
            return False
        self._listed = None
        self._filling = True  # rows taken and put back: no chat is chosen by that
        try:
            old = self.item_for(chat.id)
            if old is not None and self._first_already(old, chat):  # asked in again: the row stays
                self._fill_row(old, chat)
                return True
            current = old is not None and old is self.list.currentItem()
            if old is not None:
                self._take(self.list.row(old))
            item = self._chat_item(chat)
            self.list.insertItem(self._place_for(chat), item)
            self._rows[chat.id] = item
            if current:
                self.list.setCurrentItem(item, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        finally:
            self._filling = False
        self.empty_hint.hide()
        return True

    def _first_already(self, item: QListWidgetItem, chat: ChatInfo) -> bool:
        """Whether ``chat``'s row ``item`` is where it goes already, as a chat asked in again is (the first
        under Today): it is changed where it is. Taken out and put back, every question and answer laid out
        the whole list again, and sent a screen reader a row gone and one come."""
        key, row = last_used_order(chat.updated), self.list.row(item)
        for above in range(row):  # usually its heading alone
            used = self.list.item(above).data(TIP_ROLE)
            if used is not None and not last_used_order(used[1]) > key:
                return False  # a chat above it goes below it now
        over = self.list.item(row - 1) if row else None
        if over is None:
            return False
        return (day_group(over.data(TIP_ROLE)[1]) if over.data(TIP_ROLE) is not None else over.text()) \
            == day_group(chat.updated)

    def _place_for(self, chat: ChatInfo) -> int:
        """The row ``chat`` goes in, as filling the list again would put it: below the chats used after it (a
        clock gone wrong left some under Later, at the top), under its own day heading, put in if missing.

        Usually the first row under Today: only the rows above it are looked at."""
        heading, key = day_group(chat.updated), last_used_order(chat.updated)
        row, count = 0, self.list.count()
        while row < count:  # the first chat not listed above it, and the heading over that chat
            item = self.list.item(row)
            if item.data(TIP_ROLE) is not None and not last_used_order(item.data(TIP_ROLE)[1]) > key:
                if day_group(item.data(TIP_ROLE)[1]) == heading:
                    return row  # among its own day's chats, the heading above it already
                above = self.list.item(row - 1) if row else None
                if above is not None and not above.data(Qt.ItemDataRole.UserRole):
                    row -= 1  # that chat's heading: another day's
                break
            row += 1
        above = self.list.item(row - 1) if row else None
        if above is not None and above.data(TIP_ROLE) is not None and day_group(above.data(TIP_ROLE)[1]) == heading:
            return row  # last of its day's chats
        self.list.insertItem(row, self._heading(heading))
        return row + 1

    def remove(self, chat_id: str) -> None:
        """Take ``chat_id``'s row out of the list now (it was deleted), with its day heading if no other chat
        is under it (unless rows are still coming: the list is filled again then)."""
        self._listed = None
        if self._fill is not None:  # and from the rows still to come
            rest = self._fill.chats[self._fill.done:]
            self._fill.chats[self._fill.done:] = [chat for chat in rest if chat.id != chat_id]
        item = self.item_for(chat_id)
        if item is not None:
            self._filling = True  # the row after it becomes current: that is no choice of the user's
            try:
                self._take(self.list.row(item))
            finally:
                self._filling = False
        if self.list.count() == 0 and self._fill is None:
            self.empty_hint.setText(self._empty_text())
            self.empty_hint.show()

    def _empty_text(self) -> str:
        return "No chats match." if self.search.text().strip() else "No chats yet. Your conversations are kept here."

    def _take(self, row: int) -> None:
        """Take the chat at ``row`` out of the list, and its heading if it was the only chat under it."""
        taken = self.list.takeItem(row)
        self._rows.pop(taken.data(Qt.ItemDataRole.UserRole), None)
        above, below = self.list.item(row - 1) if row else None, self.list.item(row)
        if (self._fill is None and above is not None and not above.data(Qt.ItemDataRole.UserRole)
                and (below is None or not below.data(Qt.ItemDataRole.UserRole))):
            self.list.takeItem(row - 1)

    def _on_search_text(self, text: str) -> None:
        # Words are searched for once typing pauses, not per key; a box cleared shows every chat at once.
        self._open_first = False
        if text.strip():
            self._search_timer.start()
        else:
            self._search_timer.stop()
            self.searchChanged.emit(text)

    def _heading(self, text: str) -> QListWidgetItem:
        return day_heading(text, self.list.font(), self.palette().color(QPalette.ColorRole.PlaceholderText))

    def _chat_items(self) -> list[QListWidgetItem]:
        items = (self.list.item(i) for i in range(self.list.count()))
        return [item for item in items if item.data(Qt.ItemDataRole.UserRole)]

    def ids(self) -> list[str]:
        return [item.data(Qt.ItemDataRole.UserRole) for item in self._chat_items()]

    def titles(self) -> list[str]:
        return [item.text().split("\n", 1)[0] for item in self._chat_items()]

    def item_for(self, chat_id: str) -> QListWidgetItem | None:
        return self._rows.get(chat_id)

    def headings(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())
                if not self.list.item(i).data(Qt.ItemDataRole.UserRole)]

    def mark_current(self, chat_id: str | None) -> None:
        """Select ``chat_id``'s row as the open chat, without asking to open it again; None: no chat is open
        (a new chat), no row is selected. The row the focus made current (ringed, not highlighted) and Enter
        or a click opened is highlighted too: it stayed unmarked."""
        if self._fill is not None:  # a row still to come is marked when it comes
            self._fill.current = chat_id
        item = self.item_for(chat_id) if chat_id else None
        if item is self.list.currentItem() and (item.isSelected() if item is not None
                                                else not self.list.selectedItems()):
            return
        self._filling = True
        try:
            if item is None:
                self.list.clearSelection()
                self.list.setCurrentItem(None)
            else:
                self.list.setCurrentItem(item, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        finally:
            self._filling = False

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    # actions --------------------------------------------------------------------------------------
    def _on_current(self, item: QListWidgetItem | None, _prev: QListWidgetItem | None) -> None:
        self._unopened = item if self.list.focusing else None
        if item is not None and not self._filling and not self.list.focusing:
            self.chatSelected.emit(item.data(Qt.ItemDataRole.UserRole))

    def _open(self, item: QListWidgetItem) -> None:
        self._unopened = None
        self.chatSelected.emit(item.data(Qt.ItemDataRole.UserRole))

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        if not self._filling:  # an empty title is refused by the store, and the list is refilled
            self.renamed.emit(item.data(Qt.ItemDataRole.UserRole), item.text().strip())

    def rename_current(self) -> None:
        """Edit the current chat's title in place. F2 pressed elsewhere (in the message box) gives the focus back
        there once the title is given (Enter) or left (Esc); pressed in the list, it stays in the list."""
        item = self.list.currentItem()
        if item is None:
            return
        if is_search_hit(item):  # Qt said "editing failed" and did nothing
            ask_title(self, item.data(TIP_ROLE)[0],
                      lambda title, chat_id=item.data(Qt.ItemDataRole.UserRole): self.renamed.emit(chat_id, title))
            return
        focus = QApplication.focusWidget()
        self._renamed_from = focus if focus is not None and not self.isAncestorOf(focus) else None
        self.list.editItem(item)

    @property
    def renaming(self) -> bool:
        return self.list.state() == QAbstractItemView.State.EditingState

    @property
    def typing(self) -> bool:
        """Whether words typed in the search box wait for the typing to pause before they are searched for."""
        return self._search_timer.isActive()

    def when_renamed(self, then: Callable[[], object]) -> None:
        """Call ``then`` once the title being edited is given or left (the list hides itself again)."""
        self._after_rename = then

    def _renamed_back(self, *_editor) -> None:
        then, self._after_rename = self._after_rename, None
        widget, self._renamed_from = self._renamed_from, None
        focus = QApplication.focusWidget()  # a click elsewhere ended the edit: the focus stays where it went
        if focus is None or focus is self.list or self.list.isAncestorOf(focus):
            if widget is not None and shiboken6.isValid(widget) and widget.isVisible() and widget.isEnabled():
                widget.setFocus(Qt.FocusReason.OtherFocusReason)
        if then is not None:  # after the focus went back: hidden, the list would hand it on by itself
            then()

    def delete_current(self) -> None:
        chat_id = self.current_id()
        if not chat_id:
            return
        # Deleted from the list, the keyboard stays there, on the chat that took its place: the window had
        # moved it to the message box, where a second Delete erased text. A chat still being answered is
        # deleted later, once its answer is stopped and stored: chat_deleted says when.
        self._refocus = (chat_id, self.list.currentRow()) if self.list.hasFocus() else None
        self.deleteRequested.emit(chat_id)

    def taking_place_of(self, chat_id: str) -> str | None:
        """The chat whose row took the place of ``chat_id``'s, when that was deleted with Delete in the list
        (the window opens it, if the deleted chat was the open one); None otherwise, or when none is left."""
        refocus = self._refocus
        if refocus is None or refocus[0] != chat_id or self.item_for(chat_id) is not None:
            return None
        row = self._row_near(refocus[1])
        return None if row is None else self.list.item(row).data(Qt.ItemDataRole.UserRole)

    def chat_deleted(self, chat_id: str, open_id: str | None = None) -> None:
        """The window deleted ``chat_id`` and refilled the list: if the Delete came from the list, the focus
        goes back there, on the chat that took its place: the open one (``open_id``) when the window opened
        it, else ringed, not opened."""
        refocus, self._refocus = self._refocus, None
        if refocus is not None and refocus[0] == chat_id and self.item_for(chat_id) is None:
            if open_id is None or self.current_id() != open_id:
                self._show_near(refocus[1])
            self.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def _row_near(self, row: int) -> int | None:
        """The row of the chat at ``row``, or of the nearest one above it; None when no chat is listed."""
        rows = [r for r in range(self.list.count()) if self.list.item(r).data(Qt.ItemDataRole.UserRole)]
        return next((r for r in rows if r >= row), rows[-1]) if rows else None

    def _show_near(self, row: int) -> None:
        """Make the chat at ``row`` (or the nearest one above it) current, as the focus does: not opened, and
        so ringed but not highlighted (the highlight marks the open chat)."""
        target = self._row_near(row)
        if target is None:
            return
        self.list.focusing = True
        try:
            self.list.clearSelection()
            self.list.setCurrentRow(target, QItemSelectionModel.SelectionFlag.NoUpdate)
        finally:
            self.list.focusing = False

    def show_undo(self, chat_id: str, title: str) -> None:
        self._undo_id = chat_id
        # The title cut to one line of the bar: a long one (a word without spaces cannot wrap) was cut off at
        # the bar's edge, and its end, the Undo the bar is for, squeezed aside.
        room = max(60, self.width() - self.undo_button.sizeHint().width() - 48)
        short = self.undo_label.fontMetrics().elidedText(title, Qt.TextElideMode.ElideRight, room)
        self.undo_label.setText(f"Deleted “{short}”.")
        self.undo_label.setToolTip(plain_tip(title))
        self.undo_bar.show()
        self._undo_timer.start(UNDO_SECONDS * 1000)

    def _undo(self) -> None:
        if self._undo_id:
            self.undo_bar.hide()
            self.undoRequested.emit(self._undo_id)
            self._undo_id = ""

    def pending_undo(self) -> str:
        return self._undo_id if self.undo_bar.isVisible() else ""

    def _rename_row(self, chat_id: str) -> None:
        # the row by its chat when chosen: the list may have been filled again meanwhile (another program)
        row = self.item_for(chat_id)
        if row is not None:
            self.list.setCurrentItem(row)
            self.rename_current()

    def _menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        chat_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if not chat_id:  # empty space or a day heading: no chat to act on
            return
        menu = QMenu(self)
        menu.addAction("Rename", lambda: self._rename_row(chat_id))
        menu.addAction("Export as Markdown…", lambda: self.exportRequested.emit(chat_id, "md"))
        menu.addAction("Export as HTML…", lambda: self.exportRequested.emit(chat_id, "html"))
        menu.addSeparator()
        menu.addAction("Delete", lambda: self.deleteRequested.emit(chat_id))
        menu.popup(self.list.viewport().mapToGlobal(pos))
