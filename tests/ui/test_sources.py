"""The "Sources" line under an answer: which files and pages it used, each a link that opens it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from PySide6.QtGui import QDesktopServices

from tests.sse_server import Status, Stream
from tests.url_handler import OpenedUrls
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.engine.events import Done, Route, ToolFinished
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.sources import (
    source_kind, source_label, source_url, split_sources, unique_labels, wikipedia_article,
)

from .conftest import ask_and_wait, tokens, wait_signal, wait_until

PETS = "Kittens sleep all day on the sofa and purr when they are content."
GARAGE = "The car engine needs new oil every ten thousand kilometres, the garage says."


def _knowledge(tmp_path):
    """A data folder whose knowledge base holds two small text files."""
    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    (docs / "pets.txt").write_text(PETS, encoding="utf-8")
    (docs / "garage.txt").write_text(GARAGE, encoding="utf-8")
    kb = open_store(data)
    report = Importer(kb).run([str(docs / "pets.txt"), str(docs / "garage.txt")])
    kb.close()
    assert len(report.added) == 2
    return data, docs



RAG_CALL = 'Let me look in your notes.\n<tool name="rag_knowledge"><query>kittens car engine oil</query></tool>\n'


def test_a_rag_result_with_two_sources_shows_two_links_that_come_back_with_the_chat(
        make_window, server, qloop, qtbot, tmp_path):
    data, docs = _knowledge(tmp_path)
    server.queue(Stream(tokens(RAG_CALL)), Stream(tokens("Kittens purr [1]; the car needs oil [2].")))
    win = make_window(server.base_url, data_dir=data)
    # arithmetic routes to tools mode: no passages go into the prompt, so the links come from the tool
    assert qloop.run(ask_and_wait(win, "What is 2 + 2, and what do my notes say about kittens and oil?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.route["mode"] == "tools" and not answer.route.get("sources")
    [card] = answer.cards()
    assert card.status == "done" and "[1]" in card.details_text() and "[2]" in card.details_text()
    links = answer.sources_row.links()
    assert sorted(link.label() for link in links) == ["garage.txt", "pets.txt"]
    assert sorted(link.toolTip() for link in links) == sorted([str(docs / "pets.txt"), str(docs / "garage.txt")])
    assert answer.sources_row.isVisible() and all(link.isVisible() and link.isEnabled() for link in links)
    assert all(link.accessibleName().startswith("Open source ") for link in links)
    assert all(link.focusPolicy() & Qt.FocusPolicy.TabFocus for link in links)

    opened = OpenedUrls()
    QDesktopServices.setUrlHandler("file", opened, "open")
    try:
        qtbot.mouseClick(links[0], Qt.MouseButton.LeftButton)
        links[1].setFocus()
        qtbot.keyClick(links[1], Qt.Key.Key_Space)  # keyboard: a focused link opens with Space
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert [u.toLocalFile() for u in opened.urls] == [links[0].location, links[1].location]
    # a file deleted since it was imported: nothing opens, the status bar says why
    Path(links[0].location).unlink()
    QDesktopServices.setUrlHandler("file", opened, "open")
    try:
        qtbot.mouseClick(links[0], Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert len(opened.urls) == 2
    # said by the file's name: a whole path cut the line short before it said what was wrong
    assert win.statusBar().currentMessage() == (f"“{Path(links[0].location).name}” is not there any more: it was "
                                                "moved or deleted since it was imported.")

    # reopening the chat in a new window rebuilds the links from the stored tool result
    chat_id = win.chat_id
    qloop.run(win.aclose())
    win.close()
    again = make_window(server.base_url, data_dir=data)
    again.open_chat(chat_id)
    [stored] = again.view.answers()
    assert [link.label() for link in stored.sources_row.links()] == [link.label() for link in links]
    assert not stored.sources_row.isHidden()


def test_rag_route_sources_are_shown_and_stored_with_the_route(make_window, server, qloop, tmp_path):
    data, docs = _knowledge(tmp_path)
    server.queue(Stream(tokens("Your kittens purr when they are content.")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "Why do kittens purr?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.route["mode"] == "rag"
    assert str(docs / "pets.txt") in answer.sources()
    assert answer.route["sources"] == answer.sources()
    [stored] = [m for m in ChatStore(data).messages(win.chat_id) if m.role == "assistant"]
    assert stored.route["sources"] == answer.sources()
    win.new_chat()
    win.open_chat(stored_chat := win.sidebar.ids()[0])
    assert win.chat_id == stored_chat
    assert win.view.answers()[-1].sources() == answer.sources()


def test_passages_offered_but_not_used_are_not_shown_as_sources(make_window, server, qloop, tmp_path):
    data, _docs = _knowledge(tmp_path)
    server.queue(Stream(tokens("Nobody knows for sure; vets think it soothes them.")))
    win = make_window(server.base_url, data_dir=data)
    offered = []
    win.bridge.routed.connect(lambda ev: offered.extend(ev.sources))
    assert qloop.run(ask_and_wait(win, "Why do kittens purr?")) == "done"
    answer = win.view.answers()[-1]
    assert [Path(s).name for s in offered] == ["pets.txt"]  # the passage went into the prompt
    assert answer.sources() == [] and answer.sources_row.isHidden()
    assert answer.route["mode"] == "rag" and answer.route["sources"] == []
    [stored] = [m for m in ChatStore(data).messages(win.chat_id) if m.role == "assistant"]
    assert stored.route["sources"] == []


def test_a_stopped_answer_lists_what_it_was_given_under_its_own_caption(make_window, server, qloop, tmp_path):
    # every passage put into the prompt, unfiltered: captioned "Sources", they read as the answer's own
    data, docs = _knowledge(tmp_path)
    server.queue(Stream(tokens("Kittens purr for many reasons, some of them still unknown."), delay=0.3))
    win = make_window(server.base_url, data_dir=data)
    finished = wait_signal(win.answerFinished, timeout=15)
    win.ask("Why do kittens purr?")

    async def stop_when_it_writes():
        await wait_until(lambda: win.view.answers()[-1].content().startswith("Kittens"))
        win.stop()
        return await finished

    assert qloop.run(stop_when_it_writes()) == "stopped"
    answer = win.view.answers()[-1]
    assert str(docs / "pets.txt") in answer.sources()
    caption = answer.sources_row.findChild(QLabel, "sourcesCaption")
    assert caption.text() == "Given to the model"
    assert answer.sources_row.accessibleName() == "Sources given to the model"
    win.new_chat()
    win.open_chat(win.sidebar.ids()[0])  # so when it is opened again
    qloop.run(wait_until(lambda: not win.loading))
    reopened = win.view.answers()[-1].sources_row
    assert reopened.findChild(QLabel, "sourcesCaption").text() == "Given to the model"
    server.queue(Stream(tokens("Your kittens purr when they are content.")))
    assert qloop.run(ask_and_wait(win, "Why do kittens purr?")) == "done"
    done = win.view.answers()[-1].sources_row
    assert done.findChild(QLabel, "sourcesCaption").text() == "Sources"


@pytest.mark.parametrize("refusal", [Status(404, {"error": {"message": "model 'qwen' not found"}}), Status(500)])
def test_a_question_the_server_refused_lists_no_passages_as_given(make_window, server, qloop, tmp_path, refusal):
    # A wrong model (404) or a server error before any word: "Given to the model [1]…" though no model read them.
    data, docs = _knowledge(tmp_path)
    server.queue(refusal)
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "Why do kittens purr?")) == "error"
    answer = win.view.answers()[-1]
    assert answer.sources() == [] and answer.sources_row.isHidden()
    # A stream that breaks halfway was read by the model: all it was given is listed, so captioned.
    server.queue(Stream(tokens("Kittens purr for many reasons, some of them"), cut_after=3))
    assert qloop.run(ask_and_wait(win, "Why do kittens purr?")) == "error"
    broken = win.view.answers()[-1]
    assert str(docs / "pets.txt") in broken.sources()
    assert broken.sources_row.findChild(QLabel, "sourcesCaption").text() == "Given to the model"


def test_answers_stored_before_sources_existed_still_open(qapp, tmp_path):
    store = ChatStore(tmp_path)
    chat = store.new_chat()
    message = store.add_assistant_message(chat.id, "Old answer.", route={"mode": "direct", "reason": "old",
                                                                          "hints": []})
    store.close()
    answer = AnswerWidget.from_stored(message)
    assert answer.sources() == [] and answer.sources_row.isHidden()
    answer.deleteLater()


def _finished(tool, source, status="ok", n="1"):
    return ToolFinished(n, tool, "q", source, None if status == "ok" else "failed", 10, status, 5)


def test_only_reading_tools_that_succeeded_add_sources_once_each(qapp):
    answer = AnswerWidget()
    answer.on_route(Route("rag", "kb", ("rag_knowledge",), ("/notes/a.md", "/notes/b.md")))
    answer.tool_finished(_finished("url_fetch", "https://www.example.org/docs/page", n="1"))
    answer.tool_finished(_finished("wikipedia", "https://en.wikipedia.org/wiki/Gopher", n="2"))
    answer.tool_finished(_finished("rag_knowledge", "/notes/b.md\n/other/a.md", n="3"))
    answer.tool_finished(_finished("calculate", "calculator", n="4"))
    answer.tool_finished(_finished("url_fetch", "https://failed.example", status="error", n="5"))
    answer.tool_finished(_finished("websearch", "https://duckduckgo.com", n="6"))
    answer.finish(Done(2, 5, 900, "…", ("/notes/a.md", "/notes/b.md")))  # both offered passages were used
    # the route's sources go first (they were in the prompt before any tool ran), with the numbers the prompt
    # gave them; b.md, which the knowledge-base tool found again, is listed once, in its first place
    assert answer.sources() == ["/notes/a.md", "/notes/b.md", "https://www.example.org/docs/page",
                                "https://en.wikipedia.org/wiki/Gopher", "/other/a.md"]
    labels = [link.label() for link in answer.sources_row.links()]
    assert labels == ["notes/a.md", "b.md", "example.org/docs/page", "en.wikipedia.org/wiki/Gopher", "other/a.md"]
    assert answer.to_markdown().endswith("Sources:\n\n- [1] /notes/a.md\n- [2] /notes/b.md\n"
                                         "- https://www.example.org/docs/page\n"
                                         "- https://en.wikipedia.org/wiki/Gopher\n- /other/a.md\n")
    answer.deleteLater()


def test_locations_that_must_not_open_are_shown_disabled(qapp):
    answer = AnswerWidget()
    answer.tool_finished(_finished("rag_knowledge", "javascript:alert(1)\nsmb://server/share\n/ok.txt"))
    links = answer.sources_row.links()
    assert [link.isEnabled() for link in links] == [False, False, True]
    assert "cannot be opened" in links[0].toolTip()
    answer.deleteLater()


def test_kinds_labels_and_urls():
    assert source_kind("/home/me/notes.md") == "file" and source_kind("C:\\docs\\a.pdf") == "file"
    assert source_kind("https://example.org/a") == "url" and source_kind("file:///tmp/x.txt") == "url"
    assert source_kind("javascript:alert(1)") is None and source_kind("https://") is None
    assert source_label("C:\\docs\\report.pdf") == "report.pdf"
    assert source_label("https://www.example.org/a%20b/") == "example.org/a b"
    assert source_url("/tmp/x y.txt").toLocalFile() == "/tmp/x y.txt"
    assert source_url("wikipedia:en:Go (programming language)").toString() == \
        "https://en.wikipedia.org/wiki/Go_(programming_language)"
    assert source_url("ftp://example.org/file") is None
    assert split_sources("a\n\n  b \n") == ["a", "b"]
    assert unique_labels(["/x/README.md", "/y/README.md"]) == ["x/README.md", "y/README.md"]


@pytest.mark.parametrize(("location", "label"), [
    # a non-default port is part of where the page is: it was dropped ("127.0.0.1/article")
    ("http://127.0.0.1:42035/article", "127.0.0.1:42035/article"),
    ("https://www.example.org:8443/docs/", "example.org:8443/docs"),
    ("http://[::1]:8080/x", "[::1]:8080/x"),
    ("http://user:secret@Example.org:81/", "example.org:81"),  # never the password
    # the scheme's own port says nothing more
    ("http://example.org:80/a", "example.org/a"),
    ("https://example.org:443", "example.org"),
])
def test_a_url_label_keeps_a_port_that_is_not_the_default(location, label):
    assert source_label(location) == label


_PREFIXES = st.sampled_from(["", "/", "~", "~/", "C:\\", "\\\\", "http://", "https://www.", "file://",
                             "javascript:", "wikipedia:en:", "data:", "HTTPS://"])


@given(st.builds(lambda p, t: p + t, _PREFIXES, st.text(max_size=200)))
def test_any_location_gets_a_short_label_and_only_safe_urls(location):
    label = source_label(location)
    assert isinstance(label, str) and 0 < len(label) <= 48
    url = source_url(location)
    assert url is None or url.scheme().lower() in ("http", "https", "file")


def test_the_sources_line_wraps_to_the_answer_width(qapp, qtbot):
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.on_route(Route("rag", "kb", (), tuple(f"/docs/part-{i}/notes-on-topic-{i}.md" for i in range(10))))
    answer.fail("The stream broke.")  # a failed answer shows every source that was offered
    answer.resize(1200, 400)
    answer.show()
    qtbot.waitUntil(lambda: answer.sources_row.width() > 1000)
    wide = answer.sources_row.height()
    answer.resize(320, 400)
    qtbot.waitUntil(lambda: answer.sources_row.width() < 330)
    narrow = answer.sources_row.height()
    assert narrow >= 2 * wide  # two lines at 1,200 px, five at 320 px
    row = answer.sources_row
    assert all(row.rect().contains(link.geometry()) for link in row.links())  # none cut off or outside


@pytest.mark.parametrize(("location", "article"), [
    ("wikipedia:en:Alan Turing", ("en", "Alan Turing")),
    ("https://de.wikipedia.org/wiki/Donau_(Fluss)", ("de", "Donau (Fluss)")),
    ("https://de.m.wikipedia.org/wiki/C%2B%2B", ("de", "C++")),  # the mobile site, a title written escaped
    ("https://www.wikipedia.org/wiki/Tide", ("", "Tide")),  # no edition named: the settings' language
    ("https://en.wikipedia.org/w/index.php?title=Tide", None),  # no article address: re-imported as a page
    ("https://example.org/wiki/Tide", None),
    ("/home/ann/wiki/Tide.md", None),
    ("http://[::1/wiki/Tide", None),  # an address urlsplit refuses
])
def test_a_wikipedia_article_is_known_by_its_title_or_its_address(location, article):
    assert wikipedia_article(location) == article


def test_a_source_that_moved_is_no_longer_said_once_another_chat_is_shown(make_window, server, qloop, qtbot,
                                                                          tmp_path):
    # It stayed its 8 s over the next chat, new or opened, as if said of it.
    data, docs = _knowledge(tmp_path)
    store = ChatStore(data)
    other = store.new_chat(title="Another chat").id
    store.add_user_message(other, "Another question")
    store.close()
    server.queue(Stream(tokens(RAG_CALL)), Stream(tokens("Kittens purr [1]; the car needs oil [2].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "What is 2 + 2, and what do my notes say about kittens and oil?")) == "done"
    chat = win.chat_id
    link = win.view.answers()[-1].sources_row.links()[0]
    Path(link.location).unlink()
    moved = f"“{Path(link.location).name}” is not there any more: it was moved or deleted since it was imported."
    for leave in (win.new_chat, lambda: win.open_chat(other)):
        win.open_chat(chat)
        qloop.run(wait_until(lambda: win.chat_id == chat and not win.loading and win.view.answers()))
        link = win.view.answers()[-1].sources_row.links()[0]
        qtbot.mouseClick(link, Qt.MouseButton.LeftButton)
        assert win.statusBar().currentMessage() == moved
        leave()
        assert win.statusBar().currentMessage() == ""
    win.statusBar().showMessage("Copied to the clipboard", 3000)  # what is not about the chat stays
    win.new_chat()
    assert win.statusBar().currentMessage() == "Copied to the clipboard"
