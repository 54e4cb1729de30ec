"""The settings schema and the settings file: one place for every option, its type, default and range.

The file is ``settings.json`` in the data folder, written atomically (temp file, fsync, rename). Comments and
trailing commas, which people write in a file they edit, are read. A file that cannot be read all the same
gives defaults, with a warning; the window, which may save, first moves it aside to ``settings.json.bad``. Keys this version does not know are kept as they are, so an older app does not drop
what a newer one wrote.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping
from urllib.parse import urlsplit

from .hidden_passwords import hide_passwords
from .files import make_private_folder, write_whole

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"


class SettingsError(ValueError):
    """A value that the schema refuses; the message says which key and why, in plain words (an address's
    password hidden)."""

    def __init__(self, message: str) -> None:
        super().__init__(hide_passwords(message))


@dataclass(frozen=True, slots=True)
class Option:
    """One setting: its type, default, allowed range and the sentence the settings dialog shows."""

    name: str
    type: type
    default: Any
    description: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    secret: bool = False
    # What a text option must look like beyond its type: "url" (an http or https address), "url or empty",
    # "lang" (a language code), "token" (a key sent in a header: printable ASCII), "model" (a model's name,
    # trimmed); None for any text.
    form: str | None = None
    # An address of the kind the option wants, for the reason a wrong one gets: a SearXNG instance is no
    # model server, and the model server's address was no example of one.
    example: str = "http://127.0.0.1:11434/v1"
    # Longest text (characters) a text option takes: a URL, a model name, a key or a path is never near it,
    # and a file pasted into the field by mistake is refused in words rather than sent with every request.
    max_length: int = 8192
    # A number's value that means "not set" and is taken outside its range (context_tokens' 0: as the
    # server says), and why the range starts where it does, said when a number is below it.
    unset: Any = None
    minimum_why: str = ""

    def check(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise SettingsError saying why not."""
        kind = self.type
        if kind is bool:
            if not isinstance(value, bool):
                raise SettingsError(f"{self.name} must be true or false, not {shown(value)}.")
            return value
        if kind in (int, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                raise SettingsError(f"{self.name} must be a number, not {shown(value)}.")
            try:
                if kind is int and float(value) != int(value):
                    raise SettingsError(f"{self.name} must be a whole number, not {shown(value)}.")
                value = kind(value)
            except OverflowError:
                raise SettingsError(f"{self.name} is far too large.") from None
            if self.unset is not None and value == self.unset:
                return value
            if self.minimum is not None and value < self.minimum:
                raise SettingsError(f"{self.name} must be at least {_num(self.minimum)}, not {_num(value)}"
                                    + (f": {self.minimum_why}" if self.minimum_why else "."))
            if self.maximum is not None and value > self.maximum:
                raise SettingsError(f"{self.name} must be at most {_num(self.maximum)}, not {_num(value)}.")
            return value
        if kind is str:
            if not isinstance(value, str):
                raise SettingsError(f"{self.name} must be text, not {shown(value)}.")
            if not savable(value):
                raise SettingsError(f"{self.name} {BROKEN_CHARACTER}: {shown(value)}.")
            if self.form in ("url", "url or empty", "token", "model"):
                # " http://127.0.0.1:11434/v1" typed or pasted into settings.json or --base-url: the space
                # is no part of an address, and kept, every request failed with "cannot be reached". Nor of a
                # model's name: "  qwen3 " was asked for, and the server had "no model called “  qwen3 ”".
                value = value.strip()
            if self.choices is not None and value not in self.choices:
                allowed = ", ".join(self.choices)
                raise SettingsError(f"{self.name} must be one of {allowed}, not {shown(value)}.")
            if len(value) > self.max_length:
                raise SettingsError(f"{self.name} is {len(value):,} characters long; at most {self.max_length:,} "
                                    "are taken.")
            if self.form in ("url", "url or empty") and any(c.isspace() for c in value) and _is_http_url(
                    "".join(value.split())):  # an address but for the space ("not a url" is told what one is)
                # "http://127.0.0.1:11434/v1 /x": urlsplit takes it, and it failed only at the first request,
                # as "cannot be reached", which sent the user to check a server that was running.
                gap = "a space" if " " in value else "a tab or line break"
                raise SettingsError(f"{self.name} has {gap} in it, and an address has none: {shown(value)}. "
                                    "Remove it (a space that belongs in the address is written %20).")
            if self.form in ("url", "url or empty") and (bad := port_problem(value, self.example)):
                raise SettingsError(f"{self.name}: {bad}")
            if self.form in ("url", "url or empty") and (value or self.form == "url") and not _is_http_url(value):
                # an empty one said in words: it read 'not ""'. The scheme before the port, and the port too:
                # "ftp://nope:99999" was told of its port alone, and of "ftp" only once the port was mended.
                port = " Its port is out of range too: a port is a number from 1 to 65535." if _bad_port(value) else ""
                raise SettingsError(f"{self.name} must be an http:// or https:// address, like "
                                    f"{self.example}" + (f", not {shown(value)}." if value else "; it is empty.")
                                    + port)
            if self.form in ("url", "url or empty") and (extra := _after_path(value)):
                # "http://127.0.0.1:11434/v1#frag" or "?x=1": the app adds /chat/completions to the address,
                # so the request went to "/v1#frag/chat/completions" and failed as "found nothing (404)"
                raise SettingsError(f"{self.name} ends in “{extra}”, which a server address has no use for: "
                                    f"remove it (like {self.example}).")
            if self.name == "base_url":  # the model server's root, never one of its endpoints
                value = server_root(value)
            if self.form == "token" and value and not _TOKEN.fullmatch(value):
                # Sent in the Authorization header, which holds only ASCII: a key pasted with “smart quotes”
                # or a stray letter failed every request as "unreachable", and searches hung. Never quoted.
                raise SettingsError(f"{self.name} can hold only plain letters, digits and signs, with no spaces "
                                    "or curly quotes: paste the key again, as the server gave it.")
            if self.form == "lang" and not _LANG.match(value):
                raise SettingsError(f"{self.name} must be a language code such as en, de or pt-BR, not {shown(value)}.")
            return value
        if kind is dict:
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()
            ):
                raise SettingsError(f"{self.name} must map names to texts.")
            if len(value) > MAX_PERSONAS:
                raise SettingsError(f"{self.name} has {len(value):,} entries; at most {MAX_PERSONAS} are taken.")
            for name, text in value.items():
                if not savable(name) or not savable(text):
                    raise SettingsError(f"{self.name}: {shown(name)} {BROKEN_CHARACTER}.")
                if len(name) > MAX_PERSONA_NAME:
                    raise SettingsError(f"{self.name}: a name is {len(name):,} characters long; at most "
                                        f"{MAX_PERSONA_NAME} are taken.")
                if len(text) > MAX_PERSONA_TEXT:
                    raise SettingsError(f"{self.name}: {shown(name, 40)} is {len(text):,} characters long; at most "
                                        f"{MAX_PERSONA_TEXT:,} are taken.")
            return dict(value)
        raise TypeError(f"unsupported option type {kind!r}")  # a schema bug, not user input


_LANG = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})?$", re.I)
_TOKEN = re.compile(r"[!-~]+")  # printable ASCII, no space


_PORT = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*):(\d+)(?:[/?#]|$)", re.IGNORECASE)


def port_problem(address: str, example: str = "http://127.0.0.1:11434/v1") -> str | None:
    """Why ``address``'s port can be no server's (http://127.0.0.1:99999/v1), in words; None when it has none
    such, or when it is no http:// or https:// address at all (that is said first). The dialog and the command
    line say the same (the dialog said only "must be an http:// address")."""
    port = _bad_port(address or "")
    if port is None or not re.match(r"https?://", address, re.IGNORECASE):
        return None
    like = urlsplit(example).port
    where = f", like {like} in {example}" if like else ""
    return f"the port {port} is out of range; a port is a number from 1 to 65535{where}."


def _bad_port(address: str) -> int | None:
    """The port ``address`` is written with when no server can have it (0, 99999), else None."""
    match = _PORT.match(address)
    return None if match is None or 1 <= int(match.group(1)) <= 65535 else int(match.group(1))


# The endpoints the app adds to the Server URL itself, which a pasted address may end with (LM Studio's docs show
# http://localhost:1234/v1/chat/completions): cut off, they leave the server's root.
_ENDPOINT = re.compile(r"/(?:chat/completions|completions|models|embeddings)/?$", re.IGNORECASE)


def server_root(address: str) -> str:
    """``address`` without an endpoint pasted at its end: "http://host:1234/v1/chat/completions" is
    "http://host:1234/v1". Kept, every request went to ".../chat/completions/chat/completions", and a strict
    server's 404 never named the extra part. The Server URL's check, so the dialog, the settings file and
    --base-url all go through it."""
    return _ENDPOINT.sub("", address.strip())


def _after_path(value: str) -> str:
    """The "?query" or "#fragment" that follows an address's path ("" when there is none)."""
    for mark in ("?", "#"):
        if mark in value:
            return value[value.index(mark):]
    return ""


def _is_http_url(value: str) -> bool:
    """An http or https address with a host and, if any, a port from 1 to 65535."""
    try:
        parts = urlsplit(value)
        port, host = parts.port, parts.hostname
    except ValueError:  # "http://host:99999", "http://host:port", "http://[::1" or "http://[zz]/v1"
        return False
    return parts.scheme in ("http", "https") and bool(host) and port != 0


# Personas are sent as the system prompt of every request in their chats: a few paragraphs, never a book.
# The limits are far above any real one, so no file an earlier version accepted loses a value to them.
MAX_PERSONAS = 500
MAX_PERSONA_NAME = 200
MAX_PERSONA_TEXT = 100_000


# A lone surrogate: JSON's "\ud800" without its second half is read as half a character, which no UTF-8
# file can hold; kept, it failed every save of the settings and of the chats (the model's name is stored with
# each answer), with a traceback.
BROKEN_CHARACTER = "holds half of a character (written \\ud800 or the like), which cannot be saved"


def savable(value: Any) -> bool:
    """Whether ``value`` can be written out as JSON in UTF-8: no half characters in it, nor nesting past
    what Python writes."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError, TypeError, RecursionError):
        return False
    return True


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as a message quotes it: whole when short, else its start and its length, so a file pasted
    into a field (or a huge value in settings.json) does not fill the message. Spelt as JSON, as the file
    holds it: null, true (Python's None, True are no words a settings.json holds), but a text in the curly
    quotes the window and the command line quote every other name in: “yes”, not "yes" beside “Allow Go
    code (nanoGo)”."""
    try:
        text = json.dumps(value, ensure_ascii=not savable(value))  # a half character as \ud800
    except (TypeError, ValueError, RecursionError):  # no JSON value (a value typed into a field is text)
        text = repr(value)
    if isinstance(value, str):  # its escapes kept (\ud800), but for a quote and a backslash: C:\models; a
        # control character as its picture ("␉", "␊"): escaped, a tab read as the backslash and "t" typed
        text = "“" + re.sub(r'\\(["\\]|[bfnrt]|u00[01][0-9a-fA-F])', _unescaped, text[1:-1]) + "”"
    if len(text) <= limit:
        return _seen(text)
    size = f"{len(value):,} characters" if isinstance(value, str) else f"{len(text):,} characters written out"
    return f"{_seen(text[:limit])}… ({size})"


_CONTROLS = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unescaped(found: re.Match) -> str:
    """A JSON escape in a quoted text as shown: the character itself, a control character as its picture."""
    code = found[1]
    if code in ('"', "\\"):
        return code
    return chr(0x2400 + ord(_CONTROLS.get(code) or chr(int(code[1:], 16))))


def _seen(text: str) -> str:
    """``text`` with its invisible or reordering characters (a right-to-left override, a line separator: Unicode's
    format and separator characters, and the control characters JSON leaves as they are: DEL, C1) as JSON
    escapes: written as they are, they turned a warning's words around on a terminal and in the window."""
    return "".join(_escaped(c) if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)


def _escaped(c: str) -> str:
    code = ord(c)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # as JSON writes it: a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _num(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


# The smallest context_tokens taken (0 aside): the app's instructions with every tool on are estimated at
# about 970 tokens, a short question and the least reply (context.MIN_REPLY) need some 150 more, and the
# knowledge base's passages, cut to their least, 250. A setting of 10 made every question fail.
MIN_CONTEXT_TOKENS = 1536

# What an empty chat_model means, in the words the status bar ("Model: server default"), its model menu and
# the settings dialog all use: the dialog said "(the server's first chat model)" beside "server default".
SERVER_DEFAULT = "server default"
SERVER_DEFAULT_MODEL = f"{SERVER_DEFAULT}: the first chat model it lists"

DEFAULT_PERSONAS = {
    "Assistant": "You are a helpful, precise assistant. Answer clearly and say when you are unsure.",
    "Concise": "You are a terse expert. Answer in as few words as the question allows.",
    "Teacher": "You explain step by step, with a small example, as to a curious student.",
}

SCHEMA: tuple[Option, ...] = (
    Option("base_url", str, "http://127.0.0.1:11434/v1",
           "Root of the OpenAI-compatible server (Ollama, LM Studio, llama.cpp, vLLM).", form="url"),
    Option("chat_model", str, "", f"The chat model to answer with (empty: {SERVER_DEFAULT_MODEL}).", form="model"),
    Option("embed_model", str, "", "Embedding model for the knowledge base (empty: keyword search only).",
           form="model"),
    Option("api_key", str, "", "API key sent as a Bearer token, if the server needs one.", secret=True,
           form="token"),
    Option("lang", str, "en", "Answer language, and the Wikipedia edition the wikipedia tool reads.", form="lang"),
    Option("theme", str, "system", "Window theme.", choices=("light", "dark", "system")),
    Option("temperature", float, 0.7, "Sampling temperature.", minimum=0.0, maximum=2.0),
    Option("chunk_size", int, 1200, "Largest knowledge-base chunk, in characters.", minimum=200, maximum=8000),
    Option("k", int, 5, "How many knowledge-base passages a search returns.", minimum=1, maximum=50),
    Option("personas", dict, DEFAULT_PERSONAS, "Named system prompts a chat can use."),
    Option("allow_shell_exec", bool, False, "Let the model run shell commands (each asks you first)."),
    Option("allow_nanogo", bool, False, "Let the model run Go code in the nanoGo sandbox."),
    Option("max_tools_total", int, 5, "Most tool calls run in one answer.", minimum=0, maximum=50),
    Option("max_tools_per_round", int, 3, "Most tool calls run in one round.", minimum=0, maximum=50),
    Option("max_continuations", int, 3, "Most rounds after the first.", minimum=0, maximum=20),
    Option("tool_timeout", float, 30.0, "Seconds a tool may run before it is stopped.", minimum=0.1, maximum=600),
    Option("network_tools", bool, True, "Offer url_fetch, websearch and wikipedia (off: fully offline)."),
    Option("url_fetch_allow_private", bool, False,
           "Let url_fetch reach loopback and private addresses (your router, local services)."),
    Option("connect_timeout", float, 5.0, "Seconds to wait for the LLM server to accept a connection.",
           minimum=0.1, maximum=120),
    Option("first_token_timeout", float, 120.0, "Seconds to wait for the model's first token.",
           minimum=1, maximum=3600),
    Option("max_tokens", int, 0, "Longest reply per round, in tokens (0: the server's default).",
           minimum=0, maximum=131072),
    Option("context_tokens", int, 0, "How much of a chat to send at once, in tokens: no more than the model's "
           "context, which the server says (0: as the server says; a larger number than it says is not used).",
           minimum=MIN_CONTEXT_TOKENS, maximum=1048576, unset=0, minimum_why=(
               "the app's instructions alone take up to about 1,000 tokens (with every tool on), and the "
               "question, the passages found and the reply need room beside them. Set 0 (or leave the box "
               "empty) to use what the server says.")),  # the command line leaves the box out (tool_words)
    Option("result_max_chars", int, 8000, "Longest tool result handed back to the model, in characters.",
           minimum=200, maximum=200000),
    Option("searxng_url", str, "", "A SearXNG instance for websearch (empty: DuckDuckGo).", form="url or empty",
           example="http://localhost:8888"),
    Option("websearch_results", int, 5, "How many web search results to return.", minimum=1, maximum=20),
    Option("nanogo_memory_mb", int, 512, "Memory cap of the nanoGo sandbox process, in MB.",
           minimum=64, maximum=8192),
    Option("local_model", str, "", "GGUF file of the built-in offline model (empty: SmolLM2-135M, if installed)."),
)

OPTIONS: dict[str, Option] = {opt.name: opt for opt in SCHEMA}


@dataclass(frozen=True)
class Settings(Mapping[str, Any]):
    """An immutable, validated view of the settings; ``extra`` holds keys this version does not know, and
    ``refused`` the values it read and could not use (each replaced by its default): both are written back
    as they were, so a value from a newer version ("theme": "solarized") outlives a Save in this one,
    until that setting is changed here."""

    values: Mapping[str, Any] = field(default_factory=lambda: {o.name: o.default for o in SCHEMA})
    extra: Mapping[str, Any] = field(default_factory=dict)
    refused: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getattr__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            raise AttributeError(key) from None

    def replace(self, **changes: Any) -> "Settings":
        """A copy with ``changes`` applied; raises SettingsError naming the first bad value."""
        values = dict(self.values)
        refused = dict(self.refused)
        for key, value in changes.items():
            opt = OPTIONS.get(key)
            if opt is None:
                raise SettingsError(f"There is no setting called {shown(key, 40)}.")
            values[key] = opt.check(value)
            if values[key] != self.values[key]:  # changed here: the value this version refused goes
                refused.pop(key, None)
        return Settings(values, self.extra, refused)

    def to_json(self) -> dict[str, Any]:
        return {**self.extra, **self.values, **self.refused}


def defaults() -> Settings:
    return Settings()


_NAMED = 10  # personas named in a warning; the rest are counted


def from_mapping(raw: Mapping[str, Any]) -> tuple[Settings, list[str]]:
    """Build settings from a decoded file; bad values fall back to defaults, each with a warning."""
    values = {o.name: o.default for o in SCHEMA}
    extra: dict[str, Any] = {}
    refused: dict[str, Any] = {}
    warnings: list[str] = []
    from .settings_extra import READ_AS_EXTRA, checked  # it checks with this module's Option

    for key, value in raw.items():
        opt = OPTIONS.get(key)
        if key in READ_AS_EXTRA and savable({key: value}):
            # Keys the schema does not hold that the web tools read (tools/netutil.setting), checked as its own
            extra[key], problem = checked(key, value)
            if problem is not None:
                warnings.append(f"{SETTINGS_FILE}: {problem}")
                refused[key] = value  # written back as it was, as a refused value of the schema's is
            continue
        if opt is None:
            if savable({key: value}):
                extra[key] = value
            else:  # kept, it would fail every save of the settings
                warnings.append(f"{SETTINGS_FILE}: the setting {shown(key, 40)} {BROKEN_CHARACTER}; it is "
                                "left out.")
            continue
        try:
            values[key] = opt.check(value)
        except SettingsError as exc:
            kept = _usable_entries(opt, value) if opt.type is dict else {}
            if kept:  # one bad persona does not cost the user all the others (the next Save wrote defaults)
                values[key] = kept
                dropped = [name for name in value if name not in kept]
                # named up to a few: 99,500 of them made one warning line of 885,631 characters
                left_out = ", ".join(shown(name, 40) for name in dropped[:_NAMED])
                if len(dropped) > _NAMED:
                    left_out += f" and {len(dropped) - _NAMED:,} more"
                warnings.append(f"{SETTINGS_FILE}: {exc} Only the usable ones are kept; left out: {left_out}.")
                continue
            default = "the default personas" if opt.type is dict else f"the default, {shown(opt.default)}"
            warnings.append(f"{SETTINGS_FILE}: {exc} Using {default}.")
            if _same_kind(opt, value) and savable(value):  # a newer version's choice ("solarized"), not a mistake
                refused[key] = value
    unknown = [key for key in extra if key not in READ_AS_EXTRA]
    if unknown:
        warnings.append(unknown_keys_warning(unknown))
    return Settings(values, extra, refused), warnings


def unknown_keys_warning(keys: list[str]) -> str:
    """What the user is told of keys this version does not use: a misspelt "temprature" went unnoticed, its
    value unused. Each with the setting it may have meant; all kept in the file, as a newer version may have
    written them."""
    def said(key: str) -> str:
        close = difflib.get_close_matches(key.lower(), OPTIONS, n=1, cutoff=0.75)
        return shown(key, 40) + (f" (did you mean {shown(close[0])}?)" if close else "")

    named = ", ".join(said(key) for key in keys[:_NAMED])
    if len(keys) > _NAMED:
        named += f" and {len(keys) - _NAMED:,} more"
    if len(keys) == 1:
        return f"{SETTINGS_FILE} has a setting this version does not use: {named}. It is kept as it is."
    return f"{SETTINGS_FILE} has settings this version does not use: {named}. They are kept as they are."


def _same_kind(opt: Option, value: Any) -> bool:
    """Whether ``value`` is of the kind ``opt`` takes, though this version refuses it: a choice it does not
    know or a number out of its range, as a newer version may write; not text where a number goes."""
    if opt.type is bool:
        return isinstance(value, bool)
    if opt.type in (int, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, opt.type)


def _usable_entries(opt: Option, value: Any) -> dict[str, str]:
    """The entries of a mapping option that it takes one by one, up to its limit (empty if none)."""
    kept: dict[str, str] = {}
    if not isinstance(value, dict):
        return kept
    for name, text in value.items():
        if len(kept) == MAX_PERSONAS:
            break
        try:
            kept.update(opt.check({name: text}))
        except SettingsError:
            continue
    return kept


def json_mistake(exc: json.JSONDecodeError) -> str:
    """Where and what a JSON text's mistake is, in words: "expecting value at line 2, column 16" (Python
    says "Expecting value: line 2 column 16 (char 30)")."""
    what = exc.msg.removesuffix(" at")  # "Unterminated string starting at", "Invalid control character at"
    return f"{what[0].lower()}{what[1:]} at line {exc.lineno}, column {exc.colno}"


# What people write in a file they edit by hand that JSON does not allow: comments (// to the end of the line,
# /* … */) and a comma before a closing bracket. Strings are matched first so that "http://…" is no comment.
# Each is replaced by spaces of its own length (line breaks kept), so a mistake left is said where it is.
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_COMMENTS = re.compile(_STRING + r"|//[^\n]*|/\*.*?\*/", re.S)
_TRAILING_COMMA = re.compile(_STRING + r"|,(?=\s*[}\]])", re.S)
LENIENT_NOTE = (f"{SETTINGS_FILE} has comments or a comma before a closing bracket, which JSON does not allow; "
                "they were read all the same. Saving the settings writes plain JSON, without the comments.")


def _blank(match: re.Match) -> str:
    text = match.group()
    return text if text.startswith('"') else re.sub(r"[^\n]", " ", text)


def lenient_json(text: str) -> Any:
    """Decode JSON that may hold comments and trailing commas outside its strings; any valid JSON reads as
    json.loads reads it. Raises what json.loads raises, at the place the mistake is in ``text``."""
    return json.loads(_TRAILING_COMMA.sub(_blank, _COMMENTS.sub(_blank, text)))


def load_settings(data_dir: Path, *, keep_aside: bool = False) -> tuple[Settings, list[str]]:
    """Read ``settings.json``; a missing file gives defaults, and so does one that cannot be read, with a
    warning. ``keep_aside`` (the window, which will save): such a file is moved to ``settings.json.bad`` first,
    so saving does not overwrite it; else (the command line's verbs, which save nothing) it is left in place,
    and is no less there for the window's next start."""
    path = Path(data_dir) / SETTINGS_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return defaults(), []
    except OSError as exc:
        return defaults(), [f"Could not read {path} ({exc.strerror}); using default settings."]
    try:
        raw, notes = decoded(data)
    except (ValueError, RecursionError) as exc:  # RecursionError: brackets nested thousands deep
        log.warning("settings file %s is damaged: %s", path, exc)
        why = ("not UTF-8 text" if isinstance(exc, UnicodeDecodeError)
               else "nested too deeply" if isinstance(exc, RecursionError)
               else f"not valid JSON: {json_mistake(exc)}" if isinstance(exc, json.JSONDecodeError)
               # Python's own words ("Exceeds the limit (4300 digits) for integer string conversion …")
               else "a number in it is too long" if "digits" in str(exc) else str(exc))
        if not keep_aside:
            return defaults(), [f"The settings file {path} is damaged ({why}); default settings are used for now. "
                                "It is left as it is: correct it, or start the window, which keeps it aside and "
                                "starts with default settings."]
        bad = _unused(path.with_name(SETTINGS_FILE + ".bad"))  # an earlier damaged file stays as it was kept
        try:
            os.rename(path, bad)
            kept = f" It was kept as {bad}."
        except OSError:
            kept = ""
        return defaults(), [f"The settings file was damaged ({why}) and default settings are used.{kept}"]
    settings, warnings = from_mapping(raw)
    return settings, notes + warnings


def decoded(data: bytes) -> tuple[dict[str, Any], list[str]]:
    """The settings file's bytes as its JSON object, and the notes reading it gave (LENIENT_NOTE); raises
    ValueError (or RecursionError) when it is damaged."""
    # "utf-8-sig": a byte order mark at the start (Windows Notepad writes one) is no damage; it cost every
    # setting. A UnicodeDecodeError is a ValueError too.
    text = data.decode("utf-8-sig")
    notes: list[str] = []
    try:
        raw = json.loads(text)
    except json.JSONDecodeError:
        raw = lenient_json(text)  # a hand-edited file's comments: no reason to set every setting aside
        notes.append(LENIENT_NOTE)
    if not isinstance(raw, dict):
        raise ValueError("not a JSON object")
    return raw, notes


def _unused(path: Path) -> Path:
    """``path``, or ``path-2``, ``path-3`` … : the first name that nothing has yet."""
    n = 1
    while (candidate := path if n == 1 else path.with_name(f"{path.name}-{n}")).exists():
        n += 1
    return candidate


def try_save_settings(data_dir: Path, settings: Settings | Mapping[str, Any]) -> str | None:
    """Write ``settings.json`` (see save_settings): None when written, else why not, in words that say what
    to do (the window keeps the edits)."""
    try:
        save_settings(data_dir, settings)
        return None
    except OSError as exc:
        return _write_problem(data_dir, exc)


def _write_problem(data_dir: Path, exc: OSError) -> str:
    import errno

    where = Path(data_dir) / SETTINGS_FILE
    if exc.errno == errno.ENOSPC or exc.errno == errno.EDQUOT:
        why = "the disk is full. Free some space, then try again."
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = "its folder cannot be written (it is read-only, or belongs to another user)."
    else:
        why = f"{(exc.strerror or str(exc)).rstrip('.')}."
    return f"Could not save the settings in {where}: {why}"


def save_settings(data_dir: Path, settings: Settings | Mapping[str, Any]) -> Path:
    """Write ``settings.json`` atomically: a crash leaves the old file or the new one, never half of one.
    ``settings``: Settings, or the JSON object to write as it is (settings_changes: the file's values kept)."""
    data_dir = Path(data_dir)
    make_private_folder(data_dir)
    path = data_dir / SETTINGS_FILE
    content = settings.to_json() if isinstance(settings, Settings) else dict(settings)
    write_whole(path, json.dumps(content, indent=2, sort_keys=True, ensure_ascii=False) + "\n", private=True)
    return path
