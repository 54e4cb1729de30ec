"""A stored answer's long table shows its first rows (its first thousand cells), then a note of how many more
there are with "Show all N rows", which shows them a few pieces a turn of the event loop. A chat holding a table
of 130 columns and 250 rows took 5 to 8 s to open, its every cell converted, laid out and drawn, and held 70 MB
more while open. Copy, Export and the answer's content keep every row."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from tinyrag_desktop.chat_export import export_markdown
from tinyrag_desktop.chats import ChatInfo, StoredMessage
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.long_text import TABLE_CELLS_SHOWN, TABLE_COLUMNS, Fold, table_folds
from tinyrag_desktop.ui.markdown_render import DARK, render

from .conftest import keep_picture, wait_until
from .test_open_long_answers import _chat
from .test_run_go import _link_point

COLUMNS, ROWS = 130, 40
TABLE = ("| " + " | ".join(f"column {c}" for c in range(COLUMNS)) + " |\n" + "|---" * COLUMNS + "|\n"
         + "".join("| " + " | ".join(f"r{r}c{c}" for c in range(COLUMNS)) + " |\n" for r in range(ROWS)))
TEXT = f"A wide table:\n\n{TABLE}\nDone.\n"
SHOWN = TABLE_CELLS_SHOWN // TABLE_COLUMNS  # rows shown at first: 10 of 100 columns
NOTE = f"… ({ROWS - SHOWN} more rows, the Copy button keeps all) · Show all {ROWS} rows"
FIRST_CELL = re.compile(r"\br(\d+)c0\b")


def _stored(qtbot) -> AnswerWidget:
    answer = AnswerWidget.from_stored(StoredMessage(2, "assistant", TEXT, stats={"rounds": 1}))
    qtbot.add_widget(answer)
    answer.resize(900, 700)
    answer.show()
    return answer


def _rows(answer: AnswerWidget) -> list[int]:
    """The rows the answer shows, by number, top to bottom."""
    return [int(n) for s in answer.segments() if s.isVisibleTo(answer) for n in FIRST_CELL.findall(s.toPlainText())]


def _parts(text: str) -> list[str | Fold]:
    parts = table_folds(text)
    assert "".join(p.rows if isinstance(p, Fold) else p for p in parts) == text  # nothing lost, nothing moved
    return parts


def test_a_stored_table_of_thousands_of_cells_shows_its_first_rows_and_says_how_many_more(qtbot):
    answer = _stored(qtbot)
    table, note, after = answer.segments()
    assert _rows(answer) == list(range(SHOWN))
    assert note.toPlainText() == NOTE and after.toPlainText() == "Done."
    assert note.focusPolicy() & Qt.FocusPolicy.TabFocus  # Tab reaches its link
    assert answer.content() == TEXT and answer.copy_markdown() == TEXT  # Copy and Export keep every row
    chat = ChatInfo("c", "Wide", "", 0.0, 0.0)
    assert TABLE in export_markdown(chat, [StoredMessage(1, "user", "Q"), answer.as_stored()])
    qtbot.waitUntil(lambda: table.geometry().bottom() < note.y() < after.y())  # under the table, above the text
    keep_picture(answer, "table-folded.png")
    note.set_palette_colours(DARK)  # the note in a new theme's colours, its link still there
    assert DARK.link in note.toHtml() and note.toPlainText() == NOTE


def test_show_all_rows_shows_every_row_in_order_a_few_pieces_a_turn(qtbot):
    answer = _stored(qtbot)
    note = answer.segments()[1]
    seen: list[int] = []  # how many rows show at each turn of the event loop
    ticker = QTimer()
    ticker.timeout.connect(lambda: seen.append(len(_rows(answer))))
    ticker.start(0)
    qtbot.mouseClick(note.viewport(), Qt.MouseButton.LeftButton, pos=_link_point(note, "show-rows:0"))
    assert answer.building
    qtbot.waitUntil(lambda: not answer.building, timeout=60_000)
    ticker.stop()
    assert any(SHOWN < n < ROWS for n in seen)  # some of the rows, then more: not all at once
    assert _rows(answer) == list(range(ROWS))
    assert NOTE not in "".join(s.toPlainText() for s in answer.segments())
    assert answer.segments()[-1].toPlainText() == "Done."
    assert "".join(s.markdown() for s in answer.segments()) == TEXT == answer.content()


def test_rows_asked_for_while_the_chat_opens_show_once_the_rows_above_them_have(qloop, make_window, server,
                                                                              tmp_path):
    data, chat_id, _messages = _chat(tmp_path, [TEXT])
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    answer = win.view.answers()[-1]
    assert win.loading and answer.building
    note = next(s for s in answer.segments() if s.fold is not None)
    note.rowsAsked.emit()
    qloop.run(wait_until(lambda: not win.loading and not answer.building, timeout=60))
    assert _rows(answer) == list(range(ROWS))
    assert "".join(s.markdown() for s in answer.segments()) == TEXT


def test_only_a_long_table_at_the_margin_is_folded_after_its_first_thousand_cells():
    narrow = "| a | b | c |\n|---|---|---|\n" + "".join(f"| {i} | x | y |\n" for i in range(1000))
    [before, fold, after] = _parts(f"Intro\n\n{narrow}\nEnd")
    assert before.endswith(f"| {TABLE_CELLS_SHOWN // 3 - 1} | x | y |\n") and after == "\nEnd"
    assert fold.header == "| a | b | c |\n|---|---|---|\n" and fold.total == 1000
    assert fold.hidden() == 1000 - TABLE_CELLS_SHOWN // 3 and fold.rows.startswith(f"| {TABLE_CELLS_SHOWN // 3} |")
    assert _parts(TABLE.rstrip("\n"))[1].hidden() == ROWS - SHOWN  # the last row with no line end
    assert [type(p) for p in _parts(f"{narrow}\n{narrow}")] == [str, Fold, str, Fold, str]
    short = "| a | b | c |\n|---|---|---|\n" + "".join(f"| {i} | x | y |\n" for i in range(TABLE_CELLS_SHOWN // 3))
    for text in (short, f"```\n{narrow}```\n", "> " + narrow.replace("\n", "\n> "), "Some | bars | " * 2000):
        assert _parts(text) == [text]


def test_a_models_link_to_show_rows_is_words():
    html = render("[all rows](show-rows:0) and [site](https://example.org/)").html
    assert "show-rows" not in html and 'href="https://example.org/"' in html


def test_tab_reaches_show_all_and_enter_shows_the_rows(qloop, make_window, server, qtbot, tmp_path):
    data, chat_id, _messages = _chat(tmp_path, [TEXT])
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    with qtbot.waitActive(win):
        win.activateWindow()
    answer = win.view.answers()[-1]
    table, note, _after = answer.segments()
    table.setFocus(Qt.FocusReason.TabFocusReason)
    for _ in range(4):  # past the table's stops (its words, its sideways scroll)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if note.hasFocus():
            break
    assert note.hasFocus() and note.textCursor().selectedText() == f"Show all {ROWS} rows"
    qtbot.keyClick(note, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: not answer.building, timeout=60))
    assert _rows(answer) == list(range(ROWS))
