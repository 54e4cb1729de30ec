"""A source's name holding a right-to-left override or control characters is shown as its letters run, in the
knowledge panel and under an answer: "invoice\u202egpj.txt" read "invoicetxt.jpg" there, a file's kind not the one it is."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, keep_picture, tokens, wait_until
from tinyrag_desktop.kb import Importer, open_store

SPOOFED = "invoice\u202egpj.txt"  # drawn as "invoicetxt.jpg" when the override acts


def _imported(tmp_path, files: dict[str, str]):
    """A data folder whose knowledge base holds ``files`` (name: text), written in ``tmp_path``."""
    data = tmp_path / "data"
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    with open_store(data) as kb:
        Importer(kb).run([str(tmp_path / name) for name in files])
    return data


def test_a_file_named_with_a_right_to_left_override_shows_the_override_as_a_mark(make_window, server, qloop,
                                                                                tmp_path):
    data = _imported(tmp_path, {SPOOFED: "The invoice is due in March.\n",
                                "page.html": "<html><head><title>Bank \u202elanigiro\x1b[31m</title></head>"
                                             "<body><p>Transfers are due in March.</p></body></html>"})
    doc, page = tmp_path / SPOOFED, tmp_path / "page.html"
    win = make_window(server.base_url, data_dir=data)
    win.kb_dock.show()
    panel = win.kb_dock.widget()
    qloop.run(wait_until(lambda: panel.source_count() == 2))
    model = panel.sources_model
    titles = {model.data(model.index(row, 0)) for row in range(2)}
    assert titles == {"invoice‹U+202E›gpj.txt", "Bank ‹U+202E›lanigiro‹U+001B›[31m"}
    tips = [model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole) for row in range(2)]
    assert not any("\u202e" in tip or "\x1b" in tip for tip in tips)
    assert {model.source(row).location for row in range(2)} == {str(doc), str(page)}  # opened as it is named
    keep_picture(win.kb_dock, "kb-names-reordered.png")

    panel.run_search("March")  # the Search tab's results name them so too
    results = panel.results
    qloop.run(wait_until(lambda: results.count() >= 2 and "March" in results.item(0).text()))
    shown = "\n".join(results.item(i).text() for i in range(results.count()))
    assert "\u202e" not in shown and "invoice‹U+202E›gpj.txt" in shown


def test_an_answers_source_named_with_an_override_shows_it_as_a_mark_under_the_answer(make_window, server, qloop,
                                                                                     tmp_path):
    data = _imported(tmp_path, {SPOOFED: "The invoice is due in March.\n"})
    server.queue(Stream(tokens('<tool name="rag_knowledge"><query>invoice due</query></tool>\n')),
                 Stream(tokens("It is due in March [1].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "What is 2 + 2, and when is the invoice due?")) == "done"
    [link] = win.view.answers()[-1].sources_row.links()
    assert link.label() == "invoice‹U+202E›gpj.txt"
    assert link.toolTip() == str(tmp_path / "invoice‹U+202E›gpj.txt")
    assert link.location == str(tmp_path / SPOOFED)  # opened as it is named
    keep_picture(win, "source-named-with-an-override.png")


def test_a_right_to_left_name_with_embeddings_or_isolates_shows_as_it_is_written(qtbot, tmp_path):
    # Word and web pages put a Latin name in a Hebrew or Arabic title between embedding or isolate marks; they
    # reorder nothing that their text does not, and were shown as "‹U+202B›Windows 11‹U+202C›".
    from tinyrag_desktop.hidden_text import shown_name
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.kb_panel import KnowledgePanel

    hebrew = "\u05de\u05d3\u05e8\u05d9\u05da \u202bWindows 11\u202c.txt"
    arabic = "\u062f\u0644\u064a\u0644 \u2068Firefox\u2069 \u2014 \u0645\u0648\u0632\u064a\u0644\u0627"
    data = _imported(tmp_path, {hebrew: "The guide for Windows 11.\n",
                                "page.html": f"<html><head><title>{arabic}</title></head><body><p>A guide.</p></body>"})
    panel = KnowledgePanel(data, lambda: defaults())
    qtbot.add_widget(panel)
    try:
        qtbot.waitUntil(lambda: panel.source_count() == 2)
        model = panel.sources_model
        assert {model.data(model.index(row, 0)) for row in range(2)} == {hebrew, arabic}
    finally:
        panel.shutdown()
    assert shown_name("a\u202db") == "a‹U+202D›b" and shown_name("a\u202eb\u202c") == "a‹U+202E›b\u202c"
