"""What the ``kb`` verbs say about odd words on their command line: a search text or file name starting with
a dash, a search with no words in it, an address that is neither http(s) nor a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tinyrag_desktop.cli import main
from tinyrag_desktop.kb import Importer, open_store




@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kb")
    (root / "-flags.md").write_text("# Flags\n\nThe -verbose flag prints every step of the backup.\n")
    with open_store(root / "data") as kb:
        Importer(kb, chunk_size=300).run([str(root / "-flags.md")])
    return root / "data"


def test_a_search_text_starting_with_a_dash_says_how_to_give_it(data, capsys):
    # argparse took it for an option and said "the following arguments are required: TEXT" and no more
    code, out, err = run_main(capsys, "search", "-verbose", "--data-dir", str(data))
    assert code == 2 and out == ""
    assert err.splitlines()[-1].endswith(
        "the following arguments are required: TEXT (to give -verbose as text, not as an option, put -- "
        "before it, after every option: kb search [OPTIONS] -- -verbose)")
    code, out, err = run_main(capsys, "search", "--data-dir", str(data), "--k", "1", "--", "-verbose")
    assert code == 0 and out.startswith("[1] Flags")


def test_a_file_name_starting_with_a_dash_says_how_to_give_it(data, capsys):
    code, out, err = run_main(capsys, "add", "-flags.md", "--data-dir", str(data))
    assert code == 2
    assert err.splitlines()[-1].endswith("unrecognized arguments: -flags.md (to give -flags.md as text, not as "
                                         "an option, put -- before it, after every option: kb add [OPTIONS] "
                                         "-- -flags.md)")


@pytest.mark.parametrize("args", [("search", "--jsonl", "-k", "3", "x"), ("add", "--chunksize", "300", "x")])
def test_a_mistyped_option_gets_no_such_advice(data, capsys, args):
    code, out, err = run_main(capsys, *args, "--data-dir", str(data))
    assert code == 2 and "put -- before it" not in err


@pytest.mark.parametrize("text", ["*", "😀", "(-)", ":"])
def test_a_search_with_no_words_says_so(data, capsys, text):
    code, out, err = run_main(capsys, "search", text, "--data-dir", str(data))
    assert code == 0 and out == ""
    assert err == (f"no matches: {text!r} has no words to search for (symbols, emoji and punctuation are left "
                   "out); search with words your documents use\n")


@pytest.mark.parametrize("text", ["", "  "])
def test_an_empty_search_text_is_a_wrong_command_line_as_an_empty_question_is(data, capsys, text):
    # it was "no matches" and exit 0, where ``ask ""`` exits 2: an unset shell variable looked like a search
    assert run_main(capsys, "search", text, "--data-dir", str(data)) == (
        2, "", "The search text is empty: give the words to look for.\n")


def test_a_search_with_words_that_match_nothing_says_only_no_matches(data, capsys):
    assert run_main(capsys, "search", "zebra", "--data-dir", str(data)) == (0, "", "no matches\n")


@pytest.mark.parametrize("address, scheme", [("ftp://example.org/notes.txt", "ftp"), ("htp://example.org/a", "htp"),
                                             ("HTTPX://example.org/a", "httpx")])
def test_an_address_neither_http_nor_file_says_which_ones_can_be_imported(tmp_path, capsys, address, scheme):
    # was "failed: ftp:/example.org/notes.txt: no such file or folder", the address mangled into a path
    code, out, err = run_main(capsys, "add", address, "--data-dir", str(tmp_path / "data"))
    assert code == 1
    assert f"failed: {address}: only http:// and https:// addresses can be imported, not {scheme}://" in err


def test_a_folder_named_like_an_address_is_still_read(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ftp:" / "notes").mkdir(parents=True)
    (tmp_path / "ftp:" / "notes" / "a.md").write_text("# A\n\nwords\n")
    code, out, err = run_main(capsys, "add", "ftp://notes", "--data-dir", str(tmp_path / "data"))
    assert code == 0 and out.startswith("1 added"), err


def test_a_passage_s_escape_sequences_are_shown_not_sent_to_the_terminal(tmp_path, capsys):
    # a log file's colours or a page's "set the window title" (ESC ] 0 ; … BEL) drove the terminal
    (tmp_path / "build.log").write_text("zebra build \x1b[31mfailed\x1b[0m \x1b]0;owned\x07 here\n"
                                        "\tindented line\n", encoding="utf-8")
    data = tmp_path / "data"
    with open_store(data) as kb:
        Importer(kb, chunk_size=300).run([str(tmp_path / "build.log")])
    code, out, err = run_main(capsys, "search", "zebra", "--data-dir", str(data))
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert "zebra build \\x1b[31mfailed\\x1b[0m \\x1b]0;owned\\x07 here" in out
    assert "\n        indented line" in out  # a tab is spaces, not "\t"
    code, out, err = run_main(capsys, "search", "zebra", "--jsonl", "--data-dir", str(data))
    assert "\x1b" not in out and json.loads(out)["text"].startswith("zebra build \x1b[31mfailed")


@pytest.mark.parametrize("verb", [(), ("add",), ("search",), ("list",), ("remove",)])
def test_each_verb_s_help_gives_its_exit_statuses(capsys, verb):
    with pytest.raises(SystemExit) as done:
        main(["kb", *verb, "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("Exit status: 0 done (a search that finds nothing included; for add, every source was imported or "
            "found unchanged, and the files a folder holds that are not imported by design, as hidden ones, are said "
            "as skipped), 1 failed (said on standard error; for add, any file, folder or page that failed, even when "
            "the others were imported), 2 wrong command line (or, for add, web pages not downloaded as the network "
            "is off, when nothing else failed), 130 stopped with Ctrl+C.") in text


def test_a_relative_folder_names_skipped_and_failed_files_alike_from_the_root(tmp_path, monkeypatch, capsys):
    # "skipped: mat/.hidden" beside "failed: /home/me/mat/bad.pdf": two ways of naming files of one folder
    folder = tmp_path / "mat"
    folder.mkdir()
    (folder / ".hidden").write_text("secret")
    (folder / "bad.pdf").write_text("not a pdf at all")
    (folder / "good.txt").write_text("Harbour tide tables.")
    monkeypatch.chdir(tmp_path)
    assert main(["kb", "--data-dir", str(tmp_path / "data"), "add", "mat"]) == 1  # bad.pdf failed
    err = capsys.readouterr().err
    assert f"skipped: {folder / '.hidden'}: hidden file" in err
    assert f"failed: {folder / 'bad.pdf'}: " in err
    monkeypatch.chdir(folder)  # "../mat" from inside it: named without the ".."
    assert main(["kb", "--data-dir", str(tmp_path / "data"), "add", "../mat"]) == 1
    assert f"skipped: {folder / '.hidden'}: hidden file" in capsys.readouterr().err
