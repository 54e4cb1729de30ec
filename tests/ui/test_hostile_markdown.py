"""Markdown no person writes but a model or a pasted log may: quotes or lists nested hundreds deep, a line of
terminal colours full of "[". Each shows its words without freezing the window, and the answer goes on after it."""

from __future__ import annotations

import re

import pytest
from markdown.inlinepatterns import LinkInlineProcessor

from tests.sse_server import Stream
from tinyrag_desktop.markdown_prep import lone_brackets, nest_lists
from tinyrag_desktop.ui.markdown_render import render

from .conftest import ask_and_wait, keep_picture, tokens

COLOURED = "\x1b[31merror\x1b[0m: disk \x1b[1mfull\x1b[0m [sda1 "  # a terminal line's colours, and a "[" left open
BRACKETS = "a[i] of disk [sda1 at [[0x1f, "  # a log line's brackets, most left open


def _deepest(html: str, tag: str) -> int:
    """How deep ``tag`` elements are nested in ``html``."""
    depth = deepest = 0
    for closing in re.findall(rf"<(/?){tag}[ >]", html):
        depth += -1 if closing else 1
        deepest = max(deepest, depth)
    return deepest


def test_a_quote_in_quotes_twenty_deep_shows_its_words_in_eight_bars_at_most():
    # Each quote is a table in the one around it, and Qt lays out a table in a table twice over: 20 quotes
    # froze the window for 15 s, 22 for a minute.
    html = render(">" * 20 + " the deepest words\n\nAfter the quote.").html
    assert _deepest(html, "table") <= 8
    assert "the deepest words" in html and "<p>After the quote.</p>" in html
    assert html.count("<table") == html.count("</table>")


def test_lists_nested_sixty_deep_show_every_item_eight_levels_deep_at_most():
    # Python-Markdown reads nested lists in time growing with the cube of their depth: 2,000 took minutes.
    text = "\n".join("  " * level + f"- item {level}" for level in range(60)) + "\n\nAfter the list."
    html = render(text).html
    assert _deepest(html, "ul") == 8
    assert all(f"item {level}<" in html for level in range(60))
    assert "<p>After the list.</p>" in html
    assert nest_lists(nest_lists(text)) == nest_lists(text)  # as stable as before


def test_brackets_that_open_no_link_are_read_once_and_shown_as_written(monkeypatch):
    # Python-Markdown reads from each "[" to its "]", or to the paragraph's end: a 40,000-character line of
    # terminal colours ("\x1b[31m…") took 12 s, each "[" read to the line's end several times over.
    read = []
    get_text = LinkInlineProcessor.getText

    def counted(self, data, index):
        found = get_text(self, data, index)
        read.append(found[1] - index)
        return found

    monkeypatch.setattr(LinkInlineProcessor, "getText", counted)
    line = BRACKETS * 200
    html = render(f"{line}\n\nSee [the guide](https://example.org/guide) and [[1]](https://example.org/1).").html
    assert sum(read) < 20 * len(line)  # it was some 400 times the line
    assert html.count("[") == line.count("[") + 1  # every bracket shown, "[1]" in its link's words
    assert '<a style="color:#2563eb" href="https://example.org/guide">the guide</a>' in html
    assert 'href="https://example.org/1">[1]</a>' in html
    assert "\ue0f2" not in html


def test_only_brackets_that_open_no_link_are_set_aside():
    assert lone_brackets("[a](b) [c] \\[d [e") == "[a](b) [c] \\[d \ue0f2e"
    assert lone_brackets("[a [b\n\n]]") == "\ue0f2a \ue0f2b\n\n]]"  # a blank line ends what a "[" could hold
    assert lone_brackets("[" * 10 + "x" + "]" * 10) == "[" * 8 + "\ue0f2" * 2 + "x" + "]" * 10
    code = "```\nx = a[b[0\n```"
    assert render(code).code_blocks == ("x = a[b[0\n",)  # Copy code gives the code as written


def test_a_deep_quote_and_a_line_of_terminal_colours_leave_the_answer_after_them_as_usual(make_window, server,
                                                                                           qloop):
    answer = (f"The log says:\n\n{COLOURED * 100}{BRACKETS * 100}\n\n" + ">" * 18 + " quoted deep\n\n"
              + "\n".join("  " * level + f"- step {level}" for level in range(40))
              + "\n\nAnd **after all that**, the answer goes on.")
    server.queue(Stream(tokens(answer, 64)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What does the log say?", timeout=20)) == "done"
    shown = "\n".join(seg.toPlainText() for seg in win.view.answers()[-1].segments() if seg.isVisible())
    assert "quoted deep" in shown and "step 39" in shown
    assert "And after all that, the answer goes on." in shown
    assert shown.count("[") == answer.count("[") - COLOURED.count("\x1b[") * 100  # the colours' codes not shown
    keep_picture(win, "hostile-markdown-answer.png")


def test_a_terminals_escape_codes_are_not_shown_and_a_nul_shows_as_its_picture(qtbot):
    from tinyrag_desktop.ui.segments import MarkdownSegment

    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(560, 100)
    seg.show()
    seg.set_markdown(f"The build said:\n\n{COLOURED}\x1b]0;pwned\x07done\n\nA\x00B.")
    assert seg.toPlainText() == "The build said:\nerror: disk full [sda1 done\nA\u2400B."
    keep_picture(seg, "terminal-codes.png")


@pytest.mark.timeout(10)
def test_tildes_that_strike_nothing_out_are_read_at_once():
    # Each "~~" was read to the paragraph's end for a closing one after a letter: 80,000 characters took 18 s.
    html = render("~~a " * 20_000 + "\n\nIt was ~~wrong~~ right, ~~a ~~b~~ and ~~about ~5 MB~~.").html
    assert "<s>" not in html.split("</p>")[0]
    assert "It was <s>wrong</s> right, ~~a <s>b</s> and <s>about ~5 MB</s>." in html  # "b" alone, as on GitHub
