"""A knowledge base the window cannot use says what to do in the window, not which flag to give: the
command line's --data-dir is no help there. ``kb`` on the command line keeps it."""

from __future__ import annotations

import sqlite3

from tests.kb.cli_run import run_main
from tests.kb.damage import damage
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.store_file import store_error


def _note(tmp_path):
    note = tmp_path / "note.md"
    note.write_text("# Wombats\n\nWombats dig long burrows with strong claws.\n" * 40, encoding="utf-8")
    return note


def test_a_damaged_knowledge_base_in_the_panel_names_no_flag(qtbot, panel, data_dir, tmp_path, capsys):
    with open_store(data_dir) as kb:
        Importer(kb, chunk_size=300).run([str(_note(tmp_path))])
    damage(data_dir / "knowledge.db", "garbage")
    panel.refresh()
    said = panel.status_label.text()
    # It ended "…, or use another data folder (--data-dir)."
    assert "--data-dir" not in said
    assert said.endswith("It was left as it is; move it elsewhere (or put back a backup) and import your documents "
                         "again with Add, or quit tinyRAG and start it with another data folder.")
    panel.query_edit.setText("wombats burrows")
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        panel.run_search()
    found = panel.results.item(0).text()
    assert "is damaged or is not a database" in found and "--data-dir" not in found
    assert found.endswith("or quit tinyRAG and start it with another data folder.")
    # the command line's message keeps its flag: there it can be given
    code, _, err = run_main(capsys, "list", "--data-dir", str(data_dir))
    assert code == 1 and "or use another data folder (--data-dir)." in err


def test_an_import_into_a_folder_in_place_of_the_knowledge_base_names_no_flag(qtbot, panel, data_dir, tmp_path):
    (data_dir / "knowledge.db").mkdir()
    panel.refresh()
    assert "--data-dir" not in panel.status_label.text()
    assert panel.status_label.text().endswith("move it elsewhere, or quit tinyRAG and start it with another data "
                                              "folder.")
    with qtbot.waitSignal(panel.importFinished, timeout=20_000):
        panel.import_items([str(_note(tmp_path))])
    assert "--data-dir" not in panel.status_label.text() and "--data-dir" not in panel.status_label.toolTip()
    assert "start it with another data folder" in panel.status_label.text()


def test_a_knowledge_base_sqlite_cannot_open_names_no_flag_in_the_window(tmp_path):
    from tinyrag_desktop.ui.kb_panel import in_window

    cannot = sqlite3.OperationalError("unable to open database file")
    cannot.sqlite_errorname = "SQLITE_CANTOPEN"
    said = str(store_error(tmp_path / "knowledge.db", cannot, "The knowledge base cannot be opened"))
    assert said.endswith("or use another data folder (--data-dir).")
    assert in_window(said).endswith(f"the folder {tmp_path}, or quit tinyRAG and start it with another data folder.")
    # said as a sentence of its own when the folder cannot be written to (store_error's words)
    assert in_window("Use another data folder (--data-dir), or make the folder writable for you.") == (
        "Quit tinyRAG and start it with another data folder, or make the folder writable for you.")
