"""Exporting a chat as Markdown or as a standalone HTML page: File → Export, or a chat's menu in the list."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog

from ..chat_export import export_html, export_markdown
from ..chats import ChatStoreError
from ..files import file_name_from, write_failure, write_whole
from . import window_layout

if TYPE_CHECKING:
    from .main_window import MainWindow


async def export_chat(win: MainWindow, path: Path, fmt: str, chat_id: str | None = None) -> Path:
    chat_id = chat_id or win.chat_id
    if chat_id is None:
        raise ChatStoreError("There is nothing to export yet: this chat has no messages.")
    chat = win.store.get_chat(chat_id)
    if chat is None:
        raise ChatStoreError("That chat is no longer in the history.")
    messages = win.store.messages(chat_id)  # read here: the store's connection is the window's thread's
    unasked = win.waiting.unasked()  # a question waiting its turn has no answer yet
    messages = [m for m in messages if m.id not in unasked]
    # written out in a thread: a 3,000-message chat as HTML froze the window for 13 to 23 s
    render = export_html if fmt == "html" else export_markdown
    await asyncio.to_thread(lambda: write_whole(Path(path), render(chat, messages)))
    return Path(path)


def failure_words(path: str, exc: BaseException) -> str:
    """Why an export failed, in words: what happened to the file, and what to do."""
    return f"The chat was not exported to {path}: {write_failure(exc)} A file already there was left as it was."


# The formats the save dialog offers, the one asked for chosen: either can be picked there, or typed as a name
KINDS = {"md": "Markdown (*.md)", "html": "HTML (*.html)"}
SUFFIXES = {"md": ".md", "html": ".html"}
_BY_SUFFIX = {".md": "md", ".markdown": "md", ".txt": "md", ".html": "html", ".htm": "html"}


def export_as(path: str, fmt: str, kind: str) -> tuple[str, str]:
    """The file and format an export is written as. A name typed with a known ending says the format
    ("notes.html" from Export as Markdown was Markdown under an HTML name, shown as text by a browser); a
    name without one takes the format chosen in the dialog (the name kept as typed: the dialog asked about
    replacing that file, not about one with an ending added)."""
    known = _BY_SUFFIX.get(Path(path).suffix.lower())
    if known is not None:
        return path, known
    return path, next((key for key, label in KINDS.items() if label == kind), fmt)


def export_dialog(win: MainWindow, fmt: str, chat_id: str | None = None) -> None:
    chat_id = chat_id or win.chat_id
    if chat_id is None:
        win.statusBar().showMessage("There is nothing to export yet.", 5000)
        return
    chat = win.store.get_chat(chat_id)
    name = file_name_from(chat.title if chat else "")
    # where the last export went (it opened in the home folder each time, right after one elsewhere)
    folder = window_layout.export_folder(win.data_dir)
    path, kind = QFileDialog.getSaveFileName(win, "Export chat", str(Path(folder) / f"{name}{SUFFIXES[fmt]}"),
                                             ";;".join(KINDS.values()), KINDS[fmt])
    if path:
        path, fmt = export_as(path, fmt, kind)
        win.statusBar().showMessage(f"Exporting to {path}…")  # a long chat takes seconds
        task = asyncio.ensure_future(export_chat(win, Path(path), fmt, chat_id))
        task.add_done_callback(lambda t: _exported(win, path, t))


def _exported(win: MainWindow, path: str, task: asyncio.Future) -> None:
    """Say how the export ended; one written is where the next export dialog opens."""
    failure = task.exception()
    if failure is None:
        window_layout.remember_export_folder(win.data_dir, str(Path(path).parent))
    win.statusBar().showMessage(f"Exported to {path}" if failure is None else failure_words(path, failure), 10000)
