"""An exported or copied answer says how it ended, as the window does: stopped, cut off by the app's closing,
failed; and a copied stopped answer's passages keep the window's caption ("Given to the model")."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from tinyrag_desktop.chat_export import export_html, export_markdown
from tinyrag_desktop.chats import ChatInfo, ChatStore, StoredMessage
from tinyrag_desktop.engine.events import Route
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.answer_saving import INTERRUPTED

CHAT = ChatInfo("c", "Story", "", 0.0, 0.0)
STOPPED = StoredMessage(2, "assistant", "Sentence number 19 of a long answer that kee", status="stopped",
                        stats={"elapsed_ms": 900, "outcome": "stopped"})
CUT = StoredMessage(2, "assistant", "Sentence number 0 of a long answer. Sentence number", status="stopped",
                    error=INTERRUPTED, stats={"elapsed_ms": 900, "outcome": "stopped"})
EARLY = StoredMessage(2, "assistant", "", status="stopped", stats={"elapsed_ms": 300, "outcome": "stopped"})
FAILED = StoredMessage(2, "assistant", "", status="error", error="The model server failed (500).")
DONE = StoredMessage(2, "assistant", "The whole answer.", stats={"elapsed_ms": 900})


def _chat(answer: StoredMessage) -> list[StoredMessage]:
    return [StoredMessage(1, "user", "Write a long story please"), answer]


@pytest.mark.parametrize(("answer", "markdown_end", "html_end"), [
    (STOPPED, "kee\n\n*[Answer stopped]*\n", '<p class="end"><em>[Answer stopped]</em></p>'),
    (CUT, "Sentence number\n\n*[The answer was cut off: the app closed]*\n",
     '<p class="end"><em>[The answer was cut off: the app closed]</em></p>'),
    (EARLY, "## Assistant\n\n*[Stopped before the model answered]*\n",
     '<p class="end"><em>[Stopped before the model answered]</em></p>'),
    (FAILED, "## Assistant\n\n> **Error:** The model server failed (500).\n",
     '<p class="err"><b>Error:</b> <span dir="auto">The model server failed (500).</span></p>'),
], ids=["stopped", "cut", "stopped-early", "failed"])
def test_an_exported_answer_that_did_not_finish_says_how_it_ended(answer, markdown_end, html_end):
    # A stopped answer's text just ended; one the app's closing cut said "Press Retry to ask again.", which
    # means nothing in a file.
    markdown, page = export_markdown(CHAT, _chat(answer)), export_html(CHAT, _chat(answer))
    assert markdown.endswith(markdown_end)
    assert html_end in page and page.count('class="end"') + page.count('class="err"') == 1
    assert "Retry" not in markdown and "Retry" not in page


def test_a_finished_answer_is_exported_with_no_end_note():
    markdown, page = export_markdown(CHAT, _chat(DONE)), export_html(CHAT, _chat(DONE))
    assert markdown.endswith("## Assistant\n\nThe whole answer.\n")
    assert 'class="end"' not in page and 'class="err"' not in page


def test_a_chat_exported_from_the_store_says_where_an_answer_was_stopped(tmp_path):
    store = ChatStore(tmp_path)
    chat = store.new_chat("Story")
    store.add_user_message(chat.id, "Write a long story please")
    store.add_assistant_message(chat.id, "Once upon a time", status="stopped", stats={"outcome": "stopped"})
    store.add_user_message(chat.id, "Another one")
    store.add_assistant_message(chat.id, "There was", status="stopped", error=INTERRUPTED,
                                stats={"outcome": "stopped"})
    markdown = store.to_markdown(chat.id)
    store.close()
    assert "Once upon a time\n\n*[Answer stopped]*\n\n## You" in markdown
    assert markdown.endswith("There was\n\n*[The answer was cut off: the app closed]*\n")


def _caption(answer: AnswerWidget) -> str:
    return answer.sources_row.findChild(QLabel, "sourcesCaption").text()


def test_a_copied_stopped_answer_says_stopped_and_captions_its_passages_as_the_window_does(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.begin()
    answer.on_route(Route("rag", "kb", ("rag_knowledge",), ("/notes/a.md", "/notes/b.md")))
    answer.append_text("The first part of the answer")
    answer.stop(900)
    copied = answer.to_markdown()
    assert _caption(answer) == "Given to the model"
    assert copied.startswith("The first part of the answer\n\n*[Answer stopped]*\n")
    assert "\nGiven to the model:\n" in copied and "Sources:" not in copied


def test_a_copied_answer_the_apps_closing_cut_says_so_without_retry(qtbot):
    answer = AnswerWidget.from_stored(CUT)
    qtbot.addWidget(answer)
    assert answer.error == INTERRUPTED  # the window says it with its Retry
    copied = answer.to_markdown()
    assert copied == "Sentence number 0 of a long answer. Sentence number\n\n*[The answer was cut off: the app closed]*\n"


def test_a_copied_finished_answer_has_no_end_note(qtbot):
    answer = AnswerWidget.from_stored(DONE)
    qtbot.addWidget(answer)
    assert answer.to_markdown() == "The whole answer.\n"
