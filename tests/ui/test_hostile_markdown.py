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


@pytest.mark.parametrize("text, link, words", [
    ("Press [the `[` key](https://vim.example/motion) to go back.", "https://vim.example/motion", "the <code>"),
    ("See [`list[`](https://docs.python.org/3/library/stdtypes.html#list).", "https://docs.python.org/3/library/"
                                                                             "stdtypes.html#list", "<code>"),
    ("Call [`a[0`](https://example.org/a) first, then [`b`](https://example.org/b).", "https://example.org/a",
     "<code>"),
])
def test_a_link_whose_words_hold_code_with_a_bracket_is_a_link(text, link, words):
    # Python-Markdown sets code aside before it reads links; the "[" in the code was counted, left open, and
    # the link's own "[" set aside with it: the link read as "[the [ key](https://…)".
    html = render(text).html
    assert f'href="{link}">{words}' in html
    assert "](" not in html and "\ue0f2" not in html


def test_brackets_in_code_neither_open_nor_close_a_link():
    assert lone_brackets("[`[` and `]` [in `]`](u) [x") == "\ue0f2`\ue0f2` and `]` [in `]`](u) \ue0f2x"
    assert lone_brackets("`a [x\n\n[b](c) `") == "`a \ue0f2x\n\n[b](c) `"  # no code runs past a paragraph's end


def test_lists_nested_deep_in_a_quote_or_by_tabs_show_eight_levels_deep_at_most():
    # nest_lists read only lines starting with spaces: 300 levels in a quote or by tabs made Python-Markdown run out
    # of stack (RecursionError), and the answer stopped there.
    in_quote = "\n".join("> " + "    " * level + f"- item {level}" for level in range(400)) + "\n\nAfter the quote."
    by_tabs = "\n".join("\t" * level + f"- item {level}" for level in range(300)) + "\n\nAfter the list."
    for text, last in ((in_quote, 399), (by_tabs, 299)):
        html = render(text).html
        assert _deepest(html, "ul") == 8
        assert f"item {last}<" in html and "After the" in html
    assert nest_lists("> - a\n>   - b\n>\n> > - c\n> >  - d") == "> - a\n>     - b\n>\n> > - c\n> >     - d"


def test_markdown_nested_deeper_than_python_markdown_can_read_shows_as_plain_text_and_the_answer_goes_on(
        qtbot, monkeypatch):
    from tinyrag_desktop.ui import markdown_render
    from tinyrag_desktop.ui.segments import MarkdownSegment

    steps = "1. Install:\n\n    ```bash\n    pip install x\n    ```\n\n2. Run it.\n\nDone."
    before = render(steps).html
    monkeypatch.setattr(markdown_render, "nest_lists", lambda text: text)  # a nesting the caps do not know
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    deep = "\n".join("    " * level + f"- item <{level}>" for level in range(400))
    seg.set_markdown(deep)
    seg.set_markdown(deep + "\n\nAnd the answer goes on.")
    shown = seg.toPlainText()
    assert "- item <399>" in shown and shown.endswith("And the answer goes on.")
    # and the next answer's Markdown reads as ever: the converter's parser was left inside the 400 lists it
    # read, and code in a list item's step showed as a paragraph of its words from then on
    monkeypatch.undo()
    assert render(steps + "\n").html == before


def test_a_bare_address_before_a_bracket_that_opens_no_link_ends_before_it():
    html = render("Logs at https://ci.example.org/job/42[ and https://ci.example.org/job/43[ (both failed).").html
    assert re.findall(r'href="([^"]*)"', html) == ["https://ci.example.org/job/42", "https://ci.example.org/job/43"]
    assert ">https://ci.example.org/job/42</a>[ and" in html


def test_copy_code_gives_a_blocks_control_characters_as_written_and_the_window_shows_their_pictures():
    # A form feed (PEP 8 allows it between a file's parts) or a BEL was copied as its picture, "␌" or "␇".
    rendered = render("```python\nimport os\n\x0c\ndef f():\n    print('\x07\x1b[31m')\n```\n\nA\x00B.")
    assert rendered.code_blocks == ("import os\n\x0c\ndef f():\n    print('\x07')\n",)  # a terminal's codes go
    assert "\u240c" in rendered.html and "\u2407" in rendered.html and "A\u2400B." in rendered.html
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\U000f0000-\U000f007f]", rendered.html)
