"""The welcome panel: shown when no local model server answers; says how to start one, or offers the built-in one.

It holds no engine or network code of its own: the window passes in a ``probe`` coroutine function (e.g.
``firstrun.probe_servers``) and, when the built-in model can run, a ``start_builtin`` one that returns
``(base_url, model)``. Buttons run them on the qasync loop and the outcome leaves as signals:

- ``serverFound(Found)`` when "Try again" found a server (the window saves it and hides the panel);
- ``builtinReady(base_url, model)`` / ``builtinFailed(message)`` for "Use the built-in model";
- ``retryRequested()`` and ``useBuiltinRequested()`` on every click, for windows that run things themselves;
- ``openSettingsRequested()`` for "Enter a server address…";
- ``apiKeyRequested(base_url)`` for "Enter its API key…", shown when a server found asks for one;
- ``backRequested()`` for "Back to the chat", shown when the page is opened over a chat (set_back).
"""

from __future__ import annotations

import asyncio
import html
from typing import Any, Awaitable, Callable

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (QBoxLayout, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout,
                               QWidget)

from ..firstrun import Attempt, ProbeResult
from ..hidden_passwords import hide_passwords
from .busy_buttons import set_working
from .chat_view import COLUMN_MAX
from .enter_presses import enter_presses
from .error_box import ENTER_ADDRESS
from .focus_ring import FocusRing
from .markdown_render import inline_code_html
from .theme import colors, style_sheet

Probe = Callable[[], Awaitable[ProbeResult]]
StartBuiltin = Callable[[], Awaitable[tuple[str, str]]]

# (server, how to start it, the commands or clicks): friendly, short, copyable.
HOW_TO: tuple[tuple[str, str, str], ...] = (
    ("Ollama", "Install it from ollama.com, then download a model once; Ollama keeps running in the background.",
     "ollama pull llama3.2"),
    ("LM Studio", "Download a model in LM Studio, open the Developer tab and switch on “Start server”.",
     "Server address: http://127.0.0.1:1234/v1"),
    ("llama.cpp", "Start its server with any GGUF model file.",
     "llama-server -m model.gguf --port 8080"),
)

_LOOKING = "Looking for model servers on this computer…"
_WHY_LOCAL = ("tinyRAG Desktop answers with a model that runs on your own computer, so nothing you ask leaves "
              "it. ")
_NO_SERVER = ("No model server has answered yet. Start one of these below, then press <b>Try again</b>; or "
              "enter the address of one you have.")
_STARTING = "Starting the built-in model… (a few seconds)"
ENTER_KEY = "Enter its API key…"


def _esc(text: str) -> str:
    return html.escape(text, quote=False)  # label text, never attribute values


def _code(text: str) -> str:
    return f"<code style='font-family: monospace'>{_esc(text)}</code>"


def _no_chat_model(attempt: Attempt) -> str:
    """A server that runs without a chat model, named, with the way to get one in its own words."""
    name = "Ollama" if attempt.server_name.startswith("Ollama") else attempt.server_name  # "Ollama’s usual address"
    has = f" (it has only {_esc(', '.join(attempt.models[:3]))}, which cannot chat)" if attempt.models else ""
    if name == "Ollama":
        how = f"download one with {_code('ollama pull llama3.2')} in a terminal"
    elif name == "LM Studio":
        how = "download and load one in LM Studio’s window"
    else:
        how = "load one in it"
    return (f"{_esc(name)} is running at {_esc(hide_passwords(attempt.base_url))}, but has no chat model yet"
            f"{has}: {how}. tinyRAG notices it by itself; or press <b>Try again</b>.")


def _asks_for_key(attempt: Attempt) -> str:
    """A server that runs but refuses to answer without an API key, named when its answer said which it is,
    with what to do."""
    key = f"the key it was started with (its {_code('--api-key')})" if attempt.named else "its key"
    return f"{_esc(attempt.asks_for_key())}. Press <b>{_esc(ENTER_KEY)}</b> and type {key}, then Save."


def _stop_while_it_scrolls(scroll: QScrollArea, then: QWidget) -> None:
    """Make ``scroll`` a Tab stop (arrows and Page Down scroll it) only while its page is larger than it: with
    nothing to scroll it was a stop that did nothing, drawn as a ring round the whole panel. Holding the focus
    as its page comes to fit (the window made larger), it gives the focus to ``then``."""
    bars = (scroll.verticalScrollBar(), scroll.horizontalScrollBar())

    def follow(*_range: int) -> None:
        scrolls = any(bar.maximum() > bar.minimum() for bar in bars)
        scroll.setFocusPolicy(Qt.FocusPolicy.StrongFocus if scrolls else Qt.FocusPolicy.NoFocus)
        if not scrolls and scroll.hasFocus():
            then.setFocus(Qt.FocusReason.OtherFocusReason)

    for bar in bars:
        bar.rangeChanged.connect(follow)
    follow()


class WelcomePanel(QFrame):
    """Friendly instructions for starting a local server, with "Try again" and "Use the built-in model"."""

    retryRequested = Signal()
    serverFound = Signal(object)  # firstrun.Found
    useBuiltinRequested = Signal()
    builtinReady = Signal(str, str)  # base_url, model
    builtinFailed = Signal(str)
    openSettingsRequested = Signal()
    apiKeyRequested = Signal(str)  # the address of the server that asks for a key
    backRequested = Signal()

    def __init__(self, parent: QWidget | None = None, *, probe: Probe | None = None,
                 start_builtin: StartBuiltin | None = None, builtin_note: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("welcomePanel")
        self.setAccessibleName("Welcome: no model server found")
        self._probe = probe
        self._start_builtin = start_builtin
        self._task: asyncio.Task[Any] | None = None

        self.title = QLabel("Let’s connect a language model", self)
        self.title.setObjectName("welcomeTitle")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)  # beside the knowledge panel the chat is a third of the window
        self.intro = QLabel(_WHY_LOCAL + _NO_SERVER, self)
        self.intro.setObjectName("welcomeIntro")
        self.intro.setWordWrap(True)
        self.waiting_on: Attempt | None = None  # a server found running, without a chat model yet
        self.key_wanted: Attempt | None = None  # a server found running, that asks for an API key

        steps = QVBoxLayout()
        steps.setSpacing(10)
        for name, words, command in HOW_TO:
            label = QLabel(f"<b>{_esc(name)}</b> — {_esc(words)}<br>{_code(command)}", self)
            label.setObjectName(f"welcomeHow{name.replace(' ', '').replace('.', '')}")
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            steps.addWidget(label)

        # How to install the built-in model: its commands took a paragraph, and with the user guide's notice
        # above they pushed the buttons below an 800×600 window. Folded behind this until asked for.
        self.builtin_more = QPushButton("How to install the built-in model…", self)
        self.builtin_more.setObjectName("welcomeBuiltinMore")
        self.builtin_more.setCheckable(True)
        self.builtin_more.setFlat(True)
        self.builtin_more.setCursor(Qt.CursorShape.PointingHandCursor)
        self.builtin_more.toggled.connect(self._show_install)
        self.builtin_label = QLabel(self)
        self.builtin_label.setObjectName("welcomeBuiltinNote")
        self.builtin_label.setWordWrap(True)
        self.builtin_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # its commands

        self.status = QLabel("", self)
        self.status.setObjectName("welcomeStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.hide()  # until there is something to say: no gap under the buttons

        # Made first, it comes first in the row and in Tab order: shown only when a server asks for a key
        self.key_button = QPushButton(ENTER_KEY, self, objectName="welcomeApiKey")
        self.key_button.hide()
        self.retry_button = QPushButton("Try again", self)
        self.retry_button.setObjectName("welcomeRetry")
        self.retry_button.setDefault(True)
        self.builtin_button = QPushButton("Use the built-in model", self)
        self.builtin_button.setObjectName("welcomeUseBuiltin")
        self.builtin_button.setToolTip("Runs a small model on this computer, without any server (offline).")
        self.settings_button = QPushButton(ENTER_ADDRESS, self)
        self.settings_button.setObjectName("welcomeSettings")
        # Opened from a chat's error (its "How to start a server…"): the way back to the chat and its Retry
        self.back_button = QPushButton("Back to the chat", self, objectName="welcomeBack")
        self.back_button.hide()
        self._row = (self.key_button, self.retry_button, self.builtin_button, self.settings_button,
                     self.back_button)
        # Side by side where they fit, one above another where they do not (see resizeEvent).
        self._buttons = buttons = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        for b in self._row:
            buttons.addWidget(b)
        buttons.addStretch(1)

        # In the message box's lane (main_window: 16 px in, at most COLUMN_MAX wide, centred), so the panel's
        # left edge is the box's: it was 16 px left of it, 11 px right of the chat's title.
        page = QWidget(self)
        lane = QHBoxLayout(page)
        lane.setContentsMargins(16, 0, 16, 0)
        inner = QWidget(page)
        inner.setMaximumWidth(COLUMN_MAX)
        lane.addStretch(0), lane.addWidget(inner, 100), lane.addStretch(0)
        row = QHBoxLayout(inner)
        row.setContentsMargins(0, 0, 0, 0)
        body = QWidget(inner)
        row.addWidget(body, 1), row.addStretch(0)  # the text no wider than 760 px, from the lane's left edge
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 28, 0, 28)
        column.setSpacing(14)
        # The buttons and what they found come first, the ways to start a server after them: below them,
        # the buttons were out of sight in an 800×600 window.
        column.addWidget(self.title)
        column.addWidget(self.intro)
        column.addLayout(buttons)
        column.addWidget(self.status)
        column.addLayout(steps)
        column.addWidget(self.builtin_more, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.builtin_label)
        column.addStretch(1)
        body.setMaximumWidth(760)
        self._column = column
        self._lane = lane
        scroll = QScrollArea(self)
        scroll.setAccessibleName(self.accessibleName())  # a Tab stop while it scrolls: it said nothing
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(page)
        FocusRing(scroll, scroll, radius=3)  # frameless, it showed no sign of the focus when Tab came to it
        _stop_while_it_scrolls(scroll, self.retry_button)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        self.retry_button.clicked.connect(self._on_retry)
        self.builtin_button.clicked.connect(self._on_builtin)
        self.settings_button.clicked.connect(self.openSettingsRequested)
        self.key_button.clicked.connect(self._on_key)
        self.back_button.clicked.connect(self.backRequested)
        # Try again takes Enter as the default button; the others did nothing on it (a window's buttons take
        # it only in a dialog)
        enter_presses(self.key_button, self.builtin_button, self.settings_button, self.back_button,
                      self.builtin_more)
        # Tab as the panel reads: the buttons, then the built-in model's fold below them (made first, it came first)
        QWidget.setTabOrder(self.back_button, self.builtin_more)
        self.set_builtin_available(start_builtin is not None, builtin_note)
        self._style_buttons()

    def _style_buttons(self) -> None:
        """Try again in the app's blue, as Send and New chat; the others outlined (base.qss): plain grey,
        they looked disabled, and the outline of "Enter a server address…" was lost on a dark background."""
        sheet = style_sheet(colors().dark)
        for button in self._row:
            button.setStyleSheet(sheet)
        # A link-like fold, in the theme's text colour named here: its style sheet kept the palette it was
        # first polished with, dark words on the dark page after light → dark.
        self.builtin_more.setStyleSheet("QPushButton { text-align: left; text-decoration: underline; "
                                        f"color: {colors().text.name()}; }}")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the theme changed (apply_theme sets the palette)
            self._style_buttons()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_buttons(event.size().width())

    def _fit_buttons(self, width: int) -> None:
        """The buttons in a row when the panel is wide enough for them, else in a column: side by side
        they need about 500 pixels, and a row that does not fit pushed the panel into scrolling sideways."""
        shown = [b for b in self._row if not b.isHidden()]
        margins = self._lane.contentsMargins()
        row = (sum(b.sizeHint().width() for b in shown) + self._buttons.spacing() * max(len(shown) - 1, 0)
               + margins.left() + margins.right())
        wanted = QBoxLayout.Direction.LeftToRight if row <= width else QBoxLayout.Direction.TopToBottom
        if self._buttons.direction() != wanted:
            self._buttons.setDirection(wanted)

    # -- state the window sets --------------------------------------------------------------------

    def set_builtin_available(self, available: bool, note: str = "") -> None:
        """Show "Use the built-in model" only when it can run; ``note`` says which model, or why not."""
        self.builtin_button.setVisible(available)
        if available:
            text = "Or use the built-in model: slower and much smaller than a server's models, but it works " \
                   "offline right away."
        else:
            text = ""
        if note:  # a command on a line of its own ("\n") stays one
            note = inline_code_html(note).replace("\n", "<br>")
            text = f"{text} ({note})" if text else note
        self.builtin_label.setText(text)
        # A model that can run is said in a line; how to install one is folded until asked for.
        self._folded = bool(text) and not available
        self.builtin_more.setVisible(self._folded)
        self.builtin_more.setChecked(False)
        self._show_install(False)
        self._fit_buttons(self.width())

    def set_back(self, shown: bool) -> None:
        """Offer "Back to the chat": the page is opened over a chat, from its error."""
        self.back_button.setVisible(shown)
        self._fit_buttons(self.width())

    def _say(self, text: str) -> None:
        """``text`` (rich text) under the buttons."""
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def _show_install(self, shown: bool) -> None:
        self.builtin_label.setVisible(bool(self.builtin_label.text()) and (shown or not self._folded))
        scroll = self.findChild(QScrollArea)
        if shown and scroll is not None:  # the commands opened below the fold are brought into sight
            QTimer.singleShot(0, lambda: scroll.ensureWidgetVisible(self.builtin_label, 0, 0))
        self.builtin_more.setText("Hide how to install the built-in model" if shown else
                                  "How to install the built-in model…")

    def set_probe_result(self, result: ProbeResult) -> None:
        """Say what the last probe tried, one line per server; and, above, a server it found running without
        a chat model, with how to get one (it said "No model server has answered yet", "Still no model
        server", of an Ollama that had only nomic-embed-text)."""
        self.set_key_wanted(None if result.found else result.locked)
        self.set_waiting_on(None if result.found else next((a for a in result.tried if a.running), None))
        if result.found is not None:
            self._say(_esc(result.summary()))
            return
        lines = "".join(f"<li>{_esc(a.server_name)} ({_esc(hide_passwords(a.base_url))}): {_esc(a.reason)}"
                        "</li>" for a in result.tried)
        if self.waiting_on:
            still = "Still no chat model."
        else:
            still = "Still waiting for an API key." if self.key_wanted else "Still no model server."
        self._say(f"{still} What was tried:<ul>{lines}</ul>" if lines else still)

    def set_waiting_on(self, attempt: Attempt | None) -> None:
        """The intro says ``attempt``'s server runs but has no chat model, and how to get one (None: that no
        server answered). The window asks that server again now and then, and uses it once it has one."""
        self.waiting_on = attempt
        self._say_intro()

    def set_key_wanted(self, attempt: Attempt | None) -> None:
        """The intro says ``attempt``'s server runs but asks for an API key, with a button to enter it (None:
        none does). A server without a chat model is said first: it needs no key to be used."""
        self.key_wanted = attempt
        self.key_button.setVisible(attempt is not None)
        self._fit_buttons(self.width())
        self._say_intro()

    def _say_intro(self) -> None:
        if self.waiting_on:
            said = _no_chat_model(self.waiting_on)
        else:
            said = _asks_for_key(self.key_wanted) if self.key_wanted else _NO_SERVER
        self.intro.setText(_WHY_LOCAL + said)

    def say_asking(self, base_url: str) -> None:
        """An address was saved in Settings: it is being asked."""
        self._say(_esc(f"Asking the server at {hide_passwords(base_url)}…"))

    def say_checked(self, base_url: str, state: str, reason: str) -> None:
        """What came of asking the address saved in Settings (``state`` the status bar's: "down" when
        nothing answered; otherwise the window leaves this page, or says what the server lacks)."""
        base_url = hide_passwords(base_url)  # as the reason names it (the engine's errors hide it)
        if state == "down":  # the reason names the address, and what to do, as the status bar's tooltip does
            said = reason if base_url in reason else f"{base_url}: {reason or 'no answer.'}"
            self._say(inline_code_html(f"Asked just now, and the address you saved did not answer. {said}"))
        else:
            self._say(_esc(f"The server at {base_url} answers."))

    def set_busy(self, words: str | None) -> None:
        """While a probe or the built-in model's start runs: buttons off, ``words`` shown; None ends it."""
        busy = words is not None
        for b in (self.retry_button, self.builtin_button):
            set_working(b, busy)  # the focus stays with the button pressed: it went to the next one
        if busy:
            self._say(_esc(words))

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    # -- actions ----------------------------------------------------------------------------------

    def _on_retry(self) -> None:
        self.retryRequested.emit()
        if self._probe is not None and not self.busy:
            self.set_busy(_LOOKING)  # at once, not when the task first runs: no double clicks
            self._task = asyncio.ensure_future(self.retry())

    def _on_key(self) -> None:
        if self.key_wanted is not None:
            self.apiKeyRequested.emit(self.key_wanted.base_url)

    def _on_builtin(self) -> None:
        self.useBuiltinRequested.emit()
        if self._start_builtin is not None and not self.busy:
            self.set_busy(_STARTING)
            self._task = asyncio.ensure_future(self.use_builtin())

    async def retry(self) -> ProbeResult | None:
        """Run the probe again; emits serverFound when a server with a chat model answers."""
        if self._probe is None:
            return None
        self.set_busy(_LOOKING)
        try:
            result = await self._probe()
        finally:
            self.set_busy(None)
        self.set_probe_result(result)
        if result.found is not None:
            self.serverFound.emit(result.found)
        return result

    async def use_builtin(self) -> tuple[str, str] | None:
        """Start the built-in model; emits builtinReady(base_url, model) or builtinFailed(message)."""
        if self._start_builtin is None:
            return None
        self.set_busy(_STARTING)
        try:
            base_url, model = await self._start_builtin()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the starter's own error says what is missing; show it, keep the panel usable
            message = str(exc) or exc.__class__.__name__
            self._say(inline_code_html(f"The built-in model could not start: {message}"))
            self.builtinFailed.emit(message)
            return None
        finally:
            self.set_busy(None)
        self._say(_esc(f"The built-in model {model} is running."))
        self.builtinReady.emit(base_url, model)
        return base_url, model

    def cancel(self) -> None:
        """Stop a probe or start still running (the window is closing)."""
        if self.busy:
            self._task.cancel()
