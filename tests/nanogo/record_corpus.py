"""Record the nanoGo corpus's expected results from real Go (the oracle): `python tests/nanogo/record_corpus.py`."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"

# The packages nanoGo offers; a snippet's imports are inferred from these identifiers.
SNIPPET_PACKAGES = {
    "fmt": "fmt",
    "strings": "strings",
    "strconv": "strconv",
    "math": "math",
    "sort": "sort",
    "errors": "errors",
    "unicode": "unicode",
    "utf8": "unicode/utf8",
    "sync": "sync",
}
ALLOWED_IMPORTS = frozenset(SNIPPET_PACKAGES.values())

# Real Go runs these happily, so their expectation cannot come from the oracle: nanoGo must refuse them
# at compile time (exit 2) with an error at the import path that names the package.
_IMPORT_RE = re.compile(r'"([^"\n]+)"')

_COMPILE_LINE_RE = re.compile(r"^(?:\./)?main\.go:(\d+):(\d+): (.*)$")


class RecordError(Exception):
    """The oracle did something the corpus format cannot express (a bug in a case, usually)."""


@dataclass(frozen=True)
class Expected:
    """What one case must produce under nanoGo."""

    stdout: bytes
    exit_code: int  # 0 ok, 1 runtime panic / deadlock / limit, 2 compile error
    err: str | None  # first line of the error (compile errors as "LINE:COL: message")


@dataclass(frozen=True)
class Wrapped:
    """A snippet turned into a program, with the snippet line each program line came from."""

    source: str
    line_map: dict[int, int]  # program line (1-based) -> snippet line (1-based)


def _go_parser():
    import tree_sitter_go
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_go.language()))


_TOP_LEVEL = {"function_declaration", "method_declaration", "type_declaration"}


def _used_packages(node, src: bytes, found: set[str]) -> None:
    # fmt.Println is a selector on an identifier; sync.WaitGroup in a type is a qualified_type.
    if node.type == "selector_expression":
        operand = node.child_by_field_name("operand")
        if operand is not None and operand.type == "identifier":
            found.add(src[operand.start_byte:operand.end_byte].decode())
    elif node.type == "qualified_type":
        pkg = node.child_by_field_name("package")
        if pkg is not None:
            found.add(src[pkg.start_byte:pkg.end_byte].decode())
    for child in node.children:
        _used_packages(child, src, found)


def wrap_snippet(text: str) -> Wrapped:
    """Top-level func/type declarations stay top-level, other lines go into func main, unindented so
    columns are unchanged; imports come from the package identifiers the snippet uses."""
    src = text.encode()
    tree = _go_parser().parse(src)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    kind = ["stmt"] * len(lines)
    claimed = [False] * len(lines)
    for node in tree.root_node.children:
        first, last = node.start_point[0], node.end_point[0]
        if node.type in _TOP_LEVEL:
            for row in range(first, min(last, len(lines) - 1) + 1):
                if not claimed[row]:
                    kind[row] = "decl"
        for row in range(first, min(last, len(lines) - 1) + 1):
            claimed[row] = True
    used: set[str] = set()
    _used_packages(tree.root_node, src, used)
    imports = sorted(SNIPPET_PACKAGES[p] for p in used if p in SNIPPET_PACKAGES)

    out: list[str] = ["package main", ""]
    line_map: dict[int, int] = {}
    if imports:
        out.append("import (")
        out.extend(f'\t"{imp}"' for imp in imports)
        out.extend([")", ""])

    def emit(which: str) -> None:
        for row, line in enumerate(lines):
            if kind[row] == which:
                out.append(line)
                line_map[len(out)] = row + 1

    emit("decl")
    out.append("func main() {")
    emit("stmt")
    out.append("}")
    return Wrapped("\n".join(out) + "\n", line_map)


def _forbidden_import(text: str) -> tuple[int, int, str] | None:
    """The first import outside the allowed set, as (line, column of the path literal, path)."""
    in_block = False
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if in_block:
            if stripped.startswith(")"):
                in_block = False
                continue
        elif stripped.startswith("import ("):
            in_block = True
            continue
        elif not stripped.startswith("import "):
            continue
        match = _IMPORT_RE.search(line)
        if match and match.group(1) not in ALLOWED_IMPORTS:
            return number, match.start() + 1, match.group(1)
    return None


def _first_compile_error(stderr: str, line_map: dict[int, int] | None) -> str:
    for line in stderr.splitlines():
        match = _COMPILE_LINE_RE.match(line.strip())
        if not match:
            continue
        row, col, message = int(match.group(1)), int(match.group(2)), match.group(3)
        if line_map is not None:
            if row not in line_map:
                return message  # the error sits on a line the wrapper wrote: keep the message only
            row = line_map[row]
        return f"{row}:{col}: {message}"
    raise RecordError(f"no compile error line in go build's output:\n{stderr}")


def record(case: Path, go: str, timeout: float = 20.0) -> Expected:
    """Build and run one case with real Go and turn what happened into nanoGo's expected result."""
    text = case.read_text(encoding="utf-8")
    forbidden = _forbidden_import(text)
    if forbidden is not None:
        row, col, path = forbidden
        return Expected(b"", 2, f"{row}:{col}: {path}")
    line_map = None
    source = text
    if case.name.startswith("snippet_"):
        wrapped = wrap_snippet(text)
        source, line_map = wrapped.source, wrapped.line_map
    with tempfile.TemporaryDirectory(prefix="nanogo-rec-") as tmp:
        Path(tmp, "main.go").write_text(source, encoding="utf-8")
        env = dict(os.environ, GO111MODULE="off", CGO_ENABLED="0")
        build = subprocess.run([go, "build", "-o", "prog", "main.go"], cwd=tmp, env=env,
                               capture_output=True, text=True, timeout=300)
        if build.returncode != 0:
            return Expected(b"", 2, _first_compile_error(build.stderr, line_map))
        run = subprocess.run([str(Path(tmp, "prog"))], cwd=tmp, capture_output=True, timeout=timeout,
                             env={"PATH": "/usr/bin:/bin", "GOMAXPROCS": "2"})
    stderr = run.stderr.decode("utf-8", "replace")
    if run.returncode == 0:
        if stderr:
            raise RecordError(f"{case.name}: wrote to stderr: {stderr[:200]}")
        return Expected(run.stdout, 0, None)
    first = stderr.splitlines()[0] if stderr else ""
    if run.returncode == 2 and (first.startswith("panic: ") or first.startswith("fatal error: ")):
        return Expected(run.stdout, 1, first)
    raise RecordError(f"{case.name}: exit {run.returncode}, stderr {stderr[:300]!r}")


def write(case: Path, expected: Expected) -> None:
    stem = case.with_suffix("")
    Path(f"{stem}.out").write_bytes(expected.stdout)
    Path(f"{stem}.exit").write_text(f"{expected.exit_code}\n", encoding="utf-8")
    err = Path(f"{stem}.err")
    if expected.err is None:
        err.unlink(missing_ok=True)
    else:
        err.write_text(expected.err + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="case names or files (default: the whole corpus)")
    parser.add_argument("--show", action="store_true", help="print each case's result")
    args = parser.parse_args(argv)
    go = shutil.which("go")
    if go is None:
        print("real Go is needed to record: apt-get install golang-go", file=sys.stderr)
        return 2
    if args.names:
        cases = [CORPUS / (Path(n).stem + ".go") for n in args.names]
    else:
        cases = sorted(CORPUS.glob("*.go"))
    failures = 0
    for case in cases:
        try:
            expected = record(case, go)
        except (RecordError, subprocess.TimeoutExpired) as exc:
            failures += 1
            print(f"FAIL {case.name}: {exc}", file=sys.stderr)
            continue
        write(case, expected)
        if args.show:
            print(f"== {case.name} exit {expected.exit_code} {expected.err or ''}")
            print(expected.stdout.decode("utf-8", "replace"), end="")
    print(f"recorded {len(cases) - failures} of {len(cases)} cases", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
