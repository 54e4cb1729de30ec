"""The ``nanogo`` tool: run model-written Go (a program or a bare snippet) in the nanoGo sandbox."""

from __future__ import annotations

from typing import Callable

from .console_text import terminal_text
from .errors import ToolError
from .netutil import timeout_words
from .registry import ToolContext, ToolResult, ToolSpec, output_teller

DEFAULT_TIMEOUT = 30.0
DEFAULT_MEMORY_MB = 512
MAX_OUTPUT = 65536
# What follows a failed run's error, before the output the program printed until then: the card shows that
# output under a heading of its own, as lines (see ``split_output``).
OUTPUT_BEFORE = "\n\noutput before the error:\n"
# The note after the output of a program that printed more than MAX_OUTPUT: the README's "output is cut at
# 64 KB with a note". Not a failure: the program's output is the answer, and it is there, cut.
OUTPUT_CUT = (f"[The output was cut at {MAX_OUTPUT // 1024} KB: the program printed more, and was stopped "
              "there.]")
_OUTPUT_LIMIT = "nanoGo: output limit exceeded"
_TIME_LIMITS = ("nanoGo: time limit exceeded", "nanoGo: CPU time limit exceeded")


def _number(settings, key, default, kind):
    try:
        return kind(settings.get(key, default))
    except (TypeError, ValueError):
        return default


def _unfence(source: str) -> str:
    """Models sometimes wrap the code in a Markdown fence inside <source>; run what is inside it."""
    text = source.strip()
    if text.startswith("```"):
        lines = text.split("\n")
        lines = lines[1:]
        if lines and lines[-1].strip().startswith("```"):
            lines = lines[:-1]
        return "\n".join(lines) + "\n"
    return source


# The tools whose output printed before an error or a Stop is kept after OUTPUT_BEFORE in their error, and
# shown under a heading of its own: a Go program, and a shell command stopped with its answer.
KEEPS_OUTPUT = frozenset({"nanogo", "shell"})


def split_output(error: str) -> tuple[str, str]:
    """A failed run's error as (what went wrong, the output printed before it; "" when none)."""
    words, found, output = error.partition(OUTPUT_BEFORE)
    return (words, output) if found else (error, "")


def output_heading(error: str) -> str:
    """The heading of the output split_output finds: a program the user stopped (the window's "Stopped
    before the tool finished.") met no error."""
    return "Output before it was stopped" if error.startswith("Stopped before") else "Output before the error"


def _teller(output: Callable[[str], None] | None) -> Callable[[bytes], None] | None:
    """The program's output passed on as it comes, up to MAX_OUTPUT bytes (see registry.output_teller)."""
    return output_teller(output, MAX_OUTPUT)


async def run(source: str, ctx: ToolContext) -> ToolResult:
    """Compile and run the source; the output is the result, a compile error or panic is a ToolError."""
    from .nanogo import run_sandboxed_async
    from .nanogo.errors import SandboxError

    source = _unfence(source)
    if not source.strip():
        raise ToolError("nanogo needs Go source code inside <source>.")
    timeout = _number(ctx.settings, "tool_timeout", DEFAULT_TIMEOUT, float)
    memory = _number(ctx.settings, "nanogo_memory_mb", DEFAULT_MEMORY_MB, int)
    # The sandbox's own wall clock stops at the timeout, before the engine's (see engine.tool_grace), so the
    # model gets Go's message.
    try:
        res = await run_sandboxed_async(source, timeout=timeout, memory_mb=memory, max_output=MAX_OUTPUT,
                                        on_output=_teller(ctx.output))
    except SandboxError as exc:  # the worker did not start: the model and the card read why
        raise ToolError(f"The nanoGo sandbox could not start: {exc}.") from exc
    printed = terminal_text(res.stdout)  # as a terminal shows it, to the model as on the card
    if res.status == "ok":
        return ToolResult(printed if printed else "(no output)", "nanoGo")
    if res.status == "compile_error":
        raise ToolError("compile error:\n" + res.stderr.strip())
    text = res.stderr.strip()
    if res.status == "limit" and text.startswith(_OUTPUT_LIMIT):
        return ToolResult(f"{printed.rstrip()}\n\n{OUTPUT_CUT}", "nanoGo")
    if res.status == "limit" and text.startswith(_TIME_LIMITS):
        # The sandbox stops a little before the engine would, so that this sentence is the one read; it
        # names the limit the user set ("killed after 9.5s" matched neither the setting nor the card's time).
        text = f"The program did not finish within {timeout_words(timeout)} and was stopped."
    if res.status == "panic":
        text = text.split("\n\ngoroutine ")[0]
    if printed:
        text = f"{text}{OUTPUT_BEFORE}{printed}"
    raise ToolError(text)


SETTING_REASON = "enable 'Allow Go code (nanoGo)' in Settings"

TOOLS = [
    ToolSpec(
        name="nanogo",
        element="source",
        description="Run Go 1.19 code (a full program or bare statements) in a sandbox and return its output. "
                    "Go 1.19: no min/max/clear built-ins, no range over an integer, loop variables shared "
                    "across iterations. Packages: fmt, strings, strconv, math, sort, errors, unicode, "
                    "unicode/utf8, sync (no os, time, io, math/rand, slices or maps).",
        run=run,
        example='nums := []int{3, 1, 2}\nsort.Ints(nums)\nfmt.Println(nums)',
        enabled=lambda s: bool(s.get("allow_nanogo")),
        # Follows "The tool nanogo is disabled: ", and names the check box as Settings labels it (`ask` names
        # its flag too: cli.FLAG_REASONS).
        disabled_reason=SETTING_REASON,
        icon="🐹",
        keeps_time=True,
    )
]
