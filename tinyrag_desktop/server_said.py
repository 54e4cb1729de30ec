"""What a model server said, read from its answer: an error's words, and the names of the models it lists.

One reading for every request to a server (a chat's, the embeddings' of the knowledge base, the first start's
search for a server), so each reads the shapes real servers send alike: OpenAI's ``{"error": {"message": …}}``,
Ollama's ``{"error": "…"}``, FastAPI's 422 with its list of problems, koboldcpp's ``{"detail": {"msg": …}}``,
an error that is only a flag beside its message, an HTML error page; and for ``/models``, OpenAI's list,
llama.cpp's "models" beside it, and Ollama's ``"data": null`` when no model is pulled yet.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from .entities import unescape
from .halves import mended

_MOST = 300  # characters of a server's words kept
_PAGE_READ = 100_000  # characters of an error page read for its words: its title is near the top
_TAG = re.compile(r"<[^<>]*>")  # "<" before ">": a page of unclosed tags is read in one pass
_WORDS = ("message", "msg", "detail", "type")  # an error object's fields that may say it, best first


def server_message(text: str) -> str:
    """The human part of an error body: its JSON error's words (see error_words), an HTML page's title, or the
    text itself; nothing for a body that is mostly not text (compressed or binary bytes were shown as rows of
    "�")."""
    text = text.strip()
    if not _mostly_text(text[:1000]):
        return ""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
        if text[:200].lstrip().lower().startswith(("<!doctype", "<html")) or "<body" in text[:2000].lower():
            return _page_words(text)
        return text[:_MOST]
    if says_error(obj):
        return error_words(error_of(obj))[:_MOST]
    return text[:_MOST]


def says_error(obj: Any) -> bool:
    """Whether decoded JSON is an error's body ("error", "detail" or "message" in it), not another answer."""
    return isinstance(obj, dict) and any(key in obj for key in ("error", "detail", "message"))


def error_of(obj: Mapping[str, Any]) -> Any:
    """What holds an error object's words: its "error" (a text, an object, a list), or the object itself when
    that is missing, empty or only a flag, ``{"error": true, "message": "Model failed to load"}``: it was said
    as "" or "False"."""
    err = obj.get("error")
    return err if err and isinstance(err, (str, dict, list)) else obj


def error_words(err: Any) -> str:
    """An error's words: a text, or an error object's "message" ("msg": koboldcpp's; "detail"), else its type
    ("server_error"); FastAPI's list of problems as "messages: Field required"; "" for one without any. A
    server's object was shown as Python's dict, or as "{}"."""
    while isinstance(err, dict):  # a loop: objects nested thousands deep must not reach Python's recursion limit
        err = next((err[key] for key in _WORDS if err.get(key)), "")
    if isinstance(err, list):  # FastAPI's 422, [{"loc": ["body", "messages"], "msg": …}], was said as Python's
        return "; ".join(map(_problem, err))
    return "" if err is None or isinstance(err, bool) else str(err).strip()


def _problem(item: Any) -> str:
    """One problem of a FastAPI validation error in words: "messages: Field required"."""
    if not isinstance(item, dict) or not item.get("msg"):
        return str(item)
    loc = item.get("loc")
    parts = loc if isinstance(loc, (list, tuple)) else [loc] if loc else []  # one text was spelt "b.o.d.y"
    where = ".".join(str(part) for part in parts if part != "body")
    return f"{where}: {item['msg']}" if where else str(item["msg"])


def _mostly_text(text: str) -> bool:
    """True unless more than a quarter of ``text`` is bytes that are no UTF-8 (U+FFFD) or zero bytes: compressed
    or binary bytes. Control codes in a text are shown escaped, as they came."""
    return (text.count("\ufffd") + text.count("\x00")) * 4 <= len(text)


def _page_words(html: str) -> str:
    """An HTML error page in words: its title, else its text without the markup. Never raises, and takes
    time in step with the page: markup that never closes a tag, a title or a script cannot make it slow."""
    from .tools.readable import strip_invisible  # only for a page: the tools are not needed else

    page = html[:_PAGE_READ]
    lower = page.lower()
    start = lower.find("<title")
    opened = lower.find(">", start) + 1 if start >= 0 else 0
    closed = lower.find("</title", opened) if opened else -1
    title = " ".join(unescape(page[opened:closed]).split()) if closed >= 0 else ""
    return (title or " ".join(unescape(_TAG.sub(" ", strip_invisible(page))).split()))[:_MOST]


def model_names(payload: Any) -> list[str] | None:
    """The names of the models a ``/models`` answer lists, each once: OpenAI's ``{"data": [{"id": …}]}``,
    llama.cpp's ``"models": [{"name"|"model": …}]`` beside it, a list alone, names as plain texts. [] for
    Ollama's ``"data": null`` (no model pulled yet); None for JSON that lists no models at all (another
    server's answer). Never raises on odd JSON: an entry without a name is passed over."""
    if isinstance(payload, list):
        payload = {"data": payload}
    if not isinstance(payload, Mapping):
        return None
    lists = [payload[key] for key in ("data", "models") if isinstance(payload.get(key), list)]
    if not lists and not ("data" in payload and payload["data"] is None):
        return None
    names: list[str] = []
    seen: set[str] = set()  # a look through the list for each name took 4 s for a router's 30,000 models
    for entry in (entry for entries in lists for entry in entries):
        name = mended(_name_of(entry))  # a name holding half a character: shown, stored
        if name.strip() and name not in seen:
            seen.add(name)
            names.append(name)
    return names


def _name_of(entry: Any) -> str:
    """A listed model's name: the entry itself, or its "id" ("name", "model": llama.cpp's); "" for none."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, Mapping):
        return next((entry[key] for key in ("id", "name", "model") if isinstance(entry.get(key), str)), "")
    return ""
