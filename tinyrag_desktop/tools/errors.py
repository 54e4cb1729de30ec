"""Errors a tool raises; the engine turns them into results the model reads ("Error: …")."""


class Error(Exception):
    """Base of the tools' errors."""


class ToolError(Error):
    """A tool could not do what was asked; the message is for a person (and the model) to read."""
