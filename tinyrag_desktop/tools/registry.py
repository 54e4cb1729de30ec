"""The tool registry: each tool is a plain async function with a name, an inner element and a description.

A tool module exposes ``TOOLS``, a sequence of :class:`ToolSpec`. ``default_registry()`` collects them
from the built-in modules. The engine asks the registry which tools the current settings enable, and hands
each call a :class:`ToolContext` (settings, data folder, shared HTTP client, a way to ask the user).
"""

from __future__ import annotations

import codecs
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Awaitable, Callable, Iterable, Mapping

if TYPE_CHECKING:
    import httpx

ELEMENTS = ("query", "url", "source")
# Tools whose result's ``source`` names documents the answer read (one location per line): what an answer
# lists as its sources. Other tools' sources ("calculator", a search engine) are not worth opening.
SOURCE_TOOLS = frozenset({"rag_knowledge", "url_fetch", "wikipedia"})

# Modules that hold built-in tools, in the order the system prompt lists them.
_BUILTIN_MODULES = (
    "tinyrag_desktop.tools.rag",
    "tinyrag_desktop.tools.calculate",
    "tinyrag_desktop.tools.web",
    "tinyrag_desktop.tools.nanogo_tool",
    "tinyrag_desktop.tools.shell",
)


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool returns: text for the model, and where it came from (a URL, a file, "calculator")."""

    text: str
    source: str = ""
    # One per line of ``source``: where in that page the passage found starts (an HTML id), None for none;
    # the answer's Sources line opens the page there. Empty: none for any.
    anchors: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class ToolContext:
    """What a tool may use. ``confirm(tool, text)`` asks the user (the shell tool); None means no one can."""

    settings: Mapping[str, object]
    data_dir: Path
    http: "httpx.AsyncClient | None" = None
    confirm: Callable[[str, str], Awaitable[bool]] | None = None
    chat_id: str | None = None
    # The numbers the answer's documents were given so far (location → number), shared by its calls: the
    # knowledge search numbers a new document on from them, so the answer's [2] is one file. None: from 1.
    citations: dict[str, int] | None = None
    # Says each new piece of what the tool prints as it runs (nanoGo): an answer stopped before the tool
    # finished keeps it. None: no one listens.
    output: Callable[[str], None] | None = None


def output_teller(output: Callable[[str], None] | None, limit: int,
                  decoder: codecs.IncrementalDecoder | None = None) -> Callable[[bytes], None] | None:
    """What passes a running tool's output on to ``output`` (ToolContext.output) as it comes, as text, up to
    ``limit`` bytes (what its result keeps): an answer stopped while the tool runs keeps it. None when no
    one listens. ``decoder``: an incremental one (a shell command's, in Windows' console code page), else
    UTF-8."""
    if output is None:
        return None
    # incremental: a character may come in two pieces
    decoder = decoder or codecs.getincrementaldecoder("utf-8")("replace")
    told = 0

    def tell(block: bytes) -> None:
        nonlocal told
        if told < limit:
            block = block[:limit - told]
            told += len(block)
            output(decoder.decode(block, final=told >= limit))

    return tell


def _always(settings: Mapping[str, object]) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool: ``run(content, ctx)`` returns a ToolResult or raises ToolError with a message for a person.

    ``example`` is a sample of the inner element's content (not a whole block); the prompt wraps it.
    """

    name: str
    element: str
    description: str
    run: Callable[[str, ToolContext], Awaitable[ToolResult]]
    example: str
    enabled: Callable[[Mapping[str, object]], bool] = _always
    disabled_reason: str = ""
    icon: str = "🔧"
    # The tool stops itself at the tool timeout and says so in its own words (nanoGo, the shell, url_fetch):
    # the engine's stop then comes a moment later (engine.tool_grace), as a safety net. Other tools are
    # stopped by the engine at the timeout itself.
    keeps_time: bool = False

    def __post_init__(self) -> None:
        if self.element not in ELEMENTS:
            raise ValueError(f"tool {self.name}: element must be one of {ELEMENTS}")
        if "<tool" in self.example:
            raise ValueError(f"tool {self.name}: example is the content only, not a whole block")


@dataclass
class ToolRegistry:
    """Tools by name. Registering a name twice replaces the first (tests swap tools this way)."""

    _tools: dict[str, ToolSpec] = field(default_factory=dict)

    def register(self, spec: ToolSpec) -> None:
        self._tools[spec.name] = spec

    def extend(self, specs: Iterable[ToolSpec]) -> None:
        for spec in specs:
            self.register(spec)

    def get(self, name: str) -> ToolSpec | None:
        return self._tools.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def names(self) -> list[str]:
        return list(self._tools)

    def all(self) -> list[ToolSpec]:
        return list(self._tools.values())

    def enabled(self, settings: Mapping[str, object]) -> list[ToolSpec]:
        return [spec for spec in self._tools.values() if spec.enabled(settings)]


def default_registry() -> ToolRegistry:
    """A registry holding every built-in tool whose module is present."""
    registry = ToolRegistry()
    for module_name in _BUILTIN_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:  # that tool is not part of this build
                continue
            raise
        registry.extend(module.TOOLS)
    return registry
