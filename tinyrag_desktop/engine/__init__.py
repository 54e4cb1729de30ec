"""The request engine: streams an answer, runs tool blocks as they complete, continues with results."""

from .config import EngineConfig
from .engine import Engine
from .errors import LLMError
from .llm import LLMClient
from .events import (Done, EngineError, EngineEvent, ModelChosen, Reasoning, Retract, Route, Text, ToolFinished,
                     ToolOutput, ToolStarted, ToolWriting)

__all__ = [
    "Engine", "EngineConfig", "EngineEvent", "LLMClient", "LLMError", "Route", "ModelChosen", "Text", "Reasoning", "Retract", "ToolWriting", "ToolStarted", "ToolOutput", "ToolFinished",
    "Done",
    "EngineError",
]
