"""The LLM client: streaming chat completions from any OpenAI-compatible server over one httpx client.

Policy lives here (which URL, which model, what a failure means to a person); the transport is the
``httpx.AsyncClient`` passed in, so tests can point it at a loopback server or give it a mock transport.
What each message of the stream carries is read in llm_stream.py.
"""

from __future__ import annotations

import asyncio
import math
import re
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, AsyncIterator
from urllib.parse import urljoin, urlsplit

import httpx

from ..http_clients import proxy_note
from ..server_said import model_names, says_error, server_message
from .errors import (
    AddressNotFound,
    AuthenticationFailed,
    BadResponse,
    CHOOSE_ANOTHER,
    FirstTokenTimeout,
    LLMError,
    NO_SUCH_MODEL,
    ModelLoading,
    ModelNotFound,
    ModelsUnlisted,
    RateLimited,
    ServerFailed,
    ServerUnreachable,
    StreamInterrupted,
)
from .context import has_model, is_refusal
from .llm_stream import Choices, Delta, NativeCalls, context_refusal, message_deltas, paired
from .llm_whole import BLANK, ReplyEnd, whole_deltas
from .sse import MAX_HELD, SSEDecoder, TooLong

GET_A_MODEL = ("Get one first: with Ollama, `ollama pull llama3.2` in a terminal; with LM Studio, download and "
               "load a model in its window.")
NO_MODELS = "The server at {where} has no models yet. " + GET_A_MODEL
# A server that lists embedding models only ("nomic-embed-text" pulled for the knowledge base): none can chat.
NO_CHAT_MODELS = "The server at {where} has only embedding models ({names}), none to chat with. " + GET_A_MODEL
START_HINT = ("Is the server running? Start Ollama (`ollama serve`) or LM Studio's local server, or check the "
              "Server URL in Settings (or --base-url).")
# What a wrong Server URL is told: the address a model server answers at ends with /v1 (its API's root).
URL_HINT = ("Check the Server URL in Settings (or --base-url): it usually ends with /v1, like "
            "http://127.0.0.1:11434/v1.")

# Names of models that embed, rerank or transcribe rather than chat: servers list them beside chat models.
_NOT_CHAT = re.compile(r"embed|rerank|\bbge\b|bge-|minilm|\bgte\b|gte-|whisper|\btts\b|\bclip\b", re.I)


def is_chat_model(name: str) -> bool:
    """False for a model that, by its name, embeds, reranks or transcribes ("nomic-embed-text") rather than
    chats: the one rule for the first-run search, the settings dialog's Chat model list, the status bar's
    model menu and the model a request takes when none is chosen."""
    return not _NOT_CHAT.search(name)


# What a reply that ended before its first words says to do: the server gave no reason in it
_NOTHING_CAME = "The model may have failed to load or stopped working: the server's log says why. Try again."
DONE_GRACE = 0.5  # seconds a server is given to close its stream after [DONE]
# The most seconds the status bar's check of a server waits for its answer, and what of them a server whose
# /models is a 404 is given to answer a one-token question (a 404 comes at once): together they passed 8 s
CHECK_SECONDS = 8.0
_TAKES_QUESTIONS_WAIT = 5.0
# What a server whose /models is a 404 did with a one-token question, by Server URL, when it answered as a model
# server (see _takes_questions): asked once a session, not at each check
_ASKED: dict[str, str] = {}


async def _read_to_end(chunks: AsyncIterator[str]) -> None:
    """Read what a server sends after [DONE] (nothing, as a rule) until it closes the stream, or for
    DONE_GRACE seconds: a server or proxy that keeps the connection open kept a whole answer waiting, 20 s
    or until the read timeout said it was cut. Read, not dropped: stopped between two pieces, httpx's
    readers were left half-way and closed later, from another task, with errors on the console. A connection
    that breaks now breaks after the answer's end: it is not said to have broken off."""
    try:
        async with asyncio.timeout(DONE_GRACE):
            async for _ in chunks:
                pass
    except (TimeoutError, httpx.HTTPError):
        pass


class LLMClient:
    """Talks to ``{base_url}/chat/completions`` and ``{base_url}/models``."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        base_url: str,
        api_key: str = "",
        *,
        connect_timeout: float = 5.0,
        first_token_timeout: float = 120.0,
    ) -> None:
        self.http = http
        self.address = base_url  # as the user wrote it, for messages
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.connect_timeout = connect_timeout
        self.first_token_timeout = first_token_timeout

    # -- helpers ----------------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "text/event-stream, application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def auth_headers(self) -> dict[str, str]:
        """What a request other than a chat sends: the API key, if any."""
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _timeout(self, read: float) -> httpx.Timeout:
        return httpx.Timeout(connect=self.connect_timeout, read=read, write=30.0, pool=self.connect_timeout)

    def _unreachable(self, exc: Exception) -> ServerUnreachable:
        if self.base_url.lower().startswith("https://") and "ssl" in repr(exc).lower():
            return ServerUnreachable(
                f"The model server at {self.base_url} did not start a secure (https) connection. Local servers "
                "usually speak plain http: try the same address with http:// instead.")
        what = "did not accept a connection in time" if isinstance(exc, httpx.ConnectTimeout) else "cannot be reached"
        return ServerUnreachable(f"The model server at {self.base_url} {what}. {START_HINT}{proxy_note(self.base_url)}")

    def _check_address(self) -> None:
        """Refuse a base URL no request can go to (a hand-edited settings file, ``--base-url``) in words:
        httpx says "Request URL is missing an 'http://' or 'https://' protocol", or worse for a bad port."""
        problem = _address_problem(self.address)
        if problem:
            raise ServerUnreachable(
                f"The server address “{self.address}” cannot be used: {problem}. It should look like "
                "http://127.0.0.1:11434/v1; correct the Server URL in Settings (or --base-url).")

    def _broken(self, exc: httpx.HTTPError) -> ServerUnreachable:
        why = str(exc).rstrip(".") or exc.__class__.__name__  # some errors carry no text at all
        return ServerUnreachable(f"Could not talk to the model server at {self.base_url}: {why}."
                                 f"{proxy_note(self.base_url)}")

    # -- models -----------------------------------------------------------------------------------

    async def list_models(self) -> list[str]:
        """The ids the server lists at ``/models``; for a 404 there, ModelsUnlisted when the server takes
        questions all the same (see _takes_questions)."""
        started = asyncio.get_running_loop().time()
        try:
            return await self._listed()
        except AddressNotFound as problem:
            left = CHECK_SECONDS - 1.0 - (asyncio.get_running_loop().time() - started)
            takes = await self._takes_questions(min(_TAKES_QUESTIONS_WAIT, max(left, 0.5)))
            if not takes:
                raise
            raise ModelsUnlisted(f"The server at {self.base_url} answers questions but does not list its "
                                 "models (/models: 404).", needs_model=takes == "needs a model named") from problem

    async def _listed(self) -> list[str]:
        """The ids the server lists at ``/models`` (AddressNotFound for a 404 there)."""
        self._check_address()
        url = f"{self.base_url}/models"
        try:
            resp = await self.http.get(url, headers=self._headers(), timeout=self._timeout(15.0))
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise self._unreachable(exc) from exc
        except httpx.TimeoutException as exc:
            raise ServerUnreachable(f"The model server at {self.base_url} did not answer in time.") from exc
        except httpx.HTTPError as exc:
            raise self._broken(exc) from exc
        if resp.status_code != 200:
            raise self._status_error(resp.status_code, server_message(resp.text), what="list its models",
                                     location=resp.headers.get("location", ""))
        try:
            models = model_names(resp.json())
        except (ValueError, RecursionError):  # not JSON; RecursionError: nested past reading
            models = None
        if models is None:
            raise BadResponse(
                f"The server at {self.base_url} did not answer /models as an OpenAI-compatible server does. "
                + URL_HINT
            )
        return models

    async def _takes_questions(self, wait: float) -> str:
        """Whether the chat endpoint is there, for a server whose /models is not: a question of one token, with
        no model named, answered in JSON ("answers"), or refused in a JSON error, as a model server does
        ("needs a model named" when its words ask for one); "" for anything else (a 404, a web server's page,
        no answer within ``wait`` seconds). A web server answering its page to any POST, or an old Ollama's
        "model is required", were "reachable" and every question failed. Raises AuthenticationFailed for a
        key refused. Asked once a session for each Server URL that answers so."""
        if self.base_url in _ASKED:
            return _ASKED[self.base_url]
        body = {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1, "stream": False}
        try:
            resp = await self.http.post(f"{self.base_url}/chat/completions", json=body, headers=self._headers(),
                                        timeout=self._timeout(wait))
        except httpx.HTTPError:
            return ""
        if resp.status_code in (401, 403):
            raise self._status_error(resp.status_code, server_message(resp.text), what="answer")
        try:
            reply = resp.json()
        except (ValueError, RecursionError):
            reply = None
        takes = ""
        if resp.status_code == 200 and (isinstance(reply, dict) and isinstance(reply.get("choices"), list) or (
                "data:" in resp.text and '"choices"' in resp.text)):  # or streamed all the same
            takes = "answers"
        elif isinstance(reply, dict) and resp.status_code in (400, 422, 503) and says_error(reply):
            takes = "needs a model named" if resp.status_code in (400, 422) and "model" in server_message(
                resp.text).lower() else "answers"
        if takes:  # a model server is there; anything else is asked again at the next check, once it may be fixed
            _ASKED[self.base_url] = takes
        return takes

    async def resolve_model(self, model: str) -> str:
        """``model``, or the server's first chat model when none is chosen (Ollama lists the model pulled
        last first: an embedding model pulled for the knowledge base was sent every question); "" (no model
        named) for a server that lists none but takes questions."""
        if model:
            return model
        try:
            models = await self._listed()
        except AddressNotFound:  # no list (or a wrong address): the question itself says which, unasked before
            return ""
        if not models:
            raise ModelNotFound(NO_MODELS.format(where=self.base_url))
        chat = [m for m in models if is_chat_model(m)]
        if not chat:
            raise ModelNotFound(NO_CHAT_MODELS.format(where=self.base_url, names=", ".join(models[:3])), models)
        return chat[0]

    # -- chat -------------------------------------------------------------------------------------

    async def stream_chat(
        self, messages: list[dict[str, str]], *, model: str, temperature: float = 0.7, begun: bool = False,
        **extra: Any
    ) -> AsyncIterator[Delta]:
        """Stream one completion. Raises an LLMError subclass; a stream cut midway raises
        StreamInterrupted after the deltas that did arrive. ``begun``: the answer's words came already, in an
        earlier round (after a tool's result), so a failure says that they are kept, not that none came."""
        self._check_address()
        named = {"model": model} if model else {}  # none: a server that lists no models, asked as it was checked
        body = {**named, "messages": messages, "stream": True, "temperature": temperature, **extra}
        url = f"{self.base_url}/chat/completions"
        request = self.http.build_request(
            "POST", url, json=body, headers=self._headers(), timeout=self._timeout(self.first_token_timeout)
        )
        try:
            resp = await self.http.send(request, stream=True)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise self._unreachable(exc) from exc
        except httpx.TimeoutException as exc:
            raise FirstTokenTimeout(self._first_token_message()) from exc
        except httpx.HTTPError as exc:
            raise self._broken(exc) from exc
        try:
            if resp.status_code != 200:
                try:
                    text = (await resp.aread()).decode("utf-8", "replace")
                except httpx.HTTPError:  # the error page itself broke off: the status still says enough
                    text = ""
                message = server_message(text)
                wait = _retry_after(resp.headers.get("retry-after", "")) if resp.status_code == 429 else None
                if wait is not None:
                    asked = f"{wait} s" if wait <= _DAY else "more than a day"
                    message = f"{message} (it asks to wait {asked})".strip()
                if 300 <= resp.status_code < 400:
                    raise self._status_error(resp.status_code, message, what="answer",
                                             location=resp.headers.get("location", ""))
                raise await self._chat_status_error(resp.status_code, message, model, text)
            ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype == "application/json":  # a whole reply instead of a stream: use it as one piece
                async for delta in paired(self._read_whole(resp, begun=begun)):
                    yield delta
                return
            if ctype in ("text/html", "application/xhtml+xml"):
                raise self._web_page()
            async for delta in paired(self._read_stream(resp, begun)):
                yield delta
        finally:
            await resp.aclose()

    async def _read_whole(self, resp: httpx.Response, start: str = "", rest: AsyncIterator[str] | None = None,
                          *, begun: bool = False) -> AsyncIterator[Delta]:
        """The deltas of a whole reply (``start``: what was read of it already, ``rest``: the text to come),
        read until the server closes it or it ends ([DONE], a finish_reason: see ReplyEnd), whichever comes
        first; what follows its end is read as the stream's is (see _read_to_end)."""
        chunks = rest if rest is not None else resp.aiter_text()
        reply = ReplyEnd()
        try:
            ended = reply.feed(start)
            while not ended:
                try:
                    piece = await chunks.__anext__()
                except StopAsyncIteration:
                    break
                ended = reply.feed(piece)
                if reply.size > MAX_HELD:  # a reply never that long: a body without end is read no further
                    raise BadResponse(f"The model server's reply went on past {MAX_HELD // (1024 * 1024)} MB, "
                                      "which is no answer.")
            text = reply.text()
            if BLANK.fullmatch(text):  # no bytes at all, labelled as JSON: it was "JSON that holds no answer: ''"
                raise _sent_nothing(begun)
            deltas = whole_deltas(text, begun)
            if not deltas:
                raise BadResponse(f"The server at {self.base_url} answered with JSON that holds no answer. "
                                  f"The server said: {text.strip()[:120]!r}")
            for delta in deltas:  # before the rest is read: a connection held open kept the answer DONE_GRACE
                yield delta
            if ended:
                await _read_to_end(chunks)
        except httpx.HTTPError as exc:
            raise _broke_off(begun) from exc
        finally:
            await chunks.aclose()

    def _web_page(self) -> BadResponse:
        return BadResponse(
            f"The server at {self.base_url} answered with a web page, not the model's answer. " + URL_HINT)

    def _first_token_message(self) -> str:
        return (
            f"The model did not start answering within {self.first_token_timeout:g} "
            f"second{'' if self.first_token_timeout == 1 else 's'}. "
            "It may still be loading; try again, or raise the First-token timeout in Settings → Limits (or "
            "--first-token-timeout)."
        )

    async def _read_stream(self, resp: httpx.Response, begun: bool) -> AsyncIterator[Delta]:
        """The deltas of an event stream (a reply that starts as JSON, however labelled, is read whole, as an
        application/json one is); ``begun``: see stream_chat."""
        decoder = SSEDecoder()
        calls, picked = NativeCalls(), Choices()
        finished = False
        got_any = False  # words (or a native call) have come
        started = False  # anything but blanks has come
        chunks = resp.aiter_text()
        loop = asyncio.get_running_loop()
        # One deadline for the first token, and then for each next one, however many keep-alive comments or
        # empty deltas the server sends meanwhile (each of them reset httpx's read timeout: an answer that
        # stopped after its first words, its server still sending keep-alives, waited for ever).
        next_by = loop.time() + self.first_token_timeout
        try:
            while True:
                try:
                    text = await asyncio.wait_for(chunks.__anext__(), max(next_by - loop.time(), 0.0))
                except StopAsyncIteration:
                    break
                written = calls.size()
                start = "" if started else text[BLANK.match(text).end():]  # a byte-order mark alone is blank too
                if start:
                    started = True
                    # A web page (a captive portal, a proxy's error page) labelled text/plain, or not at all,
                    # or even as a stream: no event stream starts with "<". It was read as one, found no
                    # events, and said "the server closed the stream before the model finished".
                    if start.startswith("<"):
                        raise self._web_page()
                    # A whole JSON reply after all: labelled text/plain or not at all, or even as a stream (a
                    # proxy's, often with "data: [DONE]" after it). No event stream starts with "{": its text was
                    # lost, and the answer said to be empty or cut off.
                    if start.startswith("{"):
                        async for delta in self._read_whole(resp, text, chunks, begun=begun):
                            yield delta
                        return
                for msg in decoder.feed(text):
                    for delta in message_deltas(msg.data, msg.event, calls, begun=begun, answering=got_any,
                                                picked=picked):
                        if delta is None:
                            finished = True
                            break
                        if delta.content or delta.reasoning:
                            got_any, next_by = True, loop.time() + self.first_token_timeout
                        if delta.finish_reason:
                            finished = True
                        yield delta
                    if finished:
                        break
                if calls.size() > written:  # a native call's name or arguments, streaming: words too
                    got_any, next_by = True, loop.time() + self.first_token_timeout
                if finished:
                    # [DONE], or the reply's finish_reason: the answer is whole, whenever the server closes
                    # the connection; what it sends after it (a usage chunk, [DONE]) is read, not shown
                    await _read_to_end(chunks)
                    return
            for msg in decoder.finish():
                for delta in message_deltas(msg.data, msg.event, calls, begun=begun, answering=got_any,
                                            picked=picked):
                    if delta is None or delta.finish_reason:
                        finished = True
                    if delta is not None:
                        yield delta
        except (TimeoutError, httpx.ReadTimeout) as exc:
            if not got_any:
                raise FirstTokenTimeout(self._first_token_message()) from exc
            raise StreamInterrupted(
                "The model stopped sending in the middle of the answer (read timeout). "
                "The text so far is kept."
            ) from exc
        except httpx.DecodingError as exc:
            raise BadResponse(
                "The server's reply could not be decoded (it claimed a compression it did not use). "
                "The text so far is kept."
            ) from exc
        except TooLong as exc:
            raise BadResponse(
                f"The model server sent {exc} without ending it, which is no answer stream. "
                "The text so far is kept."
            ) from exc
        except httpx.HTTPError as exc:
            raise _broke_off(begun or got_any) from exc
        finally:
            await chunks.aclose()
        if not finished and not started:  # 200 and then no bytes at all (LM Studio's, at times)
            raise _sent_nothing(begun)
        if not finished and not (begun or got_any):  # a server that fails once its stream began
            # (text-generation-webui with no model loaded, a crash): "the text so far is kept" was said of none
            raise StreamInterrupted(f"The server closed the stream before any of the answer came. {_NOTHING_CAME}")
        if not finished:
            raise StreamInterrupted(
                "The answer was cut off: the server closed the stream before the model finished. "
                "The text so far is kept."
            )

    async def _chat_status_error(self, status: int, message: str, model: str, body: str = "") -> LLMError:
        said = message.lower()
        if status in (400, 413, 422, 500) and is_refusal(body or message):
            return context_refusal(message, body)
        # "model" alone is not enough: "This model's maximum context length is 4096 tokens" is a 400 too
        about_the_model = model.lower() in said or ("model" in said and any(
            words in said for words in ("not found", "does not exist", "not exist", "unknown", "no such",
                                        "not available", "invalid model", "pull")))
        if not model:  # asked with none named: the server lists no models (resolve_model)
            if status in (400, 422) and "model" in said:
                return ModelNotFound(f"The server at {self.base_url} does not list its models, and takes no "
                                     "question without one named. Set the Chat model in Settings (or pass "
                                     f"--model). The server said: {message}")
        elif status == 404 or (status == 400 and about_the_model):
            try:
                models = await self._listed()
            except LLMError:
                models = []
            if models and not has_model(models, model):
                # the ones that chat, as the model menu offers them: not nomic-embed-text, which cannot answer
                chatting = [m for m in models if is_chat_model(m)] or models
                listed = ", ".join(chatting[:20]) + (" …" if len(chatting) > 20 else "")
                return ModelNotFound(
                    f"The server {NO_SUCH_MODEL}{model}”. It has: {listed}. {CHOOSE_ANOTHER}",
                    models,
                )
            if "no models loaded" in said or "no model loaded" in said:
                # LM Studio with nothing loaded: the model's name is not what is wrong
                return ModelNotFound(f"The server has no model loaded. The server said: {message}", models)
            if status == 404 and "model" in said:
                return ModelNotFound(f"The server {NO_SUCH_MODEL}{model}”. The server said: {message}", models)
        return self._status_error(status, message, what="answer")

    def _redirect_words(self, status: int, location: str, what: str) -> str:
        """A redirect in words, with the Server URL it points to: the Location resolved against the address
        asked and less the path asked for (it was shown as sent, "/v2/chat/completions", which pasted as the
        Server URL gave a 404)."""
        path = "/models" if what == "list its models" else "/chat/completions"
        target = urljoin(self.base_url + path, location.strip()) if location.strip() else ""
        suggested = target[: -len(path)] if target.endswith(path) else target
        if not target:
            return f"The server at {self.base_url} sends requests elsewhere ({status}) without saying where."
        if suggested.rstrip("/") == self.base_url:
            return (f"The server at {self.base_url} sends requests back to the same address ({status}), so no "
                    "answer can come: check the server's or proxy's configuration.")
        return (f"The server at {self.base_url} sends requests on to {suggested} ({status}). Use that address as "
                "the Server URL in Settings (or --base-url).")

    def _status_error(self, status: int, message: str, *, what: str, location: str = "") -> LLMError:
        said = f" The server said: {message}" if message else ""
        if 200 <= status < 300:  # 204 No Content, 202 Accepted…: it was called refusing the request
            return BadResponse(f"The server at {self.base_url} replied with nothing ({status}) when asked to "
                               f"{what}. {URL_HINT}{said}")
        if 300 <= status < 400:  # an http → https proxy, a moved server: the request is not sent on
            return ServerFailed(self._redirect_words(status, location, what))
        if status == 503 and "loading" in message.lower():  # llama.cpp's server while it loads the model
            return ModelLoading(f"The model is still loading on the server (503). Try again in a moment.{said}")
        if status == 503 and "busy" in message.lower():  # koboldcpp still writing an answer; Ollama's queue full
            return RateLimited(f"The model server is busy with another answer (503); wait a moment and try "
                               f"again.{said}")
        if status in (401, 403):
            return AuthenticationFailed(
                f"The server at {self.base_url} refused the request ({status}): the API key is missing "
                f"or wrong. Set it in Settings (or pass --api-key).{said}"
            )
        if status == 429:
            return RateLimited(f"The server is busy or rate-limited (429); wait a moment and try again.{said}")
        if status == 404:
            return AddressNotFound(
                f"The server at {self.base_url} found nothing at that address (404) and could not {what}. "
                f"{URL_HINT}{said}"
            )
        if status in (405, 501):  # a plain web server (python -m http.server) takes no questions (POST)
            return ServerFailed(
                f"The server at {self.base_url} does not take questions ({status}): it is not an "
                f"OpenAI-compatible model server, or not at this address. {URL_HINT}{said}"
            )
        if status >= 500:
            return ServerFailed(f"The model server failed ({status}) and could not {what}.{said}")
        return ServerFailed(f"The model server refused the request ({status}).{said}")


def _broke_off(begun: bool) -> StreamInterrupted:
    """The connection broke off while a reply came (``begun``: after the answer's first words, in any round)."""
    if not begun:
        return StreamInterrupted(f"The connection to the model server broke off before any of the answer came. "
                                 f"{_NOTHING_CAME}")
    return StreamInterrupted("The connection to the model server broke off in the middle of the answer. The text "
                             "so far is kept.")


def _sent_nothing(begun: bool) -> StreamInterrupted:
    """A reply that came with no bytes at all: neither words nor an error to show. It was said to have been cut
    off, or to be JSON that holds no answer; why it failed (a model not loaded, say) is the server's to tell,
    in its log, and is not guessed here."""
    kept = " The text so far is kept." if begun else ""
    return StreamInterrupted("The model server took the question but sent nothing back: an empty reply, with no "
                             f"words and no error.{kept} The server's own log says why; try again.")


_DAY = 24 * 60 * 60  # a longer wait than this is said as "more than a day"


def _retry_after(value: str) -> int | None:
    """The seconds a Retry-After header asks to wait: a number of seconds, or an HTTP date (``Wed, 21 Oct
    2026 07:28:00 GMT``; it was not mentioned). None for a date gone by, or words that are neither."""
    value = value.strip()
    if value.isascii() and value.isdigit():  # 26 digits were said as they came; 5,000 raised a ValueError
        return int(value) if len(value.lstrip("0")) <= 9 else _DAY + 1
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # "-0000": UTC, as HTTP dates are
        when = when.replace(tzinfo=timezone.utc)
    seconds = math.ceil((when - datetime.now(timezone.utc)).total_seconds())
    return seconds if seconds > 0 else None


def _address_problem(address: str) -> str:
    """Why no HTTP request can go to ``address``, or "" when one can."""
    try:
        parts = urlsplit(address.strip())
        host, _port = parts.hostname, parts.port  # .port raises ValueError for a port out of range
    except ValueError:
        return "its server name or port is not valid"
    if parts.scheme.lower() not in ("http", "https"):
        return "it must start with http:// (or https://)"
    if not host:
        return "it names no server"
    return ""
