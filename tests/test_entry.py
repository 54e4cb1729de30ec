"""The entry point: a verb written after the shared flags runs, as git and pip take them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop.__main__ import main, verb_first
from tinyrag_desktop.paths import command


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--data-dir", "d", "kb", "list"], ["kb", "list", "--data-dir", "d"]),
        (["--data", "d", "kb", "list"], ["kb", "list", "--data", "d"]),  # a prefix only --data-dir has
        (["--max-tools", "2", "ask", "q"], ["--max-tools", "2", "ask", "q"]),  # two flags start so: left
        (["--data-dir=d", "--offline", "ask", "q"], ["ask", "q", "--data-dir=d", "--offline"]),
        (["--data-dir", "kb", "--model", "m"], ["--data-dir", "kb", "--model", "m"]),  # a folder named kb
        (["--ask", "kb", "--data-dir", "d"], ["--ask", "kb", "--data-dir", "d"]),  # the window's own flag
        (["kb", "search", "x"], ["kb", "search", "x"]),
        (["--data-dir", "d", "kb", "add", "--", "-a.txt"], ["kb", "add", "--data-dir", "d", "--", "-a.txt"]),
        (["--data-dir", "d", "bogus", "kb"], ["--data-dir", "d", "bogus", "kb"]),
        ([], []),
    ],
)
def test_verb_first(argv: list[str], expected: list[str]) -> None:
    assert verb_first(argv) == expected


def test_flags_before_the_verb_reach_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "note.txt"
    doc.write_text("The heron nests by the lake every spring.\n", encoding="utf-8")
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "kb", "add", str(doc)]) == 0
    assert "(1 chunk stored)" in capsys.readouterr().out
    assert main([f"--data-dir={data}", "--offline", "kb", "search", "--jsonl", "heron"]) == 0
    hits = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [h["location"] for h in hits] == [str(doc)]


@pytest.mark.parametrize(("flags", "words"), [
    (["--base-url", "127.0.0.1:8766/v1"], "--base-url must be an http:// or https:// address"),
    (["--temperature", "9"], "--temperature must be at most 2, not 9."),
    (["--model", "m" * 9000], "--model is 9,000 characters long"),
])
def test_a_flag_that_cannot_work_is_said_as_typed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  flags: list[str], words: str) -> None:
    assert main(["ask", "hello?", *flags, "--data-dir", str(tmp_path)]) == 2
    assert words in capsys.readouterr().err


def test_flags_before_the_verb_stay_flags_after_a_double_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # "--" ends the verb's options: the shared flags moved after it were taken for files to import, and
    # the import went to the default data folder
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TINYRAG_DATA_DIR", str(tmp_path / "default"))
    (tmp_path / "-note.txt").write_text("The heron nests by the lake every spring.\n", encoding="utf-8")
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "kb", "add", "--", "-note.txt"]) == 0
    assert "1 added" in capsys.readouterr().out
    assert (data / "knowledge.db").is_file() and not (tmp_path / "default").exists()


@pytest.mark.parametrize(("argv", "words"), [
    (["kb", "search", "heron", "-k", "2"],
     "tinyrag-desktop kb search: error: unrecognized arguments: -k 2 (did you mean --k?)"),
    (["ask", "hello?", "--bogus"], "tinyrag-desktop ask: error: unrecognized arguments: --bogus"),
    (["nanogo", "x.go", "--fast"], "tinyrag-desktop nanogo: error: unrecognized arguments: --fast"),
])
def test_an_unknown_flag_is_said_by_the_verb_that_was_given_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                argv: list[str], words: str) -> None:
    # argparse's top parser said it ("tinyrag-desktop: error", with the usage "VERB ..."): no help to find
    # what the verb does take
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--data-dir", str(tmp_path)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert words in err and f"usage: tinyrag-desktop {argv[0]}" in err


def test_a_verb_loads_only_its_own_command_line(tmp_path: Path) -> None:
    # `nanogo` and `ask` start without the knowledge base's modules (a fifth of a nanoGo hello-world's
    # start-up); help without a verb still lists every verb.
    import subprocess
    import sys

    from tinyrag_desktop import cli

    def verbs(parser) -> set[str]:
        return set(next(a for a in parser._actions if a.dest == "verb").choices)

    assert verbs(cli.build_parser()) == {"ask", "kb", "nanogo"}
    assert verbs(cli.build_parser("nanogo")) == {"ask", "nanogo"}
    assert verbs(cli.build_parser("ask")) == {"ask"}
    assert verbs(cli.build_parser("kb")) == {"ask", "kb"}
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "tinyrag_desktop", "nanogo", "-",
                          "--data-dir", str(tmp_path)], input="fmt.Println(6 * 7)", capture_output=True,
                         text=True, timeout=60)
    assert (run.returncode, run.stdout) == (0, "42\n"), run.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "tinyrag_desktop.tools.nanogo.cli" in imported
    assert not {m for m in imported if m.startswith("tinyrag_desktop.kb")}
    helped = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "--help"], capture_output=True,
                            text=True, timeout=60)
    assert helped.returncode == 0 and all(v in helped.stdout for v in ("ask", "kb", "nanogo"))


def test_help_without_a_verb_lists_the_windows_options_and_each_verb(capsys: pytest.CaptureFixture[str]) -> None:
    # It listed "[-h] [--version] VERB" only: nothing said how to open the window at a size, with a data
    # folder, or to take a picture of it.
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--ask QUESTION", "--screenshot FILE.png", "--size WxH", "--data-dir DIR", "--base-url URL"):
        assert f"\n  {flag}" in out, flag
    for verb in ("ask", "kb", "nanogo"):
        assert any(line.split()[:1] == [verb] and len(line.split()) > 1 for line in out.splitlines()), verb
    assert out.startswith("usage: tinyrag-desktop [window options]") and "tinyrag-desktop VERB" in out


@pytest.mark.parametrize(("flag", "key"), [("--temperature", "temperature"), ("--max-tools-total", "max_tools_total"),
                                           ("--max-tools-per-round", "max_tools_per_round"),
                                           ("--max-continuations", "max_continuations"),
                                           ("--tool-timeout", "tool_timeout"), ("--max-tokens", "max_tokens"),
                                           ("--first-token-timeout", "first_token_timeout")])
def test_ask_help_says_each_limits_range_and_default(capsys: pytest.CaptureFixture[str], flag: str, key: str) -> None:
    from tinyrag_desktop.settings import OPTIONS

    with pytest.raises(SystemExit):
        main(["ask", "--help"])
    out = " ".join(capsys.readouterr().out.split())  # its help's lines joined
    opt = OPTIONS[key]
    said = out.split(f" {flag} ", 1)[1].split(" --", 1)[0]
    assert f"{opt.minimum:g} to {opt.maximum:g}" in said and f"at first {opt.default:g}" in said, said


@pytest.mark.parametrize(("argv", "words"), [
    (["ask", "--max-tool-calls", "abc", "hi"], "unrecognized arguments: --max-tool-calls hi "
                                               "(did you mean --max-tools-total?)"),
    (["ask", "hi", "--temprature", "0.2"], "(did you mean --temperature?)"),
    (["--sise", "800x600"], "unrecognized arguments: --sise 800x600 (did you mean --size?)"),  # the window's
])
def test_a_mistyped_flag_gets_the_flag_it_looks_like(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     argv: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--data-dir", str(tmp_path)])
    assert exited.value.code == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "moved"), [
    (["ask", "--", "-v", "--base-url", "http://127.0.0.1:9/v1"], "ask --base-url http://127.0.0.1:9/v1 -- -v"),
    (["ask", "--", "hi", "--jsonl"], "ask --jsonl -- hi"),
    (["kb", "search", "--", "-zebra", "--k", "3"], "kb search --k 3 -- -zebra"),
])
def test_an_option_after_double_dash_is_said_to_go_before_it(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                             moved: str) -> None:
    # "--jsonl (did you mean --jsonl?)" named the very flag typed; "--k 3" got no hint at all
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err
    assert err.splitlines()[-1].endswith(f"(options go before --, which makes every word after it text: "
                                         f"{command()} {moved})"), err


@pytest.mark.parametrize(("argv", "words"), [
    (["kb", "serach", "heron"], "tinyrag-desktop kb: error: unknown command 'serach' (did you mean kb search?); "
                                "the kb commands are add, search, list, remove"),
    (["kb", "lst"], "unknown command 'lst' (did you mean kb list?)"),
    (["kb", "zebra"], "tinyrag-desktop kb: error: unknown command 'zebra'; the kb commands are"),
])
def test_a_mistyped_kb_command_gets_the_command_it_looks_like(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                              words: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert words in err.splitlines()[-1]


@pytest.mark.parametrize("argv", [["kb", "serach", "x"], ["kb", "search", "x", "--bogus"], ["ask", "hi", "--bogus"],
                                  ["kb", "add", "--chunk-size", "x", "a.txt"], ["asks", "hi"]])
def test_a_command_line_error_is_not_buried_under_the_list_of_every_flag(capsys: pytest.CaptureFixture[str],
                                                                        argv: list[str]) -> None:
    # 8 to 11 lines of "[--max-tools-per-round N] [--max-continuations N] …" came first; --help lists them
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("usage: tinyrag-desktop") and len(err) <= 3, err
    assert "error: " in err[-1]


README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_lists_every_option_every_verb_takes() -> None:
    # --context-tokens was in --help but not in README's table
    import argparse

    from tinyrag_desktop.cliargs import add_shared_flags

    parser = argparse.ArgumentParser(add_help=False)
    add_shared_flags(parser)
    table = README.read_text(encoding="utf-8").split("Options every verb takes", 1)[1].split("\n\n", 2)[1]
    flags = {option for action in parser._actions for option in action.option_strings}
    assert flags <= set(re.findall(r"`(--[a-z-]+)", table)), flags


def test_ask_help_and_the_readme_give_the_same_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    # 130 (Ctrl+C) was in neither, and `ask --help` said none, though `kb --help` and `nanogo --help` did
    with pytest.raises(SystemExit):
        main(["ask", "--help"])
    helped = " ".join(capsys.readouterr().out.split()).split("Exit status: ", 1)[1]
    said = " ".join(README.read_text(encoding="utf-8").split("\nThe exit status is ", 1)[1].split("\n\n")[0].split())
    codes = ["0", "1", "2", "130"]
    assert re.findall(r"\b(\d+) (?:the|failed|wrong|stopped)\b", helped) == codes, helped
    assert re.findall(r"\b(\d+) (?:when|for)\b", said) == codes, said


def test_a_library_missing_from_this_python_is_said_in_words(tmp_path: Path) -> None:
    # The README's `python -m tinyrag_desktop kb add …` run with the system's Python, not the .venv one:
    # the import ended in a traceback naming lxml
    doc = tmp_path / "note.txt"
    doc.write_text("The heron nests by the lake.\n", encoding="utf-8")
    code = ("import sys; sys.modules['lxml'] = None; sys.modules['lxml.etree'] = None; "
            "from tinyrag_desktop.__main__ import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "kb", "add", str(doc), "--data-dir", str(tmp_path / "d")],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "the library it needs, 'lxml', is not installed for this Python" in done.stderr
    assert ".venv/bin/python -m tinyrag_desktop" in done.stderr
