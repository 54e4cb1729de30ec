"""Task list items show their box (☐ / ☑), not "• [ ] a task"; a quote right under a list is set apart."""

from __future__ import annotations

from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.markdown_render import render

TASKS = "Left to do:\n\n- [ ] a task\n- [x] done\n- [X] **also** done\n\nThat's all."


def _list_items(document) -> list[tuple[str, object]]:
    """Each list item of a QTextDocument: its text and its list's style."""
    items, block = [], document.begin()
    while block.isValid():
        if block.textList() is not None:
            items.append((block.text(), block.textList().format().style()))
        block = block.next()
    return items


def test_task_items_show_their_box_and_lose_their_bullets(qtbot):
    from PySide6.QtGui import QTextListFormat

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.append_text(TASKS)
    answer.flush()
    items = _list_items(answer.segments()[0].document())
    assert [text for text, _style in items] == ["☐ a task", "☑ done", "☑ also done"]
    assert {style for _text, style in items} == {QTextListFormat.Style.ListStyleUndefined}  # no "•" before ☐
    assert answer.copy_markdown().startswith(TASKS)  # Copy as Markdown gives the brackets as written


def test_a_list_mixing_tasks_and_items_keeps_its_bullets_and_loose_items_get_boxes_too():
    html = render("- [ ] a task\n- plain\n\n1. [x] first\n").html
    assert "<li>☐ a task</li>" in html and "<li>plain</li>" in html and "<li>☑ first</li>" in html
    assert "list-style-type:none" not in html  # "- plain" is no task; an ordered list keeps its numbers
    loose = render("- [ ] loose\n\n- [x] loose too\n").html
    assert "<p>☐ loose</p>" in loose and "<p>☑ loose too</p>" in loose and "list-style-type:none" in loose


def test_boxes_in_code_or_without_words_stay_as_written():
    html = render("```\n- [ ] in a fence\n```\n\n- `[ ]` in code\n- [ ]\n- [x]no space\n").html
    assert "☐" not in html and "☑" not in html
    assert "- [ ] in a fence" in html and "<li>[ ]</li>" in html


def test_a_quote_right_under_a_list_is_set_apart_as_a_paragraph_is():
    under_list = render("1. one\n2. two\n\n> a note\n").html
    under_text = render("Text\n\n> a note\n").html
    assert "margin-top:12px" in under_list and "margin-top:6px" not in under_list
    assert "margin-top:12px" in under_text  # under a paragraph too: Qt leaves out its margin above a table
