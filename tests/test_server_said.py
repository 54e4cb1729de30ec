"""What a server said, read alike by the chat's client, the knowledge base's embeddings and the first start's
search: an error's words however the server shapes it, and the models a /models answer lists."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from tests.sse_server import Raw, ScriptedLLMServer, Status
from tinyrag_desktop.engine.errors import BadResponse, LLMError, ServerFailed
from tinyrag_desktop.engine.llm import LLMClient
from tinyrag_desktop.engine.llm_stream import message_deltas
from tinyrag_desktop.firstrun import probe_url
from tinyrag_desktop.server_said import model_names, server_message
from tinyrag_desktop.tool_words import settings_field


@pytest.mark.parametrize("body, said", [
    # an error that is only a flag, its message beside it: "", "False", "0", ""
    ({"error": True, "message": "Model failed to load"}, "Model failed to load"),
    ({"error": False, "message": "Model failed to load"}, "Model failed to load"),
    ({"error": 0, "detail": "no slot free"}, "no slot free"),
    ({"error": 1, "message": "boom"}, "boom"),
    ({"error": {"code": 1, "message": 1}}, "1"),
    # FastAPI's problems; a "loc" that is one text was spelt out letter by letter, "b.o.d.y: …"
    ({"detail": [{"loc": ["body", "messages", 0, "content"], "msg": "Field required"}]},
     "messages.0.content: Field required"),
    ({"detail": [{"loc": "body", "msg": "Expecting value"}]}, "Expecting value"),
    ({"detail": [{"loc": "query", "msg": "Bad"}]}, "query: Bad"),
    ({"detail": {"msg": "Server is busy; please try again later.", "type": "service_unavailable"}},
     "Server is busy; please try again later."),
])
def test_an_error_body_is_said_in_the_servers_words(body: Any, said: str) -> None:
    assert server_message(json.dumps(body)) == said


@pytest.mark.parametrize("data, said", [
    ({"error": True, "message": "Model failed to load"},
     ". The text so far is kept. The server said: Model failed to load"),
    ({"error": 1, "message": "x"}, ". The text so far is kept. The server said: x"),
])
def test_an_error_flag_in_the_stream_is_said_with_its_message(data: Any, said: str) -> None:
    with pytest.raises(ServerFailed) as caught:
        message_deltas(json.dumps(data), begun=True)
    assert str(caught.value) == "The model server reported an error during the answer" + said


def test_an_error_event_of_a_json_text_is_said() -> None:
    # '"out of memory"' as an error event's data was dropped, and the answer looked finished
    with pytest.raises(ServerFailed) as caught:
        message_deltas('"out of memory"', "error")
    assert str(caught.value) == "The model server reported an error during the answer. The server said: out of memory"


def test_an_error_with_the_url_hint_has_a_full_stop_before_it() -> None:
    # "…(POST /chat/completions) Check that the Server URL ends with /v1.": the hint, ours, before the server's words
    with pytest.raises(ServerFailed) as caught:
        message_deltas(json.dumps({"error": "Unexpected endpoint or method. (POST /chat/completions)"}))
    assert str(caught.value) == ("The model server reported an error during the answer. Check that the Server URL ends "
                                 "with /v1. The server said: Unexpected endpoint or method. (POST /chat/completions)")


# A server's words that name a setting of its own: "Open Settings" put the cursor in the API key field
PROXY = "Upstream API key expired: renew it in Settings on the proxy's page."


@pytest.mark.parametrize("reply, model, words", [
    (Raw([json.dumps({"error": PROXY}) + "\n"]), "m", "The model server reported an error during the answer."),
    (Raw(["data: " + json.dumps({"choices": [{"delta": {"content": "Hi"}}]}) + "\n\n",
          "data: " + json.dumps({"error": {"message": PROXY}}) + "\n\n"]), "m",
     "The model server reported an error during the answer. The text so far is kept."),
    (Status(404, {"error": {"message": "No models loaded. " + PROXY}}), "m", "The server has no model loaded."),
    (Status(404, {"error": {"message": "model not found. " + PROXY}}), "m", "The server has no model called “m”."),
    (Raw([json.dumps({"note": PROXY})], content_type="application/json"), "m", "JSON that holds no answer."),
], ids=["stream error", "stream error after words", "no model loaded", "no such model", "json without answer"])
async def test_a_setting_in_the_servers_words_is_not_taken_for_ours(reply: Any, model: str, words: str) -> None:
    with ScriptedLLMServer(models=()) as server:
        server.queue(reply)
        async with httpx.AsyncClient() as http:
            with pytest.raises(LLMError) as caught:
                async for _ in LLMClient(http, server.base_url).stream_chat([{"role": "user", "content": "Hi"}],
                                                                             model=model):
                    pass
    ours, theirs = str(caught.value).split(" The server said: ", 1)
    assert words in ours and "Upstream API key expired" in theirs
    assert settings_field(str(caught.value)) is None


@pytest.mark.parametrize("payload, names", [
    ({"object": "list", "data": [{"id": "llama3.2", "object": "model"}]}, ["llama3.2"]),
    ({"data": [{"name": "qwen"}]}, ["qwen"]),                # a proxy's names: it was "not OpenAI-compatible"
    ({"data": ["phi3", "phi3", " "]}, ["phi3"]),
    ([{"id": "mistral"}], ["mistral"]),                      # a list alone
    ({"models": [{"name": "smol.gguf", "model": "smol.gguf"}], "data": [{"id": "smol.gguf"}]}, ["smol.gguf"]),
    ({"object": "list", "data": None}, []),                  # Ollama with nothing pulled yet
    ({"status": "ok"}, None),                                # another server's JSON: no model list at all
    ("models", None),
])
def test_a_model_list_is_read_in_every_shape_servers_send(payload: Any, names: list[str] | None) -> None:
    assert model_names(payload) == names


class _Counted(str):
    """A model's name that counts how often it is compared with another."""

    compared = 0
    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        _Counted.compared += 1
        return str.__eq__(self, other)


def test_a_long_model_list_is_read_in_one_pass() -> None:
    # Each name was looked for in all before it: 30,000 models (a router's) held the app 4 s
    listed = [_Counted(f"org/model-{n}") for n in range(3000)] + [_Counted("org/model-7")]
    _Counted.compared = 0
    names = model_names({"data": listed})
    assert _Counted.compared <= len(listed)  # 4.5 million on the old reading
    assert names == listed[:-1]


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["data", "models", "id", "name", "model", "error", "message", "detail",
                                         "msg", "loc"]), inner, max_size=4),
                    max_leaves=20))
def test_any_json_is_read_without_raising(payload: Any) -> None:
    names = model_names(payload)
    assert names is None or all(isinstance(n, str) and n.strip() for n in names)
    assert isinstance(server_message(json.dumps(payload)), str)


async def _models(payload: Any) -> list[str]:
    with ScriptedLLMServer() as server:
        server.pages["/v1/models"] = payload
        async with httpx.AsyncClient() as http:
            return await LLMClient(http, server.base_url).list_models()


async def test_the_chat_client_reads_the_model_list_as_the_first_start_does() -> None:
    # {"data": [{"name": …}]} was "not an OpenAI-compatible server … check the Server URL"
    assert await _models({"data": [{"name": "qwen"}]}) == ["qwen"]
    assert await _models({"models": [{"name": "a.gguf"}], "data": [{"id": "a.gguf"}]}) == ["a.gguf"]
    with pytest.raises(BadResponse):
        await _models({"status": "ok"})


async def test_the_first_start_says_a_json_without_models_is_no_model_list() -> None:
    # it was "runs, but has no model loaded", and the welcome panel waited on it for a model to be pulled
    with ScriptedLLMServer() as server:
        server.pages["/v1/models"] = {"status": "ok"}
        attempt = await probe_url(server.base_url)
    assert attempt.reason == "answered, but not with a model list" and not attempt.running


async def test_a_whole_error_reply_for_a_flag_says_its_message() -> None:
    with ScriptedLLMServer() as server:
        server.queue(Raw([json.dumps({"error": True, "message": "Model failed to load"})], status=500,
                         content_type="application/json"))
        async with httpx.AsyncClient() as http:
            with pytest.raises(ServerFailed) as caught:
                async for _ in LLMClient(http, server.base_url).stream_chat([], model="m"):
                    pass
    assert str(caught.value).endswith("The server said: Model failed to load")
