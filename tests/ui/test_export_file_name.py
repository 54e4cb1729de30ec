"""The file name File → Export suggests for a chat is one Windows, macOS and Linux can create, whatever the chat's
title, and reads as the title: only what one of them forbids or hides is changed."""

from __future__ import annotations

import re
from pathlib import Path

import tempfile
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.files import FILE_NAME_BYTES, FILE_NAME_CHARS, file_name_from

_DEVICES = re.compile(r"(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])(\..*)?", re.IGNORECASE)


def windows_can_create(name: str) -> bool:
    """What Windows refuses in a file name: its reserved characters, a trailing dot or space, a device name."""
    return (bool(name) and not any(c in '<>:"/\\|?*' or ord(c) < 32 for c in name)
            and not name.endswith((".", " ")) and not _DEVICES.fullmatch(name) and len(name) <= 255)


TITLES = ["CON", "nul", "Aux", "com1", "LPT¹", "a:b?", "What is 2+2?  ", "Notes...", "  ", "???", "",
          "x" * 500, "Compare A/B\\C <tags> | pipes *"]


@pytest.mark.parametrize("title", TITLES)
def test_a_name_made_of_a_title_can_be_created_on_windows(title: str) -> None:
    name = file_name_from(title)
    assert windows_can_create(name) and windows_can_create(f"{name}.md"), name
    assert len(name) <= FILE_NAME_CHARS


def test_an_ordinary_title_is_kept_as_it_reads() -> None:
    assert file_name_from("Café notes - week 2_draft") == "Café notes - week 2_draft"
    assert file_name_from("What is RAG?") == "What is RAG_"
    assert file_name_from("") == file_name_from("...") == "chat"


@pytest.mark.parametrize("title", ["日本語の長いチャットのタイトル" * 10, "Привет мир " * 20, "🙂 emoji 👍🏽 " * 40,
                                   "ä" * 99 + "日本", "e\u0301" * 150])
def test_a_long_title_in_any_script_makes_a_name_linux_and_macos_can_create(title: str, tmp_path: Path) -> None:
    # Linux and macOS take a file name of 255 bytes at most: 100 Japanese characters and ".html" (305 bytes)
    # were "File name too long" at export.
    name = file_name_from(title) + ".html"
    assert len(name.encode("utf-8")) <= 255
    assert "\ufffd" not in name  # not cut inside a character
    (tmp_path / name).write_text("ok", encoding="utf-8")
    assert (tmp_path / name).read_text(encoding="utf-8") == "ok"


def test_ordinary_punctuation_is_kept_as_the_title_has_it() -> None:
    # "How do I export a chat_ and what is _17_5__3_2_": commas, brackets, "+" and "." are allowed everywhere
    assert (file_name_from("How do I export a chat, and what is (17.5 + 3.2)?")
            == "How do I export a chat, and what is (17.5 + 3.2)_")
    title = "Notes, v2.1 (draft) + 50% & more; [a] {b} #1 @home ~ 'q' = ok! é 日本 🙂"
    assert file_name_from(title) == title


def test_what_a_system_forbids_or_hides_is_replaced() -> None:
    assert file_name_from('a/b\\c:d*e?f"g<h>i|j') == "a_b_c_d_e_f_g_h_i_j"
    assert file_name_from("invoice\u202egnp.exe") == "invoice_gnp.exe"  # read as "invoiceexe.png"
    assert file_name_from("line\nbreak\ttab\x7f") == "line_break_tab_"
    assert file_name_from("..hidden. ") == "hidden"  # a leading dot hides a file on Linux and macOS
    assert file_name_from("nul.tar") == "nul_.tar" and file_name_from("con") == "con_"  # Windows' devices


# Any text, lone surrogates and every control character included.
ANY_TITLE = st.text(st.characters(codec=None, exclude_categories=()), max_size=400)
FORBIDDEN = set('/\\:*?"<>|')


def _hidden(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or unicodedata.bidirectional(c) in (
        "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI") or c in "\u200e\u200f\u061c"


@settings(max_examples=400, deadline=None)
@given(ANY_TITLE)
@example("CON.tar.gz")
@example("COM1 .x")
@example("conout$.md")
@example("." * 300)
@example("\ud800" * 3)
@example("a" * 99 + "日")
def test_any_title_gives_a_name_every_system_can_create(title: str) -> None:
    name = file_name_from(title)
    assert name and not any(c in FORBIDDEN or _hidden(c) for c in name), name
    assert not name.startswith((".", " ")) and not name.endswith((".", " ")), name
    for full in (name, f"{name}.md", f"{name}.html"):
        assert windows_can_create(full) and not _DEVICES.fullmatch(full.split(".")[0].rstrip(" ")), full
    assert len(name) <= FILE_NAME_CHARS and len(name.encode("utf-8")) <= FILE_NAME_BYTES


SAFE_CHARS = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp", "Cf"),
                           exclude_characters='/\\:*?"<>|')


@settings(max_examples=200, deadline=None)
@given(st.text(SAFE_CHARS, min_size=1, max_size=60))
@example("What is (2 + 2), really!")
@example("CONIN$")
def test_a_title_of_allowed_characters_is_kept_whole(title: str) -> None:
    title = title.strip(" .")
    if not title.strip("_ ") or _DEVICES.fullmatch(title.split(".")[0].rstrip(" ")) or len(title.encode()) > 200:
        return
    assert file_name_from(title) == title


_FOLDER = tempfile.TemporaryDirectory()  # one for every example: a fixture's would be shared anyway


@settings(max_examples=150, deadline=None)
@given(ANY_TITLE)
def test_any_title_gives_a_name_this_system_creates(title: str) -> None:
    path = Path(_FOLDER.name) / f"{file_name_from(title)}.html"
    path.write_text("ok", encoding="utf-8")
    assert path.read_text(encoding="utf-8") == "ok" and path.parent == Path(_FOLDER.name)
    path.unlink()


def test_the_export_dialog_suggests_such_a_name(make_window, server, monkeypatch) -> None:
    from tinyrag_desktop.ui import export

    win = make_window(server.base_url)
    chat = win.store.new_chat("CON")
    suggested: list[str] = []

    def save_dialog(_parent, _caption, where, _kinds, *_chosen):  # the system's own dialog: it cannot run offscreen
        suggested.append(where)
        return "", ""

    monkeypatch.setattr(export.QFileDialog, "getSaveFileName", save_dialog)
    export.export_dialog(win, "md", chat.id)
    assert len(suggested) == 1 and Path(suggested[0]).parent == Path(export.window_layout.start_folder(""))
    assert windows_can_create(Path(suggested[0]).name), suggested[0]
