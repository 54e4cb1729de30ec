"""The Search tab on a damaged knowledge base says so in words, as ``kb search`` does."""

from __future__ import annotations

import pytest

from tests.kb.damage import HOW, damage as damage_database
from tinyrag_desktop.kb import Importer, open_store


@pytest.mark.parametrize("damage", HOW)
def test_the_search_tab_says_a_damaged_knowledge_base_is_damaged(qtbot, panel, data_dir, tmp_path, damage):
    note = tmp_path / "note.md"
    note.write_text("# Wombats\n\nWombats dig long burrows with strong claws.\n" * 40)
    with open_store(data_dir) as kb:
        Importer(kb, chunk_size=300).run([str(note)])
    db = data_dir / "knowledge.db"
    damage_database(db, damage)
    panel.query_edit.setText("wombats burrows")
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        panel.run_search()
    said = panel.results.item(0).text()
    assert said.startswith(f"The knowledge base {db}"), said
    assert "is damaged or is not a database" in said and "move it elsewhere" in said, said
    assert "Traceback" not in said


def test_the_sources_list_of_a_damaged_knowledge_base_does_not_say_it_is_empty(qtbot, panel, data_dir):
    db = data_dir / "knowledge.db"
    damage_database(db, "garbage")
    panel.refresh()
    view = panel.sources_view
    # It said "No sources yet. Click Add, or drop files…", and an import then failed on the same file.
    assert view.empty_text == view.UNREADABLE_TEXT
    assert "is damaged or is not a database" in panel.status_label.text()
    db.unlink()  # moved elsewhere, as the message says
    panel.refresh()
    assert view.empty_text == view.EMPTY_TEXT
