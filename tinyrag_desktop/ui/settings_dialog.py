"""The settings dialog (`settingsDialog`), built from the settings schema: one field per option.

Every field is checked as it is typed, with the schema's own rule; a bad value shows its reason under the
field and Save stays disabled. "Test connection & load models" asks the server for its models without
leaving the dialog (the request runs on the asyncio loop, the window keeps responding).
"""

from __future__ import annotations

import asyncio
import html
import math
import re
from pathlib import Path
from typing import Any, Awaitable, Callable

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QBoxLayout, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QInputDialog, QLabel, QLineEdit, QListWidget, QMessageBox,
                               QPlainTextEdit, QPushButton, QSizePolicy, QTabWidget, QVBoxLayout, QWidget)

from ..engine.errors import AuthenticationFailed, BadResponse, ModelNotFound, RateLimited, ServerFailed
from ..hidden_passwords import hide_passwords
from ..engine.llm import has_model
from ..firstrun import is_chat_model
from ..localmodel import gguf_problem
from ..settings import (MAX_PERSONA_NAME, OPTIONS, SCHEMA, SERVER_DEFAULT_MODEL, Option, Settings, SettingsError,
                        shown)
from ..tool_words import window_words
from .markdown_render import inline_code_html
from .plain_text import plain_label
from .status import answers_any_name
from .theme import colors

ListModels = Callable[[str, str], Awaitable[list[str]]]
_ANSWERED = (AuthenticationFailed, BadResponse, ModelNotFound, RateLimited, ServerFailed)  # the server replied

_TABS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Model", ("base_url", "api_key", "chat_model", "embed_model", "temperature")),
    ("Tools", ("allow_shell_exec", "allow_nanogo", "network_tools", "url_fetch_allow_private", "searxng_url",
               "websearch_results", "nanogo_memory_mb")),
    ("Limits", ("max_tools_total", "max_tools_per_round", "max_continuations", "tool_timeout",
                "connect_timeout", "first_token_timeout", "result_max_chars", "context_tokens")),
    ("General", ("theme", "lang", "chunk_size", "k")),
)
_LABELS = {
    "base_url": "Server URL", "api_key": "API key", "chat_model": "Chat model", "embed_model": "Embedding model",
    "lang": "Answer language", "allow_shell_exec": "Allow shell commands", "allow_nanogo": "Allow Go code (nanoGo)",
    "network_tools": "Network tools (web search, URL fetch, Wikipedia)", "k": "Passages per search",
    "url_fetch_allow_private": "Let URL fetch reach private addresses", "searxng_url": "SearXNG URL",
    "tool_timeout": "Tool timeout (s)", "connect_timeout": "Connect timeout (s)",
    "first_token_timeout": "First-token timeout (s)", "nanogo_memory_mb": "nanoGo memory (MB)",
    "chunk_size": "Chunk size (characters)", "result_max_chars": "Longest tool result (characters)",
    "local_model": "Built-in model file (GGUF)",
    # the limits in a person's words: "Max continuations" and "Max tools total" named the engine's fields
    "max_tools_total": "Tool calls per answer", "max_tools_per_round": "Tool calls per round",
    "max_continuations": "Rounds after the first", "max_tokens": "Longest reply (tokens)",
    "websearch_results": "Web search results", "context_tokens": "Context to use (tokens)",
}
# What an empty box means, shown in it: an empty SearXNG URL was a blank a user could only guess at.
_PLACEHOLDERS = {
    "api_key": "(none: local servers need none)", "searxng_url": "(none: DuckDuckGo)",
    "local_model": "(none: SmolLM2-135M, if installed)", "max_tokens": "(the server's default)",
    "context_tokens": "(as the server says)",
}
# Numbers whose "no value" is a value: shown as an empty box with its placeholder ("Longest reply (tokens)
# 0" read as "no reply at all"), and an empty box saved as that value.
_BLANK = {"max_tokens": 0, "context_tokens": 0}
_OBJECT_NAMES = {"allow_shell_exec": "allowShellExec", "allow_nanogo": "allowNanogo"}
_WARNINGS = {
    "allow_shell_exec": "Warning: the model may run commands on this computer. Each one asks you first.",
    "allow_nanogo": "Warning: the model may run Go programs (sandboxed, with time and memory limits).",
}
# Fields that mean nothing while a switch is off: shown greyed out then (their values are kept).
_NEEDS = {"url_fetch_allow_private": "network_tools", "searxng_url": "network_tools",
          "websearch_results": "network_tools", "nanogo_memory_mb": "allow_nanogo"}


def label_for(name: str) -> str:
    return _LABELS.get(name, name.replace("_", " ").capitalize())


def with_mnemonic(text: str, used: set[str]) -> str:
    """``text`` with an "&" before a letter not in ``used`` (which it joins): a word's first letter if one is
    free, else any; a literal "&" doubled. Without a free letter, the text has no mnemonic."""
    starts = [i for i, c in enumerate(text) if c.isalpha() and (i == 0 or not text[i - 1].isalnum())]
    for i in [*starts, *(i for i, c in enumerate(text) if c.isalpha() and i not in starts)]:
        if text[i].casefold() not in used:
            used.add(text[i].casefold())
            return text[:i].replace("&", "&&") + "&" + text[i:].replace("&", "&&")
    return text.replace("&", "&&")


# The answer languages offered by name (any other code can be typed): the language's own name, and its code,
# which is also the Wikipedia edition the wikipedia tool reads.
LANGUAGES = (("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español"), ("it", "Italiano"),
             ("pt", "Português"), ("nl", "Nederlands"), ("pl", "Polski"), ("cs", "Čeština"), ("sv", "Svenska"),
             ("da", "Dansk"), ("fi", "Suomi"), ("no", "Norsk"), ("tr", "Türkçe"), ("ru", "Русский"),
             ("uk", "Українська"), ("el", "Ελληνικά"), ("ar", "العربية"), ("he", "עברית"), ("hi", "हिन्दी"),
             ("zh", "中文"), ("ja", "日本語"), ("ko", "한국어"), ("id", "Bahasa Indonesia"), ("vi", "Tiếng Việt"))
_LANG_SHOWN = re.compile(r"\(([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\)$")


class _Field:
    """One option's editor and its reason label."""

    def __init__(self, opt: Option, value: Any, parent: QWidget) -> None:
        self.opt = opt
        self.error = QLabel(parent)
        self.error.setObjectName("fieldError")
        self.error.setTextFormat(Qt.TextFormat.RichText)
        self.error.setWordWrap(True)
        self.error.hide()
        if opt.type is bool:
            self.widget: QWidget = QCheckBox(label_for(opt.name), parent)
            self.widget.setChecked(bool(value))
        elif opt.choices:
            self.widget = QComboBox(parent)
            for choice in opt.choices:  # shown as words ("Dark"), stored as the schema's value ("dark")
                self.widget.addItem(str(choice).capitalize(), choice)
            self.widget.setCurrentIndex(max(0, self.widget.findData(value)))
        elif opt.name == "lang":  # a list of languages by name, not a box holding "en"; another code can be typed
            self.widget = QComboBox(parent)
            self.widget.setEditable(True)
            for code, name in LANGUAGES:
                self.widget.addItem(f"{name} ({code})", code)
            index = self.widget.findData(value)
            if index >= 0:
                self.widget.setCurrentIndex(index)
            else:
                self.widget.setCurrentText(str(value))
        elif opt.name in ("chat_model", "embed_model"):
            self.widget = QComboBox(parent)
            self.widget.setEditable(True)
            # Sized for a usual name, not the longest one listed: a 90-character model name made the form
            # wider than the dialog, and the reasons under the fields were cut to their first line.
            self.widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.widget.setMinimumContentsLength(20)
            if value:
                self.widget.addItem(str(value))
            self.widget.setCurrentText(str(value))
            self.widget.lineEdit().setPlaceholderText(f"({SERVER_DEFAULT_MODEL})" if opt.name == "chat_model"
                                                      else "(none: keyword search only)")
            # A name longer than the box shows its start ("hf.co/bartowski/Meta-Llama-3.1-70B…"), as a
            # name is read; Qt leaves the cursor after the last letter, which showed only its end
            # ("K_M-imatrix-experimental-v2"). While the user types in the box, the cursor is theirs.
            edit = self.widget.lineEdit()
            self.widget.currentTextChanged.connect(lambda _t, edit=edit: edit.hasFocus() or edit.home(False))
            edit.home(False)
        else:
            blank = opt.name in _BLANK and value == _BLANK[opt.name]
            self.widget = QLineEdit("" if blank else _show(value), parent)
            self.widget.setPlaceholderText(_PLACEHOLDERS.get(opt.name, ""))
            if opt.secret:
                self.widget.setEchoMode(QLineEdit.EchoMode.Password)
            if opt.type in (int, float):  # a number needs a short box, not the dialog's whole width
                self.widget.setFixedWidth(_number_width(self.widget))
        self.widget.setObjectName(_OBJECT_NAMES.get(opt.name, f"setting_{opt.name}"))
        self.widget.setToolTip(opt.description + _range(opt))
        self.widget.setAccessibleName(label_for(opt.name))
        self.widget.setAccessibleDescription(opt.description)

    def named(self) -> str:
        """The field's name in a reason: its label without the unit ("Tool timeout", not "Tool timeout (s)")."""
        return label_for(self.opt.name).split(" (")[0]

    def raw(self) -> Any:
        w = self.widget
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            data = w.currentData()
            if self.opt.name == "lang":  # "Deutsch (de)" is "de"; a code typed is itself
                typed = w.currentText().strip()
                code = _LANG_SHOWN.search(typed)
                return code.group(1) if code else typed
            return data if data is not None and not w.isEditable() else w.currentText().strip()
        return w.text().strip()

    def value(self) -> Any:
        """The typed value, converted and checked; raises SettingsError with the reason."""
        raw = self.raw()
        if self.opt.type in (int, float) and isinstance(raw, str):
            try:
                raw = float(raw.replace(",", ".")) if raw else None
            except ValueError:
                raise SettingsError(f"{self.named()} must be a number, not {shown(raw)}.") from None
            if raw is None and self.opt.name in _BLANK:
                raw = _BLANK[self.opt.name]
            elif raw is None:
                raise SettingsError(f"{self.named()} needs a value.")
            if not math.isfinite(raw):  # "inf", "nan": Python parses them, no setting can hold them
                raise SettingsError(f"{self.named()} must be a finite number, not {shown(self.raw())}.")
            if self.opt.type is int and raw == int(raw):
                raw = int(raw)
        try:
            value = self.opt.check(raw)
        except SettingsError as exc:
            raise SettingsError(str(exc).replace(self.opt.name, self.named(), 1)) from None
        if self.opt.name == "local_model" and value:  # checked here, not in the schema: a settings file
            problem = gguf_problem(Path(value).expanduser())  # naming a drive not mounted keeps its value
            if problem:
                raise SettingsError(f"{self.named()}: {problem}")
        return value

    def validate(self) -> str | None:
        try:
            self.value()
        except SettingsError as exc:
            self.error.setText(_unbroken_addresses(str(exc)))
            self.error.show()
            return str(exc)
        self.error.hide()
        return None


_ADDRESS = re.compile(r"https?://[^\s,']+")
_JOINS = "\u2060"  # a word joiner: no line break between the two characters it stands between


def _unbroken_addresses(reason: str) -> str:
    """``reason`` as rich text whose addresses never wrap: "like http://" ended a line and
    "127.0.0.1:11434/v1" began the next, an example no one could read as one. Qt breaks a line after a
    "/" even in <nobr> or white-space:nowrap; a word joiner between every two characters forbids it."""
    parts, at = [], 0
    for match in _ADDRESS.finditer(reason):
        parts += [html.escape(reason[at:match.start()]),
                  html.escape(_JOINS.join(match.group(0)))]
        at = match.end()
    return "<p>" + "".join(parts) + html.escape(reason[at:]) + "</p>"


def _number_width(box: QLineEdit) -> int:
    """One width for every number box, on every tab: wide enough for the longest "what an empty box
    means" text (boxes of 110, 143 and 150 pixels made the column of short fields ragged)."""
    metrics = box.fontMetrics()
    shown_empty = [metrics.horizontalAdvance(text) + 24 for name, text in _PLACEHOLDERS.items()
                   if OPTIONS[name].type in (int, float)]
    return max([metrics.horizontalAdvance("0") * 14, *shown_empty])


def _range(opt: Option) -> str:
    """" (from 0 to 50)" for a number with limits, so the tooltip says what Save will accept."""
    if opt.type not in (int, float) or opt.minimum is None or opt.maximum is None:
        return ""
    if opt.type is int:  # "to 4,194,304", not "to 4.1943e+06"
        unset = f"{opt.unset}, or " if opt.unset is not None else ""
        return f" ({unset}from {opt.minimum:,} to {opt.maximum:,})"
    return f" (from {_show(float(opt.minimum))} to {_show(float(opt.maximum))})"


def _show(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


class _ModelRow(QWidget):
    """The model box with Test connection beside it, or under it when the two do not fit side by side: with
    an 18 pt font on a 1024×600 screen the button was squeezed to "nnection & load r", cut on both sides."""

    def __init__(self, field: QWidget, button: QPushButton, parent: QWidget) -> None:
        super().__init__(parent)
        self._field, self._button = field, button
        self._row = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.addWidget(field, 1)
        self._row.addWidget(button)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)  # no gaps when stacked

    def _side_by_side(self) -> int:
        return self._field.minimumSizeHint().width() + self._row.spacing() + self._button.sizeHint().width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # as narrow as the wider of the two: the button goes under the box rather than being cut
        hint = super().minimumSizeHint()
        return QSize(max(self._field.minimumSizeHint().width(), self._button.sizeHint().width()), hint.height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        wanted = (QBoxLayout.Direction.LeftToRight if event.size().width() >= self._side_by_side()
                  else QBoxLayout.Direction.TopToBottom)
        if self._row.direction() != wanted:
            self._row.setDirection(wanted)
            self._row.setAlignment(self._button, Qt.AlignmentFlag(0) if wanted == QBoxLayout.Direction.LeftToRight
                                   else Qt.AlignmentFlag.AlignLeft)
            self.updateGeometry()
        super().resizeEvent(event)


_HOST_PORT = re.compile(r"^(?:localhost|[\w.-]+\.[\w.-]+|\[[0-9a-fA-F:]+\]|[\w-]+):\d{1,5}(?:/[^\s]*)?$")


def completed_url(text: str) -> str:
    """A server address as typed, with what it obviously lacks: "localhost:11434" is taken as
    http://localhost:11434/v1 (it was refused: "must be an http:// or https:// address"), and an address
    with no path gets the /v1 every OpenAI-compatible server answers under. Anything else is left as typed."""
    typed = text.strip()
    if "://" not in typed and _HOST_PORT.match(typed):
        typed = "http://" + typed
    elif "://" not in typed:
        return text
    scheme, rest = typed.split("://", 1)
    host = rest.rstrip("/")
    if scheme.lower() in ("http", "https") and host and not any(c in host for c in "/?#"):
        return f"{scheme}://{host}/v1"
    return typed


class SettingsDialog(QDialog):
    """Edits a copy of the settings; ``saved`` carries the new Settings when the user clicks Save."""

    saved = Signal(object)
    personasRenamed = Signal(dict)  # {old name: new name}, sent just before ``saved``

    def __init__(self, settings: Settings, list_models: ListModels | None = None,
                 parent: QWidget | None = None, known: tuple[list[str], list[str]] = ([], [])) -> None:
        """``known``: the chat and embedding models the window's last check found on the server, listed
        at once (the list held only the saved name until "Test connection" was pressed)."""
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle("Settings")
        self.setAccessibleName("Settings")
        self.setMinimumWidth(560)
        self._settings = settings
        self._list_models = list_models
        self._fields: dict[str, _Field] = {}
        self._labels: dict[str, QLabel] = {}
        self._test_task: asyncio.Task[None] | None = None
        self.result_settings: Settings | None = None

        tabs = QTabWidget(self)
        self._tabs = tabs
        self._tab_of: dict[str, int] = {}  # each field's tab
        listed = {n for _, names in _TABS for n in names} | {"personas"}
        others = tuple(o.name for o in SCHEMA if o.name not in listed)
        # options added to the schema later still get a field, built from the schema
        for title, names in (*_TABS, *((("Advanced", others),) if others else ())):
            index = tabs.addTab(self._build_tab(names), title)
            self._tab_of.update(dict.fromkeys(names, index))
        # One label column for all tabs, as wide as the widest label: each tab's form sized its own, and the
        # fields started at a different place on each tab (127 to 206 pixels in), jumping as tabs changed.
        widest = max(label.minimumWidth() for label in self._labels.values())
        for label in self._labels.values():
            label.setMinimumWidth(widest)
        tabs.currentChanged.connect(lambda _index: self.revalidate())
        tabs.addTab(self._build_personas(), "Personas")
        server_url = self.field("base_url")
        server_url.editingFinished.connect(lambda: server_url.setText(completed_url(server_url.text())))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel, self)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveSettings")
        self.buttons.accepted.connect(self._on_save)
        self.buttons.rejected.connect(self.reject)
        self.finished.connect(self._stop_test)
        self.problem = QLabel(self)
        self.problem.setObjectName("fieldError")
        self.problem.setTextFormat(Qt.TextFormat.RichText)
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.problem_text = ""  # what self.problem says, as plain text
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_height)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        for name, switch in _NEEDS.items():
            if name in self._fields and switch in self._fields:
                box = self._fields[switch].widget
                assert isinstance(box, QCheckBox)
                box.toggled.connect(lambda on, name=name: self._set_usable(name, on))
                self._set_usable(name, box.isChecked())
        self.revalidate()
        # A test's result is about the address, key and model it was made with: it goes when they change.
        self.field("base_url").textChanged.connect(self._forget_test)
        self.field("api_key").textChanged.connect(self._forget_test)
        self.field("chat_model").currentTextChanged.connect(self._forget_test)
        self._listed: list[str] = []  # the models the server listed (the window's last check, or the test)
        self.field("chat_model").currentTextChanged.connect(lambda _name: self._warn_model())
        self.field("base_url").textChanged.connect(self._other_server)
        tabs.currentChanged.connect(lambda _index: self._fit_timer.start())
        if any(known):
            self._list(*known)
            self._say_missing(known[0] + known[1])
        # The dialog opens on its first field, not on the tab bar (Qt's first widget in the chain).
        self._fields[_TABS[0][1][0]].widget.setFocus(Qt.FocusReason.OtherFocusReason)
        self._opened = self._state()  # what Esc or Cancel would lose is what differs from this
        self.discard_question: QMessageBox | None = None

    def _set_usable(self, name: str, usable: bool) -> None:
        self._fields[name].widget.setEnabled(usable)
        if name in self._labels:
            self._labels[name].setEnabled(usable)

    # building -------------------------------------------------------------------------------------
    def _build_tab(self, names: tuple[str, ...]) -> QWidget:
        page = QWidget(self)
        form = QFormLayout(page)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name in names:
            opt = OPTIONS[name]
            field = _Field(opt, self._settings[name], page)
            self._fields[name] = field
            box = QVBoxLayout()
            box.setSpacing(2)
            if name == "chat_model":
                self.test_button = QPushButton(page)  # its text, with its mnemonic: below
                self.test_button.setObjectName("testConnection")
                self.test_button.clicked.connect(self.test_connection)
                box.addWidget(_ModelRow(field.widget, self.test_button, page))
                self.test_result = QLabel("", page)
                self.test_result.setObjectName("testResult")
                self.test_result.setWordWrap(True)
                self.test_result.setTextFormat(Qt.TextFormat.RichText)
                self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                self.test_result.hide()  # until there is a result: no gap under the model field
                box.addWidget(self.test_result)
                # a name the server does not list (Save is not held); the names are the server's: as written
                self.model_warning = plain_label(QLabel("", page))
                self.model_warning.setObjectName("fieldWarning")
                self.model_warning.setWordWrap(True)
                self.model_warning.hide()
                box.addWidget(self.model_warning)
            elif name == "local_model":  # a path: typed, pasted, or chosen in a file dialog
                row = QHBoxLayout()
                row.addWidget(field.widget, 1)
                self.browse_button = QPushButton(page)
                self.browse_button.setObjectName("browseLocalModel")
                self.browse_button.setAccessibleName("Choose the built-in model file")
                self.browse_button.setToolTip("Choose a .gguf model file")
                self.browse_button.clicked.connect(self.browse_local_model)
                row.addWidget(self.browse_button)
                box.addLayout(row)
            elif opt.type in (int, float):
                # Aligned, so the short box does not make the whole column as narrow: its reason below
                # took that width too, and four wrapped lines of it were cut to one.
                box.addWidget(field.widget, 0, Qt.AlignmentFlag.AlignLeft)
            else:
                box.addWidget(field.widget)
            if name in _WARNINGS:
                warn = QLabel(_WARNINGS[name], page)
                warn.setObjectName("fieldWarning")
                warn.setWordWrap(True)
                box.addWidget(warn)
                if isinstance(field.widget, QCheckBox):  # a warning about what turning it on allows
                    warn.setVisible(field.widget.isChecked())
                    field.widget.toggled.connect(warn.setVisible)
            box.addWidget(field.error)
            _connect_changed(field.widget, self.revalidate)
            if opt.type is bool:
                form.addRow(box)
            else:
                label = QLabel(label_for(name), page)
                label.setBuddy(field.widget)
                label.setToolTip(opt.description)
                self._labels[name] = label
                form.addRow(label, box)
        # Alt+letter moves to each field (and presses each button) of the tab, a letter once per tab: Qt
        # only answers the mnemonics of what is on screen, so the tabs may reuse each other's letters.
        used: set[str] = set()
        for name in names:
            holder = self._labels.get(name, self._fields[name].widget)
            holder.setText(with_mnemonic(label_for(name), used))
            if isinstance(holder, QLabel):
                # Qt sizes a label by its text's advance; a last letter's ink may reach a pixel past it, and
                # "Tool calls per answer" lost the right of its "r". Two pixels to spare.
                holder.setMinimumWidth(holder.sizeHint().width() + 2)
            if name == "chat_model":
                self.test_button.setText(with_mnemonic("Test connection & load models", used))
            elif name == "local_model":
                self.browse_button.setText(with_mnemonic("Browse…", used))
        return page

    def _build_personas(self) -> QWidget:
        page = QWidget(self)
        self._personas: dict[str, str] = dict(self._settings["personas"])
        self.renamed_personas: dict[str, str] = {}  # a saved name -> its name now
        # Writes the settings on Save, before ``saved``: None when they were written, else why not
        self.commit: Callable[[Settings], str | None] | None = None
        row = QHBoxLayout(page)
        left = QVBoxLayout()
        self.persona_list = QListWidget(page)
        self.persona_list.setObjectName("personaList")
        self.persona_list.setAccessibleName("Personas")
        self.persona_list.addItems(list(self._personas))
        left.addWidget(self.persona_list)
        buttons = QHBoxLayout()
        add = QPushButton("&Add…", page)
        add.clicked.connect(self._add_persona)
        rename = QPushButton("Re&name…", page)
        rename.setObjectName("renamePersona")
        rename.clicked.connect(self._rename_persona)
        remove = QPushButton("&Remove", page)
        remove.setObjectName("removePersona")
        remove.clicked.connect(self._remove_persona)
        self.remove_persona_button = remove
        buttons.addWidget(add)
        buttons.addWidget(rename)
        buttons.addWidget(remove)
        left.addLayout(buttons)
        self.persona_note = plain_label(QLabel("", page))  # why a name was not taken (the name as typed)
        self.persona_note.setObjectName("fieldError")
        self.persona_note.setWordWrap(True)
        self.persona_note.hide()
        left.addWidget(self.persona_note)
        row.addLayout(left, 1)
        self.persona_prompt = QPlainTextEdit(page)
        self.persona_prompt.setObjectName("personaPrompt")
        self.persona_prompt.setAccessibleName("Persona system prompt")
        self.persona_prompt.setPlaceholderText("The system prompt of the selected persona")
        # Tab and Shift+Tab move the focus, as in every field of the dialog: they typed a tab into the prompt,
        # and a keyboard user could not leave it without changing it (a prompt needs no tab)
        self.persona_prompt.setTabChangesFocus(True)
        row.addWidget(self.persona_prompt, 2)
        self.persona_list.currentTextChanged.connect(self._show_persona)
        self.persona_prompt.textChanged.connect(self._persona_edited)
        if self.persona_list.count():
            self.persona_list.setCurrentRow(0)
        self._update_remove()
        return page

    def _update_remove(self) -> None:
        """The last persona cannot be removed: Remove is greyed out then, and its tooltip says why."""
        last = len(self._personas) <= 1
        self.remove_persona_button.setEnabled(not last)
        self.remove_persona_button.setToolTip("A chat needs at least one persona." if last else
                                              "Remove the selected persona")

    def _show_persona(self, name: str) -> None:
        self._current_persona = name
        self.persona_prompt.blockSignals(True)
        self.persona_prompt.setPlainText(self._personas.get(name, ""))
        self.persona_prompt.blockSignals(False)

    def _persona_edited(self) -> None:
        name = getattr(self, "_current_persona", "")
        if name in self._personas:
            self._personas[name] = self.persona_prompt.toPlainText()

    def _add_persona(self) -> None:
        name = self._ask_name("New persona")
        if name is not None:
            self._personas[name] = ""
            self.persona_list.addItem(name)
            self.persona_list.setCurrentRow(self.persona_list.count() - 1)
            self.persona_prompt.setFocus()
            self._update_remove()

    def _ask_name(self, title: str, current: str = "") -> str | None:
        """A persona name typed by the user, or None; a name that cannot be taken is refused in words
        (a name already in the list was ignored without a word, and a too long one refused only at Save)."""
        name, ok = QInputDialog.getText(self, title, "Name:", text=current)
        name = " ".join(name.split())
        self.persona_note.hide()
        if not ok or not name or name == current:
            return None
        if len(name) > MAX_PERSONA_NAME:
            self._say_persona(f"A persona's name is at most {MAX_PERSONA_NAME} characters long; that one has "
                              f"{len(name):,}.")
            return None
        if name in self._personas:
            self.persona_list.setCurrentRow(list(self._personas).index(name))
            self._say_persona(f"There is already a persona called “{name}”: it is selected.")
            return None
        return name

    def _say_persona(self, text: str) -> None:
        self.persona_note.setText(text)
        self.persona_note.show()

    def _rename_persona(self) -> None:
        """Rename the selected persona in place; its chats follow it when the settings are saved."""
        item = self.persona_list.currentItem()
        if item is None:
            return
        old = item.text()
        new = self._ask_name("Rename persona", current=old)
        if new is None:
            return
        self._personas = {new if name == old else name: text for name, text in self._personas.items()}
        saved = next((first for first, now in self.renamed_personas.items() if now == old), old)
        self.renamed_personas[saved] = new
        self._current_persona = new
        item.setText(new)

    def _remove_persona(self) -> None:
        item = self.persona_list.currentItem()
        if item is not None and len(self._personas) > 1:
            self._personas.pop(item.text(), None)
            self.renamed_personas = {a: b for a, b in self.renamed_personas.items() if b != item.text()}
            self.persona_list.takeItem(self.persona_list.row(item))
        self._update_remove()

    def browse_local_model(self) -> str:
        """Choose the built-in model's .gguf file in a file dialog; returns the path chosen ("" if none).
        The dialog opens where the current file is, else in the home folder."""
        field = self._fields["local_model"].widget
        assert isinstance(field, QLineEdit)
        current = Path(field.text().strip()).expanduser() if field.text().strip() else None
        start = current if current is not None and current.parent.is_dir() else Path.home()
        path, _ = QFileDialog.getOpenFileName(self, "Choose the built-in model file", str(start),
                                              "GGUF models (*.gguf);;All files (*)")
        if path:
            field.setText(str(Path(path)))
            field.setFocus()
        return path

    # values ---------------------------------------------------------------------------------------
    def show_tab(self, title: str) -> None:
        """Bring the tab called ``title`` ("Personas") to the front."""
        tabs = self._tabs
        for index in range(tabs.count()):
            if tabs.tabText(index).replace("&", "") == title:
                tabs.setCurrentIndex(index)
                return

    def show_persona(self, name: str) -> None:
        """Bring the Personas tab to the front with ``name`` (the persona in use) selected and the keyboard on
        the list: it opened on the first persona, whichever was in use."""
        self.show_tab("Personas")
        if name in self._personas:
            self.persona_list.setCurrentRow(list(self._personas).index(name))
        self.persona_list.setFocus(Qt.FocusReason.OtherFocusReason)

    def field(self, name: str) -> QWidget:
        return self._fields[name].widget

    def revalidate(self) -> list[str]:
        found = [(name, p) for name, f in self._fields.items() if (p := f.validate())]
        problems = [p for _, p in found]
        self.save_button.setEnabled(not problems)
        self.problem.setVisible(bool(problems))
        self._say_problem(self._summary(found))
        # A tab with a field to correct is marked, so a reason on a tab not in sight is found.
        bar, marked = self._tabs.tabBar(), {self._tab_of[name] for name, _ in found}
        for index in range(self._tabs.count() - 1):  # the last, Personas, says its own (see values)
            bar.setTabTextColor(index, colors().error if index in marked else QColor())
            bar.setTabToolTip(index, "A setting on this tab needs correcting." if index in marked else "")
        self._fit_timer.start()  # once the layouts have taken in the reasons just shown or hidden
        return problems

    def _say_problem(self, text: str) -> None:
        self.problem_text = text
        self.problem.setText(_unbroken_addresses(text) if text else "")

    def _summary(self, found: list[tuple[str, str]]) -> str:
        """The line above Save: a field to correct. Its reason is under the field already: said again only
        for a field on another tab ("Cannot save yet (Tools tab): …"), which is said first."""
        if not found:
            return ""
        here = self._tabs.currentIndex()
        elsewhere = [(name, reason) for name, reason in found if self._tab_of[name] != here]
        if not elsewhere:
            return f"Cannot save yet: see the reason under {self._fields[found[0][0]].named()}."
        name, reason = elsewhere[0]
        tab = self._tabs.tabText(self._tab_of[name]).replace("&", "")
        return f"Cannot save yet ({tab} tab): {reason}"

    def _fit_height(self) -> None:
        """Grow the dialog until the reasons shown under the fields fit. Qt sizes a window by its layout's
        minimum, which counts a wrapped reason as one line: two-line reasons were drawn over the next field
        and the fields squeezed until their text was cut (seven bad limits at once, or a bad Server URL)."""
        layout = self.layout()
        if layout is None or not layout.hasHeightForWidth():
            return
        need = layout.totalHeightForWidth(self.width())
        if need > self.height():
            screen = self.screen()
            room = screen.availableGeometry().height() - 60 if screen is not None else need
            self.resize(self.width(), max(self.height(), min(need, room)))

    def values(self) -> Settings:
        """The edited settings; raises SettingsError naming the first bad field."""
        changes = {name: f.value() for name, f in self._fields.items()}
        try:
            return self._settings.replace(**changes, personas=dict(self._personas))
        except SettingsError as exc:  # only the personas are left to refuse: said as their tab is named
            raise SettingsError(str(exc).replace("personas", "Personas", 1)) from None

    def _on_save(self) -> None:
        if self.revalidate():
            return
        try:
            self.result_settings = self.values()
        except SettingsError as exc:
            self._say_problem(str(exc))
            self.problem.show()
            return
        problem = self.commit(self.result_settings) if self.commit is not None else None
        if problem:  # not saved (a full disk): the dialog stays, with every edit, and says why
            self._say_problem(problem)
            self.problem.show()
            return
        renamed = {old: new for old, new in self.renamed_personas.items() if old != new}
        if renamed:
            self.personasRenamed.emit(renamed)
        self.saved.emit(self.result_settings)
        self.accept()

    # leaving without saving -----------------------------------------------------------------------------
    def _state(self) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
        """The fields as typed and the personas: what Save would write."""
        return ({name: f.raw() for name, f in self._fields.items()}, dict(self._personas),
                {old: new for old, new in self.renamed_personas.items() if old != new})

    def edited(self) -> bool:
        """Whether anything was changed since the dialog opened (a change typed back counts as none)."""
        return self._state() != self._opened

    def reject(self) -> None:
        """Esc, Cancel or the close button: with edits, asks first whether to save, discard or keep editing.
        They went at once, a persona's prompt written over ten minutes with them."""
        if self.discard_question is not None:
            return
        if not self.edited():
            super().reject()
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved settings",
                          "Your changes to Settings are not saved.", QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("discardSettings")
        save = box.addButton(QMessageBox.StandardButton.Save)
        box.addButton(QMessageBox.StandardButton.Discard)
        keep = box.addButton("&Keep editing", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(save)
        box.setEscapeButton(keep)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.finished.connect(lambda _result: self._left(box))
        self.discard_question = box
        box.open()

    def _left(self, box: QMessageBox) -> None:
        """The answer to the question asked by :meth:`reject`: Save checks and saves as the Save button
        does (a field with a problem keeps the dialog open, and says so), Discard closes, Keep editing stays."""
        self.discard_question = None
        box.deleteLater()
        chosen = box.standardButton(box.clickedButton()) if box.clickedButton() is not None else None
        if chosen == QMessageBox.StandardButton.Save:
            self._on_save()
        elif chosen == QMessageBox.StandardButton.Discard:
            super().reject()

    # test connection ------------------------------------------------------------------------------
    def test_connection(self) -> asyncio.Task[None] | None:
        self.test_result.show()
        if self._list_models is None:
            self._say_test("Model listing is not available in this build.", failed=True)
            return None
        try:
            url = self._fields["base_url"].value()
        except SettingsError as exc:
            self._say_test(str(exc), failed=True)
            return None
        key = str(self._fields["api_key"].raw())
        self.test_button.setEnabled(False)
        self._say_test(f"Connecting to {hide_passwords(url)}…")
        self._test_task = asyncio.ensure_future(self._test(url, key))
        return self._test_task

    def _forget_test(self) -> None:
        if self._test_task is None or self._test_task.done():  # a test under way fills the model list itself
            self.test_result.hide()
            self.test_result.clear()
        self._warn_model()

    def _other_server(self) -> None:
        """Another address: what the last one listed says nothing of its models."""
        self._listed = []
        self._warn_model()

    def _warn_model(self) -> None:
        """A Chat model typed that the server's list (fetched already) lacks is said under the field, as the
        status bar's "model missing" would say after Save: it was not, and every question then failed. Save
        is not held back: the server may be offline now, or still pulling the model."""
        name = self._fields["chat_model"].widget.currentText().strip()
        listed = getattr(self, "_listed", [])
        missing = (bool(name and listed) and not has_model(listed, name) and not answers_any_name(listed)
                   and self.test_result.isHidden())  # a test's own "has no model called …" says it there
        chat = [m for m in listed if is_chat_model(m)] or listed
        self.model_warning.setText(f"The server does not list a model called “{name}”; it has {_some(chat)}. "
                                   "Saved like this, questions fail until the server has it." if missing else "")
        self.model_warning.setVisible(missing)
        self._fit_timer.start()

    def _stop_test(self) -> None:
        """The dialog is closing: a test still waiting for the server ends now. Left running, it wrote its
        result into the deleted dialog and a RuntimeError traceback reached the console."""
        if self._test_task is not None and not self._test_task.done():
            self._test_task.cancel()

    async def _test(self, url: str, key: str) -> None:
        try:
            models = await self._list_models(url, key)
        except asyncio.CancelledError:
            raise  # the dialog closed: its widgets may be gone already
        except Exception as exc:  # the client's errors carry a person-readable message
            self.test_button.setEnabled(True)
            self._say_test(_test_failure(exc), failed=True)
            return
        self.test_button.setEnabled(True)
        # Embedding models are no chat models: the first run's rule (one rule, in firstrun) keeps them out of
        # the Chat model list, and puts them first in the Embedding model list.
        chat = [m for m in models if is_chat_model(m)]
        other = [m for m in models if m not in chat]
        current = self._fields["chat_model"].widget.currentText()
        self._list(chat, other, first=True)
        if not models:
            self._say_test("Connected, but the server lists no models.")
        elif current and chat and current not in models:
            self._say_missing(models, "Connected, but the")
        elif not chat:
            self._say_test(f"Connected, but the server lists only embedding models ({_some(other)}): none to "
                           "chat with.", failed=True)
        else:
            self._say_test(f"Connected. {_count(chat, 'chat model')}: {_some(chat)}"
                           + (f" (and {_count(other, 'embedding model')}: {_some(other)})" if other else ""))

    def _list(self, chat: list[str], other: list[str], *, first: bool = False) -> None:
        """The server's chat models in the Chat model list, its others first in the Embedding model list
        (the typed names stay; with ``first``, an empty Chat model takes the first listed)."""
        combo, embed = self._fields["chat_model"].widget, self._fields["embed_model"].widget
        assert isinstance(combo, QComboBox) and isinstance(embed, QComboBox)
        current, current_embed = combo.currentText(), embed.currentText()
        self._listed = [*chat, *other]
        combo.clear()
        combo.addItems(chat)
        combo.setCurrentText(current if current or not first else (chat[0] if chat else ""))
        embed.clear()
        embed.addItems(other + chat)
        embed.setCurrentText(current_embed)

    def _say_missing(self, models: list[str], start: str = "The") -> None:
        """As the status bar's "model missing": saved like this, every question failed on the server."""
        current = self._fields["chat_model"].widget.currentText()
        chat = [m for m in models if is_chat_model(m)]
        if current and chat and current not in models:
            self.test_result.show()
            self._say_test(f"{start} server has no model called “{current}”: choose one of {_some(chat)}.",
                           failed=True)

    def _say_test(self, text: str, *, failed: bool = False) -> None:
        """The test's outcome under the model field; a failure in the error colour (it was as grey as
        "Connected", so a glance did not tell which it was)."""
        self.test_result.setText(inline_code_html(text))  # "`ollama serve`" in a server error: as code
        self.test_result.setProperty("failed", failed)
        self.test_result.style().unpolish(self.test_result)
        self.test_result.style().polish(self.test_result)
        self._fit_timer.start()  # a long server error takes several lines
        self._warn_model()

    def models(self) -> list[str]:
        combo = self._fields["chat_model"].widget
        assert isinstance(combo, QComboBox)
        return [combo.itemText(i) for i in range(combo.count())]


def _test_failure(exc: Exception) -> str:
    """Why the test failed: "Could not connect" only when nothing answered; a server that answered with an
    error (404, 401, a web page) was reached, and "Could not connect" sent the user to check that it ran."""
    text = window_words(str(exc))
    if isinstance(exc, _ANSWERED) and text:
        return "Connected, but " + text[0].lower() + text[1:]
    return f"Could not connect: {text}"


def _count(names: list[str], what: str) -> str:
    return f"{len(names)} {what}{'s' if len(names) != 1 else ''}"


def _some(names: list[str], most: int = 6) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")


def _connect_changed(widget: QWidget, slot: Callable[[], Any]) -> None:
    if isinstance(widget, QCheckBox):
        widget.toggled.connect(lambda _v: slot())
    elif isinstance(widget, QComboBox):
        widget.currentTextChanged.connect(lambda _v: slot())
    elif isinstance(widget, QLineEdit):
        widget.textChanged.connect(lambda _v: slot())
