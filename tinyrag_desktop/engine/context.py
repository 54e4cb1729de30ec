"""How much of a chat the model can read at once, and the chat cut to fit it.

A local server holds a model's context in a window of fixed size: Ollama's is 4,096 tokens on most
machines, llama.cpp's its ``-c``, LM Studio's the length the model was loaded with. A longer request is
refused (llama.cpp, LM Studio and vLLM answer 400, words that named no remedy) or, by Ollama, cut from the
front without a word: the system prompt goes first, the tool instructions with it, and the model stops
using its tools. So the engine cuts the chat itself, before the server has to:

- the window: the ``context_tokens`` setting; else what the server says (:func:`ask_window`); else what a
  refusal said (:func:`refused_window`, remembered for the model); else nothing is cut until the server
  refuses, and then the request is cut by a quarter and sent again;
- the estimate: tokens are not counted (no tokenizer here), only estimated from characters, on the high
  side (:func:`estimate`);
- what is kept (:func:`fit_chat`): the system prompt and its examples, the question and this answer's
  rounds, and as many of the latest earlier exchanges (a question and its answer) as fit, starting with a
  question (an earlier answer's results message, a user-role message too, is part of its answer: see
  :func:`is_question`). An exchange that does not fit whole goes with its tools' results cut, then left out,
  before it is left out itself; the latest answer, the one a follow-up ("and in euros?", "make it shorter")
  is about, last of all with its middle left out.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

import httpx

from .context_words import (instructions_too_long_words, left_out_words, persona_too_long_words,  # noqa: F401
                            too_long_words)  # (left_out_words: importable here)
from .errors import ContextTooLong
from .prompts import RESULTS_OPEN, cut

log = logging.getLogger(__name__)

Message = Mapping[str, str]

# Below this estimate no server is asked: every window in use is larger (Ollama's smallest default was 2,048).
SMALL_REQUEST = 1500
# Ollama's window for a model it has not loaded yet: its default on machines with less than 24 GiB of video
# memory. A model loaded with more says so in /api/ps, and is asked again at the next question.
OLLAMA_DEFAULT = 4096
OLLAMA_OLD_DEFAULT = 2048  # before Ollama's /api/ps said the window, its default was 2,048
PER_MESSAGE = 4  # the template's marks around each message
MIN_WINDOW = 512  # the smallest context_tokens setting used: less holds not even the app's instructions
MIN_REPLY = 128  # tokens a request must leave for the reply, or it is not sent
MIN_RESULT = 400  # characters of a tool result kept however small the window: less says nothing
MIN_ANSWER = 200  # tokens of the latest earlier answer worth sending with its middle left out: less, none
PASSAGE_CHARS = 8000  # the knowledge-base passages' characters in the prompt (format_hits' max_chars)...
MIN_PASSAGES = 1000  # ...halved, when the question leaves no room for them, down to this


@dataclass(frozen=True, slots=True)
class Window:
    """A model's context in tokens; ``sure`` when the server or the user said it, not a guess;
    ``setting`` when it is the user's context_tokens (the server said more, or nothing)."""

    tokens: int
    sure: bool = True
    setting: bool = False


# What a tokenizer makes a token of, about (checked against OpenAI's cl100k): an ASCII word of up to eight
# letters (a capital and seven after it; capitals in runs of three), up to three digits (and the space
# before them, a token of its own), an ASCII mark, a line break, an indent; in a blob of 24 or more letters and digits without a
# space (base64, a hash), 1.3 characters; in a word with an accented letter, 2.5; and per character of other scripts,
# by how much of tokenizers' training they had (cl100k: Russian 0.45 a character, Ukrainian 0.6, Greek 1.05,
# Hebrew 1.1, Urdu 1.1, Arabic 0.7, Armenian 2.2, Hindi 1.0, Korean 1.0, emoji 2.6, Chinese 1.1).
_ASCII_PIECES = re.compile(
    r"[A-Z]?[a-z]{1,7}|[A-Z]{1,3}|[0-9]{1,3}| (?=[0-9])|[!-/:-@\[-`{-~]|\n| {2,}|[\t\r\x00-\x08\x0b-\x1f\x7f]")
_BLOB = re.compile(r"[A-Za-z0-9+/=_-]{24,}")
# A word with an accented letter (Polish, Czech, Vietnamese, Turkish): a token each 2.5 letters, not a word
_ACCENTED_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]*[\u00c0-\u024f][A-Za-z\u00c0-\u024f]*")
_LATIN_PIECES = re.compile(r"[\u00c0-\u024f]{1,2}")
# (characters, tokens each): the scripts beyond accented Latin; what none of them takes counts as CJK
_SCRIPTS = ((re.compile(r"[\u0250-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"), 1.8),  # IPA, marks
            (re.compile(r"[\u0370-\u03ff]"), 1.0),  # Greek
            (re.compile(r"[\u0400-\u052f]"), 0.8),  # Cyrillic
            (re.compile(r"[\u0530-\u058f]"), 2.4),  # Armenian
            (re.compile(r"[\u0590-\u06ff]"), 1.1),  # Hebrew, Arabic, Persian, Urdu
            (re.compile(r"[\u0700-\u0dff]"), 2.0),  # Syriac, Thaana, Indic
            (re.compile(r"[\u0e80-\u2dff\ua000-\uabff\uff00-\uffef]"), 3.0),  # Lao, Georgian, Ethiopic,
            # Mongolian, Hangul jamo, …; full-width and half-width forms
            (re.compile(r"[\ue000-\uf8ff]"), 4.0),  # private-use icons (Nerd Fonts)
            (re.compile(r"[\u0e00-\u0e7f\uac00-\ud7af]"), 1.5),  # Thai, Hangul
            (re.compile(r"[\U00010000-\U0010ffff]"), 3.0))  # emoji and rare ideographs
CJK = 1.2  # Chinese, Japanese and the rest, a character (rare ideographs take two or three: under-counted)
MARGIN = 1.1  # the estimate's lean to the high side


# Estimates already made, by the text's digest: each request counts the whole history again. Keyed by the text
# itself (lru_cache), the cache held every message and each trial cut of a long answer, 8,192 of them: with
# tool results of 8,000 characters, 65 to 250 MB. A digest is 16 bytes; emptied whole when full.
_KNOWN: dict[bytes, int] = {}
_KNOWN_MOST = 8192


def estimate(text: str) -> int:
    """Tokens ``text`` takes, on the high side (English prose runs about 4.5 characters a token and this
    counts about 4; base64 1.4 and this 1.3): a request estimated to fit must fit, as Ollama cuts a longer
    one without a word."""
    key = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    known = _KNOWN.get(key)
    if known is None:
        if len(_KNOWN) >= _KNOWN_MOST:
            _KNOWN.clear()
        known = _KNOWN[key] = _estimate(text)
    return known


def _estimate(text: str) -> int:
    pieces = 0.0
    if len(text) >= 24 and (blobs := _BLOB.findall(text)):
        pieces += sum(map(len, blobs)) / 1.3
        text = _BLOB.sub(" ", text)
    if not text.isascii() and (accented := _ACCENTED_WORD.findall(text)):
        pieces += sum(len(word) for word in accented) / 2.5
        text = _ACCENTED_WORD.sub(" ", text)
    pieces += len(_ASCII_PIECES.findall(text))
    if not text.isascii():
        latin = _LATIN_PIECES.findall(text)
        pieces += len(latin)
        rest = len(text) - len(text.encode("ascii", "ignore")) - sum(map(len, latin))
        for found, weight in _SCRIPTS:
            if count := len(found.findall(text)):
                pieces += weight * count
                rest -= count
        pieces += CJK * rest
    return int(pieces * MARGIN) + 1


def cost(message: Message) -> int:
    return estimate(str(message.get("content", ""))) + PER_MESSAGE


def reserve(window: int, max_tokens: int) -> int:
    """Room kept for the reply: the longest reply asked for, else a quarter of the window (256 to 2,048)."""
    if max_tokens > 0:
        return min(max_tokens, window // 2)
    return max(256, min(2048, window // 4))


def window_for(budget: int, max_tokens: int) -> int:
    """The smallest window whose budget (what it leaves beside the reply's reserve) is ``budget``, or more:
    a window's budget grows with it, so it is searched for by halves."""
    low, high = budget, 2 * budget + max(max_tokens, 2048)
    while low < high:
        middle = (low + high) // 2
        low, high = (middle + 1, high) if middle - reserve(middle, max_tokens) < budget else (low, middle)
    return low


def fit(head: Sequence[Message], history: Sequence[Message], tail: Sequence[Message],
        budget: int) -> tuple[list[Message], int]:
    """``head`` (the system prompt and its examples), the latest of ``history`` that fit within ``budget``
    tokens beside them, and ``tail`` (the question and this answer's rounds); and how many messages of
    ``history`` were left out. What is kept starts with a question: an answer whose question was left out
    reads as the model's own words from nowhere, and so do its results (see is_question)."""
    room = budget - sum(map(cost, head)) - sum(map(cost, tail))
    start = len(history)
    while start and cost(history[start - 1]) <= room:
        start -= 1
        room -= cost(history[start])
    while start < len(history) and not is_question(history[start]):
        start += 1
    return [*head, *history[start:], *tail], start


@dataclass(frozen=True, slots=True)
class Fitted:
    """What :func:`fit_chat` sends: ``convo``; ``left``, how many of the history's first messages were left
    out; ``shortened``, how many of the earlier answers kept went shorter than stored (their tools' results
    cut or left out, or the latest one's middle)."""

    convo: list[Message]
    left: int
    shortened: int


# What stands for an earlier answer's tool result left out to fit the model's context: its tags stay (the
# tool, the page's address), so the calls above it still read as answered.
RESULT_LEFT_OUT = "(left out here: the chat is longer than the model can read at once)"
_RESULT_BODY = re.compile(r"(<result [^>]*>\n)(.*?)(\n</result>)", re.S)


def fit_chat(head: Sequence[Message], history: Sequence[Message], tail: Sequence[Message],
             budget: int) -> Fitted:
    """As :func:`fit`, exchange by exchange from the latest back, each in the first of its forms that fits
    the room left (see :func:`_forms`): an earlier answer whose results were too long was left out with its
    question, and a follow-up ("and in euros?") went with none of the chat, though the answer's words
    alone fitted."""
    room = budget - tokens(head) - tokens(tail)
    kept: list[Message] = []
    left, shortened = len(history), 0
    starts = [n for n, message in enumerate(history) if is_question(message)]
    for start, end in reversed(list(zip(starts, [*starts[1:], len(history)]))):
        exchange = list(history[start:end])
        form = next((f for f in _forms(exchange, room, latest=end == len(history)) if tokens(f) <= room), None)
        if form is None:
            break
        kept[:0] = form
        room -= tokens(form)
        left, shortened = start, shortened + (form != exchange)
    return Fitted([*head, *kept, *tail], left, shortened)


def _forms(exchange: list[Message], room: int, *, latest: bool):
    """An exchange as it may be sent, longest first: whole; its tools' results cut to MIN_RESULT characters
    each; left out (their tags kept); and, for the latest exchange, that with its answer's last message cut
    to fit ``room``, its beginning and its end kept. Each has the same messages, in the same roles."""
    yield exchange
    results = [n for n, m in enumerate(exchange) if n and m.get("role") == "user"]
    for limit in (MIN_RESULT, None) if results else ():
        exchange = [{**m, "content": _results_cut(str(m["content"]), limit)} if n in results else m
                    for n, m in enumerate(exchange)]
        yield exchange
    if latest and len(exchange) > 1 and exchange[-1].get("role") == "assistant":
        allowed = room - tokens(exchange[:-1]) - PER_MESSAGE
        text = str(exchange[-1].get("content", ""))
        chars = len(text) * allowed // max(1, estimate(text))
        while allowed >= MIN_ANSWER and chars > 0:
            shorter = _middle_out(text, chars)
            if estimate(shorter) <= allowed:
                yield [*exchange[:-1], {**exchange[-1], "content": shorter}]
                return
            chars = chars * 9 // 10


def _results_cut(content: str, limit: int | None) -> str:
    """An earlier answer's results message with each result cut to ``limit`` characters, or left out (None)."""
    def shorter(found: re.Match) -> str:
        body = found[2]
        if limit is not None:
            body = cut(body, limit)
        elif len(body) > len(RESULT_LEFT_OUT):  # a calculation's "4" stays: the note would be longer
            body = RESULT_LEFT_OUT
        return found[1] + body + found[3]

    return _RESULT_BODY.sub(shorter, content)


def _middle_out(text: str, chars: int) -> str:
    """``text`` in about ``chars`` characters: its beginning and its end, and a note where its middle was."""
    keep = max(0, chars - 90)  # the note's length
    start, end = text[: keep * 2 // 3].rstrip(), text[len(text) - keep // 3:].lstrip() if keep // 3 else ""
    gone = len(text) - len(start) - len(end)
    return f"{start}\n\n[… {gone:,} characters of this answer left out here to fit the model's context …]\n\n{end}"


def is_question(message: Message) -> bool:
    """Whether ``message`` is the user's: a question, not the results an earlier answer's tools gave it
    (ChatStore.history gives those back as user-role messages). A kept part of the chat that began with them
    would hand the model results for calls it never sees, with the question they answer left out."""
    return message.get("role") == "user" and not str(message.get("content", "")).startswith(RESULTS_OPEN)


def messages_shown(history: Sequence[Message]) -> int:
    """How many of the chat's messages ``history`` stands for, as the window shows them: each question, and
    each answer however many messages it is given back as (its rounds and their results): "6 earlier messages
    not read" was said of two left out."""
    count, answered = 0, False
    for message in history:
        if is_question(message):
            count, answered = count + 1, False
        elif message.get("role") == "assistant" and not answered:
            count, answered = count + 1, True
    return count


# -- what the server says -------------------------------------------------------------------------

def _root(base_url: str) -> str:
    base = base_url.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def has_model(models: Collection[str], name: str) -> bool:
    """Whether the server's ``models`` include ``name`` as Ollama takes it: "llama3.2" is "llama3.2:latest"."""
    return name in models or (":" not in name and f"{name}:latest" in models)


def _same_model(listed: Mapping[str, Any], model: str) -> bool:
    return has_model({str(listed.get("name", "")), str(listed.get("model", "")), str(listed.get("id", ""))}, model)


async def _get_json(http: httpx.AsyncClient, url: str, headers: Mapping[str, str], timeout: httpx.Timeout,
                    body: Mapping[str, Any] | None = None) -> Any:
    if body is None:
        resp = await http.get(url, headers=dict(headers), timeout=timeout)
    else:
        resp = await http.post(url, json=dict(body), headers=dict(headers), timeout=timeout)
    return resp.json() if resp.status_code == 200 else None


def _loaded(running: Any, model: str) -> Window | None:
    """The window of ``model`` in Ollama's list of loaded models (/api/ps), None when it is not loaded."""
    for listed in running.get("models") or () if isinstance(running, dict) else ():
        if isinstance(listed, dict) and _same_model(listed, model):
            tokens = _number(listed.get("context_length"))
            return Window(tokens) if tokens is not None else Window(OLLAMA_OLD_DEFAULT, sure=False)
    return None


async def _ollama(http, root, model, headers, timeout, load_timeout: float = 0.0) -> Window | None:
    running = await _get_json(http, f"{root}/api/ps", headers, timeout)
    if not isinstance(running, dict) or not isinstance(running.get("models"), list):
        return None
    if (window := _loaded(running, model)) is not None:
        return window
    if load_timeout > 0:
        # Not loaded (Ollama unloads a model after 5 idle minutes): load it, as the question would, and read
        # the window it was given (OLLAMA_CONTEXT_LENGTH, or more on a machine with much video memory).
        loading = httpx.Timeout(connect=timeout.connect, read=load_timeout, write=timeout.write, pool=timeout.pool)
        await _get_json(http, f"{root}/api/generate", headers, loading, {"model": model})
        if (window := _loaded(await _get_json(http, f"{root}/api/ps", headers, timeout), model)) is not None:
            return window
    shown = await _get_json(http, f"{root}/api/show", headers, timeout, {"model": model})
    if isinstance(shown, dict) and (found := re.search(r"(?m)^\s*num_ctx\s+(\d+)", str(shown.get("parameters", "")))):
        return Window(int(found.group(1)))
    return Window(OLLAMA_DEFAULT, sure=False)


async def _llama_cpp(http, root, model, headers, timeout) -> Window | None:
    props = await _get_json(http, f"{root}/props", headers, timeout)
    if not isinstance(props, dict):
        return None
    settings = props.get("default_generation_settings")
    tokens = _number(settings.get("n_ctx")) if isinstance(settings, dict) else None
    tokens = tokens or _number(props.get("n_ctx"))
    return Window(tokens) if tokens else None


async def _lm_studio(http, root, model, headers, timeout) -> Window | None:
    listed = await _get_json(http, f"{root}/api/v0/models", headers, timeout)  # ids hold slashes: the list
    items = listed.get("data") if isinstance(listed, dict) else None
    info = next((item for item in items if isinstance(item, dict) and _same_model(item, model)), None) if (
        isinstance(items, list)) else None
    if info is None or "max_context_length" not in info:
        return None
    if (tokens := _number(info.get("loaded_context_length"))) is not None:
        return Window(tokens)
    most = _number(info.get("max_context_length")) or OLLAMA_DEFAULT
    return Window(min(most, OLLAMA_DEFAULT), sure=False)  # LM Studio loads a model with 4,096 unless told


async def _vllm(http, root, model, headers, timeout, base_url: str = "") -> Window | None:
    listed = await _get_json(http, f"{base_url.rstrip('/')}/models", headers, timeout)
    items = listed.get("data") if isinstance(listed, dict) else None
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and _same_model(item, model) and (tokens := _number(item.get("max_model_len"))):
            return Window(tokens)
    return None


async def ask_window(http: httpx.AsyncClient, base_url: str, model: str, *, headers: Mapping[str, str],
                     connect_timeout: float, load_timeout: float = 0.0) -> Window | None:
    """The model's window as the server tells it (Ollama, llama.cpp, LM Studio, vLLM each have their own
    way), or None when it does not. All are asked at once; a server that is not that kind answers 404.
    ``load_timeout``: how long Ollama may take to load a model it has not loaded (0: it is not loaded)."""
    root = _root(base_url)
    timeout = httpx.Timeout(connect=connect_timeout, read=2.0, write=2.0, pool=connect_timeout)

    async def asking(probe, **more) -> Window | None:
        try:
            return await probe(http, root, model, headers, timeout, **more)
        except (httpx.HTTPError, ValueError, TypeError, AttributeError) as exc:
            log.debug("asking %s for the context window: %s", probe.__name__, exc)
            return None

    found = await asyncio.gather(asking(_ollama, load_timeout=load_timeout), asking(_llama_cpp),
                                 asking(_lm_studio), asking(_vllm, base_url=base_url))
    sure = [w for w in found if w is not None and w.sure]
    return sure[0] if sure else next((w for w in found if w is not None), None)


# -- what a refusal says ----------------------------------------------------------------------------

_REFUSAL = re.compile(
    r"context (?:length|size|window)|maximum context|context_length_exceeded|exceed_context_size|"
    r"exceeds the available context|prompt is too long|too many tokens|input is too long|n_ctx", re.I)
_WINDOW_SAID = re.compile(
    r"(?:maximum context length is|context length of only|context (?:length|size|window) of|"
    r"\"n_ctx\"\s*:|n_ctx\s*[=:])\s*(\d[\d,]*)", re.I)


def is_refusal(text: str) -> bool:
    """Whether a server's error words say the request was longer than the model's context."""
    return _REFUSAL.search(text) is not None


def refused_window(text: str) -> int | None:
    """The window a refusal names (vLLM and OpenAI: "maximum context length is 4096 tokens"; LM Studio:
    "loaded with context length of only 4096 tokens"; llama.cpp's error object: "n_ctx": 4096)."""
    found = _WINDOW_SAID.search(text)
    if found is None:
        return None
    tokens = int(found.group(1).replace(",", ""))
    return tokens if tokens >= 64 else None


# -- one request ------------------------------------------------------------------------------------

class Fitting:
    """One request's conversation, cut to the model's window as it grows round by round.

    ``tail`` is the request's own list (the question, then each round's reply and results): the engine
    appends to it, and this cuts an earlier round's results in it when nothing else is left to leave out.
    ``setting`` is the user's ``context_tokens`` (0: none). ``ask`` finds the server's window, once, when the
    request first grows past SMALL_REQUEST; the smaller of the two is used, or the setting when the server
    can only guess. ``smaller_head`` makes the system prompt again with its knowledge-base passages cut to
    a number of characters (None: it has none). ``persona``: the tokens the user's persona takes in the system
    prompt (0: the app's own), to blame it, not the question, when it is what does not fit; ``tools``: the names
    of the tools offered, to say which to turn off when the app's instructions are what does not fit."""

    def __init__(self, head: Sequence[Message], history: Sequence[Message], tail: list[Message], *,
                 max_tokens: int = 0, setting: int = 0, ask=None, smaller_head=None, persona: int = 0,
                 tools: Collection[str] = ()) -> None:
        self.head, self.history, self.tail = list(head), list(history), tail
        self.max_tokens = max_tokens
        self.window = Window(setting, setting=True) if setting else None
        self.budget = self._budget(self.window.tokens) if self.window else None
        self.ask = ask
        self.smaller_head = smaller_head
        self._passage_chars = PASSAGE_CHARS
        self.results: dict[int, Any] = {}  # a results message's place in the tail → how to write it shorter
        self._result_limits: dict[int, int] = {}
        self.left_out = 0  # the most messages of the chat left out of one round
        self.shortened = 0  # the most earlier answers sent shorter in one round (see fit_chat)
        self.kept = 0  # the messages of the chat in the last conversation made
        self.persona = persona
        self.tools = tools  # the tools offered, whose descriptions are in the head

    def _budget(self, window: int) -> int:
        return window - reserve(window, self.max_tokens)

    def _use(self, window: Window) -> None:
        self.window = window
        self.budget = self._budget(window.tokens)

    async def convo(self) -> list[Message]:
        await self._know()
        if self.budget is None:
            self.kept = len(self.history)
            return [*self.head, *self.history, *self.tail]
        convo = self._shortest()
        if self.window.sure and tokens(convo) + MIN_REPLY > self.window.tokens:
            # Sent, Ollama would cut its front (these instructions first) without a word; others refuse it.
            raise self.too_long(self.window.tokens, convo, setting=self.window.setting)
        return convo

    def too_long(self, window: int, convo: Sequence[Message], *, setting: bool = False) -> ContextTooLong:
        """Why ``convo``, cut as far as it can be, cannot be sent (``window``: the model's context, 0 when not
        known): the question is too long, or the persona, or the app's own instructions, whichever takes the
        most (a pasted character card and "hi" were told to shorten the question, and so was a three-word
        question sent to a model loaded with a context too small for the instructions)."""
        size, question = tokens(convo), tokens(self.tail)
        ours = size - question - self.persona  # the app's instructions, its tools' descriptions, passages
        if self.persona > question and self.persona >= ours:
            return ContextTooLong(persona_too_long_words(window, self.persona, size, setting=setting), window)
        if question < ours:  # the app's own instructions take the room: shortening the question is little help
            return ContextTooLong(instructions_too_long_words(window, size, question, self.tools, setting=setting,
                                                              passages=self.smaller_head is not None), window)
        return ContextTooLong(too_long_words(window, size, setting=setting), window)

    def _shortest(self) -> list[Message]:
        """The conversation cut to the budget as far as it can be: earlier messages shortened and left out
        (see fit_chat), then the passages in the prompt cut, then the results of earlier rounds, then the
        last round's; then the earlier messages that fit again beside what was cut are taken back."""
        fitted = fit_chat(self.head, self.history, self.tail, self.budget)
        if fitted.left < len(self.history) or tokens(fitted.convo) <= self.budget:
            return self._took(fitted)
        convo = fitted.convo  # the head and the tail alone: nothing of the chat fitted beside them
        while tokens(convo) > self.budget and self.smaller_head is not None and self._passage_chars > MIN_PASSAGES:
            self._passage_chars //= 2
            self.head = list(self.smaller_head(self._passage_chars))
            convo = [*self.head, *self.tail]
        for at in range(2, len(self.tail), 2):  # each round's results, oldest first: each written again shorter
            rewrite = self.results.get(at)
            limit = self._result_limits.get(at, 0)
            while tokens(convo) > self.budget and rewrite is not None and limit > MIN_RESULT:
                limit = max(MIN_RESULT, limit // 2)
                self._result_limits[at] = limit
                self.tail[at] = {**self.tail[at], "content": rewrite(limit)}
                convo = [*self.head, *self.tail]
        return self._took(fit_chat(self.head, self.history, self.tail, self.budget))

    def _took(self, fitted: Fitted) -> list[Message]:
        self.left_out = max(self.left_out, messages_shown(self.history[:fitted.left]))
        self.shortened = max(self.shortened, fitted.shortened)
        self.kept = len(fitted.convo) - len(self.head) - len(self.tail)
        return fitted.convo

    def add_results(self, message: Message, rewrite, limit: int) -> None:
        """Append a round's results ``message`` (each result cut to ``limit`` characters) to the tail;
        ``rewrite(limit)`` writes it again with a smaller one (every result keeps its tags, and the question
        is said again)."""
        self.tail.append(message)
        self.results[len(self.tail) - 1] = rewrite
        self._result_limits[len(self.tail) - 1] = limit

    async def _know(self, more: int = 0) -> None:
        """Ask the window, once, when the request (and ``more`` tokens to come) grows past SMALL_REQUEST."""
        if self.ask is None or tokens((*self.head, *self.history, *self.tail)) + more <= SMALL_REQUEST:
            return
        ask, self.ask = self.ask, None
        told = await ask()
        if told is not None and (self.window is None or told.sure and told.tokens < self.window.tokens):
            self._use(told)  # the setting is used up to what the server says, not beyond it

    def reply_tokens(self, sent: Sequence[Message]) -> int:
        """The max_tokens to ask for with ``sent``: the setting, no more than the window leaves (vLLM refuses
        a request whose prompt and reply together exceed it); 0 for the server's own."""
        if not self.max_tokens or self.window is None:
            return self.max_tokens
        return max(64, min(self.max_tokens, self.window.tokens - tokens(sent)))

    async def result_chars(self, reply: str, results: Sequence[str], most: int) -> int:
        """The longest a tool result may be (``most``, the setting, at the longest) when the round's ``reply``
        and ``results`` must fit beside what is always sent: with a window of 4,096 tokens, three results
        of 8,000 characters would not, and Ollama would cut the system prompt to make room."""
        await self._know(estimate(reply) + sum(estimate(r[:most]) for r in results))
        if self.budget is None or not results:
            return most
        room = self.budget - tokens(self.head) - tokens(self.tail) - estimate(reply) - 2 * PER_MESSAGE
        # the results message's own words: the untrusted-data note, the question said again, each result's tags
        room -= 250 + 25 * len(results)
        # characters a token in these results together (three for prose, fewer for base64 or emoji)
        texts = [r[:most] for r in results]
        per_token = sum(map(len, texts)) / max(1, sum(map(estimate, texts)))
        return max(MIN_RESULT, _level(sorted(map(len, texts)), int(room * per_token * 0.95), most))

    def refused(self, said: int | None, sent: Sequence[Message]) -> bool:
        """The server refused ``sent`` as too long (``said``: the window its words named): a smaller budget,
        and whether a shorter request can be made at all (False when nothing is left to leave out or cut)."""
        budget = tokens(sent) * 3 // 4  # the estimate was low (code, numbers): a quarter less
        if said:
            budget = min(budget, self._budget(said))
            if self.window is None or not self.window.sure or said < self.window.tokens:
                self.window = Window(said)
        self.budget = budget if self.budget is None else min(self.budget, budget)
        if self.window is None:  # a guess, not said as the model's context
            self.window = Window(self.budget + reserve(self.budget, self.max_tokens), sure=False)
        return tokens(self._shortest()) < tokens(sent)


def _level(lengths: Sequence[int], room: int, most: int) -> int:
    """The longest each of results of ``lengths`` (shortest first) may be for all to fit in ``room``
    characters: the short ones whole, the others sharing what is left (a calculation's "2 + 2 = 4" beside
    two pages took no room from them)."""
    for n, length in enumerate(lengths):
        share = room // (len(lengths) - n)
        if length > share:
            return min(most, share)
        room -= length
    return most


def tokens(messages: Sequence[Message]) -> int:
    return sum(map(cost, messages))
