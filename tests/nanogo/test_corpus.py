"""Differential tests: every corpus case must give, under nanoGo, the output real Go 1.19 gave."""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import re
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent / "corpus"
CASES = sorted(p.stem for p in CORPUS.glob("*.go"))

# Seconds one case may take: the sandbox's own wall-time limit, then a margin for a slow, shared machine.
RUN_TIMEOUT = 20.0
CLI_TIMEOUT = 60.0
WORKERS = 2

# A few cases also go through the real command line, one of each kind of outcome.
CLI_CASES = [
    "basics_hello",
    "snippet_basics_sum",
    "compile_undefined_name",
    "snippet_compile_unused_variable",
    "panic_index_out_of_range",
    "conc_deadlock",
    "compile_forbidden_os",
]

_POSITION_RE = re.compile(r"^(\d+):(\d+): (.*)$")


@dataclass(frozen=True)
class Expected:
    """A case's recorded result (see corpus/README.md)."""

    stdout: bytes
    exit_code: int
    err: str | None


@dataclass(frozen=True)
class Outcome:
    """What nanoGo did with a case."""

    stdout: bytes
    stderr: str
    exit_code: int


def load_expected(name: str) -> Expected:
    stem = CORPUS / name
    err_path = Path(f"{stem}.err")
    err = err_path.read_text(encoding="utf-8").rstrip("\n") if err_path.exists() else None
    return Expected(
        Path(f"{stem}.out").read_bytes(),
        int(Path(f"{stem}.exit").read_text(encoding="utf-8").strip()),
        err,
    )


def area(name: str) -> str:
    """The area a case belongs to: `maps` for maps_*.go, `snippet_maps` for snippet_maps_*.go."""
    parts = name.split("_")
    return "_".join(parts[:2]) if parts[0] == "snippet" else parts[0]


def _nanogo_module():
    try:
        return importlib.import_module("tinyrag_desktop.tools.nanogo")
    except ImportError:
        return None


def _cli_command(path: Path, data_dir: Path) -> list[str] | None:
    """The command line to run one file: the app's `nanogo` verb if it exists, else nanoGo's own CLI."""
    if importlib.util.find_spec("tinyrag_desktop.cli") is not None:
        return [sys.executable, "-m", "tinyrag_desktop", "nanogo", "--data-dir", str(data_dir),
                "--allow-nanogo", str(path)]
    try:
        spec = importlib.util.find_spec("tinyrag_desktop.tools.nanogo.cli")
    except ImportError:
        spec = None
    if spec is not None:
        return [sys.executable, "-m", "tinyrag_desktop.tools.nanogo.cli", str(path)]
    return None


def run_cli(name: str, data_dir: Path) -> Outcome:
    command = _cli_command(CORPUS / f"{name}.go", data_dir)
    if command is None:
        pytest.skip("neither tinyrag_desktop.cli nor tinyrag_desktop.tools.nanogo.cli exists yet")
    proc = subprocess.run(command, capture_output=True, timeout=CLI_TIMEOUT, stdin=subprocess.DEVNULL)
    return Outcome(proc.stdout, proc.stderr.decode("utf-8", "replace"), proc.returncode)


def _as_bytes(text) -> bytes:
    return text if isinstance(text, bytes) else str(text).encode("utf-8", "surrogateescape")


def run_in_process(run_sandboxed, name: str) -> Outcome:
    source = (CORPUS / f"{name}.go").read_text(encoding="utf-8")
    result = run_sandboxed(source, timeout=RUN_TIMEOUT)
    if isinstance(result, tuple):
        stdout, stderr, exit_code = result[0], result[1], result[2]
    else:
        stdout, stderr, exit_code = result.stdout, result.stderr, result.exit_code
    stderr = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else str(stderr or "")
    return Outcome(_as_bytes(stdout or ""), stderr, int(exit_code))


def check(name: str, got: Outcome) -> None:
    """Exact stdout and exit code; for errors, the recorded message (and position) on stderr."""
    want = load_expected(name)
    summary = f"{name}: exit {got.exit_code} (want {want.exit_code}); stderr: {got.stderr[:400]!r}"
    got_text, want_text = got.stdout.decode("utf-8", "replace"), want.stdout.decode("utf-8", "replace")
    if got_text != want_text:
        diff = difflib.unified_diff(want_text.splitlines(keepends=True), got_text.splitlines(keepends=True),
                                    "real Go", "nanoGo", n=1)
        pytest.fail(f"stdout differs; {summary}\n{''.join(list(diff)[:40])}", pytrace=False)
    if got.exit_code != want.exit_code:
        pytest.fail(f"wrong exit code; {summary}", pytrace=False)
    if want.err is None:
        return
    position = _POSITION_RE.match(want.err) if want.exit_code == 2 else None
    if position is None:
        if want.err not in got.stderr:
            pytest.fail(f"stderr lacks {want.err!r}; {summary}", pytrace=False)
        return
    line, col, message = position.groups()
    if not re.search(rf"(?<!\d){line}:{col}(?!\d)", got.stderr):
        pytest.fail(f"stderr lacks the position {line}:{col} ({message}); {summary}", pytrace=False)
    if message not in got.stderr:
        pytest.fail(f"stderr lacks {message!r}; {summary}", pytrace=False)


@pytest.fixture(scope="session")
def in_process_results(request):
    """Runs every selected case through run_sandboxed on a small thread pool, in collection order, so a
    test usually finds its result ready; falls back to the CLI when nanoGo has no run_sandboxed."""
    module = _nanogo_module()
    if module is None:
        pytest.skip("tinyrag_desktop.tools.nanogo cannot be imported yet")
    run_sandboxed = getattr(module, "run_sandboxed", None)
    here = Path(__file__).resolve()
    selected = [item.callspec.params["name"] for item in request.session.items
                if getattr(item, "originalname", None) == "test_case" and hasattr(item, "callspec")
                and Path(str(item.path)).resolve() == here]
    data_dir = request.getfixturevalue("tmp_path_factory").mktemp("nanogo-data")
    pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="nanogo-corpus")
    futures: dict[str, Future] = {}
    for name in selected:
        if run_sandboxed is not None:
            futures[name] = pool.submit(run_in_process, run_sandboxed, name)
        else:
            futures[name] = pool.submit(run_cli, name, data_dir)
    yield futures
    for future in futures.values():
        future.cancel()
    pool.shutdown(wait=True)


@pytest.mark.parametrize("name", CASES)
def test_case(name, in_process_results):
    got = in_process_results[name].result(timeout=CLI_TIMEOUT * 2)
    check(name, got)


@pytest.mark.parametrize("name", CLI_CASES)
def test_cli(name, tmp_path):
    if _nanogo_module() is None:
        pytest.skip("tinyrag_desktop.tools.nanogo cannot be imported yet")
    check(name, run_cli(name, tmp_path))


def test_corpus_is_complete_and_consistent():
    """Every case has its recorded results, in the format the README describes."""
    assert len(CASES) >= 200
    for name in CASES:
        want = load_expected(name)
        assert want.exit_code in (0, 1, 2), name
        assert (want.err is not None) == (want.exit_code != 0), name
        if want.exit_code == 2:
            assert want.stdout == b"", name
            if not name.startswith("snippet_"):
                assert _POSITION_RE.match(want.err), name
        if want.exit_code == 1:
            assert want.err.startswith(("panic: ", "fatal error: ")), name
        source = (CORPUS / f"{name}.go").read_text(encoding="utf-8")
        is_program = source.lstrip().startswith("package ")
        assert is_program != name.startswith("snippet_"), f"{name}: snippets have no package clause"
    for name in CLI_CASES:
        assert name in CASES
    snippets = sum(name.startswith("snippet_") for name in CASES)
    assert snippets * 4 >= len(CASES), "about a third of the corpus should be snippets"


def test_recorder_wraps_snippets_keeping_lines_and_columns():
    """The recorder's snippet wrapping (how expectations were made) maps each line back unchanged."""
    spec = importlib.util.spec_from_file_location("record_corpus", Path(__file__).with_name("record_corpus.py"))
    if importlib.util.find_spec("tree_sitter_go") is None:
        pytest.skip("tree-sitter-go is not installed")
    recorder = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = recorder  # dataclasses look their module up while the class is built
    try:
        spec.loader.exec_module(recorder)
    finally:
        del sys.modules[spec.name]
    snippet = "type P struct{ X int }\nx := P{1}\nfunc f() int { return 2 }\nfmt.Println(x, f(), strings.ToUpper(\"a\"))\n"
    wrapped = recorder.wrap_snippet(snippet)
    lines = wrapped.source.split("\n")
    assert lines[0] == "package main"
    assert '\t"fmt"' in lines and '\t"strings"' in lines
    main_at = lines.index("func main() {")
    assert lines.index("type P struct{ X int }") < main_at
    assert lines.index("func f() int { return 2 }") < main_at
    assert lines.index("x := P{1}") > main_at
    for program_line, snippet_line in wrapped.line_map.items():
        assert lines[program_line - 1] == snippet.split("\n")[snippet_line - 1]
