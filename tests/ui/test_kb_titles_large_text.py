"""At 18 pt, the knowledge panel at its narrowest (a 1,000 px window) showed each source's title as "…": the
column sorted by (Imported) kept its whole name and arrow, Type and Passages their cells, and the titles got
what was left. The sorted column's name is now cut as the others' are before a title is."""

from __future__ import annotations

from tests.ui.conftest import keep_picture, wait_until
from tests.ui.test_large_text import big_text  # noqa: F401 - the fixture


def test_titles_keep_some_letters_in_a_narrow_panel_at_18_pt(big_text, make_window, server, qtbot, qloop,  # noqa: F811
                                                            tmp_path):
    from tinyrag_desktop.kb import Importer, open_store

    data = tmp_path / "data"
    doc = tmp_path / "Backups and restoring your data.md"
    doc.write_text("# Backups and restoring your data\n\nThe backup runs at night.\n", encoding="utf-8")
    with open_store(data) as kb:
        Importer(kb).run([str(doc)])
    win = make_window(server.base_url, data_dir=data)
    win.resize(1000, 700)
    win.kb_dock.show()
    panel = win.kb_dock.widget()
    qloop.run(wait_until(lambda: panel.source_count() == 1))
    qtbot.waitUntil(lambda: win.kb_dock.width() >= win.kb_dock.minimumSizeHint().width())
    view = panel.sources_view
    qtbot.waitUntil(lambda: view.header().sortIndicatorSection() == 3 and view.columnWidth(0) > 0)
    keep_picture(win, "kb_titles_18pt.png")
    letters = view.fontMetrics().averageCharWidth()
    assert view.columnWidth(0) >= 6 * letters, (view.columnWidth(0), [view.columnWidth(c) for c in range(4)])
    assert sum(view.columnWidth(c) for c in range(4) if not view.isColumnHidden(c)) <= view.viewport().width() + 1
