"""The knowledge panel's import summary as a person reads it: which web page failed, and why."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from tests.kb.test_panel import _import
from tests.loopback import serving
from tinyrag_desktop.kb import ImportItem


class _Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        if self.path.startswith("/missing"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"<html><head><title>Herons</title></head><body><h1>Herons</h1><p>Herons wade.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def site():
    with serving(_Pages) as url:
        yield url


def test_a_failed_web_page_is_named_by_its_address_not_the_last_part_of_its_path(qtbot, panel, site):
    host = site.removeprefix("http://")
    report = _import(qtbot, panel, [ImportItem("url", f"{site}/herons"), ImportItem("url", f"{site}/missing/page"),
                                    ImportItem("wikipedia", "")])
    assert len(report.added) == 1 and len(report.failed) == 2
    lines = panel.status_label.text().split("\n")
    # It said "✗ page: the server answered 404 Not Found": which page, of which site?
    assert f"✗ {host}/missing/page: the server answered 404 Not Found" in lines
    assert any(line.startswith("✗ (nothing given): ") for line in lines), lines  # was "✗ : Give the title…"
    assert f"{site}/missing/page: the server answered 404" in panel.status_label.toolTip()


def test_progress_names_the_file_being_read_not_its_whole_path(qtbot, panel, tmp_path):
    from tinyrag_desktop.kb import Progress

    deep = tmp_path / "a folder with a long name" / "and another one inside it" / "herons of the marshes.txt"
    panel._on_progress(Progress(done=5, total=150, current=str(deep), failed=0))
    # The whole path wrapped over three lines beneath the bar, and the panel jumped from file to file.
    assert panel.status_label.text() == "6 of 150: herons of the marshes.txt"
    panel._on_progress(Progress(done=6, total=150, current="https://example.org/docs/herons", failed=1))
    assert panel.status_label.text() == "7 of 150, 1 failed: example.org/docs/herons"


def test_an_empty_list_during_the_first_import_does_not_ask_to_add_sources(qtbot, panel, sample_dir):
    view = panel.sources_view
    assert "Click Add" in view.empty_text
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        assert panel.import_items([str(sample_dir / "notes.txt")])
        assert view.empty_text == view.BUSY_TEXT and "Click Add" not in view.empty_text
    assert "Click Add" in view.empty_text


@pytest.mark.parametrize(("location", "asked_for"), [
    # stored by title, as ingest stores an article whose page address did not come back: it was
    # ImportItem("path", "wikipedia:en:Alan Turing"), "no such file or folder"
    ("wikipedia:en:Alan Turing", ImportItem("wikipedia", "Alan Turing", lang="en")),
    # from the German edition: it was asked of the settings' language's, the English "Donau (Fluss)"
    ("https://de.wikipedia.org/wiki/Donau_(Fluss)", ImportItem("wikipedia", "Donau (Fluss)", lang="de")),
])
def test_re_import_of_an_article_asks_its_own_edition_again(qtbot, panel, data_dir, monkeypatch, location, asked_for):
    from tests.kb.test_panel import _select
    from tinyrag_desktop.kb import open_store
    from tinyrag_desktop.kb.models import Chunk

    with open_store(data_dir) as kb:
        kb.replace_source(title="An article", location=location, type="wikipedia", size=40, content_hash="x",
                          chunks=[Chunk("An article", "It says something.")], load_id="test")
    panel.refresh()
    asked = []
    monkeypatch.setattr(panel, "import_items", lambda items, force=False: asked.append((items, force)) or True)
    _select(panel.sources_view, 0)
    assert panel.reimport_selected()
    assert asked == [([asked_for], True)]


def test_a_page_asked_for_with_the_network_off_says_where_to_turn_it_on(qtbot, data_dir, tmp_path, site):
    # Queued behind a folder's import, so that the summary is two reports joined: the joined one dropped
    # which items the network being off left out, and the panel said only "✗ …: not downloaded".
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.kb_panel import OFFLINE_NOTE, KnowledgePanel

    panel = KnowledgePanel(data_dir, lambda: {**defaults(), "network_tools": False})
    qtbot.add_widget(panel)
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(20):
        (folder / f"n{n}.txt").write_text(f"note {n} about herons " * 200, encoding="utf-8")
    finished = []
    panel.importFinished.connect(finished.append)
    try:
        assert panel.import_items([str(folder)])
        assert panel.import_items([ImportItem("url", f"{site}/herons")])
        qtbot.waitUntil(lambda: len(finished) == 1, timeout=60_000)
    finally:
        panel.shutdown()
    report = finished[0]
    assert len(report.added) == 20 and report.offline == [f"{site}/herons"]
    lines = panel.status_label.text().split("\n")
    host = site.removeprefix("http://")
    assert f"✗ {host}/herons: not downloaded: the network is off (offline mode)" in lines
    assert lines[-1] == OFFLINE_NOTE and "Settings" in OFFLINE_NOTE
