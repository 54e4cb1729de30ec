"""Opening a passage's page at its place: the Knowledge panel's Search tab and the Sources line open an HTML
page at the anchor its passage sits under, through a small page in the cache folder for a file."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from tests.url_handler import OpenedUrls
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui import sources
from tinyrag_desktop.ui.kb_panel import KnowledgePanel
from tinyrag_desktop.ui.sources import SourceEntry, arrange, open_source
from tinyrag_desktop.ui.sources_row import SourcesRow

from .conftest import keep_picture

_LONG = " ".join(["Each sort or hash table of a query may use this much memory before it writes to disk."] * 12)


@pytest.fixture
def opened(monkeypatch, tmp_path):
    """What the app asks the desktop to open (file and web addresses), with the cache folder in tmp_path."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(sources, "_browser_is_sandboxed", lambda: False)
    handler = OpenedUrls()
    for scheme in ("file", "https"):
        QDesktopServices.setUrlHandler(scheme, handler, "open")
    yield handler
    for scheme in ("file", "https"):
        QDesktopServices.unsetUrlHandler(scheme)


def _docs(folder: Path) -> Path:
    folder.mkdir()
    terms = "".join(f'<dt id="GUC-{name.upper().replace("_", "-")}"><code>{name}</code> (integer)</dt>'
                    f"<dd><p>{name}: {_LONG}</p></dd>" for name in ("shared_buffers", "work_mem"))
    (folder / "runtime-config-resource.html").write_text(
        "<html><head><title>19.4. Resource Consumption</title></head><body>"
        '<div class="sect1" id="RUNTIME-CONFIG-RESOURCE"><h2>19.4. Resource Consumption</h2>'
        f'<div class="sect2" id="RUNTIME-CONFIG-RESOURCE-MEMORY"><h3>19.4.1. Memory</h3><dl>{terms}</dl></div>'
        "</div></body></html>", encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nwork_mem is the one setting I always forget.\n", encoding="utf-8")
    return folder


def _redirect_target(url: QUrl) -> str:
    """The address the page at ``url`` (one of the cache folder's) sends the browser on to."""
    page = Path(url.toLocalFile()).read_text(encoding="utf-8")
    [refresh] = re.findall(r'<meta http-equiv="refresh" content="0; url=([^"]+)">', page)
    [script] = re.findall(r"location\.replace\(\"([^\"]+)\"\)", page)
    assert html.unescape(refresh) == script
    return script


def test_a_search_result_opens_its_page_at_the_passage(qtbot, tmp_path, opened):
    docs = _docs(tmp_path / "docs")
    panel = KnowledgePanel(tmp_path / "data", lambda: defaults())
    qtbot.add_widget(panel)
    try:
        with qtbot.waitSignal(panel.importFinished, timeout=60_000):
            assert panel.import_items([str(docs)])
        panel.tabs.setCurrentIndex(1)
        panel.resize(520, 640)
        panel.show()
        with qtbot.waitSignal(panel.searchFinished, timeout=30_000):
            panel.run_search("work_mem memory of a hash table")
        first = panel.results.item(0)
        assert first.text().startswith("[1] 19.4. Resource Consumption > 19.4.1. Memory")
        keep_picture(panel, "search_tab_anchor.png")
        panel.results.itemActivated.emit(first)  # Enter or a double click
        [url] = opened.urls
        page = docs / "runtime-config-resource.html"
        # a page of the app's cache folder, which goes on to the file at the parameter's term
        assert Path(url.toLocalFile()).parent == tmp_path / "cache" / "tinyrag-desktop" / "open"
        assert _redirect_target(url) == QUrl.fromLocalFile(str(page.resolve())).toString() + "#GUC-WORK-MEM"
        # the Markdown note has no anchor: it opens as it always did
        notes = [panel.results.item(n) for n in range(panel.results.count())
                 if "notes.md" in panel.results.item(n).text()]
        panel.results.itemActivated.emit(notes[0])
        assert opened.urls[1] == QUrl.fromLocalFile(str((docs / "notes.md").resolve()))
        # the page moved away since: said in words, nothing opened
        page.rename(docs / "moved.html")
        panel.results.itemActivated.emit(first)
        assert len(opened.urls) == 2
        # on the Search tab it was opened from (it went to the hidden Sources tab's line)
        assert panel.search_note.isVisible()
        assert panel.search_note.text() == ("“runtime-config-resource.html” is not there any more: it was moved "
                                            "or deleted since it was imported.")
    finally:
        panel.shutdown()


def test_web_pages_take_the_anchor_as_their_fragment(opened):
    assert open_source("https://example.org/docs/config.html", "GUC-WORK-MEM") is None
    assert opened.addresses() == ["https://example.org/docs/config.html#GUC-WORK-MEM"]


def test_an_anchor_with_odd_characters_is_kept_whole(tmp_path, opened):
    page = tmp_path / "a page & more.html"
    page.write_text("<html><body><h2 id='x'>x</h2></body></html>", encoding="utf-8")
    assert open_source(str(page), 'Größe "quoted" <b>') is None
    target = QUrl(_redirect_target(opened.urls[0]))
    assert target.toLocalFile() == str(page) and target.fragment() == 'Größe "quoted" <b>'


def test_a_sandboxed_browser_gets_the_file_at_its_top(tmp_path, monkeypatch, opened):
    # Ubuntu's Firefox is a snap: it cannot read the cache folder, and would say "access denied"
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    apps, bin_dir = tmp_path / "snap-apps", tmp_path / "bin"
    apps.mkdir()
    bin_dir.mkdir()
    (apps / "firefox_firefox.desktop").write_text("[Desktop Entry]\nName=Firefox\n")
    (bin_dir / "xdg-mime").write_text("#!/bin/sh\necho firefox_firefox.desktop\n")
    (bin_dir / "xdg-mime").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sources, "_SANDBOXED_APPS", (str(apps),))
    page = tmp_path / "config.html"
    page.write_text("<html><body><h2 id='x'>x</h2></body></html>", encoding="utf-8")
    assert open_source(str(page), "x") is None
    assert opened.urls == [QUrl.fromLocalFile(str(page))]
    assert not (tmp_path / "cache").exists()
    # a browser installed the usual way gets the page at its anchor
    (apps / "firefox_firefox.desktop").unlink()
    assert open_source(str(page), "x") is None
    assert _redirect_target(opened.urls[1]) == QUrl.fromLocalFile(str(page)).toString() + "#x"


def test_the_sources_line_opens_an_entry_at_its_anchor(qtbot, tmp_path, opened):
    page = tmp_path / "config.html"
    page.write_text("<html><body><h2 id='memory'>Memory</h2></body></html>", encoding="utf-8")
    row = SourcesRow()
    qtbot.add_widget(row)
    row.set_entries([SourceEntry(str(page), (1,), "", "memory"), SourceEntry(str(tmp_path / "none.md"), (2,))])
    row.links()[0].click()
    assert _redirect_target(opened.urls[0]) == QUrl.fromLocalFile(str(page)).toString() + "#memory"


def test_the_sources_line_takes_each_files_anchor_beside_its_numbers():
    # what the answer would hand over, once its events carry anchors: one per location, the best passage's
    sets = [("", [("/docs/a.html", (1,)), ("/docs/b.md", (2,))]), ("Pages read:", [("https://example.org/c", ())])]
    entries = arrange(sets, {"/docs/a.html": "GUC-WORK-MEM", "/docs/b.md": None})
    assert [(e.location, e.numbers, e.anchor) for e in entries] == [
        ("/docs/a.html", (1,), "GUC-WORK-MEM"), ("/docs/b.md", (2,), None), ("https://example.org/c", (), None)]
    assert arrange(sets) == arrange(sets, {})  # without anchors, as before


def test_an_answers_sources_open_at_the_passages_it_used_also_when_reopened(make_window, server, qloop, tmp_path,
                                                                           opened):
    # The prompt's passages (the rag route) and the model's own search both carry where each page opens.
    from tinyrag_desktop.kb import Importer, open_store, release

    from tests.sse_server import Stream

    from .conftest import ask_and_wait, tokens, wait_until

    data = tmp_path / "data"
    docs = _docs(tmp_path / "docs")
    with open_store(data) as kb:
        Importer(kb).run([str(docs)])
    release()
    server.queue(Stream(tokens('<tool name="rag_knowledge"><query>work_mem memory sort</query></tool>')),
                 Stream(tokens("Set work_mem [1].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "How much memory does each sort use (work_mem)?")) == "done"
    page = str((docs / "runtime-config-resource.html").resolve())

    def entry(answer):
        return next(e for e in answer.source_entries() if e.location == page)

    assert entry(win.view.answers()[-1]).anchor == "GUC-WORK-MEM"
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
    answer = win.view.answers()[-1]
    assert entry(answer).anchor == "GUC-WORK-MEM"
    link = next(link for link in answer.sources_row.links() if link.location == page)
    link.click()
    assert _redirect_target(opened.urls[-1]).endswith("runtime-config-resource.html#GUC-WORK-MEM")


def test_pages_not_written_for_two_days_are_removed(tmp_path, opened):
    import time as clock

    page = tmp_path / "config.html"
    page.write_text("<html><body><h2 id='memory'>Memory</h2></body></html>", encoding="utf-8")
    folder = sources.redirect_folder()
    folder.mkdir(parents=True)
    stale, fresh = folder / "stale.html", folder / "fresh.html"
    for old in (stale, fresh):
        old.write_text("<html></html>", encoding="utf-8")
    long_ago = clock.time() - 3 * 86400
    os.utime(stale, (long_ago, long_ago))
    assert open_source(str(page), "memory") is None
    assert not stale.exists() and fresh.exists() and len(list(folder.glob("*.html"))) == 2
