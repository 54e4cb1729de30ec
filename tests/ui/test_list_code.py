"""Code fenced in a list item (the numbered steps models write) is a code block with its box and Copy code,
in the window while it streams and when it is whole, and in the HTML export. Python-Markdown's fenced_code
reads a fence only at the left margin: such a block showed as one line of inline code starting "bash"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tinyrag_desktop.chat_export import export_html
from tinyrag_desktop.chats import ChatInfo, StoredMessage
from tinyrag_desktop.engine.events import Done
from tinyrag_desktop.markdown_prep import lift_fences
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.markdown_render import render

from .test_long_code_joined import streamed

STEPS = ("To set it up:\n\n"
         "1. Install it:\n\n"
         "   ```bash\n   pip install foo\n   foo --init\n   ```\n\n"
         "2. Run it:\n"
         "   ```python\n   if a < b:\n       foo.run()\n   ```\n"
         "3. ```go\n   fmt.Println(1)\n   ```\n"
         "4. Done.\n\n"
         "```\nat the margin\n```\n")
CODES = ("pip install foo\nfoo --init\n", "if a < b:\n    foo.run()\n", "fmt.Println(1)\n", "at the margin\n")


def test_code_in_list_items_is_a_code_block_with_its_language():
    shown = render(STEPS, run_go=True)
    assert shown.code_blocks == CODES
    assert shown.html.count('href="copy-code:') == 4 and 'href="run-go:2"' in shown.html
    assert ">bash<" in shown.html and ">python<" in shown.html  # each box's language label
    assert "<code><span" not in shown.html  # no inline code left: it read "bash pip install foo foo --init"
    assert shown.html.index("Install it") < shown.html.index("copy-code:0") < shown.html.index("Run it")
    assert shown.html.count("<li>") == 4  # the list goes on around its blocks


def test_a_block_being_streamed_in_a_list_item_is_shown_open_with_no_run_link():
    half = "1. Try:\n   ```go\n   package main\n   func main() {"
    shown = render(half, run_go=True)
    assert shown.code_blocks == ("package main\nfunc main() {\n",) and "run-go:" not in shown.html
    assert "run-go:0" in render(half + "}\n   ```\n", run_go=True).html


def test_the_window_streams_steps_with_code_as_code_blocks(qtbot):
    chosen = defaults().replace(allow_nanogo=True)
    answer = streamed(qtbot, STEPS, 7, settings=lambda: chosen)
    answer.finish(Done(1, 0, 10))
    assert tuple(code for seg in answer.segments() for code in seg.code_blocks()) == CODES


def test_the_html_export_shows_them_as_code_blocks():
    page = export_html(ChatInfo("c", "Steps", "", 0.0, 0.0), [StoredMessage(1, "assistant", STEPS)])
    assert page.count("<pre") == 4 and "pip install foo\nfoo --init" in page
    assert "TINYRAGFENCE" not in page


@given(st.text(alphabet=" `~-1.\nabc{}", max_size=120))
def test_any_text_keeps_its_words_through_the_lifting(text):
    lifted, found, _ = lift_fences(text)
    words = "".join(c for c in text if c.isalpha())
    kept = "".join(c for c in lifted if c.isalpha()).replace("TINYRAGFENCE", "").replace("X", "")
    assert sorted(words) == sorted(kept + "".join(c for lang, code in found for c in lang + code if c.isalpha()))
