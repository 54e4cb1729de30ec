"""A paragraph, line or table row too long to lay out at once (a 2 MB line, a row of 5,000 columns, 20,000
"&amp;"): the window shows its start and says how much more there is; Copy and Export keep all of it."""

from __future__ import annotations

import re

from tinyrag_desktop.chat_export import export_html, export_markdown
from tinyrag_desktop.chats import ChatInfo, StoredMessage
from tinyrag_desktop.ui.long_text import BLOCK_SHOWN, CODE_LINE_SHOWN, TABLE_COLUMNS
from tinyrag_desktop.ui.markdown_render import render

from .conftest import keep_picture

LINE = "lorem ipsum dolor " * 20_000  # 360,000 characters, no line break
CHAT = ChatInfo("c", "Logs", "", 0.0, 0.0)
QUESTION = StoredMessage(1, "user", "What does the log say?")
NOTE_RE = re.compile(r"… \(([\d,]+) more (characters|columns), the Copy button keeps all\)")


def _row(columns: int, cell: str) -> str:
    return "|" + "|".join(cell.format(i) for i in range(columns)) + "|"


def _table(columns: int) -> str:
    return "\n".join((_row(columns, " h{} "), _row(columns, "---"), _row(columns, " c{} ")))


def _stored(qtbot, text: str):
    """The stored answer ``text`` and the answer the window shows for it."""
    from tinyrag_desktop.ui.answer import AnswerWidget

    message = StoredMessage(2, "assistant", text)
    answer = AnswerWidget.from_stored(message)
    qtbot.add_widget(answer)
    answer.resize(700, 600)
    answer.show()
    return message, answer


def _shown(answer) -> str:
    return "\n".join(seg.toPlainText() for seg in answer.segments() if seg.isVisible())


def test_a_line_too_long_to_lay_out_shows_its_start_and_how_many_characters_more(qtbot):
    text = f"The log says:\n\n{LINE}\n\nAfter the log."
    message, answer = _stored(qtbot, text)
    shown = _shown(answer)
    [(more, what)] = NOTE_RE.findall(shown)
    start = shown.split("\n")[1].split(" …")[0]
    assert what == "characters" and LINE.startswith(start) and len(start) <= BLOCK_SHOWN
    assert len(start) + int(more.replace(",", "")) == len(LINE)  # what is shown and what is not: all of it
    assert shown.startswith("The log says:") and shown.endswith("After the log.")
    html = render(text).html
    assert '<span style="color:#5c6370">… (' in html  # the note in muted words
    # Copy and Export keep the whole line
    assert answer.copy_markdown() == text + "\n"
    assert LINE.strip() in export_markdown(CHAT, [QUESTION, message])
    assert LINE.strip() in export_html(CHAT, [QUESTION, message])
    keep_picture(answer, "long-line.png")


def test_a_table_row_of_thousands_of_columns_shows_the_first_hundred_and_how_many_more(qtbot):
    table = _table(5_000)
    text = f"The table:\n\n{table}\n\nAfter the table."
    message, answer = _stored(qtbot, text)
    html = render(text).html
    header = html[html.index("<thead>"):html.index("</thead>")]
    assert header.count("<th ") == TABLE_COLUMNS + 1 and "h99<" in header and "h100<" not in header
    assert "… (4,900 more columns, the Copy button keeps all)" in header.replace("\u00a0", " ")
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    assert body.count("<td") == TABLE_COLUMNS + 1 and "c99<" in body and "c100<" not in body
    assert "<p>After the table.</p>" in html
    assert "4,900 more columns" in _shown(answer).replace("\u00a0", " ") and _shown(answer).endswith("After the table.")
    assert answer.copy_markdown() == text + "\n"
    assert table in export_markdown(CHAT, [QUESTION, message])
    assert "c4999" in export_html(CHAT, [QUESTION, message])
    keep_picture(answer, "wide-row.png")


def test_a_paragraph_of_thousands_of_entities_shows_its_start_and_how_many_characters_more(qtbot):
    words = "Tom &amp; Jerry " * 3_000
    text = f"{words}\n\nAfter them."
    message, answer = _stored(qtbot, text)
    shown = _shown(answer)
    [(more, _)] = NOTE_RE.findall(shown)
    start = shown.split(" …")[0]
    assert start.startswith("Tom & Jerry Tom & Jerry") and len(start) < BLOCK_SHOWN
    assert words.startswith(start.replace("&", "&amp;"))
    assert len(start.replace("&", "&amp;")) + int(more.replace(",", "")) == len(words)
    assert shown.endswith("After them.")
    assert answer.copy_markdown() == text + "\n"
    assert words.strip() in export_markdown(CHAT, [QUESTION, message])
    assert export_html(CHAT, [QUESTION, message]).count("Tom &amp; Jerry") == 3_000


def test_ordinary_long_paragraphs_and_tables_are_shown_whole():
    paragraph = "A sentence of an ordinary answer, " * 280  # 9,520 characters
    wide = _table(TABLE_COLUMNS)
    rows = "| a | b |\n|---|---|\n" + "".join(f"| {i} | {i * 2} |\n" for i in range(400))  # 800 bars
    items = "\n".join(f"- item number {i} with some words" for i in range(400))  # a tight list: 15,000 characters
    for text in (paragraph, wide, rows, items):
        html = render(text).html
        assert "keeps all" not in html
    assert "h99<" in render(wide).html and ">399<" in render(rows).html and "number 399 " in render(items).html


def test_a_code_line_too_long_to_lay_out_shows_its_start_and_copy_code_gives_all_of_it():
    script = 'var a="x&amp;<y>";' * 20_000  # a minified script: 360,000 characters on one line
    rendered = render(f"```js\n{script}\nrun();\n```\n\nAfter the script.")
    assert rendered.code_blocks == (f"{script}\nrun();\n",)  # Copy code: all of it
    assert "… (355,000 more characters, Copy code keeps all)</span>\n" in rendered.html
    assert rendered.html.count("x&amp;amp;") == CODE_LINE_SHOWN // 18 and "run" in rendered.html
    assert "<p>After the script.</p>" in rendered.html


def test_indented_code_too_long_for_a_paragraph_is_code_and_copy_code_gives_all_of_it():
    code = "\n".join(f"    x = {i}  # some comment here padding" for i in range(400))  # 15,000 characters
    rendered = render(f"Here:\n\n{code}\n\nAfter the code.")
    assert rendered.code_blocks == ("\n".join(line[4:] for line in code.split("\n")) + "\n",)
    assert "keeps all" not in rendered.html and "&lt;span" not in rendered.html and "x = 399" in rendered.html
    # text indented under a list item is the item's, not code: cut as a paragraph
    item = "- An item:\n\n    " + "words of the item " * 800
    html = render(item).html
    assert len(NOTE_RE.findall(html)) == 1 and "<pre" not in html


def test_the_note_names_the_copy_button_which_keeps_all_a_selection_copies_what_shows(qtbot):
    from PySide6.QtGui import QTextCursor

    text = f"{LINE}\n\nAfter the log."
    _, answer = _stored(qtbot, text)
    [segment] = [seg for seg in answer.segments() if seg.isVisible()]
    shown = segment.toPlainText()
    cursor = segment.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(shown.index("After") - 1, QTextCursor.MoveMode.KeepAnchor)
    segment.setTextCursor(cursor)
    copied = segment.createMimeDataFromSelection().text()
    assert LINE.startswith(copied.split(" …")[0]) and copied.endswith("the Copy button keeps all)")
    assert answer.copy_markdown() == text + "\n"


def test_a_header_whose_first_hundred_cells_are_too_long_shows_the_cells_that_fit_and_the_note_of_the_others():
    cells = [f"h{i:03}" + "z" * 150 for i in range(200)]  # 64 of them in 10,000 characters
    table = "\n".join(("|" + "|".join(cells) + "|", _row(200, "---"), _row(200, " c{} ")))
    html = render(table).html
    assert "TINYRAG" not in html
    header = html[html.index("<thead>"):html.index("</thead>")]
    assert header.count("<th ") == 65 and "h063" in header and "h064" not in header
    assert "… (136 more columns, the Copy button keeps all)" in header.replace("\u00a0", " ")
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    assert body.count("<td") == 65 and "c63<" in body and "c64<" not in body and "…</td>" in body


def test_a_table_of_thousands_of_columns_in_a_quote_is_a_table_of_the_first_hundred():
    text = "\n".join("> " + _row(3_000, cell) for cell in (" h{} ", "---", " c{} "))
    html = render(text).html
    assert "<blockquote>" not in html and html.count("<table") == 2  # the quote's bar, and the table in it
    assert html.count("<th ") == TABLE_COLUMNS + 1 and "h99<" in html and "c99<" in html and "c100<" not in html
    assert "… (2,900 more columns, the Copy button keeps all)" in html.replace("\u00a0", " ")


def test_a_cut_inside_a_link_or_an_address_shows_none_of_it_rather_than_a_link_to_half_of_it():
    for link in ("[the docs](http://example.com/" + "a" * 12_000 + ")", "http://example.com/" + "a" * 12_000):
        html = render(f"See {link} now").html
        assert "href" not in html and "example.com" not in html
        [(more, _)] = NOTE_RE.findall(html)
        assert html.startswith("<p>See <span") and int(more.replace(",", "")) == len(f" {link} now")
    html = render("See http://example.com/short " + "word " * 3_000).html  # a link whole before the cut stays
    assert 'href="http://example.com/short"' in html


def test_a_cut_in_text_with_no_spaces_never_splits_an_emoji_an_accented_letter_or_a_flag():
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"  # one emoji of 7 characters
    for unit in (family, "e\u0301", "\u2764\ufe0f", "\U0001F1EB\U0001F1F7"):  # é, ❤️, a flag
        text = "x" + unit * (BLOCK_SHOWN // len(unit) + 500)  # each cut in the middle of a unit at 10,000
        shown = render(text).html.replace("\u200b", "").split("<p>")[1].split(" <span")[0]
        assert (len(shown) - 1) % len(unit) == 0 and text.startswith(shown)
        [(more, _)] = NOTE_RE.findall(render(text).html)
        assert len(shown) + int(more.replace(",", "")) == len(text)
    code = render(f"```\nx{family * 1000}\n```").html  # a line of code too
    assert (len(code.split("<pre")[1].split(">", 1)[1].split(" <span")[0]) - 1) % len(family) == 0
