"""Tools the model can call: a registry of plain async functions, one module per tool."""

from .errors import ToolError
from .registry import ToolContext, ToolRegistry, ToolResult, ToolSpec, default_registry

__all__ = ["ToolContext", "ToolError", "ToolRegistry", "ToolResult", "ToolSpec", "default_registry"]
