"""The knowledge panel's import summary as a person reads it: which web page failed, and why."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from tests.kb.test_panel import _import
from tests.loopback import serving
from tinyrag_desktop.kb import ImportItem
from tinyrag_desktop.ui.kb_summary import StatusLabel


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
        # "The sources are listed here as soon as this is done.": the list is read when the import ends
        assert view.empty_text == "Importing… sources appear here when the import ends."
    assert "Click Add" in view.empty_text


def test_an_empty_panel_says_how_to_add_sources_once(qtbot, panel, sample_dir):
    # "No sources yet. Click Add, or drop files, folders or web links here." over "Drop files, folders or
    # links here to import them.": the same thing twice
    view = panel.sources_view
    panel.refresh()
    assert panel.source_count() == 0 and "drop files, folders or web links here" in view.empty_text
    assert panel.status_label.text() == ""
    _import(qtbot, panel, [str(sample_dir / "notes.txt")])
    panel.status_label.setText("")  # as it is at the next start
    panel.refresh()
    assert panel.source_count() == 1 and panel.status_label.text() == StatusLabel.IDLE  # the list no longer says it
    panel.status_label.setText("1 source removed.")
    panel.refresh()
    assert panel.status_label.text() == "1 source removed."  # what was done stays until the next task


def test_an_index_being_rebuilt_is_not_called_an_import(qtbot, panel, monkeypatch):
    from tinyrag_desktop.ui import kb_panel

    asked = []
    monkeypatch.setattr(kb_panel, "needs_rebuild", lambda _data_dir: not asked.append(1) and len(asked) == 1)
    panel.refresh()
    assert panel.sources_view.empty_text.startswith("Updating the search index…")
    qtbot.waitUntil(lambda: not panel._busy, timeout=60_000)
    assert panel.sources_view.empty_text == panel.sources_view.EMPTY_TEXT


def test_a_local_address_typed_without_http_is_read_from_the_local_server(qtbot, panel, site, monkeypatch):
    # "127.0.0.1:18501/index.html" was taken as https:// and failed "could not be reached" though the server
    # was up on http; "localhost:18501/…" was refused as no web address.
    host = site.removeprefix("http://")
    port = host.rsplit(":", 1)[1]
    real = panel.import_items
    for typed in (f"{host}/herons", f"localhost:{port}/herons"):
        refused = []  # what the dialog would have said under the box
        monkeypatch.setattr(panel, "_ask", lambda *args, check, typed=typed: refused.append(check(typed)) or typed)
        started = []
        monkeypatch.setattr(panel, "import_items", lambda items, force=False: started.append(items) or real(items))
        with qtbot.waitSignal(panel.importFinished, timeout=30_000) as done:
            panel.ask_url()
        assert refused == [""] and [item.value for item in started[0]] == [f"http://{typed}"]
        report = done.args[0]
        assert not report.failed and len(report.added) + len(report.unchanged) == 1
