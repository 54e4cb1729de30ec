"""The README against the code: the flags its commands use, the settings table's keys, defaults and ranges."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from tinyrag_desktop import app, cli
from tinyrag_desktop.cliargs import _FLAG_KEYS
from tinyrag_desktop.settings import OPTIONS, SCHEMA

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

# How the README starts the app: `python -m tinyrag_desktop`, `.venv/bin/tinyrag-desktop`, the bundle's binary.
_PROGRAM = re.compile(r"(?:python\S* -m tinyrag_desktop|\S*tinyrag-desktop)(?=\s|$)(?P<rest>.*)")
# Inline code that names a verb alone: `ask --jsonl`, `kb add --chunk-size CHARS`, `kb search --k 3 -- -verbose`.
_VERB_SPAN = re.compile(r"^(?:ask|kb|nanogo)\b")


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def _commands(text: str) -> list[tuple[int, str]]:
    """(README line, the words after the program) of every command the README writes: in code blocks,
    indented blocks and code spans (a span may go on to the next line)."""
    found = []
    in_block = False
    prose = []  # the lines outside code blocks, blocks blanked, so a span's line number stays its own
    for number, line in enumerate(text.splitlines(), 1):
        fence = line.lstrip().startswith(("```", "~~~"))
        if fence:
            in_block = not in_block
        if in_block or line.startswith("    ") and not fence:
            match = _PROGRAM.search(line.split(" # ", 1)[0])  # a comment after the command
            if match and not fence:
                found.append((number, match["rest"]))
            prose.append("")
        else:
            prose.append("" if fence else line)
    # spans of two backticks or more (```` ``` ````) first: they hold single ones
    joined = re.sub(r"(`{2,})[^\n]*?\1", lambda m: "x" * len(m[0]), "\n".join(prose))
    # a span ends in its paragraph or list item: a stray backtick ("Let`s") pairs no further
    start = 0
    for part in re.split(r"(\n\s*\n|\n(?=- ))", joined):
        for span in re.finditer(r"`([^`]+)`", part):
            piece, number = span[1].replace("\n", " "), joined.count("\n", 0, start + span.start()) + 1
            match = _PROGRAM.search(piece)
            if match:
                found.append((number, match["rest"]))
            elif _VERB_SPAN.match(piece):
                found.append((number, piece))
        start += len(part)
    return found


def _parser_for(words: list[str]) -> argparse.ArgumentParser:
    """The parser that reads ``words`` (a verb's, a kb command's, or the window's without a verb)."""
    if not words or words[0] not in ("ask", "kb", "nanogo"):
        return app.build_parser()
    parser = cli.build_parser()
    for word in words[:2]:
        verbs = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if verbs is None or word not in verbs.choices:
            break
        parser = verbs.choices[word]
    return parser


def _flags(words: list[str]) -> list[str]:
    flags = []
    for word in words:
        if word == "--":
            break  # text after it: `kb search --k 3 -- -verbose`
        if word.startswith("--") and len(word) > 2:
            flags.append(word.partition("=")[0])
    return flags


def test_the_readme_finds_its_commands() -> None:
    commands = _commands(README)
    # the test reads what it should: the kb examples, ask's, nanogo's and the window's flags
    said = " ".join(rest for _, rest in commands)
    assert len(commands) > 30, commands
    for flag in ("--wikipedia", "--k", "--jsonl", "--chunk-size", "--screenshot", "--data-dir"):
        assert flag in said, flag


def test_every_flag_the_readme_writes_after_a_command_is_one_that_command_takes() -> None:
    wrong = []
    for number, rest in _commands(README):
        try:
            words = shlex.split(rest.replace("…", ""))
        except ValueError:
            words = rest.split()
        words = [w for w in words if w not in ("[", "]")]
        words = [w.strip("[]") for w in words]
        known = _options(_parser_for(words))
        wrong += [f"README.md:{number}: {flag} in {rest.strip()!r}" for flag in _flags(words) if flag not in known]
    assert not wrong, "\n".join(wrong)


def test_every_flag_the_readme_names_is_the_apps_or_a_named_tools() -> None:
    ours: set[str] = _options(app.build_parser())
    top = cli.build_parser()
    stack = [top]
    while stack:
        parser = stack.pop()
        ours |= _options(parser)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack += list(action.choices.values())
    # flags of other programs the README gives: each must be in that program's source
    others = {"--as-large": "benchmarks/bench_kb_quality.py", "--uninstall": "packaging/install-linux.sh"}
    for flag, path in others.items():
        assert f'"{flag}"' in (ROOT / path).read_text(encoding="utf-8"), (flag, path)
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", README))
    # --no-deps: pip's; --password: any program's, whose value the knowledge base hides (kb/secret_values.py)
    assert named - ours - set(others) - {"--no-deps", "--password"} == set()
    assert "--password=hunter2" in (ROOT / "tinyrag_desktop/kb/secret_values.py").read_text(encoding="utf-8")


def _settings_rows() -> list[tuple[list[str], list[str]]]:
    """(keys, defaults) of each row of the Settings section's table."""
    part = README.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in part.splitlines():
        if line.startswith("| `"):
            keys_cell, default_cell = line.split("|")[1:3]
            keys = re.findall(r"`([a-z_]+)`", keys_cell)
            defaults = [d.strip().strip("`") for d in default_cell.split(",")] if len(keys) > 1 \
                else [default_cell.strip().strip("`")]
            rows.append((keys, defaults))
    return rows


def test_the_settings_table_lists_every_key_with_its_default() -> None:
    rows = _settings_rows()
    listed = [key for keys, _ in rows for key in keys]
    assert sorted(listed) == sorted(o.name for o in SCHEMA), set(listed) ^ {o.name for o in SCHEMA}
    for keys, said in rows:
        assert len(keys) == len(said), (keys, said)
        for key, default in zip(keys, said):
            actual = OPTIONS[key].default
            if isinstance(actual, bool):
                assert default == str(actual).lower(), (key, default)
            elif isinstance(actual, (int, float)):
                assert float(default) == actual, (key, default, actual)
            elif isinstance(actual, dict):
                assert default.split(", ") == list(actual), (key, default)
            elif actual == "":
                assert default in ("", "(none)", "(server's first)"), (key, default)
            else:
                assert default == actual, (key, default, actual)


def _range_said(words: str) -> tuple[float, float] | None:
    match = re.search(r"\((\d[\d,.]*) to (\d[\d,.]*)", words) or re.search(r", (\d[\d,.]*) to (\d[\d,.]*)", words)
    return (float(match[1].replace(",", "")), float(match[2].replace(",", ""))) if match else None


def test_the_ranges_the_readme_gives_for_flags_are_the_settings_ranges() -> None:
    table = README.split("Options every verb takes", 1)[1].split("\n\n", 2)[1]
    checked = 0
    for line in table.splitlines():
        flags = re.findall(r"`--([a-z-]+)", line.split("|")[1]) if line.startswith("| `--") else []
        said = _range_said(line.split("|")[2]) if flags else None
        if said is None:
            continue
        assert len(flags) == 1, line
        opt = OPTIONS[_FLAG_KEYS[flags[0].replace("-", "_")]]
        assert said == (opt.minimum, opt.maximum), (flags[0], said, opt.minimum, opt.maximum)
        checked += 1
    assert checked >= 4  # temperature, first-token-timeout, max-tokens, context-tokens
    # kb's own: `--chunk-size CHARS` (200 to 8000) and `--k 5` (k from 1 to 50)
    chunk = re.search(r"--chunk-size CHARS` \((\d+) to (\d+)\)", README)
    assert chunk and (float(chunk[1]), float(chunk[2])) == (OPTIONS["chunk_size"].minimum, OPTIONS["chunk_size"].maximum)
    k = re.search(r"--k 5 +# k from (\d+) to (\d+)", README)
    assert k and (float(k[1]), float(k[2])) == (OPTIONS["k"].minimum, OPTIONS["k"].maximum)


@pytest.mark.parametrize("target", ["run", "test", "bench", "bundle", "smoke", "corpora", "clean"])
def test_the_make_targets_the_readme_names_exist(target: str) -> None:
    assert f"`make {target}" in README or f"make {target}`" in README or f"(`make {target}`" in README
    assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M), target


def test_what_make_clean_removes_is_what_the_readme_says() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    removed = makefile.split("\nclean:", 1)[1].split("rm -rf", 1)[1].splitlines()[0].split()
    said = README.split("`make clean`\nremoves ", 1)[1].split(" only)", 1)[0] if "`make clean`\nremoves " in README \
        else README.split("`make clean` removes ", 1)[1].split(" only)", 1)[0]
    assert sorted(re.findall(r"`([^`]+)`", said)) == sorted(w.replace("$(VENV)", ".venv") for w in removed), said


def test_the_nanogo_corpus_is_as_large_as_the_readme_says() -> None:
    said = re.search(r"a corpus of (\d+) programs", README)
    assert said and int(said[1]) == len(list((ROOT / "tests" / "nanogo" / "corpus").glob("*.go")))


def test_the_file_types_the_readme_says_are_read_are_the_readers_own() -> None:
    from tinyrag_desktop.kb.readers import SUPPORTED, TYPE_NAMES

    listed = README.split("**What it reads:** `", 1)[1].split("`", 1)[0].split()
    assert sorted(listed) == sorted(SUPPORTED)
    said = README.split("The *Type* column says what each source is: ", 1)[1].split(".", 1)[0]
    assert sorted(re.split(r", | or ", said)) == sorted(TYPE_NAMES.values())


def test_every_environment_variable_of_the_app_the_readme_names_is_read_by_it() -> None:
    code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "tinyrag_desktop").rglob("*.py"))
    named = set(re.findall(r"\bTINYRAG_[A-Z_]+\b", README))
    assert {"TINYRAG_DATA_DIR", "TINYRAG_API_KEY"} <= named
    assert {name for name in named if f'"{name}"' not in code} == set()


def test_kb_jsonl_prints_the_fields_the_readme_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from tinyrag_desktop.__main__ import main

    note = tmp_path / "note.md"
    note.write_text("# Guide\n\n## Reset\n\nTo reset your password open the account page.\n", encoding="utf-8")
    data = ["--data-dir", str(tmp_path / "data"), "--offline"]
    assert main(["kb", "add", str(note), *data]) == 0
    capsys.readouterr()
    assert main(["kb", "search", "reset password", "--jsonl", *data]) == 0
    hit = json.loads(capsys.readouterr().out.splitlines()[0])
    assert main(["kb", "list", "--jsonl", *data]) == 0
    source = json.loads(capsys.readouterr().out.splitlines()[0])
    said = README.split("With `--jsonl`, `kb search` prints one JSON object per passage found (", 1)[1]
    search_said, list_said = said.split(" and `kb list` one per source (", 1)
    assert set(re.findall(r"`(\w+)`", search_said)) - {"null"} == set(hit), hit
    assert set(re.findall(r"`(\w+)`", list_said.split(")", 1)[0])) == set(source), source


def test_every_file_of_the_project_the_readme_names_is_there() -> None:
    # `tests/sse_server.py`, `benchmarks/bench_open.py`, `.ci/run`, docs/screenshot-light.png, `tinyrag_desktop/protocol/`
    named = set(re.findall(r"`((?:\.ci|benchmarks|docs|packaging|tests|tinyrag_desktop)/[^`\s]*)`", README))
    named |= set(re.findall(r"\]\(((?:docs|tests|packaging|benchmarks)/[^)\s]+)\)", README))
    assert len(named) >= 10, named
    # `python benchmarks/bench_kb_quality.py` and the like, in code spans with the command around them
    named |= set(re.findall(r"(?:python\S*) ((?:benchmarks|tests|packaging)/\S+\.py)", README))
    assert sorted(path for path in named if not (ROOT / path).exists()) == []
    # `engine/`, `tools/`, `kb/`, `ui/`: the packages the Development section names
    for package in re.findall(r"`(\w+)/`", README.split("\n## Development\n", 1)[1].split("\n## ", 1)[0]):
        assert (ROOT / "tinyrag_desktop" / package).is_dir(), package


def test_the_go_packages_the_readme_lists_are_the_ones_nanogo_has() -> None:
    from tinyrag_desktop.tools.nanogo.compiler import PACKAGES

    said = README.split("Packages: ", 1)[1].split(". Importing anything else", 1)[0]
    said = re.sub(r" \([^()]*(?:\([^()]*\)[^()]*)*\)", "", said)  # the notes in brackets: "(incl. Builder …)"
    assert sorted(re.findall(r"`([\w/]+)`", said)) == sorted(PACKAGES)


def test_every_link_within_the_readme_leads_to_one_of_its_headings() -> None:
    # GitHub's anchors: the heading in lower case, spaces as hyphens, other punctuation dropped
    anchors = {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
               for heading in re.findall(r"^#{1,6} (.+)$", README, flags=re.MULTILINE)}
    links = re.findall(r"\]\(#([^)]+)\)", README)
    assert len(links) > 20  # the contents list and the cross-references
    assert [link for link in links if link not in anchors] == []


def test_the_markup_read_of_a_page_is_the_one_the_readme_names() -> None:
    # The 1 MB of markup url_fetch reads of a page was said nowhere: its note was the only word of it.
    from tinyrag_desktop.tools.readable import MAX_HTML_CHARS

    said = " ".join(README.split())
    assert f"only its first {MAX_HTML_CHARS // 1_000_000} MB of markup is read" in said
