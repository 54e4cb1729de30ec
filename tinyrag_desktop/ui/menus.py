"""The window's menus and shortcuts, and the Help → Keyboard shortcuts list built from them."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QSize, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence, QTextDocument
from PySide6.QtWidgets import (
    QApplication, QDialog, QDialogButtonBox, QDockWidget, QFrame, QLabel, QMenu, QMessageBox, QScrollArea,
    QStyle, QVBoxLayout, QWidget,
)

from ..logsetup import LOG_FILE
from .chat_list import is_search_hit
from .focus_ring import FocusRing
from .key_text import key_text
from .screen_fit import fitted

if TYPE_CHECKING:
    from .main_window import MainWindow


@dataclass
class Menus:
    new_chat: QAction
    settings: QAction
    stop: QAction
    regenerate: QAction
    copy_answer: QAction
    show_routing: QAction
    show_sidebar: QAction
    shortcuts: QAction
    own: list[QAction]  # made here, so Python owns them and their wrappers stay valid
    dock: QDockWidget | None

    @property
    def all(self) -> list[QAction]:
        """The actions the Help list shows. The knowledge panel's is asked of its dock each time: Qt makes
        that action, and a wrapper of it kept here went stale once an answer holding the focus was deleted
        (Regenerate from the keyboard), so F1 raised "Internal C++ object already deleted"."""
        return [*self.own, *([self.dock.toggleViewAction()] if self.dock is not None else [])]


def _action(win: "MainWindow", menu, text: str, slot: Callable[..., object], shortcut: str | QKeySequence = "",
            name: str = "", checkable: bool = False) -> QAction:
    act = QAction(text, win)
    if shortcut:
        act.setShortcut(QKeySequence(shortcut))
    act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    if name:
        act.setObjectName(name)
    act.setCheckable(checkable)
    act.triggered.connect(slot)
    menu.addAction(act)
    win.addAction(act)
    return act


def _chats_shown(win: "MainWindow", then: Callable[[], None]) -> Callable[[], None]:
    """``then``, with the chats list shown first when it was hidden (Ctrl+B, or a narrow window folded
    it): Ctrl+K and F2 sent the keys into a search box or a title no one could see."""
    def go() -> None:
        if not win.menus.show_sidebar.isChecked():
            win.menus.show_sidebar.trigger()  # as Ctrl+B: checked, the list shown, the user's own choice
        then()
    return go


def _in_window(win: "MainWindow", then: Callable[[], None]) -> Callable[[], None]:
    """``then``, with the main window made the active one first: pressed in the floating knowledge panel,
    Ctrl+L, Ctrl+K and Ctrl+F moved the focus inside the window behind it, and nothing was seen to happen."""
    def go() -> None:
        if not win.isActiveWindow():
            win.raise_()
            win.activateWindow()
        then()
    return go


def _open_menu_bar(win: "MainWindow") -> None:
    """F10, as in most desktop programs: the menu bar's first menu opened (Alt alone only marks the bar)."""
    bar = win.menuBar()
    menus = [act for act in bar.actions() if act.menu() is not None and act.isVisible()]
    if menus:
        bar.setActiveAction(menus[0])


def _knowledge_key(win: "MainWindow") -> Callable[[], None]:
    """Ctrl+Shift+K: opens the knowledge panel with the focus in it; with the panel open and the focus
    elsewhere, moves the focus into it; only with the focus already in it does it close it, and the focus goes
    back where it was before the key brought it in (else to the message box)."""
    before: list[QWidget] = []

    def press() -> None:
        dock = win.kb_dock
        focus = QApplication.focusWidget()
        if dock.isVisible() and focus is not None and dock.isAncestorOf(focus):
            dock.hide()
            back = before.pop() if before else None
            try:
                usable = back is not None and back.isVisible() and back.isEnabled()
            except RuntimeError:  # deleted since (a chat's answer, closed)
                usable = False
            (back if usable else win.composer).setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        before[:] = [focus] if focus is not None and focus.window() is win else []
        dock.show()
        dock.raise_()  # tabbed with another dock, its tab comes to the front
        dock.widget().setFocus(Qt.FocusReason.ShortcutFocusReason)

    return press


def _rename_shown(win: "MainWindow") -> None:
    """F2: the current chat's title edited in the list, shown for it when hidden, and hidden again once the
    title is given or left: in a narrow window the list stayed open over half of it. A chat found by a search
    is renamed in a dialog: the list is not shown for it."""
    item = win.sidebar.list.currentItem()
    if item is not None and is_search_hit(item):
        win.sidebar.rename_current()
        return
    hidden = not win.menus.show_sidebar.isChecked()
    _chats_shown(win, win.sidebar.rename_current)()
    if hidden and win.sidebar.renaming:
        win.sidebar.when_renamed(lambda: win.menus.show_sidebar.isChecked() and win.menus.show_sidebar.trigger())


def build_menus(win: "MainWindow") -> Menus:
    bar = win.menuBar()
    acts: list[QAction] = []
    f = bar.addMenu("&File")
    new_chat = _action(win, f, "&New chat", win.new_chat, "Ctrl+N", "actionNewChat")
    f.addSeparator()
    export_md = _action(win, f, "Export chat as &Markdown…", lambda: win.export_dialog("md"), "Ctrl+Shift+E")
    export_html = _action(win, f, "Export chat as &HTML…", lambda: win.export_dialog("html"))
    f.addSeparator()
    settings = _action(win, f, "&Settings…", win.open_settings, "Ctrl+,", "actionSettings")
    f.addSeparator()
    quit_ = _action(win, f, "&Quit", win.close, "Ctrl+Q")
    e = bar.addMenu("&Edit")
    stop = _action(win, e, "&Stop answer", win.stop, "Esc", "actionStop")
    stop.setEnabled(False)
    # Esc is the chat's: in its conversation, its message box and their buttons. As a window shortcut it
    # took a waiting question back (or stopped the answer) when pressed in the knowledge panel's search box
    # or the chats list, where Esc means something else or nothing.
    stop.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    win.removeAction(stop)
    win.chat_column.addAction(stop)
    regenerate = _action(win, e, "&Regenerate last answer", lambda: win.regenerate(), "Ctrl+R")
    # ↑ shown as its key, not made one: as a shortcut it would take ↑ from the message box and every list
    edit_last = _action(win, e, "&Edit last question\t↑", win.edit_last_question, name="actionEditLast")
    copy_answer = _action(win, e, "&Copy last answer as Markdown", win.copy_last_answer, "Ctrl+Shift+C")
    e.addSeparator()
    focus = _action(win, e, "&Focus the message box", _in_window(win, win.composer.setFocus), "Ctrl+L")
    search = _action(win, e, "Search &chats", _in_window(win, _chats_shown(win, win.sidebar.search.setFocus)),
                     "Ctrl+K")
    find = _action(win, e, "F&ind in chat", _in_window(win, win.find_bar.open_bar), "Ctrl+F", "actionFind")
    find_next = _action(win, e, "Find ne&xt", win.find_bar.find_next, "F3", "actionFindNext")
    find_previous = _action(win, e, "Find pre&vious", win.find_bar.find_previous, "Shift+F3", "actionFindPrevious")
    rename = _action(win, e, "Re&name chat", lambda: _rename_shown(win), "F2")
    delete = _action(win, e, "&Delete chat", win.sidebar.delete_current, "Ctrl+Shift+Backspace")
    v = bar.addMenu("&View")
    show_routing = _action(win, v, "Show &routing", win.set_show_route, "Ctrl+Shift+R", "actionShowRouting",
                           checkable=True)
    # A lambda, not setVisible itself: PySide connects a C++ slot to triggered() without the checked flag,
    # and setVisible() with no argument raised a TypeError, so Ctrl+B did nothing.
    show_sidebar = _action(win, v, "Show c&hats", lambda on: win.sidebar.setVisible(on), "Ctrl+B",
                           checkable=True)
    show_sidebar.setChecked(True)
    acts += [new_chat, export_md, export_html, settings, quit_, stop, regenerate, edit_last, copy_answer, focus, search,
             find, find_next, find_previous, rename, delete, show_routing, show_sidebar]
    if win.kb_dock is not None:
        # The menu item is the dock's own: its check mark follows the panel, however it was opened or closed.
        # It names the shortcut, but the key is a window action of its own (_knowledge_key): as the dock's
        # toggle, Ctrl+Shift+K closed the open panel even when the focus was elsewhere, where the user
        # wanted to go to it. Only while the menu is open does the key toggle the item itself.
        kb = win.kb_dock.toggleViewAction()
        kb.setText("&Knowledge base")
        kb.setShortcut(QKeySequence("Ctrl+Shift+K"))
        kb.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        # Opened from the menu, the panel takes the focus: otherwise it took many Tabs to reach it.
        kb.triggered.connect(lambda on: on and win.kb_dock.widget().setFocus(Qt.FocusReason.ShortcutFocusReason))
        v.addAction(kb)
        key = QAction("Knowledge base", win)
        key.setObjectName("actionKnowledgeKey")
        key.setShortcut(QKeySequence("Ctrl+Shift+K"))
        key.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        key.triggered.connect(_knowledge_key(win))
        win.addAction(key)
    bar_key = QAction("Open the menu bar", win)
    bar_key.setObjectName("actionMenuBar")
    bar_key.setShortcut(QKeySequence("F10"))
    bar_key.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    bar_key.triggered.connect(_in_window(win, lambda: _open_menu_bar(win)))
    win.addAction(bar_key)
    acts.append(bar_key)
    _follow_the_chat(win, (f, e), answered=[regenerate, copy_answer], chat=[edit_last, export_md, export_html],
                     listed=[rename, delete])
    h = bar.addMenu("&Help")
    _action(win, h, "&User guide", lambda: open_user_guide(win), name="actionUserGuide")
    shortcuts = _action(win, h, "&Keyboard shortcuts", lambda: show_shortcuts(win, win.menus.all), "F1",
                        "actionShortcuts")
    h.addSeparator()
    _action(win, h, "Open &data folder", lambda: open_folder(win, win.data_dir), name="actionDataFolder")
    _action(win, h, "Open &log folder", lambda: open_folder(win, win.data_dir / LOG_FILE.parent),
            name="actionLogFolder")
    h.addSeparator()
    _action(win, h, "&About tinyRAG Desktop", lambda: _about(win))
    return Menus(new_chat, settings, stop, regenerate, copy_answer, show_routing, show_sidebar, shortcuts, acts,
                 win.kb_dock)


# The headings of the Help → Keyboard shortcuts list, in order, and the rows under each, by their words. A
# row not named here (a menu item added later) goes under the last heading.
_GROUPS: dict[str, tuple[str, ...]] = {
    "Asking": ("Send the question", "New line in the question", "Edit your last question (Esc cancels)",
               "Stop answer", "Regenerate last answer", "Copy last answer as Markdown", "Focus the message box"),
    "Chats": ("New chat", "Search chats", "Rename chat", "Delete chat", "Delete the chat selected in the chats list",
              "Bring back the chat just deleted, in the chats list", "Export chat as Markdown", "Show chats"),
    "Finding": ("Find in chat", "Find next", "Find previous", "Next / previous match, in the find bar",
                "Close the find bar"),
    "Moving around": ("Move between cards and buttons", "Read a message line by line, after Tab to its words",
                      "Go to the start / end of an answer's words", "Open or close a tool card",
                      "Go to the start / end of the conversation", "Select line by line, on across an answer",
                      "Select all of the message you are reading", "Open the right-click menu of what has the focus"),
    "Window": (),
}
# Keys that belong to a place, not to a menu item: said in the list beside the menus' own. The Ctrl keys are
# asked of Qt (key_text), as the menus' are: on macOS they are ⌘ keys.
def _place_keys() -> list[tuple[str, str]]:
    return [("Send the question", "Enter"), ("New line in the question", "Shift+Enter"),
            ("Edit your last question (Esc cancels)", "↑ in the empty message box"),
            ("Next / previous match, in the find bar", "Enter / Shift+Enter"), ("Close the find bar", "Esc"),
            ("Move between cards and buttons", "Tab / Shift+Tab"),
            ("Read a message line by line, after Tab to its words", "↓ / ↑"),
            ("Go to the start / end of an answer's words", key_text("Ctrl+Home", "Ctrl+End")),
            ("Open or close a tool card", "Space"),
            # F2 renames whichever chat is current (the Edit menu's Rename chat): one row says so
            ("Delete the chat selected in the chats list", "Delete"),
            ("Bring back the chat just deleted, in the chats list", key_text(QKeySequence.StandardKey.Undo)),
            ("Go to the start / end of the conversation", "Home / End"),
            ("Select line by line, on across an answer", "Shift+↓ / Shift+↑"),
            ("Select all of the message you are reading", key_text(QKeySequence.StandardKey.SelectAll)),
            ("Open the right-click menu of what has the focus", "Menu key / Shift+F10")]


def _follow_the_chat(win: "MainWindow", menus: tuple[QMenu, ...], *, answered: list[QAction],
                     chat: list[QAction], listed: list[QAction]) -> Callable[[], None]:
    """Enable the menu items that act on the chat only while they can: ``answered`` while the open chat
    shows an answer, ``chat`` while a chat is open (a new one has none until its first question), ``listed``
    while the chats list has a current chat (F2 and Delete act on it, opened or only reached by the keyboard).
    In an empty new chat Regenerate, Copy last answer, Rename and Export were offered and did nothing."""
    def update(*_args: object) -> None:
        is_open = win.chat_id is not None
        for act in answered:
            act.setEnabled(is_open and bool(win.view.answers()))
        for act in chat:
            act.setEnabled(is_open)
        for act in listed:
            act.setEnabled(bool(win.sidebar.current_id()))

    # A question sent adds its answer (answerAdded); a chat opened or a new one empties the view first.
    for signal in (win.view.cleared, win.view.answerAdded, win.chatOpened, win.answerFinished,
                   win.sidebar.list.currentItemChanged, *(menu.aboutToShow for menu in menus)):
        signal.connect(update)
    update()
    return update


def shortcut_rows(actions: list[QAction]) -> list[tuple[str, str]]:
    """Every shortcut in words and keys: the menus' (with a key of their own), then the places' own keys."""
    rows = [(a.text().replace("&", "").split("\t", 1)[0].rstrip("…"),
             a.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
            for a in actions if not a.shortcut().isEmpty()]
    return rows + _place_keys()


def shortcut_groups(actions: list[QAction]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The shortcut rows under their headings (see _GROUPS), in the headings' order; empty groups left out."""
    heading_of = {name: heading for heading, names in _GROUPS.items() for name in names}
    last = list(_GROUPS)[-1]
    grouped: dict[str, list[tuple[str, str]]] = {heading: [] for heading in _GROUPS}
    for name, keys in shortcut_rows(actions):
        grouped[heading_of.get(name, last)].append((name, keys))
    order = {name: i for names in _GROUPS.values() for i, name in enumerate(names)}
    return [(heading, sorted(rows, key=lambda row: order.get(row[0], len(order))))
            for heading, rows in grouped.items() if rows]


def _shortcuts_table(groups: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """The groups as one table: a heading, then a row per shortcut, its keys bold on the right (with room
    before a scroll bar: "↑ in the empty message box" ended 7 px from it)."""
    rows = "".join(
        f"<tr><td colspan='2' style='padding:{12 if i else 0}px 0 4px 0'><span style='font-size:large'><b>"
        f"{html.escape(heading)}</b></span></td></tr>"
        + "".join(f"<tr><td style='padding:3px 18px 3px 12px'>{html.escape(name)}</td>"
                  f"<td style='padding:3px 12px 3px 0'><b>{html.escape(keys)}"
                  "</b></td></tr>" for name, keys in group)
        for i, (heading, group) in enumerate(groups))
    return f"<table>{rows}</table>"


def _two_columns(groups: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """The groups side by side, split where each side has about half the rows: in one column, 37 rows made
    the list 750 px tall, and "Window" was out of sight even on a 1080-px screen."""
    sizes = [len(group) + 2 for _heading, group in groups]  # a heading takes about two rows' height
    split = min(range(1, len(groups)), key=lambda n: abs(sum(sizes[:n]) - sum(sizes[n:])), default=len(groups))
    return (f"<table><tr><td valign='top'>{_shortcuts_table(groups[:split])}</td>"
            f"<td style='padding:0 0 0 24px' valign='top'>{_shortcuts_table(groups[split:])}</td></tr></table>")


def _natural_size(text: str, label: QLabel) -> QSize:
    """The size of ``text`` laid out in ``label``'s font with no line wrapped."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    doc.setHtml(text)
    doc.setTextWidth(100_000)
    doc.setTextWidth(doc.idealWidth())
    return QSize(math.ceil(doc.idealWidth()), math.ceil(doc.size().height()))


def show_shortcuts(win: "MainWindow", actions: list[QAction]) -> QDialog:
    dialog = QDialog(win)
    dialog.setObjectName("shortcutsDialog")
    dialog.setWindowTitle("Keyboard shortcuts")
    layout = QVBoxLayout(dialog)
    groups = shortcut_groups(actions)
    label = QLabel(dialog)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)  # on a narrow screen a long row wraps rather than hiding its keys on the right
    # The list scrolls, and the dialog is no larger than the screen: at 200 % on a 1080p screen, or with an
    # 18 pt font on 1024×600, its last rows and Close were below the screen's edge. The list itself takes
    # the focus, so the arrows and Page Down scroll it.
    scroll = QScrollArea(dialog)
    scroll.setObjectName("shortcutsList")
    scroll.setAccessibleName("Keyboard shortcuts")
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    scroll.setWidget(label)
    FocusRing(scroll, scroll, radius=3)  # a frameless scroll area shows no focus of its own
    layout.addWidget(scroll)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    bar = dialog.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, dialog)
    margins = layout.contentsMargins()

    def wanted(text: str) -> QSize:
        size = _natural_size(text, label)
        return QSize(size.width() + bar + margins.left() + margins.right() + 4,
                     size.height() + buttons.sizeHint().height() + layout.spacing()
                     + margins.top() + margins.bottom() + 4)

    # Side by side where the screen is wide enough for both columns, else one column (it scrolls where the
    # screen is too low for it).
    text = _two_columns(groups)
    if fitted(wanted(text), win).width() < wanted(text).width():
        text = _shortcuts_table(groups)
    label.setText(text)
    dialog.resize(fitted(wanted(text), win))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    scroll.setFocus(Qt.FocusReason.OtherFocusReason)
    return dialog


def open_folder(win: "MainWindow", folder: Path) -> bool:
    """Open ``folder`` in the desktop's file manager (made first, as the logs folder may not be there yet);
    False, and the status bar says why, when it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        win.statusBar().showMessage(f"Could not open {folder}: {exc.strerror or exc}.", 10000)
        return False
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
        return True
    win.statusBar().showMessage(f"No program was found to open {folder}.", 10000)
    return False


def open_user_guide(win: "MainWindow") -> bool:
    """Open the user guide shipped with the app: its first page in the desktop's viewer for Markdown, or its
    folder where nothing opens Markdown files. The guide is in the knowledge base too (unless removed)."""
    from ..firstrun import guide_files
    from ..resources import resource_path

    pages, folder = guide_files(), resource_path("guide")
    if not pages:
        win.statusBar().showMessage(f"The user guide is missing from this installation ({folder}).", 10000)
        return False
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(pages[0]))):
        return True
    return open_folder(win, folder)


def _about(win: "MainWindow") -> None:
    from .. import __version__

    QMessageBox.about(win, "About tinyRAG Desktop",
                      f"<b>tinyRAG Desktop</b> {__version__}<br>A local-first assistant: a local LLM that "
                      "streams answers and calls tools inline, each shown as a live card.")
