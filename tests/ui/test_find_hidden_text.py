"""Find in chat counts the matches in text an answer does not show, and goes to them: a long table's rows folded
when its chat opens are shown, then the match selected; a match in what was cut off a paragraph, a table row or a
code line too long to lay out is said to be there, its note marked, with Copy answer. They said "Not found" (or
counted only the matches shown) for words the answer holds."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication

from tinyrag_desktop.ui.long_text import BLOCK_SHOWN, CODE_LINE_SHOWN, TABLE_CELLS_SHOWN
from tinyrag_desktop.ui.markdown_render import render

from .conftest import keep_picture, wait_until
from .test_open_long_answers import _chat
from .test_table_folds import TEXT as WIDE_FOLDED

ROWS = 400  # of 4 columns: the first TABLE_CELLS_SHOWN // 4 shown when the chat opens
ZEBRAS = (100, 300, 350)  # the rows that say "zebra": the first shown, the others folded
TABLE = "| id | name | city | note |\n|---|---|---|---|\n" + "".join(
    f"| {r} | name {r} | city {r % 7} | {'a **zebra**' if r in ZEBRAS else 'none'} |\n" for r in range(ROWS))
LONG = "lorem ipsum dolor " * 2_000  # 36,000 characters in one paragraph
WIDE = "| " + " | ".join(f"h{c}" for c in range(150)) + " |\n" + "|---" * 150 + "|\n" + "| " + " | ".join(
    "needle" if c == 140 else f"c{c}" for c in range(150)) + " |\n"
CUT = (f"A needle here.\n\n{LONG}needle and another needle {LONG}\n\n{WIDE}\n"
       f"```js\nconst x = '{'y' * CODE_LINE_SHOWN}needle';\n```\n")


def _find(win, words: str):
    bar = win.find_bar
    win.findChild(QAction, "actionFind").trigger()
    bar.box.setText(words)
    return bar


def _current(bar) -> tuple:
    view, cursor = bar.matches()[bar.current]
    return view, cursor.selectedText()


def test_a_match_in_a_long_tables_rows_not_shown_is_counted_and_going_to_it_shows_them(make_window, server, qloop,
                                                                                       qtbot, tmp_path):
    assert TABLE_CELLS_SHOWN // 4 < ZEBRAS[1]  # (the last two are folded)
    data, chat_id, _messages = _chat(tmp_path, [f"Animals:\n\n{TABLE}\nDone.\n"])
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    answer = win.view.answers()[-1]
    note = next(s for s in answer.segments() if s.fold is not None)
    bar = _find(win, "A  Zebra")  # (Markdown's marks aside, as they show)
    assert len(bar.matches()) == 3  # "1 of 1": the rows folded were not looked in
    while bar.current != 1:  # (whichever the screen showed first)
        bar.step(True)
    assert bar.count.text() == "2 of 3 in rows not shown: press Enter" and bar.in_text_not_shown() == "rows"
    assert _current(bar)[0] is note and note.extraSelections()  # its note marked
    qloop.run(asyncio.sleep(0.05))  # laid out
    keep_picture(win, "find_in_rows_not_shown.png")

    qtbot.keyClick(bar.box, Qt.Key.Key_Return)  # goes to it: all the rows shown first, then it selected
    assert bar.count.text() == "Showing all rows…"
    qloop.run(wait_until(lambda: bar.count.text() == "2 of 3", timeout=60))
    assert not answer.building and all(s.fold is None for s in answer.segments())
    view, words = _current(bar)
    assert words == "a zebra" and f"name {ZEBRAS[1]}" in view.toPlainText()
    assert view.document().findBlock(bar.matches()[bar.current][1].position()).text() == "a zebra"  # its cell
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert bar.count.text() == "3 of 3" and f"name {ZEBRAS[2]}" in _current(bar)[0].toPlainText()
    assert [cursor.selectedText() for _view, cursor in bar.matches()] == ["a zebra"] * 3


def test_a_match_in_text_too_long_to_show_is_counted_and_said_with_copy_answer(make_window, server, qloop, qtbot,
                                                                               tmp_path):
    data, chat_id, _messages = _chat(tmp_path, [CUT])
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    answer = win.view.answers()[-1]
    assert "needle" not in "".join(s.toPlainText() for s in answer.segments())[30:]  # only the first one shows
    bar = _find(win, "needle")
    # the one shown; two cut off the long paragraph, one off the wide row, one off the code line
    assert len(bar.matches()) == 5
    while bar.current != 0:
        bar.step(True)
    assert bar.count.text() == "1 of 5" and not bar.copy_button.isVisible()
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert bar.count.text() == "2 of 5, in text not shown" and bar.in_text_not_shown() == "cut"
    view, words = _current(bar)
    assert words.startswith("… (") and words.endswith("more characters, the Copy button keeps all)")  # its note
    assert bar.copy_button.isVisible() and "too long to show" in bar.count.toolTip()
    keep_picture(win, "find_in_text_not_shown.png")
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert bar.count.text() == "3 of 5, in text not shown" and _current(bar) == (view, words)  # the same cut
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert bar.count.text() == "4 of 5, in text not shown"
    assert "more\u00a0columns" in _current(bar)[1]  # the wide table's header note
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert bar.count.text() == "5 of 5, in text not shown" and "Copy code keeps all" in _current(bar)[1]
    qtbot.mouseClick(bar.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == answer.to_markdown() and LONG + "needle" in answer.to_markdown()
    assert bar.copy_button.text() == "Copied ✓"
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)  # round to the top: shown, no Copy answer
    assert bar.count.text() == "1 of 5" and not bar.copy_button.isVisible()

    bar.box.setText("keeps all")  # the notes' own words are not the answer's
    assert bar.count.text() == "Not found"


def test_the_text_a_cut_leaves_out_is_kept_with_its_note():
    line = "word " * (BLOCK_SHOWN // 2)
    rendered = render(f"Intro\n\n{line}\n\n```\n{'x' * (CODE_LINE_SHOWN + 7)}\n```\n")
    paragraph, code = rendered.cuts
    assert paragraph.note in rendered.html and paragraph.text().strip() and line.endswith(paragraph.text())
    shown = line[:len(line) - len(paragraph.text())]
    assert len(shown) <= BLOCK_SHOWN + 1 and (shown + paragraph.text()) == line
    assert code.text() == "x" * 7 and "Copy code keeps all" in code.note


def test_a_wide_tables_columns_not_shown_are_counted_once_in_its_rows_shown_and_folded(make_window, server, qloop,
                                                                                       qtbot, tmp_path):
    # 130 columns (100 shown), 40 rows (10 shown): each of its pieces drew the header's cells not shown again,
    # and each counted them ("column 120": 5 of 5)
    data, chat_id, _messages = _chat(tmp_path, [WIDE_FOLDED])
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    bar = _find(win, "column 120")
    assert bar.count.text() == "1 of 1, in text not shown"
    bar.box.setText("r5c120")  # a row shown, a column not
    assert bar.count.text() == "1 of 1, in text not shown"
    bar.box.setText("r30c120")  # a row folded, a column not shown
    assert bar.count.text() == "1 of 1 in rows not shown: press Enter"
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: bar.count.text() == "1 of 1, in text not shown", timeout=60))
    view, words = _current(bar)
    assert "30\u00a0more\u00a0columns" in words and "r30c99" in view.toPlainText()  # the table's note of them
    bar.box.setText("r30c50")
    assert bar.count.text() == "1 of 1" and _current(bar)[1] == "r30c50"


def _marked_table(note: str) -> str:
    """A long table of 400 rows, two of which (10, shown, and 300, folded) say ``note``."""
    return "| id | name | city | note |\n|---|---|---|---|\n" + "".join(
        f"| {r} | n{r} | c | {note if r in (10, 300) else 'none'} |\n" for r in range(400))


def test_text_not_shown_is_looked_in_as_the_answer_shows_it(make_window, server, qloop, tmp_path):
    # Its Markdown was looked in with only "**", "__", "~~", backticks and links read: "a *zebra* b" in a row
    # folded was not "a zebra b" (1 of 1 for 2), "Tom &amp; Jerry" held "amp" (a match in rows not shown that
    # no row shows), and "a**b" in a code line cut off was "ab". (A code span shows its text as written.)
    code = f"```js\nconst x = '{'y' * CODE_LINE_SHOWN}a**b c_d_e';\n```\n"
    answers = [f"T:\n\n{_marked_table('a *zebra* b')}\nDone.\n", f"U:\n\n{_marked_table('Tom &amp; Jerry')}\n",
               f"V:\n\n{LONG}_tapir_ \\*okapi\\* `&lt;x&gt;` &#65;BC {LONG}\n\n{code}"]
    data, chat_id, _messages = _chat(tmp_path, answers)
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    bar = _find(win, "a zebra b")
    assert len(bar.matches()) == 2 and bar.count.text().startswith(("1 of 2", "2 of 2"))
    for words in ("amp", "zebra*", "_tapir_", "&#65;", "<x>", "ab c_d_e"):
        bar.box.setText(words)
        assert bar.count.text() == "Not found", words
    for words, count in (("Tom & Jerry", 2), ("tapir *okapi*", 1), ("&lt;x&gt; ABC", 1), ("a**b c_d_e", 1)):
        bar.box.setText(words)
        assert len(bar.matches()) == count, words
