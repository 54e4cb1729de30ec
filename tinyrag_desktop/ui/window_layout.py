"""The window's layout between runs: its size and place, the splitter, the knowledge panel's dock, whether
the chats list and the routing are shown, and the chat that was open. Kept in ``window.ini`` in the data
folder, beside the settings: it is not a setting of the schema, and a hand-edited or garbled file only
loses what it garbled; so is the folder the last export went to. Also where a file dialog opens, and two
small helpers of the window's keyboard handling (Tab order, typed keys)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths, Qt
from PySide6.QtGui import QKeyEvent

from ..chats import ChatStore, ChatStoreError
from .dock_width import DockWidth

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from .main_window import MainWindow


def layout_settings(data_dir: Path) -> QSettings:
    return QSettings(str(data_dir / "window.ini"), QSettings.Format.IniFormat)


def last_chat(data_dir: Path, store: ChatStore) -> str | None:
    """The chat open when the window last closed, if it is still in the history."""
    chat_id = layout_settings(data_dir).value("chat", "")
    if not isinstance(chat_id, str) or not chat_id:
        return None
    try:
        return chat_id if store.get_chat(chat_id) is not None else None
    except ChatStoreError:
        return None


def remember_chat(data_dir: Path, chat_id: str | None) -> None:
    """Keep the chat just opened as the one to open at the next start (not only when the window closes: a
    crash reopened an empty new chat)."""
    qs = layout_settings(data_dir)
    qs.setValue("chat", chat_id or "")
    qs.sync()


def start_folder(last: str) -> str:
    """Where a file dialog opens: ``last`` (where the user last chose) while it is a folder, else the Documents
    folder (or home). Dialogs opened in the folder the app was started from ("/" from a desktop launcher), or
    in the home folder right after the user went elsewhere."""
    if last and Path(last).is_dir():
        return last
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return documents if documents and Path(documents).is_dir() else str(Path.home())


def export_folder(data_dir: Path) -> str:
    """Where the export dialog opens: the folder of the last export, kept between runs (see start_folder)."""
    folder = layout_settings(data_dir).value("export_folder", "")
    return start_folder(folder if isinstance(folder, str) else "")


def remember_export_folder(data_dir: Path, folder: str) -> None:
    qs = layout_settings(data_dir)
    qs.setValue("export_folder", folder)
    qs.sync()


def restore(win: MainWindow) -> None:
    qs = layout_settings(win.data_dir)
    # Only what saveGeometry and saveState wrote (byte arrays); anything else in a hand-edited or garbled
    # file is ignored, as Qt ignores byte arrays it cannot read.
    geometry, split, docks = (value if isinstance(value := qs.value(key), (QByteArray, bytes)) else None
                              for key in ("geometry", "splitter", "docks"))
    if geometry is not None:
        win.restoreGeometry(geometry)
    if split is not None:
        win.splitter.restoreState(split)
    if docks is not None:  # the knowledge panel: open or not, its side and width, or floating
        win.restoreState(docks)
    keeper = getattr(win.kb_dock, "width_keeper", None)
    if keeper is not None:  # a width the user dragged it to; else it takes its share of the window again
        keeper.chosen = max(0, qs.value("kb_width", 0, type=int))
    if qs.value("show_routing", False, type=bool):
        win.menus.show_routing.setChecked(True)
        win.set_show_route(True)
    if not qs.value("show_chats", True, type=bool):
        win.menus.show_sidebar.setChecked(False)
        win.sidebar.hide()


def save(win: MainWindow) -> None:
    if win.scripted:  # an --ask run (its --size, its new chat) leaves the next start by hand as it was
        return
    qs = layout_settings(win.data_dir)
    qs.setValue("geometry", win.saveGeometry())
    qs.setValue("splitter", win.splitter.saveState())
    qs.setValue("docks", win.saveState())
    keeper = getattr(win.kb_dock, "width_keeper", None)
    qs.setValue("kb_width", keeper.chosen if keeper is not None else 0)
    qs.setValue("show_routing", win.menus.show_routing.isChecked())
    # Folded by a narrow window, the list is still wanted: it shows at the next start in a wider one.
    qs.setValue("show_chats", win.menus.show_sidebar.isChecked() or win._sidebar_folded)
    qs.setValue("chat", win.chat_id or "")
    qs.sync()
    win.places.keep()  # scrolled in the last second: the timer would not come
    win.composer.save_drafts()  # typed in the last second: the timer would not come


# Tab's way through the window (MainWindow.focusNextPrevChild)
def index_of(stops: list[QWidget], focus: QWidget) -> int:
    """The place of ``focus`` among ``stops``, or of the stop it is inside (a tree's viewport); -1 if none."""
    for i, widget in enumerate(stops):
        if widget is focus:
            return i
    for i, widget in enumerate(stops):
        if widget.isAncestorOf(focus):
            return i
    return -1


def typed_key(event: QKeyEvent) -> bool:
    """True for a key that types text (a letter, a digit, punctuation), not a shortcut or a lone space."""
    mods = event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                                | Qt.KeyboardModifier.MetaModifier)
    text = event.text()
    return not mods and bool(text) and text.isprintable() and not text.isspace()


def widen_dock_when_shown(win: MainWindow, dock) -> DockWidth:
    """Keep the knowledge panel at a share of the window until the user drags its edge (see DockWidth): at
    384 px in a 1,920 px window its titles were cut to "tinyRAG Desk…ubleshooting" beside an empty chat."""
    keeper = DockWidth(win, dock)
    dock.width_keeper = keeper
    return keeper
