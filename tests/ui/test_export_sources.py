"""An exported chat lists each answer's Sources under it, as the window does: the answer's "[1]" names a file.
The export had the citation marks but no list, so they pointed nowhere. In HTML and in Markdown each file
is a link to it (a file:// address, quoted), which loads nothing until it is clicked."""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser

import markdown

from tests.sse_server import Stream
from tinyrag_desktop.chat_export import export_html, export_markdown
from tinyrag_desktop.chats import ChatInfo, StoredMessage, StoredTool
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, tokens

CHAT = ChatInfo("c", "Backups", "", 0.0, 0.0)
QUESTION = StoredMessage(1, "user", "How do I restore a backup?")


def _links(page: str) -> list[tuple[str, str]]:
    """Each link of an HTML page: its address (as a browser reads it) and its text."""
    found: list[tuple[str, str]] = []

    class Links(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "a":
                found.append((dict(attrs).get("href") or "", ""))

        def handle_data(self, data):
            if found and self.get_starttag_text().startswith("<a") and not found[-1][1]:
                found[-1] = (found[-1][0], data)

    Links().feed(page)
    return found


def _search(locations: list[str], numbers: list[int], query: str = "backup") -> StoredTool:
    result = "\n\n".join(f"[{n}] Part\nSource: Doc ({loc})\nWords." for loc, n in zip(locations, numbers))
    return StoredTool("t1", "rag_knowledge", query, "done", "query", "\n".join(locations), None, result,
                      len(result), 5, 0)


def test_an_exported_answer_ends_with_the_sources_its_numbers_cite(tmp_path):
    docs = tmp_path / "my docs"
    guide, pets = str(docs / "guide (v2) #1.md"), str(docs / "pets.txt")
    page = StoredTool("t2", "url_fetch", "https://example.org/a b", "done", "url", "https://example.org/a b",
                      None, "A page.", 7, 5, 0)
    answer = StoredMessage(2, "assistant", "Restore it from the console [1]; kittens purr [2].",
                           tools=(_search([guide, pets], [1, 2]), page))
    md = export_markdown(CHAT, [QUESTION, answer])
    guide_uri = (docs / "guide (v2) #1.md").as_uri()
    assert md.endswith("Sources:\n\n"
                       f"- [1] [{guide}]({guide_uri.replace('(', '%28').replace(')', '%29')})\n"
                       f"- [2] [{pets}]({(docs / 'pets.txt').as_uri()})\n"
                       "- [https://example.org/a b](https://example.org/a%20b)\n")
    viewed = markdown.markdown(md)  # as a Markdown viewer shows it: each a link to the file
    assert [href for href, _ in _links(viewed)] == [guide_uri, (docs / "pets.txt").as_uri(),
                                                    "https://example.org/a%20b"]
    html_links = _links(export_html(CHAT, [QUESTION, answer]))
    assert html_links == [(guide_uri, guide), ((docs / "pets.txt").as_uri(), pets),
                          ("https://example.org/a%20b", "https://example.org/a b")]
    assert "%23" in guide_uri and "%20" in guide_uri  # the "#" and spaces quoted: the whole name opens


def test_the_export_lists_what_the_window_lists_with_the_same_numbers(qtbot):
    from tinyrag_desktop.source_list import message_sources, sources_markdown  # one list for the three

    # Two searches that each numbered from 1: the window lists them apart, under their queries.
    first, second = _search(["/docs/pets.txt"], [1], "kittens"), _search(["/docs/garage.txt"], [1], "oil")
    second = StoredTool("t3", "rag_knowledge", "oil", "done", "query", second.source, None, second.result, 9, 5, 9)
    route = {"mode": "rag", "reason": "kb", "hints": [], "sources": ["/docs/guide.md"], "numbers": [1]}
    message = StoredMessage(2, "assistant", "Kittens purr [1]. The car needs oil [1].", route=route,
                            tools=(first, second))
    widget = AnswerWidget.from_stored(message)
    qtbot.addWidget(widget)
    entries, offered, unknown = message_sources(message)
    assert entries == widget.source_entries() and len(entries) == 3 and not offered and unknown == ()
    assert widget.sources_row.groups()  # shown apart: the case where a list of its own would differ
    copied = widget.to_markdown()
    block = sources_markdown(entries, offered)
    assert copied.endswith(block)
    md = export_markdown(CHAT, [QUESTION, message])
    # the same lines as the copy's, each location a link
    for line in block.splitlines():
        linked = re.sub(r"(/docs/\S+)", lambda m: f"[{m.group(1)}](file://{m.group(1)})", line)
        assert linked in md.splitlines(), linked
    page = export_html(CHAT, [QUESTION, message])
    for entry in entries:
        assert f'{"[1] " if entry.numbers else ""}<a href="file://{entry.location}">{entry.location}</a>' in page
    assert "Search “kittens”:" in page and "Search “oil”:" in page


def test_a_stopped_answer_says_its_passages_were_given_to_the_model_as_the_window_does(qtbot):
    route = {"mode": "rag", "reason": "kb", "hints": [], "sources": ["/docs/guide.md", "/docs/pets.txt"],
             "numbers": [1, 2]}
    message = StoredMessage(2, "assistant", "Restore", route=route, status="stopped",
                            stats={"outcome": "stopped"})
    widget = AnswerWidget.from_stored(message)
    qtbot.addWidget(widget)
    assert widget.to_markdown().endswith("Given to the model:\n\n- [1] /docs/guide.md\n- [2] /docs/pets.txt\n")
    md = export_markdown(CHAT, [QUESTION, message])
    assert md.endswith("*[Answer stopped]*\n\nGiven to the model:\n\n"
                       "- [1] [/docs/guide.md](file:///docs/guide.md)\n- [2] [/docs/pets.txt](file:///docs/pets.txt)\n")
    assert '<div class="who">Given to the model</div>' in export_html(CHAT, [QUESTION, message])


def test_an_answer_without_sources_has_no_list():
    answer = StoredMessage(2, "assistant", "Four.", tools=(StoredTool("t1", "calculate", "2+2", "done",
                                                                      source="calculator", result="4"),))
    assert "Sources" not in export_markdown(CHAT, [QUESTION, answer])
    assert 'class="sources"' not in export_html(CHAT, [QUESTION, answer])


def test_a_hostile_location_stays_inert_text_in_both_files():
    # A knowledge base holds whatever was imported: a name with Markdown or HTML in it, or an address with a
    # script scheme, is shown as written and opens nothing but the file.
    odd = '/docs/![x](http://attacker.example/x.png) <img src=x> "q" & ~~s~~.md'
    bad = "javascript:alert(1)"
    route = {"mode": "rag", "reason": "kb", "hints": [], "sources": [odd, bad, "notes/relative.md"],
             "numbers": [1, 2, 3]}
    message = StoredMessage(2, "assistant", "See [1].", route=route)
    viewed = markdown.markdown(export_markdown(CHAT, [QUESTION, message]))
    page = export_html(CHAT, [QUESTION, message])
    for shown in (viewed, page):  # (a "//" in a path is one "/")
        assert "<img" not in shown and "<del" not in shown and "<s>" not in shown
        links = _links(shown)
        assert [href for href, _ in links] == ["file:///docs/%21%5Bx%5D%28http%3A/attacker.example/x.png%29%20"
                                               "%3Cimg%20src%3Dx%3E%20%22q%22%20%26%20~~s~~.md"]
        assert links[0][1].startswith("/docs/![x](http://attacker.example/x.png) ")
        assert "javascript" not in "".join(href for href, _ in links)
        assert "[2] javascript:alert(1)" in shown and "[3] notes/relative.md" in shown  # as text


def test_a_chat_exported_from_the_window_lists_the_files_its_sources_line_shows(make_window, server, qloop,
                                                                                 tmp_path):
    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Backups\n\nTo restore a backup copy, open the backup console.\n",
                                   encoding="utf-8")
    with open_store(data) as kb:
        Importer(kb).run([str(docs / "guide.md")])
    call = 'Let me look.\n<tool name="rag_knowledge"><query>restore backup copy</query></tool>\n'
    server.queue(Stream(tokens(call)), Stream(tokens("Open the backup console [1].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "What is 2 + 2, and how do I restore a backup copy?")) == "done"
    shown = [link.text() for link in win.view.answers()[-1].sources_row.links()]
    assert shown == ["[1] guide.md"]
    md = qloop.run(win.export_chat(tmp_path / "chat.md", "md")).read_text(encoding="utf-8")
    page = qloop.run(win.export_chat(tmp_path / "chat.html", "html")).read_text(encoding="utf-8")
    uri = (docs / "guide.md").as_uri()
    assert md.endswith(f"Open the backup console [1].\n\nSources:\n\n- [1] [{docs / 'guide.md'}]({uri})\n")
    assert _links(page) == [(uri, str(docs / "guide.md"))]


def test_a_search_caption_with_markdown_or_html_in_the_models_words_stays_text_in_the_markdown_export():
    # Two searches that both cite [1] are listed under their queries: the model's words, unescaped there,
    # made an image that loads from the internet when the .md is viewed.
    first = _search(["/a.md"], [1], "<img src=//ev.il/x.png>")
    second = _search(["/b.md"], [1], "![](http://ev.il/p)")
    second = dataclasses.replace(second, call_id="t2")
    message = StoredMessage(2, "assistant", "See [1].", tools=(first, second))
    exported = export_markdown(CHAT, [QUESTION, message])
    viewed = markdown.markdown(exported)
    assert "<img" not in viewed and "ev.il" not in "".join(href for href, _ in _links(viewed))
    assert "Search “&lt;img src=//ev.il/x.png&gt;”:" in viewed and "Search “![](http://ev.il/p)”:" in viewed


def test_an_answer_stopped_in_a_code_block_does_not_make_the_rest_of_the_markdown_export_code():
    result = "[1] Part\nSource: Doc (/docs/guide.md)\nWords."
    search = StoredTool("t1", "rag_knowledge", "q", "done", "query", "/docs/guide.md", None, result, len(result), 5, 0)
    stopped = StoredMessage(2, "assistant", "See [1]:\n\n```python\nprint('x')\n", tools=(search,),
                            status="stopped", stats={"outcome": "stopped"})
    later = StoredMessage(3, "user", "And the next question?")
    viewed = markdown.markdown(export_markdown(CHAT, [QUESTION, stopped, later]), extensions=["fenced_code"])
    assert "print(&#x27;x&#x27;)" in viewed or "print('x')" in viewed
    code = viewed[viewed.index("<pre>"):viewed.index("</pre>")]
    assert "Answer stopped" not in code and "And the next question?" not in code  # were all code
    assert "<em>[Answer stopped]</em>" in viewed and "<h2>You</h2>" in viewed.split("</pre>", 1)[1]
    assert _links(viewed) == [("file:///docs/guide.md", "/docs/guide.md")]
