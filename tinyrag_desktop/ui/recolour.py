"""The open chat built again in the theme's colours (Settings → Theme, or the system's dark mode with the
theme "system"): its answers' code boxes and tables take their colours as they are built."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .main_window import MainWindow


def recolour_chat(win: "MainWindow") -> None:
    """Build the open chat again in the new colours. An answer streaming keeps its colours while it is written
    (built again it would start over): its chat is built again once it ends, if it is the one open then.
    Before, it never was, and its code boxes stayed light under light text."""
    streaming = win._stream_chat
    if streaming is not None and not win._recolour_due:
        win._recolour_due = True
        win._after_stream.append(lambda: _after_answer(win, streaming))
    if win.chat_id and win.chat_id != streaming:
        win.open_chat(win.chat_id, rebuild=True)


def _after_answer(win: "MainWindow", streamed: str) -> None:
    win._recolour_due = False
    if win.chat_id == streamed:
        win.open_chat(win.chat_id, rebuild=True)
