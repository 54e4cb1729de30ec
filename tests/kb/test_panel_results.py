"""The Search tab's result cards: the passage from where the words are, each part in its own direction, search
syntax said to be taken as words, and a heading that repeats its title shown once."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QStyleOptionViewItem

from tests.kb.test_panel import _import
from tinyrag_desktop.ui.kb_results import HitDelegate, preview, shown_heading, syntax_note

SHOTS = Path("/tmp/kb32b")


def _shot(widget, name: str) -> None:
    if SHOTS.is_dir():
        widget.grab().save(str(SHOTS / name))


def _search(qtbot, panel, text: str) -> list[str]:
    panel.tabs.setCurrentIndex(1)
    panel.query_edit.setText(text)
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        panel.run_search()
    return [panel.results.item(n).text() for n in range(panel.results.count())]


# ---- the passage from where the words are ----------------------------------------------------------------


_CSV_PASSAGE = "\n\n".join(f"id: {n}; name: item{n}; value: {n * 3}" for n in range(99805, 99840))
_LOG_PASSAGE = "\n".join(f"2026-01-01 12:00:{n % 60:02d} INFO request {n} served okapi" for n in range(120, 170))


def test_a_csv_passage_is_shown_from_the_row_with_the_number_asked_for():
    shown = preview(_CSV_PASSAGE, words=["invoice", "99817"])
    # It began at row 99805 and was cut before row 99817.
    assert shown.startswith("… id: 99817; name: item99817; value: 299451\nid: 99818;")
    assert preview(_CSV_PASSAGE).startswith("id: 99805;")  # without words, from its start as before


def test_a_log_passage_is_shown_a_line_a_line_from_the_line_with_most_of_the_words():
    shown = preview(_LOG_PASSAGE, words=["request", "150", "served"])
    assert shown.startswith("… 2026-01-01 12:00:30 INFO request 150 served okapi\n2026-01-01 12:00:31 INFO")


def test_words_far_into_a_long_paragraph_are_shown_with_some_words_before_them():
    text = ("Intro words. " * 60) + "The zebrafish tank is cleaned weekly. " + ("More words. " * 20)
    shown = preview(text, words=["zebrafish"])
    assert shown.startswith("…") and "The zebrafish tank is cleaned weekly." in shown
    assert shown.index("zebrafish") <= 60
    # Other forms, other cases and accents: "Cafés" for "cafe", "invoices" for "invoice".
    assert "Cafés open late" in preview(("Filler text here. " * 40) + "Cafés open late.", words=["cafe"])
    assert "INVOICE 7" in preview(("Filler text here. " * 40) + "INVOICE 7 paid.", words=["invoices"])


def test_words_in_sight_at_the_start_leave_the_passage_as_it_was():
    text = "The zebrafish tank is cleaned weekly.\n\nWater temperature is 28C."
    assert preview(text, words=["zebrafish", "tank"]) == preview(text)
    assert preview(text, words=["nothing"]) == preview(text)


def test_the_search_tab_shows_the_row_of_an_invoice_number(qtbot, panel, tmp_path):
    rows = "\n".join(f"{n},item{n},{n * 3}" for n in range(99700, 99900))
    (tmp_path / "big.csv").write_text("id,name,value\n" + rows + "\n", encoding="utf-8")
    _import(qtbot, panel, [str(tmp_path / "big.csv")])
    panel.resize(420, 500)
    panel.show()
    texts = _search(qtbot, panel, "invoice 99817")
    _shot(panel, "test_results_csv.png")
    [card] = [text for text in texts if text.startswith("[1]")]
    assert card.split("\n")[2].startswith("… id: 99817; name: item99817")


# ---- each part in its own direction -----------------------------------------------------------------------


def _document(panel, text: str) -> QTextDocument:
    panel.results.clear()
    panel.results.addItem(text)
    item = panel.results.item(0)
    item.setData(Qt.ItemDataRole.UserRole, "/notes/rtl.md")
    option = QStyleOptionViewItem()
    option.initFrom(panel.results)
    option.rect.setWidth(380)
    delegate = panel.results.itemDelegate()
    assert isinstance(delegate, HitDelegate)
    return delegate._document(option, panel.results.model().index(0, 0, QModelIndex()))


def _runs_right_to_left(document: QTextDocument, block: int) -> bool:
    return document.findBlockByNumber(block).layout().textOption().textDirection() == Qt.LayoutDirection.RightToLeft \
        or document.findBlockByNumber(block).textDirection() == Qt.LayoutDirection.RightToLeft


def test_an_english_passage_under_a_hebrew_heading_runs_left_to_right(qtbot, panel):
    document = _document(panel, "[2] שלום עולם مرحبا forklift\n/notes/rtl.md\nHebrew and Arabic title forklift text.")
    assert [document.findBlockByNumber(n).text() for n in range(document.blockCount())] == [
        "[2] שלום עולם مرحبا forklift", "/notes/rtl.md", "Hebrew and Arabic title forklift text."]
    # One paragraph, it ran right to left: ".Hebrew and Arabic title forklift text"
    assert _runs_right_to_left(document, 0)
    assert not _runs_right_to_left(document, 1) and not _runs_right_to_left(document, 2)
    document = _document(panel, "[3] Shipping Notes\n/notes/heb.md\nשלום עולם forklift זה טקסט בעברית.\nEnglish line.")
    assert not _runs_right_to_left(document, 0) and _runs_right_to_left(document, 2)
    assert not _runs_right_to_left(document, 3)


def test_mixed_script_cards_in_the_search_tab(qtbot, panel, tmp_path):
    (tmp_path / "rtl.md").write_text("# שלום עולם مرحبا forklift\n\nHebrew and Arabic title forklift text.\n",
                                     encoding="utf-8")
    (tmp_path / "heb.md").write_text("# Shipping Notes\n\nשלום עולם forklift זה טקסט בעברית.\n", encoding="utf-8")
    _import(qtbot, panel, [str(tmp_path / "rtl.md"), str(tmp_path / "heb.md")])
    panel.resize(420, 400)
    panel.show()
    texts = _search(qtbot, panel, "forklift")
    assert len([text for text in texts if text.startswith("[")]) == 2
    _shot(panel, "test_results_bidi.png")


# ---- search syntax -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "said"), [
    ("zebra*", "Searched for the words themselves: * has no special meaning here."),
    ("zebra -zebrafish", "Searched for the words themselves: - has no special meaning here."),
    ('"zebrafish tank" -weekly', "Searched for the words themselves: -, and quotes have no special meaning here."
     .replace("-, and", "- and")),
    ("zebra NEAR tank", "Searched for the words themselves: NEAR has no special meaning here."),
    ("cats AND dogs OR NOT fish*", "Searched for the words themselves: *, AND, OR and NOT have no special "
                                   "meaning here."),
    ("“smart quotes”", "Searched for the words themselves: quotes have no special meaning here."),
])
def test_search_syntax_is_said_to_be_read_as_words(query, said):
    assert syntax_note(query) == said


@pytest.mark.parametrize("query", ["how do I back up my e-mail", "the near shore and the far one",
                                   "don't stop", "co-operative 3-5 pages", "what is -5 + 3"])
def test_a_plain_question_gets_no_syntax_note(query):
    assert syntax_note(query) == ""


def test_the_note_is_said_once_beneath_the_results(qtbot, panel, tmp_path):
    (tmp_path / "fish.md").write_text("# Fish\n\nThe zebrafish tank must be cleaned weekly.\n", encoding="utf-8")
    _import(qtbot, panel, [str(tmp_path / "fish.md")])
    panel.resize(420, 400)
    panel.show()
    texts = _search(qtbot, panel, '"zebrafish tank" -weekly')
    _shot(panel, "test_results_syntax.png")
    assert texts[-1] == "Searched for the words themselves: - and quotes have no special meaning here."
    assert sum("Searched for the words themselves" in text for text in texts) == 1
    assert not panel.results.item(panel.results.count() - 1).flags() & Qt.ItemFlag.ItemIsSelectable
    assert not any("words themselves" in text for text in _search(qtbot, panel, "zebrafish tank"))


# ---- a heading that repeats its title ------------------------------------------------------------------------


def test_a_long_title_that_is_its_first_heading_is_shown_once():
    long = ("Quarterly Operations Review of the Northern Distribution Centre Including Warehouse Staffing, "
            "Forklift Maintenance Schedules and the Revised Safety Procedures for Night Shifts ")
    title, h1 = (long * 2)[:256].strip(), (long * 2)[:200].strip()
    assert shown_heading(f"{title} > {h1}", title) == title
    assert shown_heading(f"{title} > {h1} > Staffing", title) == f"{title} > Staffing"
    # short ones that only start alike are two places, not one
    assert shown_heading("Install > Install on Linux", "Install") == "Install > Install on Linux"
    assert shown_heading("", "Just a title") == "Just a title"


def test_the_search_tab_shows_such_a_heading_once(qtbot, panel, tmp_path):
    long = ("Quarterly Operations Review of the Northern Distribution Centre Including Warehouse Staffing, "
            "Forklift Maintenance Schedules and the Revised Safety Procedures for Night Shifts ") * 2
    (tmp_path / "long.html").write_text(f"<html><head><title>{long}</title></head><body><h1>{long}</h1>"
                                        "<p>The forklift maintenance schedule is weekly.</p></body></html>",
                                        encoding="utf-8")
    _import(qtbot, panel, [str(tmp_path / "long.html")])
    texts = _search(qtbot, panel, "forklift schedule weekly")
    heading = [text for text in texts if text.startswith("[1]")][0].split("\n")[0]
    assert " > " not in heading and heading.count("Quarterly Operations Review") == 2  # the title's own twice
