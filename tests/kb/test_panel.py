"""The knowledge panel, offscreen: import off the GUI thread, list, search, delete, re-import, cancel, drop."""

from __future__ import annotations


import importlib
import sqlite3
from datetime import datetime, timedelta

import pytest
from PySide6.QtCore import QItemSelectionModel, QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QStyleOptionViewItem

from tests.embed_server import EmbeddingServer
from tinyrag_desktop.kb import open_store
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.kb_drop import items_from_urls
from tinyrag_desktop.ui.kb_panel import KnowledgePanel

# The search module itself (the package's ``search`` is the function): it keeps the vectors in memory.
vector_internals = importlib.import_module("tinyrag_desktop.kb.nearest")


def _text(view, row, column=0):
    """A cell's text in the sources list (any item view)."""
    value = view.model().index(row, column).data()
    return "" if value is None else str(value)


def _count(view):
    return view.model().rowCount()


def _select(view, row):
    """Select a whole row, as a click on it does."""
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    view.selectionModel().select(view.model().index(row, 0), flags)


def _import(qtbot, panel, items, **kwargs):
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as blocker:
        assert panel.import_items(items, **kwargs)
    return blocker.args[0]


def test_import_lists_sources_and_search_tab_finds_them(qtbot, panel, sample_dir):
    (sample_dir / "empty.md").write_bytes(b"")
    report = _import(qtbot, panel, [str(sample_dir)])
    assert len(report.added) == 10
    assert panel.source_count() == 10
    titles = {_text(panel.sources_view, i) for i in range(10)}
    assert {"Volcano Facts", "Bread Guide", "Garden Handbook"} <= titles
    assert "10 added" in panel.status_label.text()
    assert "empty.md: the file is empty" in panel.status_label.text()
    assert not panel.progress_bar.isVisible()

    panel.tabs.setCurrentIndex(1)
    qtbot.keyClicks(panel.query_edit, "what feeds eruptions of volcanoes")
    with qtbot.waitSignal(panel.searchFinished) as searched:
        qtbot.mouseClick(panel.findChild(type(panel.cancel_button), "kbSearch"), Qt.MouseButton.LeftButton)
    assert searched.args[0] == panel.results.count() > 0
    first = panel.results.item(0)
    assert first.text().startswith("[1] Volcano Facts > Volcanoes")
    assert first.data(Qt.ItemDataRole.UserRole) == str(sample_dir / "page.html")


def test_delete_and_reimport_selected(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    assert panel.source_count() == 2
    _select(panel.sources_view, 0)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as blocker:
        assert panel.reimport_selected()
    assert len(blocker.args[0].updated) == 1
    _select(panel.sources_view, 0)
    with qtbot.waitSignal(panel.deleteFinished) as deleted:
        assert panel.delete_selected(confirm=False) == 1
        assert not panel.delete_button.isEnabled() and not panel.cancel_button.isVisibleTo(panel)
    assert deleted.args == [1] and panel.source_count() == 1
    assert panel.status_label.text() == "1 source removed."
    # the source left is selected, as a file manager selects the next file, so Delete goes on from there
    assert panel.delete_button.isEnabled() and len(panel.sources_view.selectionModel().selectedRows()) == 1


def test_space_on_re_import_keeps_the_focus_on_it_and_off_cancel(qtbot, panel, sample_dir):
    # Turned off for the import, Re-import gave the focus to Cancel, where a second Space stopped the import.
    from PySide6.QtWidgets import QApplication

    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    panel.show()
    with qtbot.waitActive(panel):
        panel.activateWindow()
    _select(panel.sources_view, 0)
    panel.reimport_button.setFocus()
    qtbot.waitUntil(panel.reimport_button.hasFocus)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        qtbot.keyClick(panel.reimport_button, Qt.Key.Key_Space)
        assert panel.cancel_button.isVisible() and QApplication.focusWidget() is not panel.cancel_button
    assert QApplication.focusWidget() is panel.reimport_button


def test_a_panel_made_closed_reads_its_sources_when_first_shown(qtbot, data_dir, tmp_path):
    # The window starts with the panel closed: reading 10,000 sources for it took a fifth of a second of
    # every start. Made with list_now=False, it reads them as it is shown (or counted), once.
    from tinyrag_desktop.kb import Chunk

    with open_store(data_dir) as kb:
        for n in range(3):
            kb.replace_source(title=f"note {n}", location=str(tmp_path / f"n{n}.txt"), type="text", size=10,
                              content_hash=f"hash{n}", chunks=[Chunk(f"Note {n}", f"note {n} about herons")],
                              load_id="test")
    panel = KnowledgePanel(data_dir, lambda: defaults(), list_now=False)
    qtbot.add_widget(panel)
    try:
        assert _count(panel.sources_view) == 0
        panel.on_settings_applied()  # a settings change does not read it either
        assert _count(panel.sources_view) == 0
        panel.show()
        assert _count(panel.sources_view) == 3
        other = KnowledgePanel(data_dir, lambda: defaults(), list_now=False)
        qtbot.add_widget(other)
        assert other.source_count() == 3
        other.shutdown()
    finally:
        panel.shutdown()


def test_delete_of_many_sources_keeps_the_window_answering(qtbot, panel, tmp_path):
    # Removing thousands of sources takes a second or more: it runs off the GUI thread, which meanwhile
    # handles events (a timer fires), and a second Delete is refused until it is done.
    from tinyrag_desktop.kb import Chunk

    with open_store(panel.data_dir) as kb:
        for n in range(2_000):
            kb.replace_source(title=f"note {n}", location=str(tmp_path / f"n{n}.txt"), type="text", size=10,
                              content_hash=f"hash{n}", chunks=[Chunk(f"Note {n}", f"note {n} about herons")],
                              load_id="test")
    panel.refresh()
    panel.sources_view.selectAll()
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(panel.progress_bar.isVisibleTo(panel)))
    timer.start(0)
    with qtbot.waitSignal(panel.deleteFinished, timeout=60_000) as deleted:
        assert panel.delete_selected(confirm=False) == 2_000
        assert panel.delete_selected(confirm=False) == 0
    timer.stop()
    assert deleted.args == [2_000] and panel.source_count() == 0
    assert panel.status_label.text() == "2,000 sources removed."
    assert True in ticks  # the event loop ran while the sources were being removed


def test_a_failed_delete_says_why_and_removes_nothing(qtbot, panel, sample_dir, monkeypatch):
    from tinyrag_desktop.kb import KnowledgeBase, StoreError

    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])

    def fails(self, source_ids):
        raise StoreError("The knowledge base could not be changed: the disk it is on is full.")

    monkeypatch.setattr(KnowledgeBase, "remove_sources", fails)
    panel.sources_view.selectAll()
    with qtbot.waitSignal(panel.deleteFinished) as deleted:
        panel.delete_selected(confirm=False)
    assert deleted.args == [0] and panel.source_count() == 2
    assert panel.status_label.text() == ("Nothing was removed: the knowledge base could not be changed: "
                                         "the disk it is on is full.")


def test_cancel_stops_between_sources(qtbot, panel, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(300):
        (folder / f"n{n}.txt").write_text(f"note {n} about herons " * 400, encoding="utf-8")
    with qtbot.waitSignal(panel.importFinished, timeout=120_000) as blocker:
        assert panel.import_items([str(folder)])
        assert panel.import_items([str(tmp_path / "later.txt")])  # waits for this one; Cancel drops it too
        assert panel.cancel_button.isVisibleTo(panel)
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    report = blocker.args[0]
    assert report.cancelled
    assert panel.source_count() == len(report.added) < 300
    assert not panel.is_importing() and "cancelled" in panel.status_label.text()


def test_one_large_file_shows_a_moving_bar_rather_than_0_percent_until_stored(qtbot, panel, tmp_path):
    big = tmp_path / "giant.md"
    big.write_text("# Herons\n\n" + "Herons wade in the shallow water. " * 30_000, encoding="utf-8")
    seen: list[tuple[int, int, str]] = []
    bar = panel.progress_bar
    panel._relay.progress.connect(lambda progress: seen.append((bar.minimum(), bar.maximum(), bar.text())))
    _import(qtbot, panel, [str(big)])
    # it stayed at "0%" for the whole of a 49 MB file's ten seconds: one source has no steps to count
    assert seen and all(maximum == 0 for _, maximum, _ in seen), seen
    assert "0%" not in {text for _, _, text in seen}


def test_what_is_added_during_an_import_waits_and_follows_it(qtbot, panel, tmp_path, sample_dir):
    # Files dropped or added while an import runs are not refused: they start when it is done, and the panel then
    # sums up both (importFinished comes once, with what they all did).
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(40):
        (folder / f"n{n}.txt").write_text(f"note {n} about herons " * 400, encoding="utf-8")
    finished = []
    panel.importFinished.connect(finished.append)
    assert panel.import_items([str(folder)])
    assert panel.import_items([str(sample_dir / "notes.txt")]) and panel.import_items([str(tmp_path / "gone.md")])
    assert "2 more waiting" in panel.status_label.text()
    qtbot.waitUntil(lambda: len(finished) == 1, timeout=120_000)  # one report, when all are done
    assert len(finished[0].added) == 41 and len(finished[0].failed) == 1
    assert panel.source_count() == 41 and not panel.is_importing()
    summary = panel.status_label.text()
    assert summary.startswith("41 added (281 passages), 1 failed\n")  # no "0 updated, 0 unchanged"
    assert "gone.md: no such file or folder" in summary


def test_an_import_asked_for_during_a_delete_follows_it(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    panel.sources_view.selectAll()
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as imported:
        assert panel.delete_selected(confirm=False) == 1
        assert panel.progress_bar.maximum() == 0  # a busy bar: a delete has no steps to count
        assert panel.import_items([str(sample_dir / "notes.txt")])
    assert len(imported.args[0].added) == 1
    assert panel.source_count() == 1 and _text(panel.sources_view, 0) != "Bread Guide"


def test_drop_of_files_and_links_imports_them(qtbot, panel, sample_dir):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sample_dir / "notes.txt"))])
    event = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        panel.dropEvent(event)
    assert panel.source_count() == 1
    items = items_from_urls([QUrl("https://example.org/a"), QUrl("ftp://x/y")])
    assert [(i.kind, i.value) for i in items] == [("url", "https://example.org/a")]
    assert [(i.kind, i.value) for i in items_from_urls([], "http://example.org/page more")] == [
        ("url", "http://example.org/page")]


@pytest.mark.parametrize(("urls", "text", "said"), [
    ([], "just some words I selected", "the text “just some words I selected”"),
    (["ftp://files.example/report.pdf"], "", "ftp://files.example/report.pdf"),
])
def test_a_drop_of_nothing_importable_says_so(qtbot, panel, urls, text, said):
    # the drag was accepted, then nothing happened and nothing was said
    mime = QMimeData()
    if urls:
        mime.setUrls([QUrl(u) for u in urls])
    if text:
        mime.setText(text)
    panel.dropEvent(QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                               Qt.KeyboardModifier.NoModifier))
    assert not panel.is_importing()
    assert panel.status_label.text().startswith(f"Not imported: {said}.")
    assert "http:// or https:// links" in panel.status_label.text()


def _search(qtbot, panel, text: str) -> int:
    """Search the panel's Search tab for ``text``; how many passages it shows."""
    panel.query_edit.setText(text)
    with qtbot.waitSignal(panel.searchFinished) as searched:
        panel.run_search()
    return searched.args[0]


def _searched_on_screen(qtbot, panel, text: str, size: tuple[int, int]) -> int:
    """The panel shown ``size`` large on its Search tab, ``text`` searched there; how many passages it shows."""
    panel.resize(*size)
    panel.show()
    qtbot.waitExposed(panel)
    panel.tabs.setCurrentIndex(1)
    with qtbot.waitSignal(panel.searchFinished) as found:
        panel.run_search(text)
    return found.args[0]


def test_empty_panel(qtbot, panel):
    assert panel.source_count() == 0
    assert _search(qtbot, panel, "anything") == 0
    assert panel.results.item(0).text().startswith("Nothing to search yet")


def test_only_the_newest_search_shows_its_results(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir)])
    panel.query_edit.setText("volcanic eruptions")
    panel.run_search()
    panel.query_edit.setText("no such words zzqx")
    with qtbot.waitSignal(panel.searchFinished) as searched:
        panel.run_search()
    assert searched.args == [0]  # the first search's results never replace the second's
    qtbot.wait(50)  # let any stray signal from the first search arrive (it must be ignored)
    assert [panel.results.item(i).text() for i in range(panel.results.count())] == ["No passages match."]


def _embedding_panel(qtbot, data_dir, base_url):
    settings = defaults().replace(base_url=base_url, embed_model="toy-embed")
    widget = KnowledgePanel(data_dir, lambda: settings)
    qtbot.add_widget(widget)
    return widget


def test_search_tab_uses_vectors_as_the_tool_does(qtbot, data_dir, tmp_path):
    (tmp_path / "pets.md").write_text("# Pets\n\nOur kitten sleeps all day on the sofa.\n", encoding="utf-8")
    (tmp_path / "road.md").write_text("# Road\n\nThe car needs a new engine soon.\n", encoding="utf-8")
    with EmbeddingServer() as server:
        panel = _embedding_panel(qtbot, data_dir, server.base_url)
        try:
            _import(qtbot, panel, [str(tmp_path / "pets.md"), str(tmp_path / "road.md")])
            panel.shutdown()
            vector_internals._vector_sets.clear()
            panel = _embedding_panel(qtbot, data_dir, server.base_url)
            # A new panel loads the stored vectors before anyone searches.
            qtbot.waitUntil(lambda: len(vector_internals._vector_sets) == 1)
            asked = len(server.requests)
            assert _search(qtbot, panel, "feline") >= 1  # no passage holds the word: only its vector finds one
            assert panel.results.item(0).text().startswith("[1] Pets")
            assert [r["input"] for r in server.requests[asked:]] == [["feline"]]
        finally:
            panel.shutdown()


def test_search_tab_falls_back_to_keywords_when_the_embedding_server_is_down(qtbot, data_dir, sample_dir):
    panel = KnowledgePanel(data_dir, lambda: defaults())
    qtbot.add_widget(panel)
    _import(qtbot, panel, [str(sample_dir)])
    panel.shutdown()
    dead = _embedding_panel(qtbot, data_dir, "http://127.0.0.1:9/v1")  # nothing listens on port 9
    try:
        assert _search(qtbot, dead, "volcano eruptions") >= 1
        assert dead.results.item(0).text().startswith("[1] Volcano Facts")
        note = dead.results.item(dead.results.count() - 1).text()
        assert note.startswith("Keyword search only: the embedding server could not be reached")
    finally:
        dead.shutdown()


def test_a_long_import_report_is_shown_whole(qtbot, data_dir, sample_dir):
    panel = _embedding_panel(qtbot, data_dir, "http://127.0.0.1:9/v1")  # every source stored without vectors
    panel.resize(700, 420)
    panel.show()
    try:
        report = _import(qtbot, panel, [str(sample_dir / "notes.txt"), str(sample_dir / "missing.pdf")])
        assert report.unembedded and report.failed
        label = panel.status_label
        assert "stored without embeddings" in label.text() and "missing.pdf" in label.text()
        qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()) > 2 * label.fontMetrics().height())
    finally:
        panel.shutdown()


def test_sources_without_vectors_of_the_embedding_model_are_marked_until_re_imported(qtbot, data_dir, sample_dir):
    with EmbeddingServer() as server:
        settings = [defaults()]
        panel = KnowledgePanel(data_dir, lambda: settings[0])
        qtbot.add_widget(panel)
        try:
            _import(qtbot, panel, [str(sample_dir / "notes.txt")])
            assert panel.sources_view.isColumnHidden(4)  # no embedding model: nothing to say
            settings[0] = defaults().replace(base_url=server.base_url, embed_model="toy-embed")
            panel.on_settings_applied()
            view = panel.sources_view
            assert not view.isColumnHidden(4)
            assert _text(view, 0, 4) == "no"
            assert "Re-import" in view.model().index(0, 4).data(Qt.ItemDataRole.ToolTipRole)
            _select(view, 0)
            with qtbot.waitSignal(panel.importFinished, timeout=60_000):
                assert panel.reimport_selected()
            assert _text(panel.sources_view, 0, 4) == "yes"
        finally:
            panel.shutdown()


def test_a_search_that_fails_unexpectedly_says_so_instead_of_searching_forever(qtbot, panel, monkeypatch):
    from tinyrag_desktop.ui import kb_search_tab

    def broken(*args, **kwargs):
        raise ValueError("index in a state nobody expected")

    monkeypatch.setattr(kb_search_tab, "search", broken)
    assert _search(qtbot, panel, "anything") == 0
    assert panel.results.item(0).text() == "The search failed: ValueError: index in a state nobody expected"


def test_the_sources_list_sorts_by_any_column_and_chunks_as_numbers(qtbot, panel, tmp_path):
    for n in (2, 9, 12):  # as text, "12" would sort before "9"
        (tmp_path / f"notes{n}.md").write_text("".join(f"# Part {i}\n\nWords about part {i}.\n\n" for i in range(n)))
    _import(qtbot, panel, [str(tmp_path)])
    view = panel.sources_view
    view.sortByColumn(2, Qt.SortOrder.AscendingOrder)
    counts = [view.model().index(i, 2).data() for i in range(_count(view))]
    assert counts == ["2", "9", "12"]
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    titles = [_text(view, i) for i in range(_count(view))]
    assert titles == sorted(titles)


def test_one_add_button_offers_every_kind_of_source_and_the_panel_stays_narrow(qtbot, panel, monkeypatch):
    chosen = []
    for name in ("choose_files", "choose_folder", "ask_url", "ask_wikipedia"):
        monkeypatch.setattr(panel, name, lambda name=name: chosen.append(name))
    menu = panel.add_button.menu()
    assert [a.text() for a in menu.actions()] == ["Files…", "Folder…", "Web page (URL)…", "Wikipedia article…"]
    for action in (panel.add_files_action, panel.add_folder_action, panel.add_url_action, panel.add_wiki_action):
        action.trigger()
    assert chosen == ["choose_files", "choose_folder", "ask_url", "ask_wikipedia"]
    # docked beside the chat it must not claim most of a small window
    assert panel.minimumSizeHint().width() <= 360


def test_re_import_and_delete_need_a_selection(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    assert not panel.reimport_button.isEnabled() and not panel.delete_button.isEnabled()
    _select(panel.sources_view, 0)
    assert panel.reimport_button.isEnabled() and panel.delete_button.isEnabled()
    panel.sources_view.clearSelection()
    assert not panel.delete_button.isEnabled()


def test_import_times_are_shown_in_local_time(qtbot, panel, sample_dir, monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+5:30, no daylight saving
    time = importlib.import_module("time")
    time.tzset()
    try:
        _import(qtbot, panel, [str(sample_dir / "guide.md")])
        imported = _text(panel.sources_view, 0, 3)
        tip = panel.sources_view.model().index(0, 3).data(Qt.ItemDataRole.ToolTipRole)
        with open_store(panel.data_dir) as kb:
            stored = kb.sources()[0].imported_at  # UTC, "2026-11-30T08:52:44Z"
        expected = (datetime.fromisoformat(stored.replace("Z", "+00:00")) + timedelta(hours=5, minutes=30))
        assert tip == f"Imported {expected.strftime('%Y-%m-%d %H:%M')}"
        assert imported == expected.strftime("%H:%M")  # imported today, Kolkata's today
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_result_is_drawn_as_heading_location_and_passage_wrapped_to_the_panel(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    panel.resize(320, 500)
    panel.show()
    panel.tabs.setCurrentIndex(1)
    assert _search(qtbot, panel, "bread dough") > 0
    view = panel.results
    row = next(r for r in range(view.count()) if view.item(r).data(Qt.ItemDataRole.UserRole) is not None)
    index = view.model().index(row, 0)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.widget = view
    size = view.itemDelegate().sizeHint(option, index)
    assert size.width() <= view.viewport().width()  # wrapped to the panel, never wider
    assert size.height() >= 3 * view.fontMetrics().lineSpacing()  # heading, location, passage
    heading, location, passage = view.item(row).text().split("\n", 2)  # the item's text keeps all three
    assert heading.startswith("[1] ") and location.endswith("guide.md") and passage
    assert not panel.grab().isNull()


def test_search_tab_says_when_it_searched_for_another_word(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir)])
    panel.tabs.setCurrentIndex(1)
    panel.query_edit.setText("what feeds magma erupitons")
    with qtbot.waitSignal(panel.searchFinished):
        panel.run_search()
    assert panel.results.item(0).text() == "Searched for “eruptions” instead of “erupitons”, which no passage uses."
    assert not panel.results.item(0).flags() & Qt.ItemFlag.ItemIsSelectable  # a note, not a result
    assert panel.results.item(1).text().startswith("[1] Volcano Facts")


def test_an_index_from_an_older_version_is_rebuilt_off_the_gui_thread(qtbot, data_dir, sample_dir, monkeypatch):
    import threading

    from tinyrag_desktop.kb import Importer, KnowledgeBase, open_store
    from tinyrag_desktop.kb.store import needs_rebuild

    with open_store(data_dir) as kb:
        Importer(kb).run([str(sample_dir)])
        kb.conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")  # as version 3 left it
    assert needs_rebuild(data_dir)
    migrated_in: list[str] = []
    migrate = KnowledgeBase._migrate

    def spy(self):
        migrated_in.append(threading.current_thread().name)
        return migrate(self)

    monkeypatch.setattr(KnowledgeBase, "_migrate", spy)
    panel = KnowledgePanel(data_dir, lambda: defaults())
    qtbot.add_widget(panel)
    try:
        assert panel.source_count() == 0 and "Updating the search index" in panel.status_label.text()
        with qtbot.waitSignal(panel.importFinished, timeout=30_000) as imported:
            assert panel.is_importing() and panel.import_items([str(sample_dir / "notes.txt")])  # waits
            assert panel.source_count() == 0
        assert migrated_in[0] == "kb-rebuild"  # in the worker, not the GUI thread
        assert panel.source_count() == 10 and len(imported.args[0].unchanged) == 1
        assert not needs_rebuild(data_dir)
    finally:
        panel.shutdown()


def test_another_programs_database_in_place_is_said_and_left_as_it_is(qtbot, data_dir, sample_dir):
    data_dir.mkdir(parents=True, exist_ok=True)
    other = sqlite3.connect(data_dir / "knowledge.db")
    other.executescript("CREATE TABLE recipes(name, steps); INSERT INTO recipes VALUES ('soup', 'boil');")
    other.commit()
    other.close()
    before = (data_dir / "knowledge.db").read_bytes()
    panel = KnowledgePanel(data_dir, lambda: defaults())
    qtbot.add_widget(panel)
    assert "is not tinyRAG's" in panel.status_label.text()
    report = _import(qtbot, panel, [str(sample_dir)])
    assert not report.added and "is not tinyRAG's" in report.failed[0].reason
    assert "is not tinyRAG's" in panel.status_label.text()
    assert (data_dir / "knowledge.db").read_bytes() == before
    panel.shutdown()


def test_search_still_works_after_the_event_loop_ended_once(qtbot, panel, sample_dir):
    # Qt says "about to quit" whenever its event loop ends (qasync's run_until_complete ends it each
    # time): the panel then shut its search thread, and every later search stayed on "Searching…"
    from PySide6.QtCore import QCoreApplication

    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    QCoreApplication.instance().aboutToQuit.emit()
    panel.query_edit.setText("starter rye flour")
    with qtbot.waitSignal(panel.searchFinished, timeout=10_000) as searched:
        panel.run_search()
    assert searched.args[0] > 0 and "Bread Guide" in panel.results.item(0).text()
