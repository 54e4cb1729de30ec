"""The sources list names each source's type in words people use ("Web page"), not the stored "url"."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tinyrag_desktop.kb import open_store
from tinyrag_desktop.kb.models import Chunk
from tinyrag_desktop.kb.readers import SUPPORTED, TYPE_NAMES
from tinyrag_desktop.kb.store import new_load_id

SHOWN = {"url": "Web page", "wikipedia": "Wikipedia", "markdown": "Markdown", "html": "HTML", "pdf": "PDF",
         "docx": "Word", "text": "Text", "log": "Log", "rst": "RST", "csv": "CSV", "json": "JSON", "xml": "XML"}


def _store_one_of_each(data_dir) -> None:
    with open_store(data_dir) as kb:
        for n, kind in enumerate(SHOWN):
            kb.replace_source(title=f"source {kind}", location=f"/notes/{n}.{kind}", type=kind, size=40,
                              content_hash=str(n), chunks=[Chunk("", f"Words of the {kind} source.")],
                              load_id=new_load_id())


def test_every_type_a_source_can_have_has_a_name():
    assert set(SUPPORTED.values()) | {"url", "wikipedia"} == set(TYPE_NAMES)


def test_the_type_column_says_web_page_not_url(qtbot, panel, data_dir):
    _store_one_of_each(data_dir)
    panel.refresh()
    model = panel.sources_model
    shown = {model.source(row).type: model.index(row, 1).data() for row in range(model.rowCount())}
    # It showed "url", "docx", "rst" and the like, as they are stored.
    assert shown == SHOWN
    panel.sources_view.sortByColumn(1, Qt.SortOrder.AscendingOrder)  # sorted as shown, not as stored
    column = [model.index(row, 1).data() for row in range(model.rowCount())]
    assert column == sorted(SHOWN.values(), key=str.casefold)
    assert model.widest_text(1) == "Wikipedia"


def test_an_unknown_type_is_shown_as_stored(qtbot, panel, data_dir):
    with open_store(data_dir) as kb:  # stored by a later version, with a type this one does not know
        kb.replace_source(title="slides", location="/notes/slides.odp", type="odp", size=40, content_hash="x",
                          chunks=[Chunk("", "Words on a slide.")], load_id=new_load_id())
    panel.refresh()
    assert panel.sources_model.index(0, 1).data() == "odp"


def test_kb_list_names_types_as_the_panel_does_and_jsonl_keeps_them_as_stored(data_dir, capsys):
    import json

    from tests.kb.cli_run import run_main

    _store_one_of_each(data_dir)
    code, out, _ = run_main(capsys, "list", "--data-dir", str(data_dir))
    rows = [line for line in out.splitlines() if not line.startswith(" " * 7)]
    assert code == 0 and {line[7:16].rstrip() for line in rows} == set(SHOWN.values())
    code, out, _ = run_main(capsys, "list", "--data-dir", str(data_dir), "--jsonl")
    assert {json.loads(line)["type"] for line in out.splitlines()} == set(SHOWN)
