"""The command line in an ASCII locale without Python's UTF-8 mode (``LC_ALL=C PYTHONUTF8=0``): UTF-8 names
and words work as in a UTF-8 locale (the program starts itself again in UTF-8 mode), and a folder named in
bytes that are not UTF-8 is no traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop import cli

REPO = Path(__file__).resolve().parents[1]
C_LOCALE = {**{k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIOENCODING"))},
            "PYTHONUTF8": "0", "LC_ALL": "C", "LANG": "C", "PYTHONPATH": str(REPO)}

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the C locale is POSIX's")


def run(*args: str | bytes, env: dict[str, str] = C_LOCALE) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", *args], capture_output=True, env=env,
                          cwd=REPO, timeout=120)


def test_ask_in_the_c_locale_sends_prints_and_says_nothing_false(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Bonjour, ", "café ✓."]))
        proc = run("ask", "café 日本 ✓", "--base-url", llm.base_url, "--model", "scripted",
                   "--data-dir", str(tmp_path / "données"))
        messages = llm.requests[-1]["messages"]
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "not UTF-8" not in err
    assert messages[-1]["content"].endswith("café 日本 ✓")
    assert proc.stdout.decode("utf-8") == "Bonjour, café ✓.\n"


def test_kb_in_the_c_locale_adds_finds_and_lists_utf8_names(tmp_path: Path) -> None:
    note = tmp_path / "été.txt"
    note.write_text("Le café au lait du matin.\n", encoding="utf-8")
    data = tmp_path / "café 日本"
    added = run("kb", "add", str(note), "--data-dir", str(data))
    assert added.returncode == 0, added.stderr.decode("utf-8", "replace")
    assert "1 added" in added.stdout.decode("utf-8")
    found = run("kb", "search", "café", "--data-dir", str(data))
    out, err = found.stdout.decode("utf-8"), found.stderr.decode("utf-8", "replace")
    assert found.returncode == 0 and "Traceback" not in err, err
    assert "été.txt" in out and "Le café au lait" in out
    listed = run("kb", "list", "--data-dir", str(data))
    err = listed.stderr.decode("utf-8", "replace")
    assert listed.returncode == 0 and "Traceback" not in err, err
    assert "été.txt" in listed.stdout.decode("utf-8")


def test_a_data_folder_named_in_bytes_that_are_not_utf8_lists_its_sources(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("morning coffee\n", encoding="utf-8")
    data = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9")  # a Latin-1 name, in a UTF-8 locale
    env = {**C_LOCALE, "PYTHONUTF8": "1", "LC_ALL": "C.UTF-8"}
    assert run("kb", "add", str(note), "--data-dir", data, env=env).returncode == 0
    listed = run("kb", "list", "--data-dir", data, env=env)
    err = listed.stderr.decode("utf-8", "replace")
    assert listed.returncode == 0 and "Traceback" not in err, err
    assert "note.txt" in listed.stdout.decode("utf-8")


def test_text_an_ascii_stdout_cannot_write_is_printed_as_question_marks(tmp_path: Path, monkeypatch) -> None:
    note = tmp_path / "notes.txt"
    note.write_text("Le café.\n", encoding="utf-8")
    assert cli.main(["kb", "add", str(note), "--data-dir", str(tmp_path / "d")]) == 0
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii", errors="surrogateescape")  # an ASCII locale's stdout
    monkeypatch.setattr(sys, "stdout", ascii_out)
    assert cli.main(["kb", "search", "cafe", "--data-dir", str(tmp_path / "d")]) == 0
    ascii_out.flush()
    assert "Le caf?." in raw.getvalue().decode("ascii")
    assert ascii_out.errors == "surrogateescape"  # given back as it was


def test_a_question_decoded_from_utf8_bytes_is_not_said_to_have_bad_bytes(tmp_path: Path, capsys) -> None:
    # what an ASCII locale's argv holds for "café" when the program runs without restarting itself
    question = os.fsencode("café").decode("ascii", "surrogateescape")
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Oui."]))
        code = cli.main(["ask", question, "--base-url", llm.base_url, "--model", "scripted",
                         "--data-dir", str(tmp_path)])
        messages = llm.requests[-1]["messages"]
    assert code == 0
    assert messages[-1]["content"].endswith("café")
    assert "not UTF-8" not in capsys.readouterr().err
