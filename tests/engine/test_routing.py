"""The router's decisions, and the rag route putting knowledge-base passages into the prompt."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from hypothesis import given, settings as examples, strategies as st

from tests.engine.conftest import collect
from tests.sse_server import Stream
from tinyrag_desktop.engine.events import Route, Text
from tinyrag_desktop.engine.router import _sum_alone, route
from tinyrag_desktop.tools import default_registry

ALL = {"rag_knowledge", "calculate", "url_fetch", "websearch", "wikipedia", "nanogo"}


@pytest.mark.parametrize(
    "question, mode, hint",
    [
        ("What is 3 * (17 + 5) / 2?", "tools", "calculate"),
        ("calculate 15% of 80", "tools", "calculate"),
        ("Summarise https://example.org/post please", "tools", "url_fetch"),
        ("Run this: ```go\nfmt.Println(1)\n```", "tools", "nanogo"),
        ("Who was Ada Lovelace?", "tools", "wikipedia"),
        ("What's the latest news on Python?", "tools", "websearch"),
        ("Write me a haiku about autumn", "direct", None),
    ],
)
def test_heuristics(question: str, mode: str, hint: str | None) -> None:
    decision = route(question, ALL, has_kb=False)
    assert decision.mode == mode and decision.reason
    if hint:
        assert hint in decision.hints


def test_disabled_tools_are_never_hinted() -> None:
    assert route("Who was Ada Lovelace?", ALL - {"wikipedia"}, has_kb=False).mode == "direct"
    assert route("Where are chats kept?", ALL, has_kb=True).mode == "rag"


def _handbook(data_dir: Path) -> Path:
    """A knowledge base in ``data_dir`` holding one handbook page about vacation days; the page's path."""
    from tinyrag_desktop.kb import Importer, open_store

    doc = data_dir / "handbook.md"
    doc.write_text("# Handbook\n\n## Vacation\n\nEvery employee gets 27 vacation days per year.\n")
    kb = open_store(data_dir)
    Importer(kb).run([str(doc)])
    kb.close()
    return doc


async def test_rag_route_puts_passages_in_the_prompt(llm, settings, http, tmp_path: Path) -> None:
    from tinyrag_desktop.engine import Engine

    doc = _handbook(tmp_path)
    llm.queue(Stream(["You get 27 days [1]."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "How many vacation days do I get?")
    assert isinstance(events[0], Route) and events[0].mode == "rag"
    assert events[0].sources == (str(doc.resolve()),)
    system = llm.requests[0]["messages"][0]["content"]
    assert "27 vacation days" in system and "handbook" in system.lower()
    assert "".join(e.text for e in events if isinstance(e, Text)) == "You get 27 days [1]."


def _notes(tmp_path: Path) -> dict[str, str]:
    """A knowledge base of three notes; their locations by name."""
    from tinyrag_desktop.kb import Importer, open_store

    notes = {
        "vacation": "# Vacation\n\nEvery employee gets 27 vacation days per year, booked in the HR portal.\n",
        "parking": "# Parking\n\nEmployees park in garage B; the badge opens the barrier. Days with no space "
                   "are rare.\n",
        "names": "# Naming\n\nName a project after what it does; a good name is short.\n",
    }
    for name, text in notes.items():
        (tmp_path / f"{name}.md").write_text(text)
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / f"{name}.md") for name in notes])
    return {name: str((tmp_path / f"{name}.md").resolve()) for name in notes}


@pytest.mark.parametrize("question, answer, used", [
    # cited: exactly the passages cited, by the numbers the prompt gave them
    ("How many vacation days do employees get?", "You get 27 days [1].", ["vacation"]),
    # uncited: the passages whose words the answer repeats beyond the question's own
    ("How many vacation days do employees get?", "Twenty-seven, booked in the HR portal.", ["vacation"]),
    # offered but not drawn on: the question's words matched, the answer took nothing from them
    ("What is a good name for my cat?", "Luna, Milo or Oliver are popular with cat owners.", []),
])
async def test_done_names_the_offered_sources_the_answer_drew_on(llm, settings, http, tmp_path: Path,
                                                                 question, answer, used) -> None:
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.engine.events import Done

    notes = _notes(tmp_path)
    llm.queue(Stream([answer]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, question)
    assert isinstance(events[0], Route) and events[0].mode == "rag" and events[0].sources
    done = events[-1]
    assert isinstance(done, Done) and done.sources == tuple(notes[name] for name in used)
    assert set(done.sources) <= set(events[0].sources)
    assert done.to_json()["sources"] == [notes[name] for name in used]


async def test_a_tool_blocks_words_do_not_make_a_passage_used(llm, settings, http, tmp_path: Path) -> None:
    # the note says "calculate", as the block's tag does: only the words the user reads count
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.engine.events import Done
    from tinyrag_desktop.kb import Importer, open_store

    (tmp_path / "leave.md").write_text("# Leave\n\nCalculate your vacation days from your contract.\n")
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / "leave.md")])
    llm.queue(Stream(['<tool name="calculate"><query>27 / 12</query></tool>']), Stream(["About 2.25."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "How are vacation days worked out from a contract?")
    assert events[0].sources and isinstance(events[-1], Done) and events[-1].tools_run == 1
    assert 'name="calculate"' in events[-1].transcript and events[-1].sources == ()


async def test_words_a_tool_returned_do_not_make_a_passage_used(llm, settings, http, tmp_path: Path) -> None:
    # "The program printed three lines" after a nanoGo run listed the tools guide, whose words those are:
    # what the answer took from a tool's result is no sign it drew on the prompt's passages
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.engine.events import Done
    from tinyrag_desktop.kb import Importer, open_store

    (tmp_path / "fees.md").write_text("# Parking\n\nThe parking fee at garage B is 12 euros a day.\n")
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / "fees.md")])
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    question = "How much is the daily parking fee at garage B?"
    llm.queue(Stream(["That comes to 12."]))  # no tool: the figure is the passage's
    events = await collect(engine, question)
    assert events[0].sources and events[-1].sources == events[0].sources
    llm.queue(Stream(['<tool name="calculate"><query>3 * 4</query></tool>']), Stream(["That comes to 12."]))
    events = await collect(engine, question)
    assert events[0].sources and isinstance(events[-1], Done) and events[-1].tools_run == 1
    assert events[-1].sources == ()


async def test_rag_route_does_not_bring_passages_for_a_word_the_documents_never_use(llm, settings, http,
                                                                                    tmp_path: Path) -> None:
    # "cats" is in no passage; its neighbour "cast" is. Put in the prompt unasked, a passage about casting
    # would be noise: "cats" is an English word, so it is no typo and is searched as it is.
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.kb import Importer, open_store, search

    doc = tmp_path / "theatre.md"
    doc.write_text("# Theatre\n\n## Auditions\n\nWe cast the spring play in March.\n")
    kb = open_store(tmp_path)
    Importer(kb).run([str(doc)])
    kb.close()
    assert search(tmp_path, "cats", 3).corrected == {}
    llm.queue(Stream(["Cats sleep a lot."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "Why do cats sleep so much?")
    assert isinstance(events[0], Route) and events[0].mode == "direct" and events[0].sources == ()
    assert "auditions" not in llm.requests[0]["messages"][0]["content"].lower()


async def test_rag_route_corrects_a_typo_in_the_question(llm, settings, http, tmp_path: Path) -> None:
    # "auditons" is no word: it is searched as "auditions", and the passage goes into the prompt.
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.kb import Importer, open_store

    for name, text in (("theatre.md", "# Theatre\n\n## Auditions\n\nAuditions for the spring play are held "
                                      "in March, in the small hall.\n"),
                       ("garden.md", "# Garden\n\nThe spring planting starts in April.\n")):
        (tmp_path / name).write_text(text)
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / "theatre.md"), str(tmp_path / "garden.md")])
    llm.queue(Stream(["In March."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "When are the auditons for the spring play?")
    assert isinstance(events[0], Route) and events[0].mode == "rag"
    assert str(tmp_path / "theatre.md") in events[0].sources
    assert "small hall" in llm.requests[0]["messages"][0]["content"]


async def test_without_the_word_list_the_rag_route_corrects_nothing(llm, settings, http, tmp_path: Path,
                                                                     monkeypatch) -> None:
    # An install that lacks pyspellchecker cannot tell a typo from a real word: the prompt's passages come
    # from the question's words as typed, while the model's own searches still correct every absent word.
    import sys

    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.kb import Importer, open_store, search, words

    monkeypatch.setitem(sys.modules, "spellchecker", None)  # import fails as if it were not installed
    monkeypatch.setattr(words, "_words", None)
    monkeypatch.setattr(words, "_failed", False)
    doc = tmp_path / "theatre.md"
    doc.write_text("# Theatre\n\n## Auditions\n\nWe cast the spring play in March.\n")
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(doc)])
    assert not words.available()
    assert search(tmp_path, "cats", 3).corrected == {"cats": "cast"}
    llm.queue(Stream(["Cats sleep a lot."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "Why do cats sleep so much?")
    assert isinstance(events[0], Route) and events[0].mode == "direct" and events[0].sources == ()


async def test_rag_route_searches_with_the_question_vector_when_an_embedding_model_is_set(
        llm, settings, http, tmp_path: Path) -> None:
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.kb import Importer, open_store
    from tinyrag_desktop.kb.embed import Embedder

    settings = settings.replace(embed_model="toy-embed")  # served by the same loopback server, as Ollama does
    pets, road = tmp_path / "pets.md", tmp_path / "road.md"
    pets.write_text("# Pets\n\nOur kitten sleeps all day on the sofa.\n")
    road.write_text("# Road\n\nThe car needs a new engine soon.\n")
    kb = open_store(tmp_path)
    embedder = Embedder(settings)
    Importer(kb, settings=settings, embedder=embedder).run([str(pets), str(road)])
    embedder.close()
    kb.close()
    llm.queue(Stream(["It sleeps [1]."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "What do my notes say about the feline?")  # no document says "feline"
    assert isinstance(events[0], Route) and events[0].mode == "rag"
    assert events[0].sources[0] == str(pets.resolve())
    assert llm.embedding_requests[-1]["input"] == ["What do my notes say about the feline?"]
    assert "kitten sleeps" in llm.requests[0]["messages"][0]["content"]


async def test_invalid_blocks_are_logged(llm, make_engine, caplog) -> None:
    llm.queue(Stream(['<tool name=""><query>x</query></tool>']))
    with caplog.at_level(logging.WARNING, logger="tinyrag_desktop.engine.engine"):
        await collect(make_engine())
    assert any("invalid tool block" in r.message for r in caplog.records)


@pytest.mark.parametrize(
    "question, hint",
    [
        ("If I buy 3 books at 12.50 each, how much do I pay in total?", "calculate"),
        ("What is the average of 4, 8 and 15?", "calculate"),
        ("Who wrote War and Peace?", "wikipedia"),
        ("What is the capital of Canada?", "wikipedia"),
        ("When was the Eiffel Tower built?", "wikipedia"),
    ],
)
def test_spoken_arithmetic_and_encyclopedia_questions(question: str, hint: str) -> None:
    assert route(question, ALL, has_kb=True).hints[0] == hint


def test_document_questions_stay_on_the_knowledge_base() -> None:
    for q in ("What do my notes say about backups?", "How do I import a folder?", "Where are settings stored?"):
        assert route(q, ALL, has_kb=True).mode == "rag"


@pytest.mark.parametrize("question", [
    "Write a haiku about autumn", "write me a short funny poem about cats", "Can you tell me a joke?",
    "Please translate 'good morning' into Spanish", "Rewrite this more politely: send it now.",
    "Proofread: their going to the park", "Hello!", "hi there", "Thanks a lot!", "How are you?",
    "Could you write a birthday message for my sister?", "Write a very long story about a cat named Tom",
    "Tell me a bedtime story", "write me a short, sad, rhyming poem",
])
def test_small_talk_and_writing_requests_get_no_passages(question: str) -> None:
    decision = route(question, ALL, has_kb=True)
    assert decision.mode == "direct" and "writing" in decision.reason


@pytest.mark.parametrize("question", [
    "Write a summary of my notes on backups", "Translate the knowledge base article on vacations into French",
    "Tell me a story from these documents", "How do I write a backup script?", "Hello, how do I import a PDF?",
    "What is a haiku?", "Who can translate the manual?", "Write a SQL query that lists every table",
    "Write a long report on our sales from my notes",
])
def test_requests_about_the_users_documents_keep_their_passages(question: str) -> None:
    assert route(question, ALL, has_kb=True).mode == "rag"


async def test_a_failed_answer_s_done_names_every_offered_source(llm, settings, http, tmp_path: Path) -> None:
    # As the window shows (and `ask`'s Sources list repeats): a cut answer cannot say what it would have drawn
    # on, so every passage put into the prompt is listed, not the few its first words happen to share.
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.engine.events import Done, EngineError

    notes = _notes(tmp_path)
    llm.queue(Stream(["Twenty-seven, ", "booked ", "in the HR portal, and"], cut_after=2))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "How many vacation days do employees get?")
    assert any(isinstance(e, EngineError) for e in events)
    done = events[-1]
    assert isinstance(done, Done) and len(events[0].sources) > 1
    assert done.sources == events[0].sources and notes["vacation"] in done.sources


async def test_rag_route_leaves_out_passages_that_share_only_common_words(llm, settings, http, tmp_path: Path) -> None:
    # Forty notes that all say "name": the best match for a question about a kitten's name is no answer
    # to it, and a small model given it would answer from it all the same.
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.kb import Importer, open_store

    docs = tmp_path.parent / f"{tmp_path.name}-docs"  # beside the data folder: a folder's import skips what is in it
    docs.mkdir()
    for n in range(40):
        (docs / f"project{n}.md").write_text(f"# Project {n}\n\nEach project has a name and an owner. Project {n} "
                                             f"ships release {n} in week {n % 52}.\n")
    (docs / "leave.md").write_text("# Leave\n\nEvery employee gets 27 vacation days per year.\n")
    with open_store(tmp_path) as kb:
        assert len(Importer(kb).run([str(docs)]).added) == 41
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())

    llm.queue(Stream(["Luna or Milo."]))
    events = await collect(engine, "What is a good name for my kitten?")
    assert isinstance(events[0], Route) and events[0].mode == "direct" and events[0].sources == ()
    assert "owner" not in llm.requests[-1]["messages"][0]["content"]

    llm.queue(Stream(["27 days [1]."]))
    events = await collect(engine, "How many vacation days does an employee get?")
    assert isinstance(events[0], Route) and events[0].mode == "rag"
    assert events[0].sources == (str((docs / "leave.md").resolve()),)
    assert "27 vacation days" in llm.requests[-1]["messages"][0]["content"]


async def test_a_damaged_knowledge_base_is_said_not_called_empty(llm, settings, http, tmp_path: Path) -> None:
    # Truncated, it was routed "no tool is likely needed and the knowledge base is empty", and nothing said
    # why the user's documents were left out
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.kb import release
    from tinyrag_desktop.kb.store import db_path

    _handbook(tmp_path)
    release(tmp_path)
    path = db_path(tmp_path)
    path.write_bytes(path.read_bytes()[:4096] + b"\x00garbage" * 512)
    for name in ("knowledge.db-wal", "knowledge.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    llm.queue(Stream(["Twenty-seven, I think."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "How many vacation days do I get?")
    route_event = events[0]
    assert isinstance(route_event, Route) and route_event.mode == "direct"
    assert route_event.reason == "no tool is likely needed, and the knowledge base could not be read"
    assert route_event.problem.startswith(f"The knowledge base {path} cannot be read")
    assert route_event.payload()["problem"] == route_event.problem
    assert "".join(e.text for e in events if isinstance(e, Text)) == "Twenty-seven, I think."


@pytest.mark.parametrize("question", [
    "Summarize the meeting notes from 2024-03-12", "How do I open ports 80/443 in the firewall?",
    "What changed between PostgreSQL 14-15?", "What is on pages 12-14 of the manual?",
    "Who do I call on 555-1234?", "What did we decide in the 10:30-11:00 meeting?", "release 1.2-3 notes",
])
def test_ranges_dates_and_numbers_with_hyphens_are_no_sums(question: str) -> None:
    # taken for sums, these lost their knowledge-base passages to "(Tool to use: calculate)"
    assert route(question, ALL, has_kb=True).mode == "rag"


@pytest.mark.parametrize("question", [
    "12-5", "What is 12-5?", "what's 144/12?", "100/7", "3-(2+1)", "(4+5)/3", "2024 - 2019 = ?",
    "calculate 2-1", "What is 3 * (17 + 5) / 2?", "7 / 2",
])
def test_a_sum_alone_is_a_sum(question: str) -> None:
    assert route(question, ALL, has_kb=True).hints == ("calculate",)


_SUM_ALONE_PATTERN = re.compile(r"^(?:(?:what(?:'s| is)|calculate|compute)\s+)?[\d\s.,+\-−*/^×÷%()=?]*\d[-−/]\d"
                                r"[\d\s.,+\-−*/^×÷%()=?]*$", re.I)


@examples(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["1", "23", "-", "/", " ", "(", ")", "+", "?", "what is ", "x", "\n", "What's ",
                                 "=", "−"]), max_size=12).map("".join))
def test_a_sum_alone_as_one_pattern_would_say(text: str) -> None:
    # the one pattern tries every split of a long paste; _sum_alone reads it in one pass
    assert _sum_alone(text) == (_SUM_ALONE_PATTERN.match(text.strip()) is not None)


@pytest.mark.parametrize("question, first", [
    ("Who is our contact at ACME?", True), ("Tell me about the onboarding process", True),
    ("What is the current retention policy?", True), ("What is 15% of the budget in my notes?", True),
    ("What's the latest news on Python?", False),  # news: the web, whatever the documents hold
    ("Look up photosynthesis on Wikipedia.", False),
    ("What is 3 * (17 + 5) / 2?", False), ("Summarise https://example.org/post please", False),
    ("How do I calculate vacation days?", True), ("How much is the travel allowance?", True),
    ("calculate the area of a circle with radius 3", False),  # numbers to work on: the calculator
])
def test_questions_in_an_encyclopedias_words_look_in_the_documents_first(question: str, first: bool) -> None:
    decision = route(question, ALL, has_kb=True)
    assert decision.mode == "tools" and decision.documents_first is first
    assert route(question, ALL, has_kb=False).documents_first is False


def _contacts(data_dir: Path) -> None:
    from tinyrag_desktop.kb import Importer, open_store

    doc = data_dir / "contacts.md"
    doc.write_text("# Suppliers\n\n## ACME\n\nOur contact at ACME is Maria Lopez, head of accounts, "
                   "reachable on extension 4411.\n")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(doc)])


async def test_a_who_question_the_documents_answer_gets_their_passages(llm, settings, http, tmp_path: Path) -> None:
    from tinyrag_desktop.engine import Engine

    _contacts(tmp_path)
    llm.queue(Stream(["Maria Lopez [1]."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "Who is our contact at ACME?")
    assert isinstance(events[0], Route) and events[0].mode == "rag" and "before wikipedia" in events[0].reason
    assert events[0].hints == ("rag_knowledge",)
    sent = llm.requests[0]["messages"]
    assert "Maria Lopez" in sent[0]["content"]
    assert "wikipedia" not in sent[-1]["content"]


async def test_a_who_question_the_documents_do_not_answer_goes_to_the_encyclopedia(llm, settings, http,
                                                                                   tmp_path: Path) -> None:
    from tinyrag_desktop.engine import Engine

    _contacts(tmp_path)
    llm.queue(Stream(["She was a mathematician."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "Who was Ada Lovelace?")
    assert isinstance(events[0], Route) and events[0].mode == "tools" and events[0].hints == ("wikipedia",)
    assert events[0].sources == ()
    assert "(Tool to use: wikipedia)" in llm.requests[0]["messages"][-1]["content"]


async def test_a_how_do_i_calculate_question_the_documents_answer_gets_no_calculator_hint(
        llm, settings, http, tmp_path: Path) -> None:
    from tinyrag_desktop.engine import Engine

    _handbook(tmp_path)
    llm.queue(Stream(["27 days a year [1]."]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine, "How do I calculate my vacation days?")
    assert events[0].mode == "rag" and events[0].hints == ("rag_knowledge",)
    sent = llm.requests[0]["messages"]
    assert "27 vacation days" in sent[0]["content"] and "calculate" not in sent[-1]["content"].split("\n")[-1]


def test_go_live_is_no_go_code() -> None:
    assert route("What do we do in go-live week?", ALL, has_kb=True).mode == "rag"
    assert route("How is this written in go?", ALL, has_kb=True).hints == ("nanogo",)


@pytest.mark.parametrize(("question", "reason"), [
    # View → Show routing said "the question has Go code" for a question without any
    ("Sum the numbers below 300 million in Go", "the question asks for Go"),
    ("Write a golang program that prints 1", "the question asks for Go"),
    ("Why does this fail? package main\nfunc main() { fmt.Println(x) }", "the question has Go code"),
    ("How much is 12 * 7?", "the question has arithmetic"),
    ("Calculate the area of my garden", "the question asks for a calculation"),
])
def test_the_route_says_what_in_the_question_it_went_by(question: str, reason: str) -> None:
    assert route(question, ALL, has_kb=False).reason == reason
