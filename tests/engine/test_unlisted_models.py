"""A server whose /models is a 404: taken to answer questions only when a one-token question gets a model
server's JSON back, asked once a session and never before each question."""

from __future__ import annotations

import time

import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import of, visible
from tests.sse_server import Hang, Raw, Status, Stream
from tinyrag_desktop.engine.errors import AddressNotFound, AuthenticationFailed, ModelsUnlisted
from tinyrag_desktop.engine.events import EngineError
from tinyrag_desktop.engine.llm import CHECK_SECONDS, LLMClient


@pytest.fixture
def unlisted(llm):
    llm.pages["/v1/models"] = Status(404, {"error": {"message": "404 page not found"}})
    return llm


@pytest.mark.parametrize("code", [200, 400, 503])
async def test_a_web_server_answering_questions_with_a_page_is_no_model_server(unlisted, http, code) -> None:
    # nginx or a site answering any POST with its page was "reachable", and every question failed
    unlisted.queue(Raw([f"<html><body>Page {code}</body></html>"], content_type="text/html", status=code))
    with pytest.raises(AddressNotFound) as caught:
        await LLMClient(http, unlisted.base_url).list_models()
    assert "found nothing at that address (404)" in str(caught.value)


async def test_a_server_that_wants_a_model_named_says_to_set_the_chat_model(unlisted, http) -> None:
    # Ollama before /v1/models: "model is required" was "reachable", and every question failed
    unlisted.queue(Status(400, {"error": {"message": "model is required"}}))
    with pytest.raises(ModelsUnlisted) as caught:
        await LLMClient(http, unlisted.base_url).list_models()
    assert caught.value.needs_model
    assert "set the Chat model in Settings" in caught.value.words("")
    assert caught.value.words("llama3.2").endswith("Questions name the Chat model, “llama3.2”.")


async def test_a_server_that_answers_a_question_serves_its_model(unlisted, http) -> None:
    unlisted.queue(Status(200, {"choices": [{"index": 0, "message": {"content": "H"}, "finish_reason": "length"}]}))
    with pytest.raises(ModelsUnlisted) as caught:
        await LLMClient(http, unlisted.base_url).list_models()
    assert not caught.value.needs_model
    assert caught.value.words("").endswith("With no Chat model set, questions go to the model it serves.")


async def test_a_key_refused_by_the_question_is_said_so_not_a_wrong_address(unlisted, http) -> None:
    unlisted.queue(Status(401, {"error": {"message": "invalid api key"}}))
    with pytest.raises(AuthenticationFailed) as caught:
        await LLMClient(http, unlisted.base_url, "sk-wrong").list_models()
    assert "the API key is missing or wrong" in str(caught.value)


async def test_the_server_is_asked_a_question_once_a_session(unlisted, http) -> None:
    unlisted.queue(Stream(["H"]))
    for _ in range(3):  # the status bar checks at start, after each settings change…
        with pytest.raises(ModelsUnlisted):
            await LLMClient(http, unlisted.base_url).list_models()
    assert len(unlisted.requests) == 1


async def test_a_server_that_did_not_answer_as_a_model_server_is_asked_again(unlisted, http) -> None:
    # it may be fixed meanwhile (the right server started at that address): "wrong address" must not stay
    unlisted.queue(Raw(["<html>Welcome</html>"], content_type="text/html"), Stream(["H"]))
    with pytest.raises(AddressNotFound):
        await LLMClient(http, unlisted.base_url).list_models()
    with pytest.raises(ModelsUnlisted):
        await LLMClient(http, unlisted.base_url).list_models()


async def test_no_question_is_asked_before_each_question(unlisted, make_engine) -> None:
    # with no Chat model set, each question was two: the one-token check, then the question
    unlisted.queue(*[Stream(["Hello."]) for _ in range(3)])
    for _ in range(3):
        events = await collect(make_engine(chat_model=""))
        assert visible(events) == "Hello." and not of(events, EngineError)
    assert len(unlisted.requests) == 3 and all("model" not in asked for asked in unlisted.requests)


async def test_a_slow_server_is_checked_within_the_status_bars_time(llm, http) -> None:
    # /models slow to say 404, then a question not answered: 4 s and the check's 5 s passed the status bar's
    # 8 s, and it said "The server did not answer in time" of a server that had answered
    def slow_404() -> Status:
        time.sleep(4.0)
        return Status(404, {"error": {"message": "404 page not found"}})

    llm.pages["/v1/models"] = slow_404
    llm.queue(Hang(10.0))
    started = time.monotonic()
    with pytest.raises(AddressNotFound):
        await LLMClient(http, llm.base_url).list_models()
    assert time.monotonic() - started < CHECK_SECONDS
