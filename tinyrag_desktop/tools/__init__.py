"""Tools the model can call: a registry of plain async functions, one module per tool.

The names below load on first use: the nanoGo sandbox's worker process imports this package on its way
to the interpreter, and has no use for the registry."""

__all__ = ["ToolContext", "ToolError", "ToolRegistry", "ToolResult", "ToolSpec", "default_registry"]


def __getattr__(name: str):
    if name == "ToolError":
        from .errors import ToolError

        return ToolError
    if name in __all__:
        from . import registry

        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
