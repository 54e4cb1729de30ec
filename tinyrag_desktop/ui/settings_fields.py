"""The settings dialog's fields: one option's editor with its label and reason, and the address completed."""

from __future__ import annotations

import html
import math
import re
from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QWidget

from ..localmodel import gguf_problem
from ..paths import UnknownHome, expand_home
from ..settings import OPTIONS, SERVER_DEFAULT_MODEL, Option, SettingsError, server_root, shown
from .access import caret_placed


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


class SettingField:
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
        elif opt.choices:
            self.widget = QComboBox(parent)
            for choice in opt.choices:  # shown as words ("Dark"), stored as the schema's value ("dark")
                self.widget.addItem(str(choice).capitalize(), choice)
        elif opt.name == "lang":  # a list of languages by name, not a box holding "en"; another code can be typed
            self.widget = QComboBox(parent)
            self.widget.setEditable(True)
            for code, name in LANGUAGES:
                self.widget.addItem(f"{name} ({code})", code)
        elif opt.name in ("chat_model", "embed_model"):
            self.widget = QComboBox(parent)
            self.widget.setEditable(True)
            # Sized for a usual name, not the longest one listed: a 90-character model name made the form
            # wider than the dialog, and the reasons under the fields were cut to their first line.
            self.widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.widget.setMinimumContentsLength(20)
            self.widget.lineEdit().setPlaceholderText(f"({SERVER_DEFAULT_MODEL})" if opt.name == "chat_model"
                                                      else "(none: keyword search only)")
            # A name longer than the box shows its start ("hf.co/bartowski/Meta-Llama-3.1-70B…"), as a
            # name is read; Qt leaves the cursor after the last letter, which showed only its end
            # ("K_M-imatrix-experimental-v2"). While the user types in the box, the cursor is theirs.
            edit = self.widget.lineEdit()
            self.widget.currentTextChanged.connect(lambda _t, edit=edit: edit.hasFocus() or edit.home(False))
        else:
            self.widget = QLineEdit(parent)
            self.widget.setPlaceholderText(_PLACEHOLDERS.get(opt.name, ""))
            if opt.secret:
                self.widget.setEchoMode(QLineEdit.EchoMode.Password)
            if opt.type in (int, float):  # a number needs a short box, not the dialog's whole width
                self.widget.setFixedWidth(_number_width(self.widget))
        self.show_value(value)
        self.widget.setObjectName(_OBJECT_NAMES.get(opt.name, f"setting_{opt.name}"))
        self.widget.setToolTip(opt.description + _range(opt))
        self.widget.setAccessibleName(label_for(opt.name))
        self.widget.setAccessibleDescription(opt.description)

    def show_value(self, value: Any) -> None:
        """Put ``value`` in the field, as the dialog opens or as another program changed it meanwhile."""
        w = self.widget
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif self.opt.choices:
            w.setCurrentIndex(max(0, w.findData(value)))
        elif self.opt.name == "lang":
            index = w.findData(value)
            if index >= 0:
                w.setCurrentIndex(index)
            else:
                w.setCurrentText(str(value))
        elif isinstance(w, QComboBox):  # a model's name
            if value and w.findText(str(value)) < 0:
                w.addItem(str(value))
            w.setCurrentText(str(value))
            w.lineEdit().home(False)
        else:
            blank = self.opt.name in _BLANK and value == _BLANK[self.opt.name]
            w.setText("" if blank else _show(value))
            caret_placed(w)

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
            try:
                problem = gguf_problem(expand_home(value))  # naming a drive not mounted keeps its value
            except UnknownHome as exc:
                problem = f"{value}: {exc}."
            if problem:
                raise SettingsError(f"{self.named()}: {problem}")
        return value

    def validate(self, checked: bool = True) -> str | None:
        """The reason the value is refused, also shown under the field; None (and no reason shown) when it is
        taken, or when it is not ``checked`` (a field its switch has greyed out)."""
        try:
            if checked:
                self.value()
        except SettingsError as exc:
            self.error.setText(unbroken_addresses(str(exc)))
            self.error.show()
            return str(exc)
        self.error.hide()
        return None


_ADDRESS = re.compile(r"https?://[^\s,']+")
_JOINS = "\u2060"  # a word joiner: no line break between the two characters it stands between


def unbroken_addresses(reason: str) -> str:
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


_HOST_PORT = re.compile(r"^(?:localhost|[\w.-]+\.[\w.-]+|\[[0-9a-fA-F:]+\]|[\w-]+):\d{1,5}(?:/[^\s]*)?$")


def completed_url(text: str) -> str:
    """A server address as typed, with what it obviously lacks: "localhost:11434" is taken as
    http://localhost:11434/v1 (it was refused: "must be an http:// or https:// address"), and an address
    with no path gets the /v1 every OpenAI-compatible server answers under. An endpoint pasted whole
    (".../v1/chat/completions") is cut back to the server's address first. Anything else is left as typed."""
    typed = server_root(text)
    if "://" not in typed and _HOST_PORT.match(typed):
        typed = "http://" + typed
    elif "://" not in typed:
        return text
    scheme, rest = typed.split("://", 1)
    host = rest.rstrip("/")
    if scheme.lower() in ("http", "https") and host and not any(c in host for c in "/?#"):
        return f"{scheme}://{host}/v1"
    return typed


def connect_changed(widget: QWidget, slot: Callable[[], Any]) -> None:
    if isinstance(widget, QCheckBox):
        widget.toggled.connect(lambda _v: slot())
    elif isinstance(widget, QComboBox):
        widget.currentTextChanged.connect(lambda _v: slot())
    elif isinstance(widget, QLineEdit):
        widget.textChanged.connect(lambda _v: slot())
