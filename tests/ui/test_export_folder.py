"""The export dialog opens where the last export went, also after a restart; in the Documents folder (or home)
when there was none or that folder is gone. It opened in the home folder each time, right after an export
to another folder."""

from __future__ import annotations

from pathlib import Path

from tinyrag_desktop.ui import export, window_layout

from .conftest import wait_signal


def _dialog(monkeypatch, choose: Path | None) -> list[str]:
    """The system's save dialog (it cannot run offscreen): where it was opened at, and ``choose`` as the
    user's choice ("" for Cancel)."""
    opened: list[str] = []

    def save_dialog(_parent, _caption, where, _kinds, *_chosen):
        opened.append(where)
        return (str(choose) if choose else ""), ""

    monkeypatch.setattr(export.QFileDialog, "getSaveFileName", save_dialog)
    return opened


def _export(win, qloop, chat_id: str) -> str:
    """Export through the dialog and wait for the status bar to say how it ended."""
    export.export_dialog(win, "md", chat_id)
    said = wait_signal(win.statusBar().messageChanged)  # after "Exporting to …": how it ended
    return qloop.run(said)


def test_the_dialog_opens_in_the_folder_of_the_last_export(make_window, server, qloop, tmp_path, monkeypatch):
    elsewhere = tmp_path / "exports" / "week 12"
    elsewhere.mkdir(parents=True)
    win = make_window(server.base_url)
    chat = win.store.new_chat("Backups")
    opened = _dialog(monkeypatch, elsewhere / "mine.md")
    assert _export(win, qloop, chat.id).startswith("Exported to")
    assert (elsewhere / "mine.md").is_file()

    again = _dialog(monkeypatch, None)
    export.export_dialog(win, "md", chat.id)
    assert Path(again[0]) == elsewhere / "Backups.md"
    assert Path(opened[0]).parent == Path(window_layout.start_folder(""))  # none before: Documents or home

    # kept in the data folder: the next start opens there too
    data = win.data_dir
    qloop.run(win.aclose())
    win.close()
    later = make_window(server.base_url, data_dir=data)
    after_restart = _dialog(monkeypatch, None)
    later.export_dialog("md", chat.id)
    assert Path(after_restart[0]).parent == elsewhere


def test_a_failed_export_leaves_the_folder_it_opens_in(make_window, server, qloop, tmp_path, monkeypatch):
    good, missing = tmp_path / "good", tmp_path / "not there"
    good.mkdir()
    win = make_window(server.base_url)
    chat = win.store.new_chat("Backups")
    _dialog(monkeypatch, good / "a.md")
    assert _export(win, qloop, chat.id).startswith("Exported to")
    _dialog(monkeypatch, missing / "b.md")
    assert _export(win, qloop, chat.id).startswith("The chat was not exported")
    opened = _dialog(monkeypatch, None)
    export.export_dialog(win, "md", chat.id)
    assert Path(opened[0]).parent == good


def test_a_folder_gone_since_opens_the_documents_folder(make_window, server, qloop, tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # no user-dirs.dirs naming another
    gone = tmp_path / "usb stick"
    gone.mkdir()
    win = make_window(server.base_url)
    chat = win.store.new_chat("Notes")
    _dialog(monkeypatch, gone / "notes.md")
    assert _export(win, qloop, chat.id).startswith("Exported to")
    (gone / "notes.md").unlink()
    gone.rmdir()
    opened = _dialog(monkeypatch, None)
    export.export_dialog(win, "md", chat.id)
    assert Path(opened[0]) == home / "Documents" / "Notes.md"


def test_a_name_typed_with_another_ending_is_exported_in_that_format(make_window, server, qloop, tmp_path,
                                                                     monkeypatch):
    # Export as Markdown, named "notes.html": it was Markdown under an HTML name (a browser showed it as text)
    win = make_window(server.base_url)
    chat = win.store.new_chat("Backups")
    win.store.add_user_message(chat.id, "What is **WAL**?")
    _dialog(monkeypatch, tmp_path / "notes.HTML")
    assert _export(win, qloop, chat.id).startswith("Exported to")
    assert (tmp_path / "notes.HTML").read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


def test_a_name_without_an_ending_takes_the_format_chosen_in_the_dialog():
    assert export.export_as("/x/notes", "md", export.KINDS["html"]) == ("/x/notes", "html")
    assert export.export_as("/x/notes", "html", export.KINDS["md"]) == ("/x/notes", "md")
    assert export.export_as("/x/notes", "html", "") == ("/x/notes", "html")  # no filter said: as asked
    assert export.export_as("/x/notes.htm", "md", export.KINDS["md"]) == ("/x/notes.htm", "html")
    assert export.export_as("/x/notes.markdown", "html", export.KINDS["html"]) == ("/x/notes.markdown", "md")


def test_html_chosen_in_the_markdown_dialog_for_a_name_without_an_ending_is_written_as_html(
        make_window, server, qloop, tmp_path, monkeypatch):
    win = make_window(server.base_url)
    chat = win.store.new_chat("Backups")
    win.store.add_user_message(chat.id, "What is **WAL**?")
    offered: list[tuple[str, str]] = []

    def save_dialog(_parent, _caption, _where, kinds, chosen):  # the user picks HTML and types "notes"
        offered.append((kinds, chosen))
        return str(tmp_path / "notes"), export.KINDS["html"]

    monkeypatch.setattr(export.QFileDialog, "getSaveFileName", save_dialog)
    assert _export(win, qloop, chat.id).startswith("Exported to")
    assert offered == [(f"{export.KINDS['md']};;{export.KINDS['html']}", export.KINDS["md"])]
    assert (tmp_path / "notes").read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
