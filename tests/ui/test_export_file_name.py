"""The file name File → Export suggests for a chat is one Windows can create, whatever the chat's title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tinyrag_desktop.files import FILE_NAME_CHARS, file_name_from

_DEVICES = re.compile(r"(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])(\..*)?", re.IGNORECASE)


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


def test_the_export_dialog_suggests_such_a_name(make_window, server, monkeypatch) -> None:
    from tinyrag_desktop.ui import export

    win = make_window(server.base_url)
    chat = win.store.new_chat("CON")
    suggested: list[str] = []

    def save_dialog(_parent, _caption, where, _kinds):  # the system's own dialog: it cannot run offscreen
        suggested.append(where)
        return "", ""

    monkeypatch.setattr(export.QFileDialog, "getSaveFileName", save_dialog)
    export.export_dialog(win, "md", chat.id)
    assert len(suggested) == 1 and Path(suggested[0]).parent == Path(export.window_layout.start_folder(""))
    assert windows_can_create(Path(suggested[0]).name), suggested[0]
