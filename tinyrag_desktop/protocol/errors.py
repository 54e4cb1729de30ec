"""Errors of the protocol package. Model output never raises: only misuse of the API does."""


class Error(Exception):
    """Base of the protocol's errors."""


class ParserFinished(Error):
    """``feed`` was called after ``finish``."""
