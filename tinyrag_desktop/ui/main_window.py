"""MainWindow: chats sidebar, the conversation, the composer, menus, status bar; owns one request at a time.

The window asks an engine factory for a fresh engine per request, with the settings of that moment, so a
change in the settings dialog applies to the next question without a restart. The engine's events come in
through :class:`EngineBridge` only. Each question and each answer is stored as it completes
(``chats.ChatStore``: one transaction per message), so a crash loses at most the answer being streamed.

The window's chats (the list, opening a chat a page at a time, rename, delete, personas) are in
window_chats.py; its questions and the answer being streamed, in window_asking.py.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from PySide6.QtCore import QEvent, QObject, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QPalette
from PySide6.QtWidgets import (QApplication, QDockWidget, QFrame, QHBoxLayout, QLabel,
                               QMainWindow, QMessageBox, QPushButton, QSplitter, QStackedWidget, QVBoxLayout,
                               QWidget)

from ..chats import ChatStoreError, StoredMessage, open_chat_store
from ..engine.events import Done
from ..kb.unfinished import finished_by
from ..settings import SERVER_DEFAULT_MODEL, Settings
from ..settings_changes import edited_over, save_changes
from . import export, tab_order, window_layout
from .answer import AnswerWidget
from .answer_saving import NOT_SAVED, AnswerSaver
from .bridge import EngineBridge
from .chat_search import ChatSearch
from .chat_view import COLUMN_MAX, ChatView
from .composer import DRAFTS_FILE, Composer
from .busy_close import BusyAtClose
from .draft_close import DraftsAtClose
from .confirm_dialog import Confirmer
from .dialog_focus import give_focus_back_after_dialogs
from .dock_width import full_size_buttons
from .elided_label import ElidedLabel
from .find_bar import FindBar
from .focus_ring import FocusRing
from .icons import app_icon
from .item_menu import shift_f10_as_menu_key
from .header import edit_personas_button, persona_box, settings_saved_words
from .menus import build_menus
from .notice_bar import NoticeBar
from .plain_text import plain_tip
from .reading_places import PLACES_FILE, ReadingPlaces
from .recolour import cover_view, recolour_chat
from .platform_start import quiet_font_warnings
from .screen_fit import fitted, free_area
from .settings_dialog import SettingsDialog
from .settings_fields import label_for
from .settings_watch import SettingsWatch, followed_words
from .sidebar import ChatsSidebar
from .status import ServerStatus
from .status_bar import ElidingStatusBar
from .theme import apply_theme, colors, style_sheet
from .waiting import WaitingQuestions
from .welcome import WelcomeController
from .window_asking import AskingMixin
from .window_chats import ChatsMixin

log = logging.getLogger(__name__)

# Narrower than this (px), the window folds the chats list away and gives the conversation its room: beside
# the list, the answers, the question and Regenerate were cut off on the right. It comes back when wider.
SIDEBAR_FOLDS_BELOW = 560
# And when the chat beside the list would have room for fewer letters than this: at 20 pt the list stayed beside
# the knowledge panel and squeezed the chat to 355 px, its title cut to "…".
CHAT_LETTERS_BESIDE = 50
MIN_WIDTH = 420  # px: the narrowest window, with the chats list folded
PURGE_AFTER = 86_400  # s: chats deleted this long ago are purged by any window closing, not only their own
EngineFactory = Callable[[Settings, Callable[[str, str], Any] | None], Any]  # confirm: None in an --ask run
ListModels = Callable[[str, str], Any]


class MainWindow(ChatsMixin, AskingMixin, QMainWindow):
    """The app's one window. ``answerFinished`` carries ``done``, ``error`` or ``stopped``."""

    answerFinished = Signal(str)
    settingsApplied = Signal(object)
    chatOpened = Signal(str)

    def __init__(self, data_dir: Path, settings: Settings, *, warnings: tuple[str, ...] = (),
                 engine_factory: EngineFactory | None = None, list_models: ListModels | None = None,
                 probe: Callable[[], Any] | None = None, first_run: bool = False,
                 reopen_last: bool = False) -> None:
        super().__init__()
        quiet_font_warnings()  # a language's name in a script no installed font has: not 7 lines of warnings
        self.setObjectName("mainWindow")
        self.setWindowTitle("tinyRAG Desktop")
        self.setWindowIcon(app_icon())
        self.resize(fitted(QSize(1180, 780), self))  # on a 1024×600 screen Send was below its edge
        self.data_dir = Path(data_dir)
        self.settings = settings
        self.store, damaged = open_chat_store(self.data_dir)  # raises ChatStoreError when it cannot be opened
        if damaged:
            warnings = (*warnings, damaged)
        self.bridge = EngineBridge(self)
        self._saver = AnswerSaver(lambda: self.store, self, enabled=lambda: not self.scripted)  # kept as it comes
        self._saver.storedLate.connect(lambda: (self.notice_bar.withdraw(NOT_SAVED, starting=True),
                                                self.stored_again()))
        self.chat_search = ChatSearch(self.store.path, self)  # the chats list's search, in a worker thread
        self.chat_search.found.connect(self._chats_found)
        self._listed_version: int | None = None  # the history's changes_elsewhere() as the chats list was read
        self._listed_day: datetime.date | None = None  # the local day it was read on: "Today" is that day
        self._catching_up: str | None = None  # the words searched for again to catch up (see catch_up_chats)
        self._catch_up_failed = False  # the last catch-up's list could not be read (see catch_up_chats)
        self.chat_search.failed.connect(self._chat_search_failed)
        self.confirmer = Confirmer(self)
        give_focus_back_after_dialogs(QApplication.instance())  # Esc and Ctrl+R work again once one closes
        shift_f10_as_menu_key()  # in every text of the window, as the Menu key
        self._engine_factory = engine_factory or self._default_engine
        self._list_models = list_models or self._default_list_models
        self._http: Any = None
        self.chat_id: str | None = None
        self._answer: AnswerWidget | None = None
        self._minimum_panes: tuple[bool, bool] | None = None  # _panes_shown() as the minimum width was last set
        self._stream_chat: str | None = None
        self._stream_started = 0.0
        self._done: Done | None = None
        self._raw: dict[str, str] = {}
        self._after_stream: list[Callable[[], None]] = []
        self._recolour_due = False  # the theme changed while an answer streamed: its chat is built again after
        self.message_ids: dict[int, int] = {}  # id(answer widget) -> stored message id
        self._live_rows: set[int] = set()  # stored rows of the answer streaming when its chat was opened
        self._deleted: set[str] = set()  # chats deleted in this window: purged when it closes
        self._failed = ""  # why the last change to the chat history that failed did (see _stored)
        self._said_about_chat = ""  # what the status bar says of the chat shown (see say_about_chat)
        self._loading: Iterator[StoredMessage] | None = None
        self._placed: str | None = None  # see _all_placed: what the messages being loaded were, once all placed
        self._unbuilt: list[AnswerWidget] = []  # answers loaded whose text is still to render (see _load_step)
        # The id of the first message shown when the open chat has earlier ones, not built yet, above it.
        self._earlier: int | None = None
        self._insert_at: int | None = None  # where the page being built goes: None, the end; else above
        self.last_outcome = ""
        self.scripted = False  # set by app.py for --ask runs: no modal boxes (see problem), no command asked
        self.shell_held = False  # set by app.py: an --ask run's saved setting allows commands, its flag does not

        self._app_palette = apply_theme(self._qapp(), settings["theme"])
        self._build()
        # where each chat was being read (kept between runs by a window that reopens the last chat)
        self.places = ReadingPlaces(self, self.data_dir / PLACES_FILE if reopen_last else None)
        self.welcome = WelcomeController(self, self.pages, probe)
        self.menus = build_menus(self)
        self.waiting = WaitingQuestions(self)  # questions sent while another chat's answer is written
        self.busy_at_close = BusyAtClose(self)  # an answer, a Go run or an import under way: asked first
        self.drafts_at_close = DraftsAtClose(self)
        self.close_questions = (self.busy_at_close, self.drafts_at_close)  # asked in this order as it closes
        self._narrow = False  # narrower than SIDEBAR_FOLDS_BELOW at the last resize
        self._sidebar_folded = False  # the chats list was folded away by the width, not by the user
        self._list_shown_last = False  # the chats list was shown by hand after the knowledge panel was opened
        self.splitter.installEventFilter(self)  # its width, not the window's: a docked panel takes its share
        # Letters typed in the chats list or the persona box go to the message box (see eventFilter).
        self.sidebar.list.installEventFilter(self)
        self.persona.installEventFilter(self)
        # Show chats (Ctrl+B) is the user's own choice: the width no longer brings the list back after it.
        self.menus.show_sidebar.triggered.connect(self._sidebar_chosen)
        window_layout.restore(self)
        self.status = ServerStatus(self.statusBar(), self.choose_model)
        self._connect_bridge()
        self._refresh_chats()
        self._watch_chats()  # chats an `--ask` run beside the window saves are listed within 2 s
        self.settings_watch = SettingsWatch(self.data_dir, self.follow_settings, self)  # changed elsewhere: used
        # A start picks up where the last one left off: the chat that was open, if it is still there, and
        # what was typed and not sent (kept as it is typed: a crash lost it)
        last = window_layout.last_chat(self.data_dir, self.store) if reopen_last else None
        if reopen_last:
            self.composer.keep_drafts_in(self.data_dir / DRAFTS_FILE,
                                         lambda chat: window_layout.remember_chat(self.data_dir, chat))
            self.forget_purged()  # those of chats purged since (by another window, or a crash's before)
        if last is not None:
            self.open_chat(last)
            # As in a new chat: what the user types goes into the message box (the focus was on New chat, the
            # first button, so typing went nowhere and Space started a new chat).
            self.composer.setFocus()
        else:
            self.new_chat()
        if warnings:
            self.show_notices(warnings)
        self._notes_until_imported([w for w in warnings if getattr(w, "asked", ())])
        QTimer.singleShot(0, self.check_server)
        if first_run:
            QTimer.singleShot(0, self, self.welcome.first_run)
        self._qapp().styleHints().colorSchemeChanged.connect(self._system_scheme_changed)

    def _system_scheme_changed(self, _scheme) -> None:
        if self.settings["theme"] == "system":
            self._retheme()

    def _retheme(self) -> None:
        cover = cover_view(self.view) if self.chat_id else None  # the chat as it was, while built again
        self._app_palette = apply_theme(self._qapp(), self.settings["theme"])
        self.view.palette_colours = self._app_palette
        self._style_chrome()
        recolour_chat(self, cover)

    @staticmethod
    def _qapp():
        from PySide6.QtWidgets import QApplication
        return QApplication.instance()

    # building -------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.setMinimumWidth(MIN_WIDTH)
        self.setStatusBar(ElidingStatusBar(self))  # a long message shortened with "…", not cut off
        self.sidebar = ChatsSidebar(self)
        # Narrow enough that, shown by the user in the narrowest window, it leaves the chat its minimum width.
        self.sidebar.setMinimumWidth(170)
        self.sidebar.chatSelected.connect(self.open_chat)
        self.sidebar.newRequested.connect(self.new_chat)
        self.sidebar.renamed.connect(self.rename_chat)
        self.sidebar.deleteRequested.connect(self.delete_chat)
        self.sidebar.undoRequested.connect(self.undo_delete)
        self.sidebar.exportRequested.connect(lambda cid, fmt: self.export_dialog(fmt, cid))
        self.sidebar.searchChanged.connect(lambda _t: self._refresh_chats())
        self.sidebar.escaped.connect(lambda: self.composer.setFocus())

        main = QWidget(self)
        self.chat_column = main  # the open chat: header, conversation, message box (where Esc is Stop)
        col = QVBoxLayout(main)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(0)
        header = QFrame(main)
        header.setObjectName("chatHeader")
        hrow = QHBoxLayout(header)
        hrow.setContentsMargins(16, 8, 16, 8)
        self.title_label = ElidedLabel("New chat", header)
        self.title_label.setObjectName("chatTitle")
        # A little larger than the answers' text, whatever size the desktop's font is (a fixed pixel size
        # came out smaller than the text under a large font).
        title_font = self.title_label.font()
        title_font.setPointSizeF(title_font.pointSizeF() * 1.15)
        self.title_label.setFont(title_font)
        # the window's title names the chat, as in the taskbar and the window switcher
        self.title_label.textChanged.connect(lambda title: self.setWindowTitle(
            f"{' '.join(title.split())} — tinyRAG Desktop" if title.strip() and title != "New chat" else "tinyRAG Desktop"))
        persona_label, self.persona = persona_box(header)
        self.persona.currentTextChanged.connect(self._persona_changed)
        hrow.addWidget(self.title_label, 1)
        hrow.addWidget(persona_label)
        hrow.addWidget(self.persona)
        edit_personas = edit_personas_button(header)
        edit_personas.clicked.connect(lambda: self.open_settings().show_persona(self.persona.currentText()))
        hrow.addWidget(edit_personas)
        col.addWidget(header)

        self.notice_bar = NoticeBar(main)
        self.notice_label = self.notice_bar.label
        col.addWidget(self.notice_bar)

        self.view = ChatView(main)
        self.view.earlierWanted.connect(self.show_earlier)
        self.view.palette_colours = self._app_palette
        self.view.settings_source = lambda: self.settings  # read at each render: no restart needed
        self.pages = QStackedWidget(main)  # the chat, or the welcome panel when no server answers
        self.pages.addWidget(self.view)
        col.addWidget(self.pages, 1)

        box = QFrame(main)
        box.setObjectName("composerBox")
        brow = QHBoxLayout(box)
        brow.setContentsMargins(12, 8, 8, 8)
        self.composer = Composer(box)
        self.composer.submitted.connect(lambda _t: self.send())
        self.view.emptyHintShown.connect(self.composer.keys_said_above)
        self.send_button = QPushButton("Send", box)
        self.send_button.setObjectName("send")
        self.send_button.setAccessibleName("Send question")
        self.send_button.setToolTip("Send (Enter)")
        self.send_button.clicked.connect(lambda: self.send())
        self.stop_button = QPushButton("Stop", box)
        self.stop_button.setObjectName("stop")
        self.stop_button.setAccessibleName("Stop answer")
        self.stop_button.setToolTip("Stop the answer and running tools (Esc)")
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.hide()
        self.composer_ring = FocusRing(box, self.composer, radius=12)  # the box's own border cannot show it
        brow.addWidget(self.composer, 1)
        brow.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        brow.addWidget(self.stop_button, 0, Qt.AlignmentFlag.AlignBottom)
        wrap = QWidget(main)
        wrap.setObjectName("composerWrap")
        wrap.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self._chrome = [self.sidebar, header, self.notice_bar, wrap]
        # as wide as the conversation's column, under it: in a 2,560 px window it ran the whole width
        inner = QWidget(wrap)
        inner.setMaximumWidth(COLUMN_MAX)
        centred = QHBoxLayout(wrap)
        centred.setContentsMargins(16, 8, 16, 14)
        centred.addStretch(0), centred.addWidget(inner, 100), centred.addStretch(0)
        wl = QVBoxLayout(inner)
        wl.setContentsMargins(0, 0, 0, 0)
        wl.setSpacing(4)
        self.find_bar = FindBar(self, wrap)  # Find in chat (Ctrl+F), above the message box
        wl.addWidget(self.find_bar)
        self.edit_hint = QLabel("Editing your last question: Enter sends it in place of the old one and its "
                                "answer · Esc cancels", wrap)
        self.edit_hint.setObjectName("editingHint")
        self.edit_hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.edit_hint.setWordWrap(True)
        self.edit_hint.hide()
        wl.addWidget(self.edit_hint)
        wl.addWidget(box)
        col.addWidget(wrap)
        self._editing = False  # the composer holds the last question, to be sent in its place
        self.composer.editLastRequested.connect(self.edit_last_question)
        self.composer.escaped.connect(self.cancel_edit)

        split = QSplitter(self)
        split.addWidget(self.sidebar)
        split.addWidget(main)
        split.setStretchFactor(1, 1)
        split.setSizes([250, 930])
        split.setChildrenCollapsible(False)
        self.splitter = split
        self.setCentralWidget(split)
        # left to right, top to bottom (see _order_tabs); the find bar, made after the message box, is above it
        self._regions = [self.sidebar, header, self.notice_bar, self.pages, self.find_bar, wrap]
        self.setTabOrder(self.composer, self.send_button)
        self._fill_personas()
        self.kb_dock = self._build_kb_dock()
        self._style_chrome()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.WindowActivate and hasattr(self, "menus"):
            # back from the terminal where `ask` saved chats, or from another window: they are listed (read off
            # the GUI thread, as the timer reads them: 16-25 ms at 5,000 chats)
            self.catch_up_chats(later=True)
        handled = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest and self.layout() is not None:
            # Never narrower than MIN_WIDTH (the status bar's model and state stay whole), and never narrower
            # than the window's content needs: an explicit minimum width replaces the one Qt takes from the
            # layout, so the chats list shown by hand in the narrowest window would squeeze the chat below its
            # own minimum and cut it off. The window widens instead. A list the width shows (not the user, in a
            # narrow window) folds before the chat is squeezed: its width is not asked for. It was, and a window
            # made 800 px wide with the knowledge panel open came out 805, the list folded all the same.
            need = self.layout().minimumSize().width()
            if self.sidebar.isVisible() and not getattr(self, "_narrow", True):  # True: being built
                need -= self.sidebar.minimumWidth() + self.splitter.handleWidth()
            need = max(MIN_WIDTH, need)
            if need > self.minimumWidth() and self._pane_gives_way(need):
                return handled  # the next layout request, without it, asks less
            # Raised at once, lowered between answers: the last answer's Regenerate, hidden as the next answer
            # starts and shown as it ends, took the minimum down and up again at every answer (each time new
            # size hints for the window manager). The knowledge panel closed or the list hidden lowers it at
            # once, answer or not: it stayed until the answer ended, the window as wide as with the panel.
            panes = self._panes_shown()
            if need > self.minimumWidth() or (need < self.minimumWidth()
                                              and (self._answer is None or panes != self._minimum_panes)):
                self.setMinimumWidth(need)
                self._minimum_panes = panes
            self._fit_sidebar()  # an answer wider than the chat's room beside the list folds it too
        return handled

    def _pane_gives_way(self, need: int) -> bool:
        """The chats list shown by hand (Ctrl+B) beside the chat and the docked knowledge panel, where the screen
        has no room for a window ``need`` pixels wide: the one shown first gives way rather than the window
        widening past the screen's edge (at 200 % Ctrl+B made it 1,640 px on a 1,600 px screen, the panel's
        Delete button and columns cut off). The panel closes, and the status bar says so; or the list folds, as
        opening the panel folds it. True when one did."""
        frame = self.frameGeometry().width() - self.width()
        if self._panes_shown() != (True, True) or not self._narrow or need + frame <= free_area(self).width():
            return False
        if not self._list_shown_last:
            self._fold_list()
            return True
        self.kb_dock.hide()
        # short: the server's state beside it leaves it little room in a window as narrow as this one
        self.statusBar().showMessage("The knowledge base panel was closed to make room for the chats list.", 10000)
        return True

    def _panes_shown(self) -> tuple[bool, bool]:
        """Whether the knowledge panel takes room in the window (docked and shown), and the chats list."""
        dock = getattr(self, "kb_dock", None)  # None: being built, or the panel failed to start
        return dock is not None and dock.isVisible() and not dock.isFloating(), self.sidebar.isVisible()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.splitter and event.type() == QEvent.Type.Resize:
            self._fit_sidebar()
        elif watched in (self.sidebar.list, self.persona) and event.type() == QEvent.Type.KeyPress \
                and window_layout.typed_key(event):
            # After a click on a chat, or a persona chosen, the focus stays there, and both take a letter as
            # a jump to the next item starting with it: typing a question ("but why…") opened another chat,
            # or switched the chat's persona, and lost the words. They start the question instead. Arrows,
            # Enter, F2 and Delete stay the list's; the arrows and the open list stay the persona box's.
            self.composer.setFocus(Qt.FocusReason.OtherFocusReason)
            self.composer.insertPlainText(event.text())
            return True
        return super().eventFilter(watched, event)

    def _fit_sidebar(self) -> None:
        """Fold the chats list away when the chats list and chat have less than SIDEBAR_FOLDS_BELOW between
        them (the list gives way before the chat does), and bring it back when they have room again, if the
        width folded it. Their room is the window's less the knowledge panel docked beside them: opening the
        panel in a 900 px window folds the list, and the window can be made as narrow as the chat and the
        panel (about 620 px; with the list, 795)."""
        if not hasattr(self, "_narrow"):
            return  # still being built
        # the list, its handle and the chat's minimum (a wide source link raises it) fold the list earlier too,
        # as does a chat narrower than a line of CHAT_LETTERS_BESIDE letters (large text)
        chat = max(self.splitter.widget(1).minimumSizeHint().width(),
                   self.fontMetrics().averageCharWidth() * CHAT_LETTERS_BESIDE)
        beside = self.sidebar.minimumWidth() + self.splitter.handleWidth() + chat
        narrow = self.splitter.width() < max(SIDEBAR_FOLDS_BELOW, beside)
        if narrow == self._narrow:
            return
        self._narrow = narrow
        if narrow and self.menus.show_sidebar.isChecked():
            self._fold_list()
        elif not narrow and self._sidebar_folded:
            self._sidebar_folded = False
            self.menus.show_sidebar.setChecked(True)
            self.sidebar.show()

    def _fold_list(self) -> None:
        """Fold the chats list away for want of room; it comes back when the window has room again."""
        self._sidebar_folded = True
        self.menus.show_sidebar.setChecked(False)
        self.sidebar.hide()
        # The window's layout kept counting the list until the splitter's own layout request came: the
        # knowledge panel opened at 18 pt on a 1,024 px screen folded it, and the window's minimum width,
        # taken with the list still in it, widened the window to 1,155 px, which it kept.
        self.splitter.updateGeometry()

    def _sidebar_chosen(self, on: bool) -> None:
        self._sidebar_folded = False
        self._list_shown_last = on  # shown after the panel: where both do not fit, the panel gives way

    def problem(self, title: str, text: str) -> None:
        """Tell the user something failed: a message box, or, in a scripted run (``--ask``, where no one
        can close a box and it would hang the run), standard error and the notice bar."""
        if self.scripted:
            print(f"{title}: {text}", file=sys.stderr)
            self.show_notices([text])
        else:
            QMessageBox.warning(self, title, plain_tip(text))  # a path in it is no markup (plain_text)

    def show_notices(self, notices: Iterable[str]) -> None:
        """Show ``notices`` above the conversation, one per line, until the user dismisses them."""
        self.notice_bar.show_notices(notices)

    def _notes_until_imported(self, notes: list[str]) -> None:
        """Take each note of an import cut short (kb.unfinished.CutShort) out of the bar once the panel has
        imported the same things again to the end, as the note asks: it stayed, saying the import was unfinished."""
        panel = self.kb_dock.widget() if notes and self.kb_dock is not None else None
        if panel is None:
            return

        def ended(report: Any) -> None:
            if report.cancelled or report.stopped:
                return
            for note in [note for note in notes if finished_by(note, panel.asked_ended)]:
                notes.remove(note)
                self.notice_bar.withdraw(note)

        panel.importFinished.connect(ended)

    def bring_to_front(self) -> None:
        """Show the window on top and focused (the app was started again while it was open)."""
        if self.isMinimized():
            self.showNormal()
        self.show()
        self.raise_()
        self.activateWindow()
        self.statusBar().showMessage("tinyRAG Desktop is already open: here it is.", 5000)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802 (Qt's name)
        """Tab follows the window's layout (see tab_stops), not Qt's focus chain: that is the order widgets
        were made in, so answers, their cards and links (all made after the message box) came after Send.
        The chain itself is left alone: reordering it with setTabOrder met the panel's focus proxies and
        sent Tab round in circles."""
        stops = self.tab_stops()
        focus = QApplication.focusWidget()
        at = window_layout.index_of(stops, focus) if focus is not None else -1
        if at < 0 or len(stops) < 2:
            return super().focusNextPrevChild(next)
        step = 1 if next else -1
        reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        stops[(at + step) % len(stops)].setFocus(reason)
        return True

    def tab_stops(self) -> list[QWidget]:
        """Where Tab stops, in the window's layout order (see tab_order.tab_stops)."""
        return tab_order.tab_stops(self, self._regions, getattr(self, "kb_dock", None))

    def _style_chrome(self) -> None:
        """The style sheet goes on the chrome only; the conversation paints itself (see theme.py)."""
        sheet = style_sheet(colors().dark)
        dock = getattr(self, "kb_dock", None)  # its title bar buttons need the theme's colours too
        for widget in (*self._chrome, self.statusBar(), *([dock] if dock else [])):
            widget.setStyleSheet(sheet)

    def _build_kb_dock(self) -> QDockWidget | None:
        try:
            from .kb_panel import KnowledgePanel  # written by the knowledge-base engineer
        except ImportError:
            return None
        try:
            panel = KnowledgePanel(self.data_dir, lambda: self.settings, self, list_now=False)  # read when shown
        except Exception:  # a broken panel must not keep the window from opening
            log.exception("knowledge panel failed to start")
            return None
        self.settingsApplied.connect(lambda _settings: panel.on_settings_applied())
        dock = QDockWidget("Knowledge base", self)
        dock.setObjectName("kbDock")
        dock.setWidget(panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        dock.hide()
        dock.visibilityChanged.connect(lambda shown: shown and setattr(self, "_list_shown_last", False))
        window_layout.widen_dock_when_shown(self, dock)
        full_size_buttons(dock)
        return dock

    # engine ---------------------------------------------------------------------------------------
    def http(self) -> Any:
        import httpx

        from ..http_clients import async_client

        if self._http is None:
            self._http = async_client(timeout=httpx.Timeout(None, connect=10.0))
        return self._http

    def _default_engine(self, settings: Settings, confirm: Callable[[str, str], Any] | None) -> Any:
        from ..engine import Engine
        from ..tools import default_registry
        from ..tools.shell import hold_back

        registry = default_registry()
        if self.shell_held:  # said as `ask` says it: the setting is on, only --allow-shell-exec lets them run
            hold_back(registry, "--ask")
        return Engine(settings=settings, data_dir=self.data_dir, http=self.http(), registry=registry,
                      confirm=confirm)

    async def _default_list_models(self, base_url: str, api_key: str) -> list[str]:
        from ..engine.llm import LLMClient

        return await LLMClient(self.http(), base_url, api_key).list_models()

    def check_server(self) -> None:
        """Show the server and model, and ask the server (in the background) whether it answers."""
        if self.store.closed:
            return
        checked = self.welcome.to_check(self.settings)  # (a first run's: the server it found, see welcome.py)
        self.status.show_settings(checked)
        task = self.status.start_check(self._list_models, checked)
        task.add_done_callback(lambda t: t.cancelled() or self.welcome.server_checked(self.status.state))

    # settings and export --------------------------------------------------------------------------
    def open_settings(self) -> SettingsDialog:
        dialog = SettingsDialog(self.settings, self._list_models, self, self.status.listed())
        dialog.setStyleSheet(style_sheet(colors().dark))
        dialog.personasRenamed.connect(self._personas_renamed)
        # written on Save: a failed write keeps the dialog open, with the edits. Only the edits, written and
        # used: a setting another program changed while it was open is not put back (settings_watch.py). Edits
        # from what its fields last showed (dialog.shown: followed since it opened, see SettingsDialog.follow)
        dialog.commit = lambda settings: self.save_settings(dialog.shown, settings)
        dialog.saved.connect(lambda settings: self.apply_settings(
            edited_over(self.settings, dialog.shown, settings), save=False, said=True))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def choose_model(self, name: str) -> None:
        """The status bar's model menu: answer with ``name`` from the next question on ("" lets the server
        choose), saved as the Chat model setting. Not saved (a full disk), the model answering stays: the status
        bar said "Answers now come from …" all the same."""
        if self.apply_settings(self.settings.replace(chat_model=name)):
            self.statusBar().showMessage(f"Answers now come from {name or SERVER_DEFAULT_MODEL}.", 5000)

    def apply_settings(self, settings: Settings, *, save: bool = True, said: bool = False) -> bool:
        """Save to settings.json (unless ``save`` is False) and use from the next request on (no restart).
        False when they could not be saved: nothing changes, and a message says why."""
        problem = self.save_settings(self.settings, settings) if save else None
        if problem:
            self.problem("Settings", problem)
            return False
        changed = {name for name in settings if settings[name] != self.settings[name]}
        theme_changed = "theme" in changed
        runs_changed = bool(settings["allow_nanogo"]) != bool(self.settings["allow_nanogo"])
        self.settings = settings
        if theme_changed:
            self._retheme()
        if runs_changed:
            self.view.refresh_run_links()  # Run links on Go blocks come or go at once
        removed, now = self._fill_personas(), self.persona.currentText()
        self.check_server()
        if save or said:
            words = settings_saved_words(removed, now, changed)
            self.statusBar().showMessage(words, 10000 if removed and now else 5000)
        self.settingsApplied.emit(settings)
        return True

    def save_settings(self, before: Settings, after: Settings) -> str | None:
        """Write the settings changed from ``before`` to ``after`` into settings.json (save_changes): None when
        written, else why not, in words. The window's own edits are no change made elsewhere to follow."""
        problem = save_changes(self.data_dir, before, after)
        if problem is None:
            self.settings_watch.wrote(before, after)
        return problem

    def follow_settings(self, changes: dict[str, Any]) -> None:
        """Use the settings another program changed in settings.json (settings_watch.py) from now on, as if
        saved in Settings; the status bar names them."""
        changes = {name: value for name, value in changes.items() if value != self.settings[name]}
        if not changes:
            return
        self.apply_settings(self.settings.replace(**changes), save=False)
        for dialog in self.findChildren(SettingsDialog):
            dialog.follow(changes)
        self.statusBar().showMessage(followed_words([label_for(name) for name in changes]), 8000)

    async def export_chat(self, path: Path, fmt: str, chat_id: str | None = None) -> Path:
        return await export.export_chat(self, path, fmt, chat_id)

    def export_dialog(self, fmt: str, chat_id: str | None = None) -> None:
        export.export_dialog(self, fmt, chat_id)

    def set_show_route(self, on: bool) -> None:
        self.view.set_show_route(on)

    def _layout_settings(self) -> QSettings:
        return window_layout.layout_settings(self.data_dir)

    def close_unasked(self) -> None:
        """Close as Quit does, without asking about work under way or unsent text that could not be saved
        (Ctrl+C, SIGTERM)."""
        self.let_close()
        self.close()

    def let_close(self) -> None:
        """Close from now on without asking (the system ends the app: nobody is there to answer)."""
        for question in self.close_questions:
            question.let_close()

    def save_layout(self) -> None:
        window_layout.save(self)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        # Quit, the close button and the system's Quit alike: asked first while an answer is written, a Go
        # program or an import runs, then while unsent text could not be saved
        if any(question.holds(event) for question in self.close_questions):
            return
        self.waiting.closing = True  # a waiting question stays stored as not asked, with Retry
        self.bridge.stop()
        self.chat_search.cancel()  # a search under way is given up at once (aclose ends its thread)
        self.view.cancel_runs()
        try:
            self.save_layout()
        except OSError:  # the layout is a convenience; closing must not fail over it
            pass
        super().closeEvent(event)

    async def aclose(self) -> None:
        """Stop streaming, forget deleted chats, close the HTTP client and the store (app and tests call this)."""
        self.waiting.closing = True
        if self.bridge.stop():
            await self.bridge.wait()
        runs = self.view.cancel_runs()
        if runs:  # let each cancelled run kill its sandbox process before the loop goes away
            await asyncio.gather(*runs, return_exceptions=True)
        await self.status.cancel()
        await self.welcome.aclose()
        if self._http is not None:
            await self._http.aclose()
            self._http = None
        self._chats_timer.stop()
        self.chat_search.close()  # before the store: the last connection to close tidies the -wal file away
        if not self.store.closed:
            # an answer a full disk kept out of the history, the space freed since: it was lost at the close
            self._saver.retry_pending()
            try:
                # this window's deletions, and those of a day ago (a window that crashed left them): not
                # another window's, still offering Undo (an `--ask` run closing beside it purged them)
                self.store.purge_deleted(wait=0.2, chats=self._deleted, before=time.time() - PURGE_AFTER)
            except ChatStoreError as exc:
                log.warning("could not purge deleted chats: %s", exc)
            self.forget_purged()
            self.store.close()
        if self.kb_dock is not None:
            self.kb_dock.widget().release()
        kb = sys.modules.get("tinyrag_desktop.kb")
        if kb is not None:  # searched: close the readers, and leave no -wal or -shm file beside knowledge.db
            await asyncio.to_thread(kb.release, self.data_dir)
