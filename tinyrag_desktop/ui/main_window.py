"""MainWindow: chats sidebar, the conversation, the composer, menus, status bar; owns one request at a time.

The window asks an engine factory for a fresh engine per request, with the settings of that moment, so a
change in the settings dialog applies to the next question without a restart. The engine's events come in
through :class:`EngineBridge` only. Each question and each answer is stored as it completes
(``chats.ChatStore``: one transaction per message), so a crash loses at most the answer being streamed.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from PySide6.QtCore import QEvent, QObject, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QPalette, QTextCursor
from PySide6.QtWidgets import (QApplication, QDockWidget, QFrame, QHBoxLayout, QLabel,
                               QMainWindow, QMessageBox, QPushButton, QSplitter, QStackedWidget, QVBoxLayout,
                               QWidget)

from ..chats import ChatInfo, ChatStoreError, StoredMessage, open_chat_store
from ..engine.events import Done, EngineError, ToolFinished, ToolStarted
from ..settings import SERVER_DEFAULT_MODEL, Settings, try_save_settings
from . import export, tab_order, window_layout
from .answer import AnswerWidget
from .answer_saving import NOT_SAVED, AnswerSaver, not_saved_words, show_earlier_answer
from .bridge import EngineBridge
from .chat_loading import load_slice
from .chat_search import ChatSearch
from .chat_trim import trim_live_chat
from .chat_view import COLUMN_MAX, ChatView
from .composer import DRAFTS_FILE, Composer
from .confirm_dialog import Confirmer
from .dialog_focus import give_focus_back_after_dialogs
from .elided_label import ElidedLabel
from .find_bar import FindBar
from .focus_ring import FocusRing
from .icons import app_icon
from ..tool_words import window_words
from .header import edit_personas_button, fill_personas, persona_box, persona_removed_words
from .menus import build_menus
from .notice_bar import NoticeBar
from .screen_fit import fitted
from .settings_dialog import SettingsDialog
from .sidebar import ChatsSidebar
from .status import ServerStatus
from .status_bar import ElidingStatusBar
from .theme import apply_theme, colors, style_sheet
from .waiting import WaitingQuestions
from .welcome import WelcomeController

log = logging.getLogger(__name__)

LOAD_BUDGET = 0.015  # seconds of chat building per event-loop turn when a chat is opened
# Narrower than this (px), the window folds the chats list away and gives the conversation its room: beside
# the list, the answers, the question and Regenerate were cut off on the right. It comes back when wider.
SIDEBAR_FOLDS_BELOW = 560
MIN_WIDTH = 420  # px: the narrowest window, with the chats list folded
# Messages built when a chat is opened, and then per page scrolled up: a chat of 1,000 questions, built
# whole, took 15 s or more and 300 MB for 28,000 widgets.
HISTORY_PAGE = 40
PURGE_AFTER = 86_400  # s: chats deleted this long ago are purged by any window closing, not only their own
EngineFactory = Callable[[Settings, Callable[[str, str], Any]], Any]
ListModels = Callable[[str, str], Any]


class MainWindow(QMainWindow):
    """The app's one window. ``answerFinished`` carries ``done``, ``error`` or ``stopped``."""

    answerFinished = Signal(str)
    settingsApplied = Signal(object)
    chatOpened = Signal(str)

    def __init__(self, data_dir: Path, settings: Settings, *, warnings: tuple[str, ...] = (),
                 engine_factory: EngineFactory | None = None, list_models: ListModels | None = None,
                 probe: Callable[[], Any] | None = None, first_run: bool = False,
                 reopen_last: bool = False) -> None:
        super().__init__()
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
        self._saver.storedLate.connect(lambda: self.notice_bar.withdraw(NOT_SAVED, starting=True))
        self.chat_search = ChatSearch(self.store.path, self)  # the chats list's search, in a worker thread
        self.chat_search.found.connect(lambda text, chats: self.sidebar.set_chats(chats, self.chat_id, text))
        self.chat_search.failed.connect(self._chat_search_failed)
        self.confirmer = Confirmer(self)
        give_focus_back_after_dialogs(QApplication.instance())  # Esc and Ctrl+R work again once one closes
        self._engine_factory = engine_factory or self._default_engine
        self._list_models = list_models or self._default_list_models
        self._http: Any = None
        self.chat_id: str | None = None
        self._answer: AnswerWidget | None = None
        self._stream_chat: str | None = None
        self._stream_started = 0.0
        self._done: Done | None = None
        self._raw: dict[str, str] = {}
        self._after_stream: list[Callable[[], None]] = []
        self.message_ids: dict[int, int] = {}  # id(answer widget) -> stored message id
        self._live_rows: set[int] = set()  # stored rows of the answer streaming when its chat was opened
        self._deleted: set[str] = set()  # chats deleted in this window: purged when it closes
        self._failed = ""  # why the last change to the chat history that failed did (see _stored)
        self._loading: Iterator[StoredMessage] | None = None
        self._placed: str | None = None  # see _all_placed: what the messages being loaded were, once all placed
        self._unbuilt: list[AnswerWidget] = []  # answers loaded whose text is still to render (see _load_step)
        # The id of the first message shown when the open chat has earlier ones, not built yet, above it.
        self._earlier: int | None = None
        self._insert_at: int | None = None  # where the page being built goes: None, the end; else above
        self.last_outcome = ""
        self.scripted = False  # set by app.py for --ask runs: no modal boxes (see problem)

        self._app_palette = apply_theme(self._qapp(), settings["theme"])
        self._build()
        self.welcome = WelcomeController(self, self.pages, probe)
        self.menus = build_menus(self)
        self.waiting = WaitingQuestions(self)  # questions sent while another chat's answer is written
        self._narrow = False  # narrower than SIDEBAR_FOLDS_BELOW at the last resize
        self._sidebar_folded = False  # the chats list was folded away by the width, not by the user
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
        # A start picks up where the last one left off: the chat that was open, if it is still there, and
        # what was typed and not sent (kept as it is typed: a crash lost it)
        last = window_layout.last_chat(self.data_dir, self.store) if reopen_last else None
        if reopen_last:
            self.composer.keep_drafts_in(self.data_dir / DRAFTS_FILE,
                                         lambda chat: window_layout.remember_chat(self.data_dir, chat))
        if last is not None:
            self.open_chat(last)
            # As in a new chat: what the user types goes into the message box (the focus was on New chat, the
            # first button, so typing went nowhere and Space started a new chat).
            self.composer.setFocus()
        else:
            self.new_chat()
        if warnings:
            self.show_notices(warnings)
        QTimer.singleShot(0, self.check_server)
        if first_run:
            QTimer.singleShot(0, self, self.welcome.first_run)
        self._qapp().styleHints().colorSchemeChanged.connect(self._system_scheme_changed)

    def _system_scheme_changed(self, _scheme) -> None:
        if self.settings["theme"] == "system":
            self._retheme()

    def _retheme(self) -> None:
        self._app_palette = apply_theme(self._qapp(), self.settings["theme"])
        self.view.palette_colours = self._app_palette
        self._style_chrome()
        if self.chat_id and self._stream_chat != self.chat_id:  # an answer streaming here keeps its colours
            self.open_chat(self.chat_id, rebuild=True)  # the answers built again in the new colours

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
        # left to right, top to bottom (see _order_tabs)
        self._regions = [self.sidebar, header, self.notice_bar, self.pages, wrap]
        self.setTabOrder(self.composer, self.send_button)
        self._fill_personas()
        self.kb_dock = self._build_kb_dock()
        self._style_chrome()

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest and self.layout() is not None:
            # Never narrower than MIN_WIDTH (the status bar's model and state stay whole), and never narrower
            # than the window's content needs: an explicit minimum width replaces the one Qt takes from the
            # layout, so the chats list shown by hand in the narrowest window would squeeze the chat below its
            # own minimum and cut it off. The window widens instead.
            self.setMinimumWidth(max(MIN_WIDTH, self.layout().minimumSize().width()))
        return handled

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
        narrow = self.splitter.width() < SIDEBAR_FOLDS_BELOW
        if narrow == self._narrow:
            return
        self._narrow = narrow
        if narrow and self.menus.show_sidebar.isChecked():
            self._sidebar_folded = True
            self.menus.show_sidebar.setChecked(False)
            self.sidebar.hide()
        elif not narrow and self._sidebar_folded:
            self._sidebar_folded = False
            self.menus.show_sidebar.setChecked(True)
            self.sidebar.show()

    def _sidebar_chosen(self, _on: bool) -> None:
        self._sidebar_folded = False

    def problem(self, title: str, text: str) -> None:
        """Tell the user something failed: a message box, or, in a scripted run (``--ask``, where no one
        can close a box and it would hang the run), standard error and the notice bar."""
        if self.scripted:
            print(f"{title}: {text}", file=sys.stderr)
            self.show_notices([text])
        else:
            QMessageBox.warning(self, title, text)

    def show_notices(self, notices: Iterable[str]) -> None:
        """Show ``notices`` above the conversation, one per line, until the user dismisses them."""
        self.notice_bar.show_notices(notices)

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
        window_layout.widen_dock_when_shown(self, dock)
        return dock

    def _connect_bridge(self) -> None:
        b = self.bridge
        self.status.follow(b)  # what the answer is doing, in the status bar
        b.routed.connect(lambda ev: self._answer and self._answer.on_route(ev))
        # a damaged or locked knowledge base is left out of the answer: said, not passed over in silence
        b.routed.connect(lambda ev: ev.problem and self.statusBar().showMessage(
            f"{window_words(ev.problem)} Answering without it.", 15000))
        b.text.connect(lambda t: self._answer and self._answer.append_text(t))
        b.reasoning.connect(lambda t: self._answer and self._answer.append_reasoning(t))
        b.retracted.connect(lambda t, channel: self._answer and self._answer.retract(t, channel))
        b.roundStarted.connect(lambda n: self._answer and self._answer.set_round(n))
        b.toolWriting.connect(lambda ev: self._answer and self._answer.tool_writing(ev))  # its card, being written
        b.toolStarted.connect(self._on_tool_started)
        b.toolOutput.connect(lambda ev: self._answer and self._answer.tool_output(ev))  # kept if it is stopped
        b.toolFinished.connect(self._on_tool_finished)
        b.done.connect(self._on_done)
        b.failed.connect(self._on_failed)
        b.finished.connect(self._on_finished)

    # engine ---------------------------------------------------------------------------------------
    def http(self) -> Any:
        import httpx

        from ..http_clients import async_client

        if self._http is None:
            self._http = async_client(timeout=httpx.Timeout(None, connect=10.0))
        return self._http

    def _default_engine(self, settings: Settings, confirm: Callable[[str, str], Any]) -> Any:
        from ..engine import Engine
        from ..tools import default_registry

        return Engine(settings=settings, data_dir=self.data_dir, http=self.http(), registry=default_registry(),
                      confirm=confirm)

    async def _default_list_models(self, base_url: str, api_key: str) -> list[str]:
        from ..engine.llm import LLMClient

        return await LLMClient(self.http(), base_url, api_key).list_models()

    def check_server(self) -> None:
        """Show the server and model, and ask the server (in the background) whether it answers."""
        if self.store.closed:
            return
        self.status.show_settings(self.settings)
        task = self.status.start_check(self._list_models, self.settings)
        task.add_done_callback(lambda t: t.cancelled() or self.welcome.server_checked(self.status.state))

    # chats ----------------------------------------------------------------------------------------
    def _refresh_chats(self) -> None:
        """Fill the chats list: every chat at once, or, with words in the search box, the chats holding
        them once the search (in a worker thread) has found them; until then the list stays as it was."""
        if self.sidebar.search.text().strip():
            self.chat_search.search(self.sidebar.search.text())
            return
        self.chat_search.cancel()  # a search still on its way would replace the whole list with its hits
        self.sidebar.set_chats(self.store.list_chats(), self.chat_id)

    def _chat_used(self, chat: ChatInfo | None) -> None:
        """A question or an answer was just stored in ``chat``: its row goes first in the list, or, when the
        list cannot be kept right so (a search's hits are shown), the list is filled again."""
        if chat is None or not self.sidebar.touch(chat):
            self._refresh_chats()
        elif chat.id == self.chat_id:
            self.sidebar.mark_current(chat.id)

    def _chat_search_failed(self, _text: str, reason: str) -> None:
        """A search could not be made (logged already): every chat is listed, and the status bar says why."""
        try:
            chats = self.store.list_chats()
        except sqlite3.Error as exc:  # the same lock or damage as the search met
            log.warning("could not list the chats either: %s", exc)
            chats = []
        self.sidebar.set_chats(chats, self.chat_id)
        self.statusBar().showMessage(f"{reason.rstrip('.')}. Every chat is listed instead.", 10000)

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
        self.cancel_edit()
        self.composer.switch_draft(self.chat_id, None)
        self.chat_id = None
        self._loading, self._earlier, self._insert_at = None, None, None
        self._placed, self._unbuilt = None, []
        self.view.clear(keep=self._answer)
        self.title_label.setText("New chat")
        self.sidebar.mark_current(None)
        self.composer.setFocus()

    def open_chat(self, chat_id: str, rebuild: bool = False) -> None:
        def go() -> None:
            chat = self.store.get_chat(chat_id)
            if chat is None:
                return
            self.cancel_edit()
            self.composer.switch_draft(self.chat_id, chat_id)
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
                    self.statusBar().showMessage(f"This chat's persona “{chat.persona}” was removed; it now "
                                                 f"answers as “{self.persona.currentText()}”.", 8000)
            start, earlier = self.store.page_start(chat_id, HISTORY_PAGE)
            messages = self.store.messages(chat_id, first=start)
            self._live_rows = self._saver.live_ids() | self.waiting.stand_ins()  # as read now (see waiting)
            self._earlier, self._insert_at = start if earlier else None, None
            self.view.set_has_earlier(earlier)
            self._placed, self._unbuilt = None, []
            self._loading = iter(messages)
            self._load_step(self._loading)
        if rebuild or chat_id != self.chat_id or not self.view.answers():
            go()

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
        QTimer.singleShot(0, self._refresh_chats)  # not inside the list's own itemChanged handler

    def delete_chat(self, chat_id: str) -> None:
        chat = self.store.get_chat(chat_id)
        if chat is None:
            return
        def go() -> None:
            if not self._stored(self.store.delete, chat_id):
                return
            self._deleted.add(chat_id)
            self.sidebar.remove(chat_id)  # at once: the search hits are only refreshed once searched again
            self.sidebar.show_undo(chat_id, chat.title)
            self.waiting.chat_deleted(chat_id)
            if chat_id == self.chat_id:
                # Deleted with Delete in the list, the open chat gives way to the one that takes its row (as
                # a mail program opens the next message), so the list's current row is the chat shown.
                if (near := self.sidebar.taking_place_of(chat_id)) is not None:
                    self.open_chat(near)
                else:
                    self.chat_id = None
                    self.new_chat()
            if not self.sidebar.lists_all_chats():  # search hits are searched again; else the row is gone
                self._refresh_chats()
            self.sidebar.chat_deleted(chat_id, self.chat_id)  # a Delete in the list keeps the focus there
        if chat_id == self._stream_chat:
            self._when_idle(go)  # stop and store the answer first, then delete its chat
        else:
            go()

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
            self._failed = str(exc)
            self.statusBar().showMessage(self._failed, 10000)
            return False
        if self._failed and self.statusBar().currentMessage() == self._failed:  # said of an earlier change
            self.statusBar().clearMessage()  # ("A chat needs a title"): out of date once one has worked
        return True

    def system_prompt(self, chat_id: str | None = None) -> str:
        """The open chat's persona's prompt, or another chat's (its persona removed: the first one's)."""
        personas = self.settings["personas"]
        chat = self.store.get_chat(chat_id) if chat_id and chat_id != self.chat_id else None
        name = self.persona.currentText() if chat is None else chat.persona
        return str(personas.get(name, "" if chat is None else next(iter(personas.values()), "")))

    # asking ---------------------------------------------------------------------------------------
    def edit_last_question(self) -> bool:
        """Put the chat's last question in the message box; sending it replaces that question and its answer
        (while another chat's answer is written, once that one ends: see waiting.py)."""
        if self.chat_id is None or self.waiting.refused():
            return False
        self.finish_loading()
        questions = self.view.questions()
        if not questions:
            return False
        self._editing = True
        self.composer.setPlainText(questions[-1].text())
        self.composer.moveCursor(QTextCursor.MoveOperation.End)
        self.composer.setFocus()
        self.edit_hint.show()
        return True

    def cancel_edit(self) -> bool:
        """Leave editing the last question: the box is emptied, the question and its answer stay."""
        if not self._editing:
            return False
        self._editing = False
        self.edit_hint.hide()
        self.composer.clear()
        return True

    def _drop_last_exchange(self) -> bool:
        """Remove the last question and what came after it, from the chat and the conversation."""
        self._editing = False
        self.edit_hint.hide()
        questions = self.view.questions()
        last = next((m for m in reversed(self.store.messages(self.chat_id)) if m.role == "user"), None)
        if not questions or last is None:
            return False
        try:
            self.store.delete_from(self.chat_id, last.id)
        except ChatStoreError as exc:
            self.problem("Chat history", str(exc))
            return False
        for widget in self.view.remove_from(questions[-1]):
            self.message_ids.pop(id(widget), None)
        return True

    def send(self, text: str | None = None) -> bool:
        """Send the composer's text (or ``text``) as a new question; False if nothing was sent. While the
        last question is being edited, the text replaces it and its answer. While another chat's answer is
        written, it waits for it (see waiting.py)."""
        text = self.composer.toPlainText() if text is None else text
        if not text.strip():
            return False
        if self.bridge.is_running():
            return self.waiting.send(text)
        self.finish_loading()
        if self._editing and self.chat_id is not None and not self._drop_last_exchange():
            return False
        try:
            if self.chat_id is None:
                self.chat_id = self.store.new_chat(persona=self.persona.currentText()).id
            self.store.add_user_message(self.chat_id, text)
        except ChatStoreError as exc:  # the question stays in the box, to send again
            self.problem("Chat history", f"{exc}\n\nYour question is still in the message box.")
            return False
        self.question_sent(text)  # only now that it is kept
        self._start_answer()
        return True

    def question_sent(self, text: str) -> None:
        """The open chat's question ``text``, stored: out of the box, into the conversation and the title."""
        self.composer.clear()
        self.composer.sent(self.chat_id)
        self.welcome.hide()
        chat = self.store.get_chat(self.chat_id)
        self.title_label.setText(chat.title if chat else "")
        self.view.add_question(text)
        self._chat_used(chat)

    def ask(self, question: str) -> bool:
        self.composer.setPlainText(question)
        return self.send()

    def _start_answer(self, replacing: int | None = None, chat_id: str | None = None) -> None:
        """Answer ``chat_id``'s last question (the open chat's, or out of sight, as one left while it streams)."""
        chat_id = chat_id or self.chat_id
        assert chat_id is not None
        messages = self.store.history(chat_id, leave_out=replacing)
        answer = self.view.add_answer(shown=chat_id == self.chat_id)
        self.wire_answer(answer)
        answer.begin()
        self._answer, self._stream_chat, self._done = answer, chat_id, None
        self._raw = {}
        self._saver.begin(answer, chat_id, self._raw, replacing)
        self._stream_started = time.monotonic()
        self._set_streaming(True)
        self.sidebar.set_answering(chat_id)
        self._update_last_answer()
        try:
            engine = self._engine_factory(self.settings, self.confirmer.for_chat(chat_id))
            events = engine.run(messages, system=self.system_prompt(chat_id), chat_id=chat_id)
        except Exception as exc:  # e.g. the engine could not be built from these settings
            log.exception("could not start the engine")
            self._on_failed(EngineError(f"Could not start answering: {exc}", kind="internal"))
            self._on_finished("error")
            return
        self.bridge.start(events)

    def wire_answer(self, answer: AnswerWidget) -> None:
        """Connect an answer shown in the chat view to the window (Retry, Regenerate, Copy, links)."""
        answer.retryRequested.connect(lambda a=answer: self.regenerate(a))
        answer.settingsRequested.connect(lambda tab: self.open_settings().show_tab(tab))
        answer.regenerateRequested.connect(lambda a=answer: self.regenerate(a))
        answer.copied.connect(lambda _t: self.statusBar().showMessage("Copied to the clipboard", 3000))
        answer.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        # a lambda: a plain object's method connected leaves PySide a weak reference per answer, for good
        answer.linkHovered.connect(lambda url: self.status.show_link(url))

    def _on_tool_started(self, ev: ToolStarted) -> None:
        self._raw[ev.id] = ev.raw
        self._answer and self._answer.tool_started(ev)

    def _on_tool_finished(self, ev: ToolFinished) -> None:
        self._raw.setdefault(ev.id, ev.raw)
        if self._answer:
            self._answer.tool_finished(ev)

    def _on_done(self, ev: Done) -> None:
        self._done = ev
        if self._answer:
            self._answer.finish(ev)

    def _on_failed(self, ev: EngineError) -> None:
        if self._answer:
            self._answer.fail(ev.message)

    def _on_finished(self, outcome: str) -> None:
        answer, chat_id = self._answer, self._stream_chat
        self._answer = self._stream_chat = None
        self._set_streaming(False)
        self.sidebar.set_answering(None)
        self.last_outcome = outcome
        if answer is not None and chat_id is not None:
            if outcome == "stopped":
                answer.stop(int((time.monotonic() - self._stream_started) * 1000))
            elif answer.streaming:  # the stream ended without done or error
                answer.flush()
                answer.streaming = False
                answer.show_route_sources()
            if self._store_answer(answer, chat_id, outcome):  # else the chat, and so its row, is unchanged
                self._chat_used(self.store.get_chat(chat_id))
            if chat_id != self.chat_id:  # it ended out of sight, its chat left for another
                self._answered_elsewhere(answer, chat_id, outcome)
            elif answer not in self.view.answers() and not answer.property("replaced"):
                # as its chat was being opened again: shown after it (not one the earlier answer replaced)
                self.finish_loading()
                self.view.attach(answer)
        self._update_last_answer()
        trim_live_chat(self)
        self._recheck_server(outcome)
        pending, self._after_stream = self._after_stream, []
        for action in pending:
            action()
        if not self.isActiveWindow():  # the taskbar entry asks for attention: the answer is ready
            QApplication.alert(self)
        self.answerFinished.emit(outcome)

    def _answered_elsewhere(self, answer: AnswerWidget, chat_id: str, outcome: str) -> None:
        """The answer of a chat left while it streamed has ended: stored (or not) already, it is deleted, and
        the status bar says so; its chat shows it from the history when opened again."""
        self.message_ids.pop(id(answer), None)
        answer.deleteLater()
        chat = self.store.get_chat(chat_id)
        title = f"“{chat.title}”" if chat and chat.title else "the other chat"
        done = {"done": "is ready", "stopped": "was stopped"}.get(outcome, "could not be finished")
        self.statusBar().showMessage(f"The answer in {title} {done}.", 8000)

    def _recheck_server(self, outcome: str) -> None:
        """Check the server again when the answer contradicts the status bar ("unreachable" beside a good
        answer, "reachable" beside a failed one): it was only checked at the start and after Settings."""
        state = self.status.state
        if (outcome == "done" and state in ("down", "warn")) or (outcome == "error" and state in ("ok", "warn")):
            self.check_server()

    def _store_answer(self, answer: AnswerWidget, chat_id: str, outcome: str) -> bool:
        """Store the answer as it ended; False (and a message says why) when it could not be."""
        transcript = self._done.transcript if self._done and self._done.transcript else answer.transcript(self._raw)
        try:
            message = self._saver.finish(answer, chat_id, outcome, transcript)
        except ChatStoreError as exc:  # said until dismissed, not in a box that stops the window
            self.statusBar().showMessage(str(exc), 10000)
            self.show_notices([not_saved_words(exc)])
            self.message_ids[id(answer)] = self._saver.kept_id  # what Regenerate replaces: the row kept meanwhile
            return False
        self.message_ids[id(answer)] = message.id
        if self._saver.kept_earlier:
            show_earlier_answer(self, answer, chat_id, message.id, outcome)
        self.notice_bar.withdraw(NOT_SAVED, starting=True)  # saved now: the notice no longer holds
        return True

    def stop(self) -> bool:  # Esc, Stop or Cancel: the open chat's answer, or its waiting question
        return self.waiting.stop()

    def regenerate(self, answer: AnswerWidget | None = None) -> bool:
        """Drop the last answer and ask the same question again (Retry on an error does the same); while
        another chat's answer is written, once that one ends (see waiting.py)."""
        self.finish_loading()
        answers = self.view.answers()
        if self.chat_id is None or self.waiting.refused() or not answers:
            return False
        answer = answer or answers[-1]
        if answer is not answers[-1]:
            return False
        message_id = self.message_ids.pop(id(answer), None)  # stays stored until the new answer replaces it
        self.view.remove(answer)
        if self.bridge.is_running():
            return self.waiting.again(message_id)
        self._start_answer(replacing=message_id)
        return True

    def copy_last_answer(self) -> str:
        self.finish_loading()
        answers = self.view.answers()
        return answers[-1].copy_markdown() if answers else ""

    def _update_last_answer(self) -> None:
        # only the last answer has Regenerate (set on every answer, it cost more as the chat grew)
        answers = self.view.answers()
        # offered while another chat's answer is written: it then waits its turn (see waiting.py)
        busy = (self._stream_chat is not None and self._stream_chat == self.chat_id) or self.waiting.has(self.chat_id)
        last = answers[-1] if answers and not busy else None
        for a in answers:
            if a is last or a.regenerate_offered():
                a.set_regenerate_visible(a is last)

    def _set_streaming(self, on: bool) -> None:
        self.waiting.update_buttons()  # Stop in the answering chat only
        self.status.set_busy(on)

    # settings and export --------------------------------------------------------------------------
    def open_settings(self) -> SettingsDialog:
        dialog = SettingsDialog(self.settings, self._list_models, self, self.status.listed())
        dialog.setStyleSheet(style_sheet(colors().dark))
        dialog.personasRenamed.connect(self._personas_renamed)
        # written on Save: a failed write keeps the dialog open, with the edits
        dialog.commit = lambda settings: try_save_settings(self.data_dir, settings)
        dialog.saved.connect(lambda settings: self.apply_settings(settings, save=False, said=True))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def choose_model(self, name: str) -> None:
        """The status bar's model menu: answer with ``name`` from the next question on ("" lets the server
        choose), saved as the Chat model setting."""
        self.apply_settings(self.settings.replace(chat_model=name))
        self.statusBar().showMessage(f"Answers now come from {name or SERVER_DEFAULT_MODEL}.", 5000)

    def apply_settings(self, settings: Settings, *, save: bool = True, said: bool = False) -> None:
        """Save to settings.json (unless ``save`` is False) and use from the next request on (no restart)."""
        problem = try_save_settings(self.data_dir, settings) if save else None
        if problem:
            self.problem("Settings", problem)
            return
        theme_changed = settings["theme"] != self.settings["theme"]
        runs_changed = bool(settings["allow_nanogo"]) != bool(self.settings["allow_nanogo"])
        self.settings = settings
        if theme_changed:
            self._retheme()
        if runs_changed:
            self.view.refresh_run_links()  # Run links on Go blocks come or go at once
        removed = persona_removed_words(self._fill_personas(), self.persona.currentText())
        self.check_server()
        if save or said:
            self.statusBar().showMessage(f"{removed}Settings saved; they apply to the next question.",
                                         10000 if removed else 5000)
        self.settingsApplied.emit(settings)

    async def export_chat(self, path: Path, fmt: str, chat_id: str | None = None) -> Path:
        return await export.export_chat(self, path, fmt, chat_id)

    def export_dialog(self, fmt: str, chat_id: str | None = None) -> None:
        export.export_dialog(self, fmt, chat_id)

    def set_show_route(self, on: bool) -> None:
        self.view.set_show_route(on)

    def _layout_settings(self) -> QSettings:
        return window_layout.layout_settings(self.data_dir)

    def save_layout(self) -> None:
        window_layout.save(self)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
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
        self.chat_search.close()  # before the store: the last connection to close tidies the -wal file away
        if not self.store.closed:
            try:
                # this window's deletions, and those of a day ago (a window that crashed left them): not
                # another window's, still offering Undo (an `--ask` run closing beside it purged them)
                self.store.purge_deleted(wait=0.2, chats=self._deleted, before=time.time() - PURGE_AFTER)
            except ChatStoreError as exc:
                log.warning("could not purge deleted chats: %s", exc)
            self.store.close()
        if self.kb_dock is not None:
            self.kb_dock.widget().release()
        kb = sys.modules.get("tinyrag_desktop.kb")
        if kb is not None:  # searched: close the readers, and leave no -wal or -shm file beside knowledge.db
            await asyncio.to_thread(kb.release, self.data_dir)
