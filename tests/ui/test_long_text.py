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
NOTE_RE = re.compile(r"… \(([\d,]+) more (characters|columns), Copy keeps all\)")


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
    assert "… (4,900 more columns, Copy keeps all)" in header.replace("\u00a0", " ")
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
    for text in (paragraph, wide, rows):
        html = render(text).html
        assert "Copy keeps all" not in html
    assert "h99<" in render(wide).html and ">399<" in render(rows).html


def test_a_code_line_too_long_to_lay_out_shows_its_start_and_copy_code_gives_all_of_it():
    script = 'var a="x&amp;<y>";' * 20_000  # a minified script: 360,000 characters on one line
    rendered = render(f"```js\n{script}\nrun();\n```\n\nAfter the script.")
    assert rendered.code_blocks == (f"{script}\nrun();\n",)  # Copy code: all of it
    assert "… (355,000 more characters, Copy keeps all)</span>\n" in rendered.html
    assert rendered.html.count("x&amp;amp;") == CODE_LINE_SHOWN // 18 and "run" in rendered.html
    assert "<p>After the script.</p>" in rendered.html
