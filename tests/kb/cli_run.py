"""``main(["kb", ...])`` run in the test's process, for the kb command-line tests."""

from __future__ import annotations

import pytest

from tinyrag_desktop.cli import main


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit code, stdout, stderr (argparse's exits included)."""
    try:
        code = main(["kb", *args])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
