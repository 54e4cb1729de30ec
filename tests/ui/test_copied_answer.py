"""A copied answer is Markdown that shows what the window showed, once pasted into a Markdown renderer."""

from __future__ import annotations

import html
import re

import markdown
import pytest

from tests.sse_server import Stream
from tinyrag_desktop.chat_export import markdown_safe

from .conftest import ask_and_wait, tokens

EXAMPLE = '<tool name="rag_knowledge"><query>'


def _shown(md: str) -> str:
    """The text a Markdown renderer shows for ``md``: raw HTML in it is read as tags and shows nothing."""
    return html.unescape(re.sub(r"<[^>]*>", "", markdown.markdown(md)))


def test_an_unknown_tools_error_is_copied_as_its_card_says_it(make_window, server, qloop):
    # The error's "Write for example: <tool name=…>" was pasted raw: the renderer read it as HTML and it
    # vanished, with the "(<query>)" after each tool's name. It is advice to the model: the copy says what
    # the card says, "There is no tool called “knowledge_base”."
    server.queue(Stream(tokens('Let me look.\n<tool name="knowledge_base"><query>return policy</query></tool>\n')),
                 Stream(tokens("I could not search, sorry.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is the return policy?")) == "done"
    answer = win.view.answers()[-1]
    [card] = answer.cards()
    assert card.status == "error" and EXAMPLE in card.error  # the card says it as the model was told it
    copied = answer.copy_markdown()
    shown = _shown(copied)
    assert "There is no tool called “knowledge_base”." in shown
    assert EXAMPLE not in copied and "Available tools" not in copied
    assert "I could not search, sorry." in shown
    # what the model was sent is unchanged: the raw example, which it is to copy
    sent = server.requests[-1]["messages"][-1]["content"]
    assert EXAMPLE in sent and f"`{EXAMPLE}" not in sent


@pytest.mark.parametrize(("text", "safe"), [
    ("Write: <tool name=\"calculate\"><query>1+1</query></tool>.",
     "Write: `<tool name=\"calculate\"><query>1+1</query></tool>`."),
    ("calculate (<query>); nanogo (<source>)", "calculate (`<query>`); nanogo (`<source>`)"),
    ("Run `go env` and <b>then</b> a < b", "Run `go env` and `<b>`then`</b>` a < b"),  # a bare < is text
    ("Already `<query>` quoted", "Already `<query>` quoted"),
    ("<x a='`'>", "``<x a='`'>``"),
    ("no tags at all", "no tags at all"),
])
def test_markdown_safe_puts_tag_like_text_in_code_spans(text, safe):
    assert markdown_safe(text) == safe
    assert _shown(safe).replace("`", "") == text.replace("`", "")
