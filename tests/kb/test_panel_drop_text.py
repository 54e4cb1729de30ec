"""Text dropped on the Knowledge panel: every link on its lines, addresses without http:// (as the URL
dialog takes them), and paths of files and folders are imported; what is not is said."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent

from tinyrag_desktop.ui.kb_drop import items_from_urls, left_out


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(item.kind, item.value) for item in items_from_urls([], text)]


def _drop_text(panel, text: str) -> None:
    mime = QMimeData()
    mime.setText(text)
    panel.dropEvent(QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                               Qt.KeyboardModifier.NoModifier))


def test_every_link_on_its_own_line_is_imported():
    text = "http://127.0.0.1:18601/json\nhttps://example.org/tiny\r\n\n  http://127.0.0.1:18601/json  \n"
    assert _pairs(text) == [("url", "http://127.0.0.1:18601/json"), ("url", "https://example.org/tiny")]
    assert left_out([], text) == []


@pytest.mark.parametrize(("typed", "meant"), [
    ("127.0.0.1:18601/page.html", "http://127.0.0.1:18601/page.html"),
    ("localhost:8000/notes.html", "http://localhost:8000/notes.html"),
    ("example.org/guide.html", "https://example.org/guide.html"),
])
def test_an_address_without_http_is_taken_as_the_url_dialog_takes_it(typed, meant):
    assert _pairs(typed) == [("url", meant)]
    assert left_out([], typed) == []


def test_paths_of_files_and_folders_are_imported_and_a_missing_one_is_said(tmp_path):
    doc = tmp_path / "guide.rst"
    doc.write_text("Guide\n=====\n\nHow to bake.\n", encoding="utf-8")
    folder = tmp_path / "my notes"  # a space in it: the whole line is the path
    folder.mkdir()
    gone = tmp_path / "gone.md"
    text = f"{doc}\n{folder}\n{gone}\n{doc.as_uri()}"
    assert _pairs(text) == [("path", str(doc)), ("path", str(folder))]
    said = left_out([], text)
    assert len(said) == 1 and "gone.md" in said[0] and "no such file or folder" in said[0]


def test_links_in_a_sentence_are_imported_and_the_words_around_them_are_not():
    assert _pairs("See https://example.org/guide, and (https://example.org/tools).") == [
        ("url", "https://example.org/guide"), ("url", "https://example.org/tools")]
    assert _pairs("just some words I selected") == []
    assert left_out([], "just some words I selected") == ["the text “just some words I selected”"]
    # a file's name is no server's name, though .rst and .txt look like domains to the address rules
    assert _pairs("notes.txt") == []


def test_a_line_with_nothing_to_import_among_links_is_named(tmp_path):
    text = "https://example.org/a\nfrom my bookmarks\nhttps://example.org/b"
    assert _pairs(text) == [("url", "https://example.org/a"), ("url", "https://example.org/b")]
    assert left_out([], text) == ["“from my bookmarks”"]


def test_a_drop_of_several_lines_imports_them_all(qtbot, panel, tmp_path):
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("# Herons\nHerons wade.\n", encoding="utf-8")
    second.write_text("# Owls\nOwls hunt.\n", encoding="utf-8")
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as finished:
        _drop_text(panel, f"{first}\n{second}\n")
    assert len(finished.args[0].added) == 2 and panel.source_count() == 2


def test_a_drop_of_links_and_a_missing_file_imports_the_links_and_names_the_file(qtbot, panel, tmp_path,
                                                                                  monkeypatch):
    asked = []
    monkeypatch.setattr(panel, "import_items", lambda items, force=False: asked.append(items) or True)
    _drop_text(panel, f"127.0.0.1:18601/page.html\nhttp://127.0.0.1:18601/tiny\n{tmp_path / 'gone.rst'}")
    assert [(i.kind, i.value) for i in asked[0]] == [("url", "http://127.0.0.1:18601/page.html"),
                                                      ("url", "http://127.0.0.1:18601/tiny")]
    assert "gone.rst" in panel.status_label.text() and panel.status_label.text().startswith("Not imported:")


def test_a_dropped_path_of_a_user_this_computer_does_not_know_is_said_as_missing(panel, monkeypatch):
    # Path.expanduser raised RuntimeError for "~name" of no user here: the drop ended in a traceback
    asked = []
    monkeypatch.setattr(panel, "import_items", lambda items, force=False: asked.append(items) or True)
    _drop_text(panel, "~nosuchuser-tinyrag/notes.md")
    assert asked == []
    assert panel.status_label.text().startswith("Not imported:"), panel.status_label.text()
    assert "~nosuchuser-tinyrag/notes.md" in panel.status_label.text()
