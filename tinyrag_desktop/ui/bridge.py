"""EngineBridge: the one thin QObject that turns an engine's async event stream into Qt signals.

Widgets never touch the engine: the window hands the bridge ``engine.run(...)`` and listens to signals.
Stopping cancels the asyncio task that iterates the stream; the engine stops the HTTP stream and any
running tools itself when that cancellation reaches it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import AsyncIterator

from PySide6.QtCore import QObject, Signal

from ..engine.events import (Done, EngineError, EngineEvent, ModelChosen, Reasoning, Retract, Route, Text, ToolFinished,
                             ToolOutput, ToolStarted, ToolWriting)
from ..tool_words import window_words

log = logging.getLogger(__name__)


class EngineBridge(QObject):
    """Signals in stream order; ``finished`` comes last with ``done``, ``error`` or ``stopped``."""

    started = Signal()
    routed = Signal(object)          # Route
    text = Signal(str)
    reasoning = Signal(str)
    retracted = Signal(str, str)     # text, channel: taken back from that channel (see engine.events.Retract)
    toolWriting = Signal(object)     # ToolWriting: a call the model is still writing
    toolStarted = Signal(object)     # ToolStarted
    toolOutput = Signal(object)      # ToolOutput: more of what a running tool printed
    toolFinished = Signal(object)    # ToolFinished
    done = Signal(object)            # Done
    failed = Signal(object)          # EngineError
    finished = Signal(str)
    roundStarted = Signal(int)       # before the first event of each round (a stopped answer counts them)
    modelNamed = Signal(str)         # the model writing the answer, once known (a stopped answer's footer names it)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._task: asyncio.Task[None] | None = None
        self._pumped = False  # the current task's _pump has begun (it emits ``finished`` itself)
        self._round = 0
        self._model = ""

    def is_running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, events: AsyncIterator[EngineEvent]) -> asyncio.Task[None]:
        """Iterate ``events`` on the running asyncio loop (qasync's), emitting a signal per event."""
        if self.is_running():
            raise RuntimeError("an answer is already streaming; stop it first")
        self._task = task = asyncio.ensure_future(self._pump(events))
        self._pumped = False
        task.add_done_callback(lambda _task: self._never_pumped(task))
        return task

    def stop(self) -> bool:
        """Cancel the answer being streamed; what arrived so far stays. False if nothing was running."""
        if not self.is_running():
            return False
        assert self._task is not None
        self._task.cancel()
        return True

    async def wait(self) -> None:
        """Wait until the current answer (if any) has finished, for tests and the --ask mode."""
        if self._task is not None:
            try:
                await asyncio.shield(self._task)
            except asyncio.CancelledError:
                pass

    def _never_pumped(self, task: asyncio.Task[None]) -> None:
        """A task stopped before its first step never runs _pump, nor so its ``finished``: Enter then Esc in
        one batch of key events left the window "Answering…", with Stop and a waiting line, for good."""
        if self._pumped or self._task is not task:
            return
        self._task = None
        self.finished.emit("stopped")

    async def _pump(self, events: AsyncIterator[EngineEvent]) -> None:
        self._pumped = True
        outcome = "done"
        self._round = 0
        self._model = ""
        self.started.emit()
        try:
            async for ev in events:
                if isinstance(ev, EngineError):
                    outcome = "error"
                self._dispatch(ev)
        except asyncio.CancelledError:
            outcome = "stopped"
            await _close(events)
        except Exception as exc:  # a bug below us must show as an inline error, not kill the window
            log.exception("engine stream failed")
            outcome = "error"
            self.failed.emit(EngineError(f"Something went wrong while answering: {exc}", kind="internal"))
        finally:
            self._task = None
            self.finished.emit(outcome)

    def _dispatch(self, ev: EngineEvent) -> None:
        number = getattr(ev, "round", 0)
        if number > self._round:
            self._round = number
            self.roundStarted.emit(number)
        if (model := getattr(ev, "model", "")) and model != self._model:
            self._model = model
            self.modelNamed.emit(model)
        if isinstance(ev, Text):
            self.text.emit(window_words(ev.text) if ev.note else ev.text)
        elif isinstance(ev, Reasoning):
            self.reasoning.emit(ev.text)
        elif isinstance(ev, Retract):
            self.retracted.emit(ev.text, ev.channel)
        elif isinstance(ev, ToolWriting):
            self.toolWriting.emit(ev)
        elif isinstance(ev, ToolStarted):
            self.toolStarted.emit(ev)
        elif isinstance(ev, ToolOutput):
            self.toolOutput.emit(ev)
        elif isinstance(ev, ToolFinished):
            self.toolFinished.emit(ev)
        elif isinstance(ev, Route):
            self.routed.emit(ev)
        elif isinstance(ev, Done):
            self.done.emit(ev)
        elif isinstance(ev, EngineError):
            self.failed.emit(ev)
        elif not isinstance(ev, ModelChosen):  # said above, as modelNamed
            log.debug("ignoring unknown engine event %r", ev)


async def _close(events: AsyncIterator[EngineEvent]) -> None:
    aclose = getattr(events, "aclose", None)
    if aclose is not None:
        try:
            await aclose()
        except (Exception, asyncio.CancelledError):  # already closed by the cancellation: nothing to do
            pass
