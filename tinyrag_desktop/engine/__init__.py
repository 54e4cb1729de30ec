"""The request engine: streams an answer, runs tool blocks as they complete, continues with results."""

from .config import EngineConfig
from .events import Done, EngineError, EngineEvent, Reasoning, Route, Text, ToolFinished, ToolStarted

__all__ = [
    "EngineConfig", "EngineEvent", "Route", "Text", "Reasoning", "ToolStarted", "ToolFinished", "Done",
    "EngineError",
]
