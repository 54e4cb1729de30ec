"""The status bar's server line: which server, which model, and whether it answers (in words and colour)."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Mapping

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QStatusBar

from .icons import dot_pixmap

_COLOURS = {"unknown": "#9ca3af", "checking": "#9ca3af", "ok": "#16a34a", "warn": "#d97706", "down": "#dc2626"}
CHECK_TIMEOUT = 8.0


class ServerStatus:
    """Three permanent labels in the status bar; ``state`` is unknown, checking, ok, warn or down."""

    def __init__(self, bar: QStatusBar) -> None:
        self.server = QLabel(bar)
        self.server.setObjectName("statusServer")
        self.model = QLabel(bar)
        self.model.setObjectName("statusModel")
        self.dot = QLabel(bar)
        self.reach = QLabel(bar)
        self.reach.setObjectName("statusReach")
        self.busy = QLabel("", bar)
        self.busy.setObjectName("statusBusy")
        for w in (self.busy, self.server, self.model, self.dot, self.reach):
            bar.addPermanentWidget(w)
        self.state = "unknown"
        self.reason = ""
        self._set("unknown", "not checked yet")
        self._check: asyncio.Task[None] | None = None

    def show_settings(self, settings: Mapping[str, Any]) -> None:
        self.server.setText(f"Server: {settings['base_url']}")
        self.model.setText(f"Model: {settings['chat_model'] or 'server default'}")

    def set_busy(self, on: bool) -> None:
        self.busy.setText("Answering…" if on else "")

    def _set(self, state: str, words: str, why: str = "") -> None:
        self.state = state
        self.dot.setPixmap(dot_pixmap(QColor(_COLOURS[state]), 10, self.dot.devicePixelRatioF()))
        self.reach.setText(words)
        self.reason = why
        self.reach.setToolTip(why or words)
        self.reach.setAccessibleName(f"Server {words}")
        self.reach.setAccessibleDescription(why)

    def start_check(self, list_models: Callable[[str, str], Awaitable[list[str]]],
                    settings: Mapping[str, Any]) -> asyncio.Task[None]:
        """Check in the background; a newer check replaces one still running."""
        if self._check is not None and not self._check.done():
            self._check.cancel()
        self._check = asyncio.ensure_future(self.check(list_models, settings))
        return self._check

    async def cancel(self) -> None:
        if self._check is not None and not self._check.done():
            self._check.cancel()
            try:
                await self._check
            except asyncio.CancelledError:
                pass

    async def check(self, list_models: Callable[[str, str], Awaitable[list[str]]],
                    settings: Mapping[str, Any]) -> None:
        """Ask the server for its models; show reachable, model missing, or the reason it is not."""
        self._set("checking", "checking…")
        try:
            async with asyncio.timeout(CHECK_TIMEOUT):  # no inner task: nothing left unawaited on cancel
                models = await list_models(settings["base_url"], settings["api_key"])
        except TimeoutError:
            self._set("down", "unreachable", "The server did not answer in time.")
            return
        except Exception as exc:  # the client's errors say what is wrong in words
            self._set("down", "unreachable", str(exc))
            return
        wanted = settings["chat_model"]
        if wanted and wanted not in models:
            self._set("warn", "model missing", f"The server is reachable, but has no model called “{wanted}”.")
        else:
            self._set("ok", f"reachable · {len(models)} model{'s' if len(models) != 1 else ''}")
