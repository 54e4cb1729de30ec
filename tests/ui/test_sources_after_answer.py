"""The Sources line comes once the answer is complete, not while a call of it still waits for the user."""

from __future__ import annotations

import asyncio

from tests.sse_server import Stream
from tinyrag_desktop.engine.events import Done, Route, ToolFinished, ToolStarted
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, tokens, wait_until
from .test_denied_command import _shell


def test_no_sources_line_while_a_command_waits_for_approval(make_window, server, qloop):
    # A page read before a command showed its Sources line while the Run / Deny question was still open.
    server.pages["/notes.json"] = {"note": "the tea is in the second cupboard"}
    page = f"{server.base_url.rsplit('/v1', 1)[0]}/notes.json"
    server.queue(Stream(tokens(f'<tool name="url_fetch"><url>{page}</url></tool>\n' + _shell("echo hi"))),
                 Stream(tokens("The tea is in the second cupboard.")))
    win = make_window(server.base_url, allow_shell_exec=True, network_tools=True, url_fetch_allow_private=True)

    async def asked_then_answered():
        task = asyncio.ensure_future(ask_and_wait(win, "where is the tea?"))
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        answer = win.view.answers()[-1]
        assert answer.cards()[0].status == "done"  # the page was read
        row = answer._sources
        assert row is None or not row.isVisible(), "Sources shown while the command waits"
        assert answer.sources() == []
        win.confirmer.current.run_button.click()
        return await task

    assert qloop.run(asked_then_answered(), timeout=40) == "done"
    answer = win.view.answers()[-1]
    assert answer.sources() == [page] and answer.sources_row.isVisible()


def _used_second_and_third(text: str):
    answer = AnswerWidget()
    answer.on_route(Route("rag", "kb", ("rag_knowledge",), ("/notes/a.md", "/notes/b.md", "/notes/c.md")))
    answer.tool_started(ToolStarted("c1", "calculate", "2+2"))
    answer.tool_finished(ToolFinished("c1", "calculate", "2+2", "calculator", None, 7, "ok", 1, "2+2 = 4"))
    answer.append_text(text)
    answer.finish(Done(2, 1, 900, "…", ("/notes/b.md", "/notes/c.md")))  # the first file was not used
    return answer


def test_sources_an_answer_does_not_cite_are_numbered_from_one(qapp):
    # "Sources [2] 02-tools.md [3] 04-settings.md", no [1]: the answer used the prompt's second and third files
    # (by the words it repeats) and cited neither number.
    answer = _used_second_and_third("Four, and the settings say so.")
    assert [link.text() for link in answer.sources_row.links()] == ["[1] b.md", "[2] c.md"]
    assert answer.to_markdown().endswith("Sources:\n\n- [1] /notes/b.md\n- [2] /notes/c.md\n")
    answer.deleteLater()
    # cited, the numbers are the answer's own: its [3] is c.md
    cited = _used_second_and_third("Four [3].")
    assert [link.text() for link in cited.sources_row.links()] == ["[2] b.md", "[3] c.md"]
    cited.deleteLater()


def test_a_stray_citation_is_not_given_to_the_first_source(qapp):
    # "As said before [1]": the answer cites a number none of its sources has. Numbered from one, [1] silently
    # named b.md; the numbers stay the prompt's, and the line warns of the [1] it cannot name.
    answer = _used_second_and_third("Four, as said before [1].")
    assert [link.text() for link in answer.sources_row.links()] == ["[2] b.md", "[3] c.md"]
    assert answer.unknown_citations() == (1,)
    answer.deleteLater()
