"""The settings dialog (`settingsDialog`), built from the settings schema: one field per option.

Every field is checked as it is typed, with the schema's own rule; a bad value shows its reason under the
field and Save stays disabled. "Test connection & load models" asks the server for its models without
leaving the dialog (the request runs on the asyncio loop, the window keeps responding).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QInputDialog, QLabel, QLayout, QLineEdit, QListWidget, QMessageBox,
                               QPlainTextEdit, QPushButton, QTabWidget, QVBoxLayout, QWidget)

from ..paths import expand_home
from ..settings import MAX_PERSONA_NAME, OPTIONS, SCHEMA, Settings, SettingsError, server_root
from .confirm_dialog import open_question
from .focus_ring import FocusRing
from .kb_sources_view import RoomyRows
from .plain_text import plain_label
from .screen_fit import FRAME, free_area
from .settings_connection import ConnectionTestMixin, ListModels, ModelRow
from .settings_pages import ScrollPage, around_page, keep_within
from .settings_fields import SettingField, completed_url, connect_changed, label_for, unbroken_addresses, with_mnemonic
from .theme import colors

_TABS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Model", ("base_url", "api_key", "chat_model", "embed_model", "temperature")),
    ("Tools", ("allow_shell_exec", "allow_nanogo", "network_tools", "url_fetch_allow_private", "searxng_url",
               "websearch_results", "nanogo_memory_mb")),
    ("Limits", ("max_tools_total", "max_tools_per_round", "max_continuations", "tool_timeout",
                "connect_timeout", "first_token_timeout", "result_max_chars", "context_tokens")),
    ("General", ("theme", "lang", "chunk_size", "k")),
)
_WARNINGS = {
    "allow_shell_exec": "Warning: the model may run commands on this computer. Each one asks you first.",
    "allow_nanogo": "Warning: the model may run Go programs (sandboxed, with time and memory limits).",
}
# Fields that mean nothing while a switch is off: shown greyed out then. A value typed in one is not checked
# while it is off (a nanoGo memory of 10 held Save back after Go was switched off), and is saved only if it is
# valid: else the value Settings opened with is kept, and the reason comes back if the switch goes on again.
_NEEDS = {"url_fetch_allow_private": "network_tools", "searxng_url": "network_tools",
          "websearch_results": "network_tools", "nanogo_memory_mb": "allow_nanogo"}


class SettingsDialog(ConnectionTestMixin, QDialog):
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
        self._settings = settings
        self._list_models = list_models
        self._fields: dict[str, SettingField] = {}
        self._labels: dict[str, QLabel] = {}
        self._test_task: asyncio.Task[None] | None = None
        self.result_settings: Settings | None = None

        tabs = QTabWidget(self)
        self._tabs = tabs
        self._tab_of: dict[str, int] = {}  # each field's tab
        self._pages: list[ScrollPage] = []  # each tab's page, in a scroll area used on a screen too small
        listed = {n for _, names in _TABS for n in names} | {"personas"}
        others = tuple(o.name for o in SCHEMA if o.name not in listed)
        # options added to the schema later still get a field, built from the schema
        for title, names in (*_TABS, *((("Advanced", others),) if others else ())):
            index = tabs.addTab(self._page(self._build_tab(names)), title)
            self._tab_of.update(dict.fromkeys(names, index))
        # One label column for all tabs, as wide as the widest label: each tab's form sized its own, and the
        # fields started at a different place on each tab (127 to 206 pixels in), jumping as tabs changed.
        widest = max(label.minimumWidth() for label in self._labels.values())
        for label in self._labels.values():
            label.setMinimumWidth(widest)
        tabs.currentChanged.connect(lambda _index: self.revalidate())
        tabs.addTab(self._page(self._build_personas()), "Personas")
        self.field("base_url").editingFinished.connect(self._complete_url)
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
        self._fit_rooms()  # as wide as the fields need, within the screen: before it opens at that width
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

    def _complete_url(self) -> None:
        """The Server URL as it will be used, shown when the user leaves the field: completed
        ("localhost:11434" is http://localhost:11434/v1), and cut back when an endpoint was pasted whole
        (LM Studio's docs show http://localhost:1234/v1/chat/completions), saying so under it."""
        field = self.field("base_url")
        typed = field.text().strip()
        used = completed_url(typed)
        if used != field.text():
            field.setText(used)
        cut = typed[len(server_root(typed)):]
        if cut:
            self.url_note.setText(f"“{cut}” was taken off the end: tinyRAG adds it to the Server URL itself, "
                                  "so the address above is the one used.")
        self.url_note.setVisible(bool(cut))
        self._fit_timer.start()

    def _page(self, page: QWidget) -> ScrollPage:
        self._pages.append(ScrollPage(page, self._tabs))
        return self._pages[-1]

    def _fit_rooms(self) -> QSize:
        """Give each page the room the screen's free area leaves it, and the dialog the width they need;
        returns the dialog round the page."""
        free = free_area(self).size() - FRAME
        chrome = around_page(self, self._tabs, self._pages)
        room = QSize(max(120, free.width() - chrome.width()), max(120, free.height() - chrome.height()))
        widest = 0
        for page in self._pages:
            page.set_room(room)
            widest = max(widest, page.minimumSizeHint().width())
        # As wide as the widest page needs (a minimum of its own replaces the layout's), and 560 pixels, so a
        # short tab's fields are not crammed, where the screen has them.
        self.setMinimumWidth(max(min(560, free.width()), chrome.width() + widest))
        return chrome

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
            field = SettingField(opt, self._settings[name], page)
            self._fields[name] = field
            box = QVBoxLayout()
            box.setSpacing(2)
            if name == "chat_model":
                self.test_button = QPushButton(page)  # its text, with its mnemonic: below
                self.test_button.setObjectName("testConnection")
                self.test_button.clicked.connect(self.test_connection)
                box.addWidget(ModelRow(field.widget, self.test_button, page))
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
            if name == "base_url":  # what was taken off a pasted endpoint, said under it
                self.url_note = plain_label(QLabel("", page))
                self.url_note.setObjectName("urlNote")
                self.url_note.setWordWrap(True)
                self.url_note.hide()
                box.addWidget(self.url_note)
                field.widget.textEdited.connect(lambda _text: self.url_note.hide())
            if name in _WARNINGS:
                warn = QLabel(_WARNINGS[name], page)
                warn.setObjectName("fieldWarning")
                warn.setWordWrap(True)
                box.addWidget(warn)
                if isinstance(field.widget, QCheckBox):  # a warning about what turning it on allows
                    warn.setVisible(field.widget.isChecked())
                    field.widget.toggled.connect(warn.setVisible)
            box.addWidget(field.error)
            connect_changed(field.widget, self.revalidate)
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
        # rows as tall as a name drew the focus ring across its letters
        self.persona_list.setItemDelegate(RoomyRows(self.persona_list))
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
        FocusRing(self.persona_prompt, self.persona_prompt, radius=3)  # Fusion's frame showed only the caret
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
        current = expand_home(field.text().strip(), keep_unknown=True) if field.text().strip() else None
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

    def show_field(self, name: str | None) -> None:
        """Bring the field ``name`` ("api_key") to the front with the keyboard in it, its text selected to be
        typed over: an error's Open Settings put the cursor in the Server URL, whichever field was wrong.
        None leaves the tab as it is."""
        if name is None:
            return
        self.show_tab(next((title for title, names in _TABS if name in names), "Advanced"))
        widget = self.field(name)
        widget.setFocus(Qt.FocusReason.OtherFocusReason)
        edit = widget.lineEdit() if isinstance(widget, QComboBox) else widget
        if isinstance(edit, QLineEdit):
            edit.selectAll()

    def show_persona(self, name: str) -> None:
        """Bring the Personas tab to the front with ``name`` (the persona in use) selected and the keyboard on
        the list: it opened on the first persona, whichever was in use."""
        self.show_tab("Personas")
        if name in self._personas:
            self.persona_list.setCurrentRow(list(self._personas).index(name))
        self.persona_list.setFocus(Qt.FocusReason.OtherFocusReason)

    def field(self, name: str) -> QWidget:
        return self._fields[name].widget

    def _switched_off(self, name: str) -> bool:
        """Whether ``name`` is a field greyed out by its switch (see _NEEDS)."""
        switch = self._fields.get(_NEEDS.get(name, ""))
        return switch is not None and not switch.raw()

    def revalidate(self) -> list[str]:
        found = [(name, p) for name, f in self._fields.items()
                 if (p := f.validate(checked=not self._switched_off(name)))]
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
        self.problem.setText(unbroken_addresses(text) if text else "")

    def _summary(self, found: list[tuple[str, str]]) -> str:
        """The line above Save: the fields to correct. Their reasons are under them already: said again only
        for a field on another tab ("Cannot save yet (Tools tab): …"), which is said first. The others are
        named, the first one or two by name ("see the reasons under Server URL and API key"): with two bad
        fields it named only the first."""
        if not found:
            return ""
        here = self._tabs.currentIndex()
        elsewhere = [(name, reason) for name, reason in found if self._tab_of[name] != here]
        if not elsewhere:
            reasons = "reason" if len(found) == 1 else "reasons"
            return f"Cannot save yet: see the {reasons} under {self._named([name for name, _ in found])}."
        name, reason = elsewhere[0]
        tab = self._tabs.tabText(self._tab_of[name]).replace("&", "")
        others = [other for other, _ in found if other != name]
        return f"Cannot save yet ({tab} tab): {reason}" + (f" Also see {self._named(others)}." if others else "")

    def _named(self, names: list[str]) -> str:
        """"Server URL", "Server URL and API key", "Server URL and 2 other fields": briefly, however many."""
        first = [self._fields[name].named() for name in names[:2]]
        if len(names) <= 2:
            return " and ".join(first)
        return f"{first[0]} and {len(names) - 1} other fields"

    def _fit_height(self) -> None:
        """Grow the dialog until the reasons shown under the fields fit (wider first, on a screen too low for
        them). Qt sizes a window by its layout's minimum, which counts a wrapped reason as one line: two-line
        reasons were drawn over the next field and the fields squeezed until their text was cut."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()  # the labels at the widths they get now
        # Each wrapped text as tall as its lines at the width it has. The form shared its height out by the
        # heights its layouts had kept from the reasons' old texts, and with all eight limits wrong "Context
        # to use must be at least 1536…" got one and a half of its four lines.
        for label in self.findChildren(QLabel):
            if label.wordWrap() and label.isVisible() and label.window() is self:  # not a question's over it
                label.setMinimumHeight(0)  # QLabel's heightForWidth is never less than its minimum height
                label.setMinimumHeight(label.heightForWidth(label.width()) if label.text() else 0)
        # The new heights reach the dialog's layout through the page's, the tab stack's and the tabs' layout
        # requests, each posted by the one before: measured before they ran, it held the old heights.
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self._tabs.updateGeometry()  # its size, kept by the dialog's layout, changes only with a page shown
        layout.activate()
        # The page's whole height (not the part the screen has room for) at the width it has
        chrome = self._fit_rooms()
        need = chrome.height() + self._tabs.currentWidget().wanted(self.width() - chrome.width()).height()
        free = free_area(self).size() - FRAME
        room = free.height()
        if need > room and self.width() < free.width():
            # Too tall for the screen (a small one, a large font): wider, the reasons take fewer lines (fitted
            # again from resizeEvent). Only on a screen too small even so does the page scroll.
            self.resize(free.width(), self.height())
        elif need > self.height():
            self.resize(self.width(), min(need, room))
        elif self.height() > room:  # grown before it was widened: back within the screen
            self.resize(self.width(), room)
        keep_within(self, free_area(self))
        # The form shares its height out by the heights it last measured for this width, kept from before
        # the reasons' new heights: the rows came out all alike, and a box under a long reason lost a pixel.
        page = self._tabs.currentWidget().widget().layout()
        _forget_sizes(page)
        page.activate()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # narrower, the reasons take more lines
            self._fit_timer.start()

    def values(self) -> Settings:
        """The edited settings; raises SettingsError naming the first bad field."""
        changes = {name: self._value(name) for name in self._fields}
        try:
            return self._settings.replace(**changes, personas=dict(self._personas))
        except SettingsError as exc:  # only the personas are left to refuse: said as their tab is named
            raise SettingsError(str(exc).replace("personas", "Personas", 1)) from None

    def _value(self, name: str) -> Any:
        """The field's value; a field switched off keeps the value Settings opened with when its own is bad."""
        try:
            return self._fields[name].value()
        except SettingsError:
            if self._switched_off(name):
                return self._settings[name]
            raise

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

    def follow(self, changes: dict[str, Any]) -> None:
        """Show the settings another program changed while the dialog is open (settings_watch.py) in the fields
        the user has not touched; a field they edited keeps their value, which Save writes. The fields showed
        the values the dialog opened with, and a Save over them looked as if it would put those back."""
        typed = self._opened[0]
        for name, value in changes.items():
            field = self._fields.get(name)
            if field is None or field.raw() != typed[name]:
                continue
            field.show_value(value)
            typed[name] = field.raw()
            self._settings = self._settings.replace(**{name: value})
        self.revalidate()

    @property
    def shown(self) -> Settings:
        """The settings the fields showed before the user's edits: as the dialog opened, with what it followed
        since. Save's edits are the differences from these (a value followed, then typed back, is an edit)."""
        return self._settings

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
        discard = box.addButton(QMessageBox.StandardButton.Discard)
        keep = box.addButton("&Keep editing", QMessageBox.ButtonRole.RejectRole)
        # Alt+S, Alt+D and Alt+K: Qt's Save and Discard had no letter, and only Keep editing answered to one
        save.setText("&Save")
        discard.setText("&Discard")
        self.discard_question = box
        # Enter on Keep editing, as the Quit question's on Cancel: with Save there, Esc then Enter (the
        # reflex to make a dialog go away) saved the very edits the user was leaving behind
        open_question(box, keep, keep, self._left)

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


def _forget_sizes(layout: QLayout) -> None:
    """Make ``layout`` and every layout in it measure their items again."""
    layout.invalidate()
    for index in range(layout.count()):
        inner = layout.itemAt(index).layout()
        if inner is not None:
            _forget_sizes(inner)
