"""The inline XML tool protocol: a pure, streaming parser (stdlib only)."""

from .errors import Error, ParserFinished
from .events import InvalidBlock, OpenBlock, ParseEvent, TextChunk, ToolCall
from .parser import PARAMS, XMLParseState, cut_at_limit, inside_at, parse_all, rest_ends
from .think import ThinkSplitter

__all__ = [
    "Error", "InvalidBlock", "OpenBlock", "PARAMS", "ParseEvent", "ParserFinished", "TextChunk", "ThinkSplitter",
    "ToolCall", "XMLParseState", "cut_at_limit", "inside_at", "parse_all", "rest_ends",
]
