"""The Sources line numbers each file as the model was told to cite it: "[1] guide.md" is the model's [1]."""

from __future__ import annotations

import html
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore, StoredMessage, StoredTool
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, tokens

SHOTS = Path("/tmp/kb44")
GUIDE = ("# Backup guide\n\n## Nightly backups\n\nThe backup server copies every laptop at two in the night and "
         "keeps each backup copy for thirty days.\n\n## Restoring a backup\n\nTo restore a backup copy, open the "
         "backup console, pick the night you want and press Restore.\n")
PETS = "Kittens sleep all day on the sofa and purr when they are content."
GARAGE = "The car engine needs new oil every ten thousand kilometres, the garage says."


def _knowledge(tmp_path):
    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text(GUIDE, encoding="utf-8")
    (docs / "pets.txt").write_text(PETS, encoding="utf-8")
    (docs / "garage.txt").write_text(GARAGE, encoding="utf-8")
    with open_store(data) as kb:
        Importer(kb).run([str(docs / name) for name in ("guide.md", "pets.txt", "garage.txt")])
    return data, docs


def _told(text: str) -> dict[str, list[int]]:
    """The numbers the model was given for each file, read from the text it was sent."""
    told: dict[str, list[int]] = {}
    for n, location in re.findall(r"^\[(\d+)\] [^\n]*\nSource: [^\n]*\(([^\n]*)\)$", text, re.M):
        numbers = told.setdefault(location.rsplit("/", 1)[-1], [])
        if int(n) not in numbers:
            numbers.append(int(n))
    return told


def _searched(make_window, server, qloop, data, query: str, reply: str, question: str):
    """A window on ``data`` asked ``question``: the model searches for ``query``, then answers ``reply``.
    The question starts with arithmetic, which routes to tools mode: nothing goes into the prompt, the
    numbers come from the tool. The window and its answer."""
    call = f'Let me look.\n<tool name="rag_knowledge"><query>{query}</query></tool>\n'
    server.queue(Stream(tokens(call)), Stream(tokens(reply)))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, f"What is 2 + 2, and {question}")) == "done"
    return win, win.view.answers()[-1]


def _shown(answer) -> list[str]:
    return [link.text() for link in answer.sources_row.links()]


def _reopened(make_window, qloop, win, server, data):
    chat_id = win.chat_id
    qloop.run(win.aclose())
    win.close()
    again = make_window(server.base_url, data_dir=data)
    again.open_chat(chat_id)
    return again.view.answers()[-1]


def test_the_sources_line_numbers_each_file_as_the_search_result_numbered_it(make_window, server, qloop, tmp_path):
    data, docs = _knowledge(tmp_path)
    win, answer = _searched(make_window, server, qloop, data, "backup copy restore kittens",
                            "Backups are kept thirty days and restored from the console [1]; kittens purr [2].",
                            "how do I restore a backup copy?")
    result = server.requests[-1]["messages"][-1]["content"]  # the result the model read
    told = _told(result)
    assert result.count("Source: Backup guide (") == 2
    # both passages of the guide were found; one number names the file, as the line shows it
    assert told == {"guide.md": [1], "pets.txt": [2]}
    assert _shown(answer) == ["[1] guide.md", "[2] pets.txt"]
    assert answer.sources_row.groups() == []
    assert answer.sources_row.links()[0].accessibleName() == "Open source guide.md, cited as 1"
    assert answer.to_markdown().endswith(f"Sources:\n\n- [1] {docs / 'guide.md'}\n- [2] {docs / 'pets.txt'}\n")

    stored = _reopened(make_window, qloop, win, server, data)
    assert _shown(stored) == ["[1] guide.md", "[2] pets.txt"]
    assert stored.to_markdown().endswith(f"- [1] {docs / 'guide.md'}\n- [2] {docs / 'pets.txt'}\n")


def test_two_searches_of_one_answer_number_on_so_each_number_is_one_file(make_window, server, qloop, tmp_path):
    # Each search numbered from 1: the model's "[1]" named pets.txt and garage.txt at once, and the Sources
    # line had to list the searches apart under their queries. The answer's searches now share its numbers.
    data, docs = _knowledge(tmp_path)
    calls = ('<tool name="rag_knowledge"><query>kittens purr</query></tool>\n'
             '<tool name="rag_knowledge"><query>car engine oil</query></tool>\n')
    server.queue(Stream(tokens(calls)), Stream(tokens("Kittens purr [1]. The car needs oil [2].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "What is 2 + 2, and what about kittens and oil?")) == "done"
    answer = win.view.answers()[-1]
    results = server.requests[-1]["messages"][-1]["content"]
    told = {}
    for part in results.split("<result ")[1:]:  # in the order the searches ended
        told.update(_told(part))
    assert sorted(told) == ["garage.txt", "pets.txt"] and sorted(told.values()) == [[1], [2]]
    assert answer.sources_row.groups() == []  # no number names two files: one line, no groups
    assert sorted(_shown(answer)) == sorted(f"[{n[0]}] {name}" for name, n in told.items())
    copied = answer.to_markdown()
    for name, n in told.items():
        assert f"- [{n[0]}] {docs / name}\n" in copied
    entries = answer.source_entries()
    stored = _reopened(make_window, qloop, win, server, data)
    assert stored.sources_row.groups() == [] and stored.source_entries() == entries


def test_the_routes_passages_keep_their_numbers_when_the_chat_is_reopened(make_window, server, qloop, tmp_path):
    data, docs = _knowledge(tmp_path)
    server.queue(Stream(tokens("Kittens purr when they are content [1].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "Why do kittens purr on the sofa?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.route["mode"] == "rag"
    prompt = server.requests[-1]["messages"][0]["content"]
    assert _told(prompt)["pets.txt"] == [1]
    assert _shown(answer) == ["[1] pets.txt"]
    [message] = [m for m in ChatStore(data).messages(win.chat_id) if m.role == "assistant"]
    assert message.route["sources"] == [str(docs / "pets.txt")] and message.route["numbers"] == [1]
    assert _shown(_reopened(make_window, qloop, win, server, data)) == ["[1] pets.txt"]


def test_answers_stored_with_one_number_per_passage_show_the_numbers_they_had(qtbot):
    # A search result stored before numbers named files: the guide's passages were [1] and [3].
    old = ("[1] Nightly backups\nSource: Backup guide (/docs/guide.md)\nKept thirty days.\n\n"
           "[2] Pets\nSource: Pets (/docs/pets.txt)\nKittens purr.\n\n"
           "[3] Restoring a backup\nSource: Backup guide (/docs/guide.md)\nPress Restore.")
    tool = StoredTool("t1", "rag_knowledge", "backup", "done", "query", "/docs/guide.md\n/docs/pets.txt", None,
                      old, len(old), 12, 0)
    route = {"mode": "rag", "reason": "kb", "hints": [], "sources": ["/docs/other.md"]}  # no numbers stored
    answer = AnswerWidget.from_stored(StoredMessage(1, "assistant", "Kept thirty days [1, 3].", tools=(tool,),
                                                    route=route))
    qtbot.addWidget(answer)
    assert _shown(answer) == ["[1, 3] guide.md", "[2] pets.txt", "other.md"]  # numbered first, in their order


def test_the_routes_numbers_and_a_searchs_that_clash_are_shown_apart(qtbot):
    from tinyrag_desktop.engine.events import Done, Route, ToolFinished

    # the prompt's [1] is pets.txt; the model's own search numbered garage.txt [1] too
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.on_route(Route("rag", "kb", (), ("/docs/pets.txt", "/docs/guide.md")))
    result = "[1] Garage\nSource: Garage (/docs/garage.txt)\nOil.\n\n[2] Pets\nSource: Pets (/docs/pets.txt)\nPurr."
    answer.tool_finished(ToolFinished("t1", "rag_knowledge", "oil", "/docs/garage.txt\n/docs/pets.txt", None,
                                      len(result), "ok", 5, result))
    assert _shown(answer) == ["[1] garage.txt", "[2] pets.txt"]  # the prompt's passages come once it is done
    answer.finish(Done(2, 1, 900, "…", ("/docs/pets.txt",)))  # guide.md was offered, not used
    assert answer.route["numbers"] == [1]
    assert answer.sources_row.groups() == ["Found for your question:", "Search “oil”:"]
    assert _shown(answer) == ["[1] pets.txt", "[1] garage.txt", "[2] pets.txt"]
    # numbers that agree need no groups: the line names each file once, with all its numbers
    agree = AnswerWidget()
    qtbot.addWidget(agree)
    agree.on_route(Route("rag", "kb", (), ("/docs/garage.txt",)))
    agree.tool_finished(ToolFinished("t1", "rag_knowledge", "oil", "/docs/garage.txt\n/docs/pets.txt", None,
                                     len(result), "ok", 5, result))
    agree.finish(Done(2, 1, 900, "…", ("/docs/garage.txt",)))
    assert agree.sources_row.groups() == [] and _shown(agree) == ["[1] garage.txt", "[2] pets.txt"]


def test_a_search_numbers_on_from_the_passages_in_the_prompt(make_window, server, qloop, tmp_path):
    # The prompt's passages were [1] (pets.txt), and the model's own search gave garage.txt [1] as well.
    data, docs = _knowledge(tmp_path)
    server.queue(Stream(tokens('<tool name="rag_knowledge"><query>car engine oil</query></tool>\n')),
                 Stream(tokens("Kittens purr when content [1]; the car needs oil [2].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "Why do kittens purr on the sofa?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.route["mode"] == "rag" and _told(server.requests[0]["messages"][0]["content"])["pets.txt"] == [1]
    result = server.requests[-1]["messages"][-1]["content"]
    assert _told(result)["garage.txt"] == [2]
    assert answer.sources_row.groups() == []
    assert "[1] pets.txt" in _shown(answer) and "[2] garage.txt" in _shown(answer)


def test_the_line_lists_files_in_the_order_of_their_numbers_whichever_search_ended_first(qtbot):
    # Two searches of one round number their files as they end: the second asked may give [1]. The line
    # showed "[2] pets.txt  [1] invoices.md", in the order the calls were written.
    from tinyrag_desktop.engine.events import ToolFinished

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    first = "[2] Pets\nSource: Pets (/docs/pets.txt)\nPurr."
    second = "[1] Invoices\nSource: Invoices (/docs/invoices.md)\nPaid."
    answer.tool_finished(ToolFinished("t1", "rag_knowledge", "pets", "/docs/pets.txt", None, len(first), "ok", 5,
                                      first))
    answer.tool_finished(ToolFinished("t2", "rag_knowledge", "invoices", "/docs/invoices.md", None, len(second),
                                      "ok", 5, second))
    assert _shown(answer) == ["[1] invoices.md", "[2] pets.txt"]


def test_numbers_cited_that_no_search_gave_are_said_under_the_answer_and_in_its_copies(make_window, server, qloop,
                                                                                       tmp_path):
    # The model cited [2] and [7] after a search that found one document: they read as plain text, as every
    # citation does, and the Sources line listed [1] alone, saying nothing of them.
    from tinyrag_desktop.chat_export import export_html, export_markdown
    from tinyrag_desktop.chats import ChatInfo

    data, docs = _knowledge(tmp_path)
    win, answer = _searched(make_window, server, qloop, data, "kittens sofa purr",
                            "Kittens purr on the sofa [1]. Cats nap [2]. See also [7]. In code, `argv[3]` is no "
                            "citation.", "what do kittens do on the sofa?")
    said = "No such sources in this answer's searches: [2], [7]"
    assert _shown(answer) == ["[1] pets.txt"]
    note = answer.sources_row.findChild(type(answer.sources_row._caption), "sourcesUnknown")
    assert note.isVisible() and note.text() == said
    assert said in answer.sources_row.accessibleDescription()
    assert answer.to_markdown().endswith(f"- [1] {docs / 'pets.txt'}\n\n{said}\n")
    if SHOTS.is_dir():
        answer.grab().save(str(SHOTS / "unknown_citations.png"))

    stored = _reopened(make_window, qloop, win, server, data)
    assert stored.to_markdown().endswith(f"\n\n{said}\n")
    store = ChatStore(data)
    try:
        messages = store.messages(stored.window().chat_id)
    finally:
        store.close()
    chat = ChatInfo(stored.window().chat_id, "Kittens", "", 0.0, 0.0)
    assert "No such sources in this answer's searches: \\[2\\], \\[7\\]" in export_markdown(chat, messages)
    assert f"{html.escape(said)}</div>" in export_html(chat, messages)


def test_only_the_numbers_no_source_has_are_said():
    from tinyrag_desktop.source_list import SourceEntry, unknown_citations

    entries = [SourceEntry("/docs/a.md", (1,)), SourceEntry("/docs/b.md", (2, 3))]
    assert unknown_citations("As said [1-3], and [1, 4]; `argv[9]` is code; see [12].", entries) == (4, 12)
    assert unknown_citations("All known [1][2].", entries) == ()
    assert unknown_citations("A page read, no numbers given [2].", [SourceEntry("https://example.org/")]) == ()


def test_an_index_or_a_zero_in_prose_is_no_citation():
    from tinyrag_desktop.source_list import SourceEntry, unknown_citations

    entries = [SourceEntry("/docs/guide.md", (1,))]
    assert unknown_citations("Per the guide [1], the first item is args[0].", entries) == ()
    assert unknown_citations("The grid grid_xy[2][3] holds it [1]; an index starts at [0].", entries) == ()
    assert unknown_citations("Returns are taken within 30 days[1], refunds in 5 days[5].", entries) == (5,)
    assert unknown_citations("Per the guide [1] and [5].", entries) == (5,)


_PROSE = st.lists(st.one_of(st.sampled_from(["[1]", "[2-4]", "[1, 3]", "[7]", "see", "`code`", "```", "and"]),
                            st.text(max_size=8)), max_size=8)


@given(words=_PROSE, name=st.from_regex(r"[A-Za-z][A-Za-z0-9]*(_|\.|[0-9]|[a-z][A-Z])[A-Za-z0-9_]*[A-Za-z0-9]",
                                        fullmatch=True),
       indexes=st.lists(st.from_regex(r"\[\d{1,2}(, ?\d{1,2})?\]", fullmatch=True), min_size=1, max_size=3),
       at=st.integers(0, 8))
def test_an_index_after_a_name_written_as_code_never_counts_as_a_citation(words, name, indexes, at):
    from tinyrag_desktop.source_list import citations

    before, after = words[:at], words[at:]
    assert citations(" ".join([*before, name + "".join(indexes), *after])) == citations(
        " ".join([*before, name, *after]))


@given(word=st.from_regex(r"[A-Za-z]?[a-z]{0,10}", fullmatch=True).filter(bool),
       cited=st.lists(st.from_regex(r"\[[1-9](, ?[1-9])?\]", fullmatch=True), min_size=1, max_size=3))
def test_a_citation_written_against_a_word_counts_as_one_after_a_space(word, cited):
    # "within 30 days[1]." cited nothing once indexes were told from citations: the Sources line then listed
    # what the answer's words matched, not what it cited.
    from tinyrag_desktop.source_list import citations

    assert citations(f"It is so {word}{''.join(cited)}.") == citations(f"It is so {word} {''.join(cited)}.")
