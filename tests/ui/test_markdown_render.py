"""Markdown rendering for segments and the cut points that keep streaming cost flat (no Qt)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from tinyrag_desktop.markdown_prep import blocks_apart as _blocks_apart
from tinyrag_desktop.markdown_prep import nest_lists as _nest_lists
from tinyrag_desktop.ui.markdown_cuts import freeze_point
from tinyrag_desktop.ui.markdown_render import DARK, LIGHT, render


def test_code_blocks_are_highlighted_and_numbered_for_copying():
    r = render("Text\n\n```python\nx = 1 < 2\n```\n\n~~~\nplain\n~~~\n", LIGHT, first_code_index=3)
    assert r.code_blocks == ("x = 1 < 2\n", "plain\n")
    assert 'href="copy-code:3"' in r.html and 'href="copy-code:4"' in r.html
    assert "&lt;" in r.html and "<span style=" in r.html  # escaped and coloured by Pygments
    assert LIGHT.code_bg in r.html and DARK.code_bg not in r.html


def test_tables_lists_headings_and_links_render():
    html = render("# Title\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n[site](https://example.org)").html
    assert "<h1>Title</h1>" in html and "<li>a</li>" in html and "<td>1</td>" in html
    assert 'href="https://example.org"' in html


def test_short_text_is_not_cut():
    assert freeze_point("hello\n\nworld", soft=100) is None


def test_long_text_is_cut_at_a_paragraph_before_the_growing_tail():
    text = "para one\n\n" * 200 + "still typ"
    cut = freeze_point(text, soft=500)
    assert cut is not None and cut.close == "" and cut.reopen == ""
    assert text[:cut.at].endswith("\n\n") and text[cut.at:].startswith("para one")


def test_list_items_and_tables_are_not_split_from_their_block():
    text = "intro\n\n" + "1. item\n\n" * 300
    cut = freeze_point(text, soft=200)
    assert cut is None or not text[cut.at:].startswith("1.")
    table = "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 600 + "| 1 |"
    cut = freeze_point(table, soft=200, hard=1000)  # a long table goes on under its header (see table_cut),
    # after the row that reached 150 cells, as a stream is cut
    assert cut is not None and cut.reopen == "| a | b |\n|---|---|\n" and table[cut.at:] == "| 1 | 2 |\n" * 525 + "| 1 |"


def test_a_list_longer_than_a_segment_is_cut_before_an_item_and_its_numbers_go_on():
    # uncut, every frame drew the whole list again: an 800 KB list stalled the window 8 s a frame
    items = [f"{n}. step {n} of the long procedure" for n in range(1, 400)]
    for joiner in ("\n", "\n\n"):
        text = "Steps:\n\n" + joiner.join(items) + joiner + "400. still comi"
        cut = freeze_point(text, soft=1500, hard=4000)
        assert cut is not None and cut.close == "" and cut.reopen == "" and 1000 < cut.at <= 4000
        head, tail = text[:cut.at], text[cut.at:]
        number = int(tail.split(".", 1)[0])
        assert head.rstrip().endswith(f"{number - 1}. step {number - 1} of the long procedure")
        assert f'<ol start="{number}">' in render(tail).html
    nested = "- top\n" + "  - inner item of the list\n" * 300 + "- next top item\n" + "x"
    cut = freeze_point(nested, soft=1500, hard=4000)
    assert cut is not None and nested[cut.at:].startswith("- next top item")  # never inside an item


def test_a_long_code_block_is_cut_and_reopened_with_its_fence():
    text = "```go\n" + "x := 1\n" * 800 + "y :="
    cut = freeze_point(text, soft=500, hard=2000)
    assert cut is not None and cut.close.strip() == "```" and cut.reopen == "```go\n"
    assert text[cut.at:] == "y :="
    again = freeze_point("x := 2\n" * 400 + "z", opener=cut.reopen, soft=500, hard=2000)
    assert again is not None and again.reopen == "```go\n"


_LINES = st.sampled_from(["", "text line", "- item", "1. first", "```python", "```", "~~~", "    indented",
                          "| a | b |", "> quote", "# Heading", "<tool name=\"x\">"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINES, max_size=120), st.integers(20, 400))
def test_cutting_as_the_view_does_loses_and_reorders_nothing(lines, soft):
    text = "\n".join(lines)
    pieces, prefix, rest = [], "", text
    while (cut := freeze_point(rest, opener=prefix, soft=soft, hard=soft * 3)) is not None:
        assert 0 < cut.at <= len(rest)
        pieces.append(rest[:cut.at])
        rest, prefix = rest[cut.at:], cut.reopen
        render(pieces[-1] + cut.close)  # every frozen piece renders on its own
    assert "".join(pieces) + rest == text


def test_raw_html_and_invalid_tool_blocks_show_as_text():
    html = render('Bad block: <tool name=""><query>x</query></tool> and <b>not bold</b>\n\n<div>raw</div>').html
    assert '&lt;tool name=""&gt;&lt;query&gt;x&lt;/query&gt;&lt;/tool&gt;' in html
    assert "&lt;b&gt;not bold&lt;/b&gt;" in html and "&lt;div&gt;raw&lt;/div&gt;" in html


def test_an_invalid_tool_block_is_shown_as_code_with_why_it_was_not_run():
    # it read as stray markup in the sentence, with nothing to say it was the model's call, not run
    text = 'Listing it: <tool name="shell_exec"><command>ls -la /tmp</command></tool> done.'
    html = render(text).html
    code = '&lt;tool name="shell_exec"&gt;&lt;command&gt;ls -la /tmp&lt;/command&gt;&lt;/tool&gt;'
    assert f'{code}</span></code>' in html
    assert ("(a tool call not run: unknown inner element &lt;command&gt;; use &lt;query&gt;, &lt;url&gt; or "
            "&lt;source&gt;)") in html
    assert "TINYRAGINVALIDBLOCK" not in html and html.index("Listing it") < html.index(code) < html.index("done.")
    # in code it is the code's own text, with no note
    fenced = render("```xml\n" + '<tool name="x"><bad>1</bad></tool>' + "\n```\n").html
    assert "not run" not in fenced and "TINYRAGINVALIDBLOCK" not in fenced


def test_a_block_cut_off_at_the_end_is_set_in_code_with_why():
    # a reply cut at the length limit in the middle of a call showed "<tool name=…><query>6*7+" as text
    html = render('Let me compute. <tool name="calculate"><query>6*7+').html
    assert '<code><span style="background-color:#dde2ea">&lt;tool name="calculate"&gt;&lt;query&gt;6*7+' in html
    assert "(a tool call not run: the block was not closed with &lt;/tool&gt; before the end)" in html


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["text ", '<tool name="a"><query>q</query></tool>', '<tool name="">',
                                 "<query>x</query>", "</tool>", "`", "```\n", "\n\n", "<tool ", "TINYRAG"]),
                max_size=30))
def test_no_mark_of_an_invalid_block_is_ever_left_in_the_page(pieces):
    assert "TINYRAGINVALIDBLOCK" not in render("".join(pieces)).html


def test_lists_nested_by_two_or_three_spaces_nest():
    html = render("- fruit\n  1. apple\n  2. pear\n- veg\n   - leek\n     - young leek\n").html
    assert html.replace("\n", "") == (
        "<ul><li>fruit<ol><li>apple</li><li>pear</li></ol></li>"
        "<li>veg<ul><li>leek<ul><li>young leek</li></ul></li></ul></li></ul>")


def test_four_space_nesting_and_code_inside_lists_are_unchanged():
    text = "- a\n    - b\n\n```\n  - not a list\n```\n\nplain\n\n    indented code\n"
    html = render(text).html
    assert "<li>a<ul><li>b</li></ul></li>" in html.replace("\n", "")
    assert "  - not a list" in render(text).code_blocks[0]
    assert "indented code" in html and "<li>indented code" not in html


_LIST_LINES = st.sampled_from(["", "text", "- item", "  - two", "   - three", "    - four", "1. one",
                               "  2. two", "```", "  ```", "  continued", "     deep text"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LIST_LINES, max_size=60))
def test_re_nesting_lists_changes_only_indentation_and_is_stable(lines):
    text = "\n".join(lines)
    nested = _nest_lists(text)
    assert [line.lstrip(" ") for line in nested.split("\n")] == [line.lstrip(" ") for line in text.split("\n")]
    assert _nest_lists(nested) == nested  # already nested by 4: nothing more to do
    render(text)  # and it renders


def test_bare_urls_become_links_without_their_trailing_punctuation():
    html = render("See https://example.org/a_b?x=1. Or (https://example.org/c), and `https://in.code`").html
    assert '<a style="color:#2563eb" href="https://example.org/a_b?x=1">https://example.org/a_b?x=1</a>.' in html
    assert 'href="https://example.org/c">https://example.org/c</a>),' in html
    assert 'href="https://in.code"' not in html
    assert html.count("<a ") == 2


def test_inline_code_has_a_background_and_code_blocks_keep_their_lines():
    # a code line wider than the answer scrolls sideways (segments.MarkdownSegment), never wraps
    r = render("Run `make test` now.\n\n```\n" + "x" * 300 + "\n```\n", DARK)
    assert f'<code><span style="background-color:{DARK.code_border}">make test</span></code>' in r.html
    assert "white-space:pre;" in r.html and "pre-wrap" not in r.html


def test_words_too_long_for_a_line_get_break_points_but_links_keep_their_address():
    url = "https://example.org/" + "a" * 300
    html = render(f"{'y' * 1000}\n\n[link]({url}) and `{'z' * 250}`").html
    # a break point every 8 characters, so a line of such a word ends at most 8 short of the edge
    assert ("y" * 8 + "\u200b") * 3 in html and "y" * 9 not in html
    assert html.count("\u200b") == 1000 // 8 - 1 + 250 // 8
    assert f'href="{url}"' in html  # inside the tag: untouched
    assert "z" * 8 + "\u200b" in html
    short = render("a normal sentence with ordinary words").html
    assert "\u200b" not in short


def test_break_points_never_part_a_letter_from_its_accent_or_an_emoji_sequence():
    word = "e\u0301" * 150  # 300 characters: é as a letter and a combining accent
    html = render(word).html
    assert "\u200b\u0301" not in html and html.count("\u200b") > 30
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji of five characters
    hands = "\U0001f44d\U0001f3fd"  # thumbs up, medium skin tone
    html = render((family + hands) * 40).html
    assert html.replace("\u200b", "").count(family + hands) == 40
    for piece in html.split("\u200b")[1:]:
        assert piece[0] not in "\u200d\U0001f3fd" and not piece.startswith(("\U0001f469", "\U0001f467"))


def test_a_code_block_still_streaming_shows_as_code_not_as_its_fence_and_lines_run_together():
    # Until its closing fence arrived, a block read "```python print(0) print(1)" as one paragraph, then
    # jumped into its box: every program an answer streamed flickered so for seconds.
    for text in ("Intro.\n\n```python\nprint(0)\nprint(1)\n", "Intro.\n\n```python\nprint(0)\nprin",
                 "Intro.\n\n~~~~\nplain\n~~~\n"):  # a shorter fence does not close a longer one
        r = render(text)
        assert "<p>```" not in r.html and "<p>~~~" not in r.html, text
        assert len(r.code_blocks) == 1 and r.code_blocks[0].startswith(("print(0)\nprin", "plain\n~~~"))
        assert 'href="copy-code:0"' in r.html
    # As CommonMark says: an unclosed block runs to the end (a model that never closes it included).
    assert render("```\nfirst\n\nsecond paragraph?\n").code_blocks == ("first\n\nsecond paragraph?\n",)


def test_a_go_block_still_streaming_gets_no_run_link_until_it_is_closed():
    program = "```go\nfmt.Println(1)\n"
    assert "run-go:" not in render(program, run_go=True).html  # half a program must not be run
    assert 'href="run-go:0"' in render(program + "```\n", run_go=True).html


def test_only_a_fence_at_the_start_of_a_line_is_closed():
    # A fence in a quote or list item, or code written inline: no closing fence is added to show as text.
    for text in ("> ```\n> quoted\n", "- item\n\n  ```\n  code\n", "Use ```x``` here", "```python not a language\n"):
        assert render(text).html.count("```") <= text.count("```"), text


def test_a_list_or_table_right_under_a_line_of_text_renders_as_one():
    # Models rarely leave a blank line before them; the lines ran together into one paragraph:
    # "To install it: 1. Download 2. Run", "You will need: - a computer", "Comparison: | Model | Size | |---|".
    html = render("To install it:\n1. Download\n2. Run\n").html
    assert "<ol>" in html and "<li>Download</li>" in html and "<p>To install it:</p>" in html
    html = render("You will need:\n- a computer\n* patience\n").html
    assert "<ul>" in html and "<li>a computer</li>" in html and "<li>patience</li>" in html
    html = render("Comparison:\n| Model | Size |\n|---|---|\n| llama3.2 | 3B |\n").html
    assert "<td>llama3.2</td>" in html and "<p>Comparison:</p>" in html


def test_only_what_markdown_readers_take_for_a_list_or_table_is_split_from_its_paragraph():
    # CommonMark: an ordered list interrupts a paragraph only from 1; a line of a list item goes on in it.
    assert "<ol" not in render("It was a good year, the best since\n1999. And then it ended.\n").html
    assert "<li>" not in render("Prices fell\n-5% in a week.\n").html
    assert "<table" not in render("a | b\nno delimiter row here\n").html
    tight = render("- one\n- two\n  still two\n- three\n").html
    assert "<p>" not in tight  # items stay tight: no blank lines put between them
    code = "```\nText\n- not a list\n| a | b |\n|---|---|\n```\n"
    assert render(code).code_blocks == ("Text\n- not a list\n| a | b |\n|---|---|\n",)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINES, max_size=80))
def test_putting_blocks_apart_only_adds_blank_lines(lines):
    out = _blocks_apart("\n".join(lines)).split("\n")
    rest = iter(out)
    assert all(any(o == line for o in rest) for line in lines)  # the lines, in order: others added between
    assert len(out) - len(lines) == sum(1 for o in out if not o) - sum(1 for line in lines if not line)


def test_a_code_blocks_tabs_are_kept_for_copy_and_run_and_shown_as_spaces():
    # A copied Makefile recipe had four spaces where make needs a tab ("missing separator").
    r = render("Build it:\n\n```make\nall:\n\techo hi\n```\n\nand `a\tb` inline, and a\ttab.\n")
    assert r.code_blocks == ("all:\n\techo hi\n",)
    assert "\ue0f1" not in r.html and "\t" not in r.html.split("<pre", 1)[1].split("</pre>", 1)[0]
    go = render("```go\nfunc main() {\n\tfmt.Println(1)\n}\n```\n", run_go=True)
    assert go.code_blocks == ("func main() {\n\tfmt.Println(1)\n}\n",)


def test_struck_out_text_is_drawn_struck_out_not_with_its_tildes(qapp):
    from PySide6.QtGui import QTextDocument

    html = render("It was ~~wrong~~ right, `~~kept~~` in code.\n\n~~~\nfenced\n~~~\n").html
    assert "<s>wrong</s>" in html and "~~wrong~~" not in html and "~~kept~~" in html
    doc = QTextDocument()
    doc.setHtml(html)
    assert doc.find("wrong").charFormat().fontStrikeOut() and not doc.find("right").charFormat().fontStrikeOut()
    assert "fenced" in doc.toPlainText()
    assert "~~ spaced ~~" in render("~~ spaced ~~").html  # as GitHub: no space inside the tildes


LONG_NUMBER = "&#" + "1" * 5000 + ";"  # past the 4,300 digits Python reads as a number


def test_a_reply_holding_a_character_number_too_long_to_read_is_shown() -> None:
    # html.unescape raised "ValueError: Exceeds the limit (4300 digits)" while a quote's or a right-to-left
    # paragraph's direction was found: the answer was not shown
    for text, word in ((f"> Quoted {LONG_NUMBER} words", "Quoted"), (f"السلام {LONG_NUMBER} عليكم", "عليكم"),
                       (f"| x |\n|---|\n| {LONG_NUMBER} end |", "end")):
        assert word in render(text).html
