"""nanoGo's errors: a compile error carries Go's line:column position and message.

    Error
     ├── CompileError   the program does not build (exit 2)
     └── SandboxError   the sandbox itself could not run (no worker, bad limits)
"""


class Error(Exception):
    """Base of nanoGo's errors."""


class CompileError(Error):
    """The program does not compile; ``str()`` is Go's ``LINE:COL: message``."""

    def __init__(self, line: int, col: int, message: str):
        super().__init__(f"{line}:{col}: {message}")
        self.line, self.col, self.message = line, col, message


class SandboxError(Error):
    """The sandbox process could not be started or talked to."""
