"""The status bar's server line: which server, which model, and whether it answers (in words and colour).

The model is a button: its menu lists the chat models the server offers (as the last check found them), so
switching between them takes two clicks instead of the settings dialog. Embedding models the server lists
beside them are told apart by the rule the settings dialog's test uses (``engine.llm.is_chat_model``): they
are neither offered nor counted as chat models ("reachable · 4 models" counted nomic-embed-text).
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping

from PySide6.QtCore import QPoint
from PySide6.QtGui import QActionGroup, QColor
from PySide6.QtWidgets import QLabel, QMenu, QStatusBar, QToolButton, QWidget

from ..engine.errors import AuthenticationFailed, BadResponse, ModelLoading, ModelsUnlisted, RateLimited, ServerFailed
from ..engine.llm import CHECK_SECONDS, NO_CHAT_MODELS, NO_MODELS, has_model, is_chat_model
from .activity import ANSWERING, AnswerActivity
from .elided_label import ElidedLabel
from .enter_presses import enter_presses
from .icons import dot_pixmap
from ..hidden_passwords import hide_passwords
from ..settings import SERVER_DEFAULT, SERVER_DEFAULT_MODEL
from ..tool_words import window_words
from .markdown_render import inline_code_html
from .plain_text import plain_label, plain_tip

if TYPE_CHECKING:
    from .bridge import EngineBridge

_COLOURS = {"unknown": "#9ca3af", "checking": "#9ca3af", "ok": "#16a34a", "warn": "#d97706", "down": "#dc2626"}
CHECK_TIMEOUT = CHECK_SECONDS  # the client's question to a server with no list of models ends before it


# Longest model name the status bar shows whole; a longer one is cut in the middle (the menu and the
# button's tooltip have it in full).
_MODEL_SHOWN = 40


def model_label(name: str) -> str:
    """A model's name as the status bar shows it: a model file's path (llama.cpp's server names its model
    so: "/home/me/models/qwen2.5-7b-instruct-q4_k_m.gguf") by its file name, without ".gguf"; a name
    longer than _MODEL_SHOWN cut in the middle, so its start and its quantisation both show."""
    if name.lower().endswith(".gguf") or name.startswith(("/", "~")) or re.match(r"^[A-Za-z]:[\\/]", name):
        name = re.split(r"[\\/]", name)[-1]
        name = name[:-5] if name.lower().endswith(".gguf") else name
    if len(name) > _MODEL_SHOWN:
        half = (_MODEL_SHOWN - 1) // 2
        name = f"{name[:half]}…{name[-half:]}"
    return name


LOADING = "loading model"  # the status bar's words for a server still loading its model


def _state_for(exc: Exception) -> tuple[str, str]:
    """The state and word for a failed check: "unreachable" (red) only when nothing answered. A server that
    answered with an error (a wrong API key, a web page, a 404) is reachable but not usable (amber), as a
    missing model is: it was called unreachable, and the welcome page asked the user to start a server that
    was running. The tooltip has the whole reason."""
    if isinstance(exc, ServerFailed) and "(404)" in str(exc):  # nothing at that path: the Server URL is wrong
        return "warn", "wrong address"
    if isinstance(exc, ModelLoading):  # llama.cpp's 503: asked again (welcome.py)
        return "warn", LOADING
    for kinds, words in ((AuthenticationFailed, "API key refused"), (RateLimited, "busy"),
                         (BadResponse, "not a model server"), (ServerFailed, "server error")):
        if isinstance(exc, kinds):
            return "warn", words
    return "down", "unreachable"


def answers_any_name(models: list[str]) -> bool:
    """Whether the server is llama.cpp's, which lists the one model file it loaded and answers whatever name
    a request gives: "model missing" in amber beside its answers was wrong."""
    return len(models) == 1 and models[0].lower().endswith(".gguf")


class ServerStatus:
    """Three permanent labels in the status bar; ``state`` is unknown, checking, ok, warn or down."""

    def __init__(self, bar: QStatusBar, choose_model: Callable[[str], None] | None = None) -> None:
        # The server's address gives way first in a narrow window, cut with "…" (its tooltip says it whole),
        # so the model and "reachable · 2 models" stay whole: they were cut off at the right edge.
        self.server = ElidedLabel("", bar)
        self.server.setObjectName("statusServer")
        self.model = QToolButton(bar)
        self.model.setObjectName("statusModel")
        self.model.setAutoRaise(True)
        self.model.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        # The text ends in "▾"; Qt's own small arrow in the corner would make two.
        self.model.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
        self.model.setAccessibleName("Model")
        self.model.setToolTip("Choose the model for the next answers")
        self.model_menu = QMenu(self.model)
        self.model_menu.setObjectName("modelMenu")
        self.model_menu.aboutToShow.connect(self._fill_model_menu)
        self.model.setMenu(self.model_menu)
        enter_presses(self.model)
        self.models: list[str] = []  # the chat models the server offered at the last check
        self.embedding_models: list[str] = []  # and the models it listed that do not chat (nomic-embed-text)
        self.chosen = ""  # the chat_model setting ("" lets the server choose)
        self._choose = choose_model
        self.dot = QLabel(bar)
        self.reach = plain_label(QLabel(bar))  # words of the server's error
        self.reach.setObjectName("statusReach")
        # What the answer being written is doing ("Searching the knowledge base…"): cut with "…" where the
        # bar has no room for it, down to "Answering…", or it widened the narrowest window
        self.busy = ElidedLabel("", bar)
        self.busy.setObjectName("statusBusy")
        self.busy.setContentsMargins(12, 0, 0, 0)  # apart from a message on its left ("…writte Answering…")
        self.busy.setMinimumWidth(0)  # no room taken while no answer is written (see set_busy)
        for w in (self.busy, self.server, self.model, self.dot, self.reach):
            bar.addPermanentWidget(w)
        # A passing message (why Enter sent nothing, "Settings saved") is read now; the server's address
        # stays in Settings and in the tooltip: it steps aside, or the message was cut in a narrow window.
        bar.messageChanged.connect(self._message_shown)
        self._bar = bar
        self._link: str | None = None  # the link address shown while the mouse is on it
        self._covered = ""  # the message it covered, shown again after it
        self.state = "unknown"
        self.reason = ""
        self._set("unknown", "not checked yet")
        self._activity = AnswerActivity()
        self._check: asyncio.Task[None] | None = None
        self._ending: set[asyncio.Task[None]] = set()  # checks replaced by a newer one, not yet ended

    def show_link(self, address: str) -> None:
        """Where the link under the mouse goes, while it is there (``address`` "" once it leaves): the
        message it covered ("The answer in … is ready") comes back after, where it was wiped."""
        if address:
            if self._link is None:
                self._covered = self._bar.currentMessage()
            self._link = address
            self._bar.show_quietly(address)  # a screen reader hears the link itself (segment_links)
        elif self._link is not None:
            if self._bar.currentMessage() == self._link:
                self._bar.show_quietly(self._covered, 8000) if self._covered else self._bar.clearMessage()
            self._link = None

    def listed(self) -> tuple[list[str], list[str]]:
        """The chat models and the other models the server listed at the last check (none when it failed)."""
        return list(self.models), list(self.embedding_models)

    def show_settings(self, settings: Mapping[str, Any]) -> None:
        self.server.setText(f"Server: {hide_passwords(str(settings['base_url']))}")
        self.chosen = str(settings["chat_model"] or "")
        shown = model_label(self.chosen) if self.chosen else SERVER_DEFAULT
        self.model.setText(f"Model: {shown} ▾")
        self.model.setAccessibleName(f"Model: {shown}")  # a screen reader said only "Model"
        # a model's name is the server's word: shown as written (plain_text)
        self.model.setToolTip(plain_tip(f"{self.chosen}\nChoose the model for the next answers") if self.chosen else
                              f"{SERVER_DEFAULT_MODEL[:1].upper()}{SERVER_DEFAULT_MODEL[1:]}\n"
                              "Choose the model for the next answers")

    def _fill_model_menu(self) -> None:
        menu = self.model_menu
        menu.clear()
        group = QActionGroup(menu)
        names = list(dict.fromkeys(self.models + ([self.chosen] if self.chosen else [])))
        for name, label in [("", SERVER_DEFAULT.capitalize()), *((n, model_label(n)) for n in names)]:
            if name and self._lacks(name):  # chosen, but questions fail: "model missing" said which one
                label += " (not on this server)"
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(name == self.chosen)
            action.setData(name)
            group.addAction(action)
            if name and name not in self.models:
                action.setToolTip(plain_tip(f"{name}\nThe server did not list this model at the last check."))
            elif name and not is_chat_model(name):  # chosen by hand: kept, though its name says it embeds
                action.setToolTip(plain_tip(f"{name}\nBy its name, an embedding model rather than a chat model."))
            elif label != name:
                action.setToolTip(plain_tip(name))
            action.triggered.connect(lambda _on=False, n=name: self._picked(n))
        if not self.models:
            menu.addSeparator()
            # a server that answered with an error (a refused key) did answer: its word says what went wrong
            why = self.reach.text() if self.state == "warn" else "the server did not answer the last check"
            if self.embedding_models:
                hint = menu.addAction(f"No chat models listed: only embedding models ({_some(self.embedding_models)})")
            else:
                hint = menu.addAction(f"No models listed: {why}")
            hint.setEnabled(False)

    def _lacks(self, name: str) -> bool:
        """Whether the server listed models at the last check, and ``name`` is not among them."""
        listed = self.models + self.embedding_models
        return bool(listed) and not has_model(listed, name) and not answers_any_name(listed)

    def show_model_menu(self, under: QWidget) -> None:
        """The model menu, opened under ``under`` (an answer's "Choose a model" button): the way the status
        bar's button opens it, without waiting for it to close."""
        self.model_menu.popup(under.mapToGlobal(QPoint(0, under.height())))

    def _picked(self, name: str) -> None:
        if name != self.chosen and self._choose is not None:
            self._choose(name)

    def _message_shown(self, message: str) -> None:
        """The server's address steps aside while a message shows, and what the answer does takes no more
        room than "Answering…" (cut with "…"): "Waiting for the model…" cut the message short."""
        self.server.setVisible(not message)
        self.busy.setMaximumWidth(self.busy.minimumWidth() if message and self.busy.minimumWidth() else 16777215)

    def set_busy(self, on: bool) -> None:
        """An answer is being written (or no longer): "Waiting for the model…" until its events say more."""
        self._activity = AnswerActivity()
        # room for "Answering…" at the least while an answer is written (as a plain label had); none after
        # and as far from the server's address on its right as from a message on its left (it ran into it)
        self.busy.setContentsMargins(12, 0, 12 if on else 0, 0)
        self.busy.setMinimumWidth(24 + self.busy.fontMetrics().horizontalAdvance(ANSWERING) + 2 if on else 0)
        self.busy.setText(self._activity.words() if on else "")
        self._message_shown(self._bar.currentMessage())

    def follow(self, bridge: "EngineBridge") -> None:
        """Say what the answer being written is doing as its events come (see activity.py)."""
        bridge.text.connect(lambda text: self._say(self._activity.text(text)))
        bridge.reasoning.connect(lambda text: self._say(self._activity.reasoning(text)))
        bridge.toolWriting.connect(lambda ev: self._say(self._activity.tool_writing(ev.id, ev.tool, ev.dropped)))
        bridge.toolStarted.connect(lambda ev: self._say(self._activity.tool_started(ev.id, ev.tool)))
        bridge.toolFinished.connect(lambda ev: self._say(self._activity.tool_finished(ev.id)))

    def asking(self, on: bool) -> None:
        """The answer being written waits for the user's answer to a question (``on``), or no longer."""
        self._say(self._activity.asking(on))

    def _say(self, words: str) -> None:
        if self.busy.text():  # while an answer is being written only (set_busy)
            self.busy.setText(words)

    def _set(self, state: str, words: str, why: str = "") -> None:
        self.state = state
        # as large as the words beside it allow: at 18 pt a 10 pixel dot was a speck beside them
        side = max(10, self.dot.fontMetrics().height() * 10 // 18)
        self.dot.setPixmap(dot_pixmap(QColor(_COLOURS[state]), side, self.dot.devicePixelRatioF()))
        self.reach.setText(words)
        self.reason = why
        # "`ollama serve`" in a server's error shows in code type, as in the answer's error, not with backticks
        self.reach.setToolTip(f"<p>{inline_code_html(why)}</p>" if "`" in why else plain_tip(why or words))
        self.reach.setAccessibleName(f"Server {words}")
        self.reach.setAccessibleDescription(why)

    def start_check(self, list_models: Callable[[str, str], Awaitable[list[str]]],
                    settings: Mapping[str, Any]) -> asyncio.Task[None]:
        """Check in the background; a newer check replaces one still running."""
        if self._check is not None and not self._check.done():
            self._check.cancel()
            # still ending (its connection being closed): cancel() waits for it too
            self._ending.add(self._check)
            self._check.add_done_callback(self._ending.discard)
        self._check = asyncio.ensure_future(self.check(list_models, settings))
        return self._check

    async def cancel(self) -> None:
        """Stop the check under way, and wait until it and any it replaced have ended."""
        if self._check is not None and not self._check.done():
            self._check.cancel()
        # the replaced ones are cancelled already: cancelled again, they would stop closing their connection
        checks = [c for c in (self._check, *self._ending) if c is not None and not c.done()]
        await asyncio.gather(*checks, return_exceptions=True)

    async def check(self, list_models: Callable[[str, str], Awaitable[list[str]]],
                    settings: Mapping[str, Any]) -> None:
        """Ask the server for its models; show reachable, model missing, or the reason it is not."""
        self._set("checking", "checking…")
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):  # no inner task: nothing left unawaited on cancel
                models = await list_models(settings["base_url"], settings["api_key"])
        except TimeoutError:
            self.models, self.embedding_models = [], []
            self._set("down", "unreachable", "The server did not answer in time.")
            return
        except ModelsUnlisted as exc:  # a server of one model: asked with none named, it answers
            self.models, self.embedding_models = [], []
            if exc.needs_model and not settings["chat_model"]:  # an old Ollama: every question would fail
                self._set("warn", "set the Chat model", window_words(exc.words("")))
            else:
                self._set("ok", "reachable", window_words(exc.words(settings["chat_model"])))
            return
        except Exception as exc:  # the client's errors say what is wrong in words
            self.models, self.embedding_models = [], []
            self._set(*_state_for(exc), window_words(str(exc)))
            return
        wanted = settings["chat_model"]
        # the model chosen stays a chat model, whatever its name says (a chat model called "…-clip")
        self.models = [m for m in models if is_chat_model(m) or m == wanted]
        self.embedding_models = [m for m in models if m not in self.models]
        if not models:  # it answers, but nothing can answer a question yet
            self._set("warn", "no models", NO_MODELS.format(where=hide_passwords(settings["base_url"])))
        elif wanted and not has_model(models, wanted) and not answers_any_name(models):
            self._set("warn", "model missing", f"The server is reachable, but has no model called “{wanted}”.")
        elif not self.models:  # only nomic-embed-text, pulled for the knowledge base
            self._set("warn", "no chat models", NO_CHAT_MODELS.format(where=hide_passwords(settings["base_url"]),
                                                                      names=_some(self.embedding_models, 3)))
        else:
            others = (f" (and {_count(self.embedding_models, 'embedding model')}: {_some(self.embedding_models)})"
                      if self.embedding_models else "")
            self._set("ok", f"reachable · {_count(self.models, 'chat model')}",
                      f"The server answers. {_count(self.models, 'chat model')}: {_some(self.models)}{others}.")


def _count(names: list[str], what: str) -> str:
    """"3 chat models", "1 embedding model": as the settings dialog's Test connection counts them."""
    return f"{len(names)} {what}{'s' if len(names) != 1 else ''}"


def _some(names: list[str], most: int = 6) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")
