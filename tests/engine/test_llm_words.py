"""The LLM client's messages in plain words, naming the setting as Settings does ("Server URL", the tab of the
first-token timeout), and the model a request takes when none is chosen: a chat model, not an embedding one."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import httpx
import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import of, visible
from tests.loopback import serving
from tests.sse_server import Hang, Raw, ScriptedLLMServer, Status, Stream
from tinyrag_desktop.engine.errors import BadResponse, FirstTokenTimeout, ModelNotFound, ServerFailed
from tinyrag_desktop.engine.events import EngineError
from tinyrag_desktop.engine.llm import LLMClient, is_chat_model
from tinyrag_desktop.tool_words import window_words

JARGON = ("base URL", "API root", "endpoint")


async def _first_error(base_url: str, **client: object) -> Exception:
    async with httpx.AsyncClient() as http:
        llm = LLMClient(http, base_url, **client)
        with pytest.raises(Exception) as caught:
            async for _delta in llm.stream_chat([{"role": "user", "content": "Hi"}], model="scripted"):
                pass
        return caught.value


@pytest.mark.parametrize(("reply", "kind"), [
    (Status(404, {"error": {"message": "not found"}}), ServerFailed),
    (Raw(["<html><body>Welcome to nginx</body></html>"], content_type="text/html"), BadResponse),
    # python -m http.server: "The model server failed (501) and could not answer. The server said: Error response"
    (Raw(["<!DOCTYPE HTML><html><head><title>Error response</title></head><body><p>Error code: 501</p>"
          "<p>Message: Unsupported method ('POST').</p></body></html>"], content_type="text/html", status=501),
     ServerFailed),
])
async def test_a_wrong_server_url_is_said_in_plain_words_with_the_settings_name(reply, kind) -> None:
    # "has no such endpoint (404) … Check that the base URL is the API root, usually ending with /v1"
    with ScriptedLLMServer() as server:
        server.queue(reply)
        exc = await _first_error(server.base_url)
    assert isinstance(exc, kind)
    said = window_words(str(exc))
    assert not any(word in said for word in JARGON), said
    assert "Check the Server URL in Settings: it usually ends with /v1, like http://127.0.0.1:11434/v1." in said
    assert "--base-url" in str(exc) and "--base-url" not in said  # the command line is told its flag
    if isinstance(reply, Status):
        assert said.startswith(f"The server at {server.base_url} found nothing at that address (404)")
    elif kind is ServerFailed:
        assert said.startswith(f"The server at {server.base_url} does not take questions (501): it is not an "
                               "OpenAI-compatible model server, or not at this address.")


async def test_the_first_token_timeout_is_named_with_its_tab() -> None:
    with ScriptedLLMServer() as server:
        server.queue(Hang(5))
        exc = await _first_error(server.base_url, first_token_timeout=0.3)
    assert isinstance(exc, FirstTokenTimeout)
    assert str(exc).endswith("try again, or raise the First-token timeout in Settings → Limits (or "
                             "--first-token-timeout).")
    # the window names only the setting; `ask` has the flag (it had none, and was sent to Settings)
    from tinyrag_desktop.tool_words import window_words

    assert window_words(str(exc)).endswith("raise the First-token timeout in Settings → Limits.")


async def test_the_servers_default_model_is_a_chat_model_not_an_embedding_one() -> None:
    # Ollama lists the model pulled last first: nomic-embed-text, pulled for the knowledge base, got every question
    with ScriptedLLMServer(models=("nomic-embed-text", "llama3.2")) as server:
        server.queue(Stream(["Hello."]))
        async with httpx.AsyncClient() as http:
            llm = LLMClient(http, server.base_url)
            assert await llm.resolve_model("") == "llama3.2"
            assert await llm.resolve_model("nomic-embed-text") == "nomic-embed-text"  # chosen: as chosen
    with ScriptedLLMServer(models=("nomic-embed-text",)) as server:
        async with httpx.AsyncClient() as http:
            with pytest.raises(ModelNotFound) as caught:
                await LLMClient(http, server.base_url).resolve_model("")
    assert str(caught.value).startswith(f"The server at {server.base_url} has only embedding models "
                                        "(nomic-embed-text), none to chat with. Get one first: with Ollama, "
                                        "`ollama pull llama3.2`")



async def test_a_server_that_lists_no_models_but_takes_questions_is_asked_with_none_named(llm, make_engine) -> None:
    # Its /models a 404, no model set: refused as "found nothing at that address (404) … Check the Server
    # URL", though its chat answered with --model
    llm.pages["/v1/models"] = Status(404, {"error": {"message": "not found"}})
    llm.queue(Stream(["Hello ", "there."]))
    events = await collect(make_engine(chat_model=""))
    assert visible(events) == "Hello there." and not of(events, EngineError)
    (asked,) = llm.requests
    assert "model" not in asked


async def test_a_server_that_lists_no_models_and_wants_one_named_says_to_set_it(llm, make_engine) -> None:
    llm.pages["/v1/models"] = Status(404, {"error": {"message": "not found"}})
    llm.queue(Status(400, {"error": {"message": "you must provide a model parameter"}}))
    (err,) = of(await collect(make_engine(chat_model="")), EngineError)
    assert err.message.startswith(f"The server at {llm.base_url} does not list its models, and takes no "
                                  "question without one named. Set the Chat model in Settings (or pass --model).")


async def test_an_address_where_neither_models_nor_questions_are_found_is_said_to_be_wrong(llm, make_engine) -> None:
    llm.pages["/v1/models"] = Status(404, {"error": {"message": "not found"}})
    llm.queue(Status(404, {"error": {"message": "not found"}}))
    (err,) = of(await collect(make_engine(chat_model="")), EngineError)
    assert err.message.startswith(f"The server at {llm.base_url} found nothing at that address (404) and could "
                                  "not answer. Check the Server URL")
    assert len(llm.requests) == 1

def test_one_rule_tells_embedding_models_from_chat_models() -> None:
    from tinyrag_desktop import firstrun

    assert firstrun.is_chat_model is is_chat_model  # the first run, Settings and the status bar share it
    assert not is_chat_model("nomic-embed-text") and not is_chat_model("bge-m3") and is_chat_model("llama3.2")


async def test_a_wrong_model_name_offers_only_models_that_chat() -> None:
    # "It has: qwen2.5-7b-instruct, text-embedding-nomic-embed-text-v1.5": an embedding model cannot answer
    from tests.sse_server import Status

    with ScriptedLLMServer(models=("qwen2.5-7b-instruct", "text-embedding-nomic-embed-text-v1.5")) as server:
        server.queue(Status(404, {"error": {"message": "model 'qwen' not found"}}))
        async with httpx.AsyncClient() as http:
            with pytest.raises(ModelNotFound) as caught:
                async for _ in LLMClient(http, server.base_url).stream_chat([{"role": "user", "content": "Hi"}],
                                                                             model="qwen"):
                    pass
    assert str(caught.value) == ("The server has no model called “qwen”. It has: qwen2.5-7b-instruct. "
                                 "Choose one in Settings (or pass --model).")


async def test_lm_studio_with_no_model_loaded_is_not_said_to_lack_the_model_asked_for() -> None:
    # LM Studio's 404 when nothing is loaded: "has no model called “qwen”: No models loaded." blamed the name
    said = "No models loaded. Please load a model in the developer page or use the `lms load` command."
    for models in ((), ("qwen",)):
        with ScriptedLLMServer(models=models) as server:
            server.queue(Status(404, {"error": {"message": said, "code": "model_not_found"}}))
            async with httpx.AsyncClient() as http:
                with pytest.raises(ModelNotFound) as caught:
                    async for _ in LLMClient(http, server.base_url).stream_chat(
                            [{"role": "user", "content": "Hi"}], model="qwen"):
                        pass
        assert str(caught.value) == f"The server has no model loaded. The server said: {said}"


def answering(body: str | bytes, content_type: str = "application/json", status: int = 200,
              headers: dict[str, str] | None = None) -> type[BaseHTTPRequestHandler]:
    """A server that answers every request (models, chat) with ``body``, as a broken or hostile one may."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _answer(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            data = body.encode("utf-8") if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _answer

    return Handler


@pytest.mark.parametrize("status", [200, 500])
async def test_a_model_list_nested_past_reading_is_said_in_words(status) -> None:
    # 100,000 "[" from /v1/models ended `ask` in a RecursionError traceback (the fuzzing review's case)
    with serving(answering("[" * 100_000, status=status)) as root:
        async with httpx.AsyncClient() as http:
            with pytest.raises((BadResponse, ServerFailed)) as caught:
                await LLMClient(http, root + "/v1").list_models()
    said = str(caught.value)
    assert "Recursion" not in said and "recursion" not in said
    if status == 200:
        assert said.startswith(f"The server at {root}/v1 did not answer /models as an OpenAI-compatible server does.")


LONG_NUMBER = "&#" + "1" * 5000  # past Python's 4,300 digits for reading a number


@pytest.mark.parametrize("page", [
    f"<!DOCTYPE html><html><head><title>Gone {LONG_NUMBER}</title></head></html>",
    f"<html><body><p>Gone {LONG_NUMBER}; for good</p></body></html>",
])
async def test_an_error_page_with_a_number_too_long_to_read_is_still_said_in_words(page) -> None:
    # html.unescape raised "ValueError: Exceeds the limit (4300 digits) for integer string conversion": a
    # traceback from `ask`, and "could not be read (ValueError: …)" with --model (the fuzzing review's case)
    with serving(answering(page, "text/html", 404)) as root:
        async with httpx.AsyncClient() as http:
            with pytest.raises(ServerFailed) as listing:
                await LLMClient(http, root + "/v1").list_models()
            with pytest.raises(ServerFailed) as chatting:
                async for _ in LLMClient(http, root + "/v1").stream_chat([{"role": "user", "content": "Hi"}],
                                                                          model="m"):
                    pass
    for caught in (listing, chatting):
        said = str(caught.value)
        assert "found nothing at that address (404)" in said and "Gone \ufffd" in said and "digits" not in said


@pytest.mark.timeout(10)  # the words were read in the event loop: a wait_for could not end them
@pytest.mark.parametrize("markup", ["<title>", "<script>", "<", "<title>a</title"])
async def test_an_error_page_of_markup_left_open_is_read_at_once(markup) -> None:
    # Each unclosed "<title>" or "<script>" made the page's words scan to its end again: 140 KB took 29 s
    page = "<html>" + markup * (200_000 // len(markup)) + " Nothing here"
    with serving(answering(page, "text/html", 502)) as root:
        async with httpx.AsyncClient() as http:
            with pytest.raises(ServerFailed) as caught:
                await LLMClient(http, root + "/v1").list_models()
    assert "(502)" in str(caught.value)


async def _chat_error(handler: type[BaseHTTPRequestHandler]) -> tuple[str, Exception]:
    with serving(handler) as root:
        return root + "/v1", await _first_error(root + "/v1")


@pytest.mark.parametrize(("value", "said"), [
    ("20", "(it asks to wait 20 s)"), ("0086400", "(it asks to wait 86400 s)"),
    ("86401", "(it asks to wait more than a day)"),
    ("9" * 26, "(it asks to wait more than a day)"),  # was said as it came, 26 digits of seconds
    ("9" * 5000, "(it asks to wait more than a day)"),  # raised "ValueError: Exceeds the limit (4300 digits)"
])
async def test_a_wait_asked_for_is_said_as_a_person_would(value, said) -> None:
    _root, exc = await _chat_error(answering('{"error": {"message": "slow down"}}', status=429,
                                             headers={"Retry-After": value}))
    assert str(exc).endswith(f"The server said: slow down {said}"), str(exc)


@pytest.mark.parametrize("status", [204, 202])
async def test_a_reply_with_nothing_in_it_is_not_called_a_refusal(status) -> None:
    # "The model server refused the request (204)."
    root, exc = await _chat_error(answering("", status=status))
    assert isinstance(exc, BadResponse) and "refused" not in str(exc)
    assert str(exc).startswith(f"The server at {root} replied with nothing ({status}) when asked to answer."), str(exc)


async def test_an_error_body_that_is_not_text_is_left_out() -> None:
    # a compressed page sent without its Content-Encoding was shown as rows of "\ufffd"
    import gzip
    import random

    noise = gzip.compress(random.Random(4).randbytes(3000))
    _root, exc = await _chat_error(answering(noise, "application/octet-stream", status=500))
    assert str(exc) == "The model server failed (500) and could not answer.", str(exc)
    _root, exc = await _chat_error(answering("Out of memory: \u00e9t\u00e9 \ufffd", "text/plain", status=500))
    assert str(exc).endswith("The server said: Out of memory: \u00e9t\u00e9 \ufffd")  # text, with one odd sign


async def test_ollama_with_no_model_pulled_is_said_to_have_none_yet() -> None:
    # Ollama lists no models as "data": null, not []: the Server URL was blamed ("did not answer /models as an
    # OpenAI-compatible server does. Check the Server URL…"), in the status bar and for each question
    with ScriptedLLMServer(models=()) as server:
        server.pages["/v1/models"] = {"object": "list", "data": None}
        async with httpx.AsyncClient() as http:
            llm = LLMClient(http, server.base_url)
            assert await llm.list_models() == []
            with pytest.raises(ModelNotFound) as caught:
                await llm.resolve_model("")
    assert str(caught.value) == (f"The server at {server.base_url} has no models yet. Get one first: with Ollama, "
                                 "`ollama pull llama3.2` in a terminal; with LM Studio, download and load a model in "
                                 "its window.")


async def test_a_validation_error_says_what_is_wrong_in_words() -> None:
    # FastAPI's 422 (text-generation-webui's extension, older vLLM) was said as Python's repr of its list:
    # "The server said: [{'type': 'missing', 'loc': ['body', 'messages'], …}]"
    body = {"detail": [{"type": "missing", "loc": ["body", "messages"], "msg": "Field required", "input": None},
                       {"type": "float_type", "loc": ["body", "temperature"], "msg": "Input should be a valid number"}]}
    with ScriptedLLMServer() as server:
        server.queue(Status(422, body))
        exc = await _first_error(server.base_url)
    assert str(exc) == ("The model server refused the request (422). The server said: messages: Field required; "
                        "temperature: Input should be a valid number")


@pytest.mark.parametrize("body, said", [
    # koboldcpp, still writing an answer (one stopped here goes on there)
    ({"detail": {"msg": "Server is busy; please try again later.", "type": "service_unavailable"}},
     "Server is busy; please try again later."),
    # Ollama, its queue full
    ({"error": {"message": "server busy, please try again.  maximum pending requests exceeded", "type": "api_error"}},
     "server busy, please try again.  maximum pending requests exceeded"),
])
async def test_a_busy_server_says_to_wait_in_its_own_words(body, said) -> None:
    # koboldcpp's was "The model server failed (503) … The server said: {'msg': 'Server is busy; …', 'type': …}"
    with ScriptedLLMServer() as server:
        server.queue(Status(503, body))
        exc = await _first_error(server.base_url)
    assert str(exc) == ("The model server is busy with another answer (503); wait a moment and try again. "
                        f"The server said: {said}")
