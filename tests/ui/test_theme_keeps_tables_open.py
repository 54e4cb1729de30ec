"""The theme changed with a chat open: a long table whose rows the user showed ("Show all N rows") stays shown
whole, and one they left folded stays folded. The chat built again in the new colours folded every long table
again, even one its answer had shown whole as it streamed in."""

from __future__ import annotations

import re

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_signal, wait_until

from .test_open_long_answers import _chat

ROWS = 400  # of 3 columns: past the first thousand cells, folded when its chat opens


def _table(name: str) -> str:
    return "| id | a | b |\n|---|---|---|\n" + "".join(f"| {name}{r} | x | y |\n" for r in range(ROWS))


TEXT = f"Two tables:\n\n{_table('first')}\nAnd:\n\n{_table('second')}\nDone.\n"


def _rows(answer, name: str) -> int:
    """How many rows of table ``name`` the answer shows."""
    return sum(len(re.findall(rf"\b{name}\d+\b", s.toPlainText())) for s in answer.segments() if s.isVisibleTo(answer))


def _opened(win, qloop, chat_id: str):
    """The answer of chat ``chat_id`` opened, all of it built (a busy machine builds it over more turns)."""
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading and not win.view.answers()[-1].building))
    return win.view.answers()[-1]


def _recoloured(win, qloop):
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="dark" if win.settings.theme != "dark" else "light"))
    qloop.run(opened)
    answer = win.view.answers()[-1]
    qloop.run(wait_until(lambda: not win.loading and not answer.building, timeout=60))
    return answer


def test_a_table_shown_whole_stays_whole_and_one_folded_stays_folded_when_the_theme_changes(
        make_window, server, qloop, tmp_path):
    data, chat_id, _messages = _chat(tmp_path, [TEXT])
    win = make_window(server.base_url, data_dir=data)
    answer = _opened(win, qloop, chat_id)
    assert 0 < _rows(answer, "first") < ROWS and 0 < _rows(answer, "second") < ROWS  # both folded
    first_note = next(s for s in answer.segments() if s.fold is not None)
    first_note.rowsAsked.emit()  # its "Show all 400 rows"
    qloop.run(wait_until(lambda: not answer.building, timeout=60))
    assert _rows(answer, "first") == ROWS
    for _theme in range(2):  # to dark, and back
        answer = _recoloured(win, qloop)
        assert _rows(answer, "first") == ROWS  # it was folded again
        assert 0 < _rows(answer, "second") < ROWS
        assert [s.fold.total for s in answer.segments() if s.fold is not None] == [ROWS]  # the second's note


def test_a_table_that_streamed_in_whole_stays_whole_when_the_theme_changes(make_window, server, qloop):
    win = make_window(server.base_url)
    server.queue(Stream(tokens(TEXT, 400)))
    assert qloop.run(ask_and_wait(win, "Two tables, please")) == "done"
    answer = win.view.answers()[-1]
    assert _rows(answer, "first") == _rows(answer, "second") == ROWS
    answer = _recoloured(win, qloop)
    assert _rows(answer, "first") == _rows(answer, "second") == ROWS
    assert "".join(s.markdown() for s in answer.segments()) == TEXT


def test_a_table_opened_while_another_is_still_drawn_stays_open_when_the_theme_changes(
        make_window, server, qloop, tmp_path):
    """"Show all N rows" on two tables in quick succession: the second waits for the first's rows to be drawn,
    and a theme change then folded it again."""
    data, chat_id, _messages = _chat(tmp_path, [TEXT])
    win = make_window(server.base_url, data_dir=data)
    answer = _opened(win, qloop, chat_id)
    first, second = [s for s in answer.segments() if s.fold is not None]
    first.rowsAsked.emit()
    second.rowsAsked.emit()  # waits: the first's rows are still being drawn
    assert answer.tables_opened() == {0, 1}
    answer = _recoloured(win, qloop)
    assert _rows(answer, "first") == ROWS and _rows(answer, "second") == ROWS
