"""EngineConfig: every limit and timeout of a request in one explicit object."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Limits of one request. Defaults are the spec's; a request has at most 1 + max_continuations rounds."""

    max_tools_total: int = 5
    max_tools_per_round: int = 3
    max_continuations: int = 3
    tool_timeout: float = 30.0
    result_max_chars: int = 8000
    connect_timeout: float = 5.0
    first_token_timeout: float = 120.0
    temperature: float = 0.7
    max_tokens: int = 0  # 0: the server decides; small local models otherwise may ramble to their context's end
    context_tokens: int = 0  # the model's context window; 0: ask the server (see context.py)
    writing_interval: float = 0.25  # seconds between two tool_writing events of one block, the least

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> "EngineConfig":
        names = {f.name for f in fields(cls)}
        return cls(**{k: settings[k] for k in names if k in settings})
