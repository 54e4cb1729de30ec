"""nanoGo's errors: a compile error carries Go's line:column position and message.

    Error
     ├── CompileError   the program does not build (exit 2)
     │    └── FollowOn  a use of a name whose declaration had an error: never shown
     └── SandboxError   the sandbox itself could not run (no worker, bad limits)
"""


class Error(Exception):
    """Base of nanoGo's errors."""


class CompileError(Error):
    """The program does not compile; ``str()`` is Go's ``LINE:COL: message``."""

    def __init__(self, line: int, col: int, message: str):
        super().__init__(f"{line}:{col}: {message}")
        self.line, self.col, self.message = line, col, message
        self.more: list[CompileError] = []  # the errors after this one in the source, as Go lists them
        self.too_many = False  # more than Go's ten were found

    def report(self, file: str) -> str:
        """Every error, one a line, as go build writes them: ``prog.go:7:18: undefined: y``."""
        lines = [f"{file}:{e.line}:{e.col}: {e.message}" for e in (self, *self.more)]
        if self.too_many:
            lines.append(f"{file}:{self.more[-1].line}:{self.more[-1].col}: too many errors")
        return "\n".join(lines) + "\n"


class FollowOn(CompileError):
    """A use of a name whose declaration already failed (`x := undefinedThing`, then `x + 1`): the
    statement is dropped without a message, as Go says nothing more about an invalid operand."""

    def __init__(self):
        super().__init__(0, 0, "follow-on error")


class SandboxError(Error):
    """The sandbox process could not be started or talked to."""
