"""Exporting a chat as Markdown or as a standalone HTML page: File → Export, or a chat's menu in the list."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog

from ..chats import ChatStoreError

if TYPE_CHECKING:
    from .main_window import MainWindow


async def export_chat(win: MainWindow, path: Path, fmt: str, chat_id: str | None = None) -> Path:
    chat_id = chat_id or win.chat_id
    if chat_id is None:
        raise ChatStoreError("There is nothing to export yet: this chat has no messages.")
    text = win.store.to_html(chat_id) if fmt == "html" else win.store.to_markdown(chat_id)
    await asyncio.to_thread(Path(path).write_text, text, "utf-8")
    return Path(path)


def export_dialog(win: MainWindow, fmt: str, chat_id: str | None = None) -> None:
    chat_id = chat_id or win.chat_id
    if chat_id is None:
        win.statusBar().showMessage("There is nothing to export yet.", 5000)
        return
    chat = win.store.get_chat(chat_id)
    suffix, kind = (".html", "HTML (*.html)") if fmt == "html" else (".md", "Markdown (*.md)")
    name = "".join(c if c.isalnum() or c in " -_" else "_" for c in (chat.title if chat else "chat"))
    path, _ = QFileDialog.getSaveFileName(win, "Export chat", str(Path.home() / f"{name}{suffix}"), kind)
    if path:
        task = asyncio.ensure_future(export_chat(win, Path(path), fmt, chat_id))
        task.add_done_callback(lambda t: win.statusBar().showMessage(
            f"Exported to {path}" if not t.exception() else f"Export failed: {t.exception()}", 6000))
