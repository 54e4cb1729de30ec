"""First run: find a local LLM server on loopback, and put the shipped user guide into the knowledge base.

The guide's marker file records which guide was imported (each page's place in the knowledge base and its
SHA-256). At a later start a guide the new version ships changed or in another place (an upgrade, a new
install folder) replaces the pages still in the knowledge base; pages the user removed stay removed.

With no settings file yet, the app probes the usual local servers at once, each with a short timeout, and
takes the first one (in the order of ``KNOWN_SERVERS``) whose model list holds a chat model. The probe only
ever talks to loopback; the ports are a parameter so tests run their own servers on free ports. Every
server tried is reported with the reason it was not chosen, so the window can say what it looked for.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence

import httpx

from .engine.llm import is_chat_model
from .hidden_passwords import hide_passwords
from .http_clients import async_client
from .resources import resource_path
from .server_said import model_names
from .settings import SETTINGS_FILE

__all__ = [
    "Attempt", "Found", "KNOWN_SERVERS", "KnownServer", "ProbeResult", "chat_models", "guide_files",
    "import_user_guide", "is_chat_model", "is_first_run", "probe_servers", "probe_servers_sync", "probe_url",
    "refresh_user_guide",
]

log = logging.getLogger(__name__)

GUIDE_MARKER = ".guide-imported"  # which guide was imported: a guide the user removed is not imported again
PROBE_TIMEOUT = 1.5  # seconds per server; all are probed at once, so the whole probe takes about this long


@dataclass(frozen=True, slots=True)
class KnownServer:
    """A local server product and the loopback port it listens on by default."""

    name: str
    port: int


KNOWN_SERVERS: tuple[KnownServer, ...] = (
    KnownServer("Ollama", 11434),
    KnownServer("LM Studio", 1234),
    KnownServer("llama.cpp server", 8080),
    KnownServer("vLLM", 8000),
    KnownServer("Jan", 1337),
)


@dataclass(frozen=True, slots=True)
class Found:
    """The server chosen: the OpenAI-compatible root to use, the chat model, and the product's name."""

    base_url: str
    model: str  # "" lets the server choose
    server_name: str

    def said(self) -> str:
        model = f"the model {self.model}" if self.model else "its default model"
        return f"Found {self.server_name} at {self.base_url} with {model}."


@dataclass(frozen=True, slots=True)
class Attempt:
    """One server tried: ``ok`` is True for the one chosen; ``reason`` says in words what happened;
    ``running`` that it answered with a list of models, none to chat with (one may be on its way);
    ``locked`` that it runs but asks for an API key (401 or 403: vLLM or LM Studio started with one);
    ``named`` that its answer showed it to be a model server, ``server_name`` (False for a 401 or 403 that was
    no OpenAI-style error: any program on that port, a router's page or a proxy's)."""

    server_name: str
    base_url: str
    ok: bool
    reason: str
    models: tuple[str, ...] = ()
    running: bool = False
    locked: bool = False
    named: bool = True

    def asks_for_key(self) -> str:
        """The server in words when it asks for an API key: "vLLM is running at … but asks for an API key",
        or "A server at … asks for an API key" when nothing but its port said which it is."""
        url = hide_passwords(self.base_url)
        if not self.named:
            return f"A server at {url} asks for an API key"
        return f"{self.server_name} is running at {url} but asks for an API key"


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """What the probe found (None when no server has a chat model) and every server it tried, in order."""

    found: Found | None
    tried: tuple[Attempt, ...]

    @property
    def locked(self) -> Attempt | None:
        """The first server tried that runs but asks for an API key (None when none does)."""
        return next((a for a in self.tried if a.locked), None)

    def summary(self) -> str:
        """One sentence for the status bar or the welcome panel (two when a server asks for an API key)."""
        if self.found is not None:
            return self.found.said()
        if not self.tried:
            return "No local servers were tried."
        parts = [f"{a.server_name} ({_port(a.base_url)}): {a.reason}" for a in self.tried]
        said = "No local server with a chat model answered. " + "; ".join(parts) + "."
        if self.locked is not None:  # it was only "answered HTTP 401", among the servers that were not there
            said = (f"{self.locked.asks_for_key()}: enter it, with that address as the Server URL, in Settings "
                    f"(or pass --base-url and --api-key). {said}")
        return said


def _port(base_url: str) -> str:
    return base_url.split("//", 1)[-1].split("/", 1)[0]


def chat_models(payload: Any) -> tuple[list[str], list[str]]:
    """(chat models, other models) from a ``/v1/models`` answer (read as the chat's client reads it, see
    server_said.model_names); never raises on odd JSON."""
    return _chat_first(model_names(payload) or [])


def _chat_first(names: list[str]) -> tuple[list[str], list[str]]:
    chat = [n for n in names if is_chat_model(n)]
    return chat, [n for n in names if n not in chat]


async def _probe_one(http: httpx.AsyncClient, server: KnownServer, host: str) -> Attempt:
    return await _probe_base(http, server.name, f"http://{host}:{server.port}/v1")


async def _probe_base(http: httpx.AsyncClient, name: str, base: str, headers: Mapping[str, str] | None = None
                      ) -> Attempt:
    try:
        response = await http.get(f"{base}/models", headers=headers)
    except httpx.ConnectError:
        return Attempt(name, base, False, "nothing answers there")
    except httpx.TimeoutException:
        return Attempt(name, base, False, "no answer in time")
    except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL: a base URL typed by hand
        return Attempt(name, base, False, f"the connection failed ({exc.__class__.__name__})")
    if response.status_code in (401, 403):  # it runs: vLLM or LM Studio started with --api-key
        asked = "refused the API key" if headers else "runs, but asks for an API key"
        return Attempt(name, base, False, f"{asked} (HTTP {response.status_code})", locked=True,
                       named=_openai_error(response))
    if response.status_code != 200:
        return Attempt(name, base, False, f"answered HTTP {response.status_code}, not a model list")
    try:
        payload = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        payload = None
    names = model_names(payload)
    if names is None:  # another server's JSON: it was said to run "with no model loaded"
        return Attempt(name, base, False, "answered, but not with a model list")
    chat, other = _chat_first(names)
    if chat:
        return Attempt(name, base, True, f"lists {len(chat)} chat model(s)", tuple(chat))
    if other:
        return Attempt(name, base, False, "lists only embedding models (" + ", ".join(other[:3]) + ")",
                       tuple(other), running=True)
    return Attempt(name, base, False, "runs, but has no model loaded", running=True)


def _openai_error(response: httpx.Response) -> bool:
    """Whether ``response`` is an OpenAI-style error, a JSON object with "error", as vLLM's and LM Studio's are."""
    try:
        payload = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(payload, dict) and "error" in payload


async def probe_servers(
    servers: Sequence[KnownServer] = KNOWN_SERVERS,
    *,
    host: str = "127.0.0.1",
    timeout: float = PROBE_TIMEOUT,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ProbeResult:
    """Ask every server for its models at once; choose the first, in ``servers`` order, with a chat model."""
    # trust_env=False: a proxy from the environment must not intercept loopback requests.
    async with httpx.AsyncClient(timeout=httpx.Timeout(timeout), trust_env=False, transport=transport,
                                 follow_redirects=False) as http:
        attempts = await asyncio.gather(*(_probe_one(http, s, host) for s in servers))
    found = None
    tried = []
    for attempt in attempts:
        if attempt.ok and found is None:
            found = Found(attempt.base_url, attempt.models[0], attempt.server_name)
        elif attempt.ok:  # a later server with a chat model: reported, not chosen
            attempt = Attempt(attempt.server_name, attempt.base_url, False,
                              f"{attempt.reason}; {found.server_name} came first", attempt.models)
        tried.append(attempt)
    return ProbeResult(found, tuple(tried))


async def probe_url(base_url: str, *, name: str = "Your server", api_key: str = "", timeout: float = PROBE_TIMEOUT,
                    transport: httpx.AsyncBaseTransport | None = None) -> Attempt:
    """Ask one server, at any address (the one in the settings), for its models, as the probe asks each usual
    one; ``ok`` when it lists a chat model."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else None
    async with async_client(timeout=httpx.Timeout(timeout), transport=transport, follow_redirects=False) as http:
        return await _probe_base(http, name, base_url.rstrip("/"), headers)


def probe_servers_sync(servers: Sequence[KnownServer] = KNOWN_SERVERS, **kwargs: Any) -> ProbeResult:
    """probe_servers for callers without an event loop (the command line, a worker thread)."""
    return asyncio.run(probe_servers(servers, **kwargs))


def is_first_run(data_dir: Path) -> bool:
    """True until a settings file exists in ``data_dir``."""
    return not (Path(data_dir) / SETTINGS_FILE).exists()


def guide_files(guide_dir: Path | None = None) -> list[Path]:
    """The shipped user guide's pages, in reading order."""
    folder = guide_dir if guide_dir is not None else resource_path("guide")
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def import_user_guide(data_dir: Path, *, chunk_size: int = 1200, guide_dir: Path | None = None,
                      force: bool = False):
    """Import the user guide into ``data_dir``'s knowledge base once, as ordinary removable sources.

    Returns the kb ImportReport, or None when the guide was imported before (a marker file remembers it,
    so a guide the user removed stays removed) or there is no guide to import.
    """
    from .kb import Importer, open_store

    data_dir = Path(data_dir)
    marker = data_dir / GUIDE_MARKER
    files = guide_files(guide_dir)
    if not files or (marker.exists() and not force):
        return None
    store = open_store(data_dir)
    try:
        report = Importer(store, chunk_size=chunk_size).run([str(f) for f in files])
    finally:
        store.close()
    if not report.failed and not report.cancelled:
        places = _stored_places(report)
        _write_marker(marker, {f.name: _Page(str(f), places.get(f.name, _place(f)), _digest(f)) for f in files})
    return report


def refresh_user_guide(data_dir: Path, *, chunk_size: int = 1200, guide_dir: Path | None = None):
    """After an upgrade: replace the guide pages still in the knowledge base with the ones this version
    ships, when those say other things, or the files they were imported from are gone or changed (an old
    install's folder). Pages the user removed are not added back (none kept: nothing is added). Returns the
    kb ImportReport, or None when nothing was imported: no guide was imported here before (see
    import_user_guide), the user removed it, or the pages are this version's (told from the marker and the
    files, without opening the knowledge base)."""
    data_dir = Path(data_dir)
    marker = data_dir / GUIDE_MARKER
    files = guide_files(guide_dir)
    if not files:
        return None
    try:
        recorded = _read_marker(marker)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:  # or nested deep
        log.info("the user guide's marker %s cannot be read (%s): the guide is left as it is", marker, exc)
        return None
    shipped = {f.name: (f, _digest(f)) for f in files}
    current = {name for name, (f, digest) in shipped.items()
               if name in recorded and _same(recorded[name], f, digest)}  # nothing to do for these
    if current == shipped.keys() == recorded.keys():
        return None
    from .kb import Importer, open_store

    report, places = None, {}
    store = open_store(data_dir)
    try:
        kept = {}  # name: the source stored from the page imported before
        for name, page in recorded.items():
            source = store.source_by_location(page.location) or store.source_by_location(_place(page.location))
            if source is not None:
                kept[name] = source
        todo = [f for name, (f, _) in shipped.items()
                if name not in current and (name in kept or name not in recorded)]  # a new page comes too
        if kept:  # else the user removed the guide: it stays removed
            if todo:
                report = Importer(store, chunk_size=chunk_size).run([str(f) for f in todo])
                if report.failed or report.cancelled:  # the old pages stay, and the marker: tried at the next start
                    log.warning("the user guide in the knowledge base could not be replaced: %s",
                                "; ".join(f"{f.location}: {f.reason}" for f in report.failed) or "cancelled")
                    return report
                places = _stored_places(report)
            gone = [source.id for name, source in kept.items()
                    if name not in shipped or places.get(name, source.location) != source.location]
            store.remove_sources(gone)
            if gone or (report is not None and (report.added or report.updated)):
                log.info("the user guide in the knowledge base was replaced by the one in %s (%d pages read, %d "
                         "removed; it was imported from %s)", files[0].parent, len(todo), len(gone),
                         Path(next(iter(kept.values())).location).parent)
    finally:
        store.close()
    pages = {}
    for name, (f, digest) in shipped.items():
        if name in current and name in kept:  # kept where it was, with this version's words
            pages[name] = recorded[name]
        else:
            pages[name] = _Page(str(f), places.get(name, _place(f)), digest)
    _write_marker(marker, pages)
    return report


def _same(page: "_Page", shipped: Path, digest: str) -> bool:
    """Whether the page imported before says what ``shipped`` says, and its file is still there: the same
    file, or one of another install left with the same words. A marker from before SHA-256 was recorded
    cannot tell: the knowledge base is asked (once; the marker then records it)."""
    if page.sha256 != digest:
        return False
    if page.file == str(shipped):
        return True
    try:
        return _digest(Path(page.file)) == digest
    except OSError:
        return False


class _Page(NamedTuple):
    """A guide page as the marker records it."""

    file: str  # the shipped file it was imported from
    location: str  # its source's place in the knowledge base
    sha256: str  # "" when not recorded (a marker from before)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _place(path: str | Path) -> str:
    """Where the knowledge base files the page ``path`` when the importer did not say (its real path)."""
    return os.path.realpath(path)


def _stored_places(report) -> dict[str, str]:
    """Each page's place in the knowledge base, by file name, from an import's report."""
    return {Path(place).name: place for place in (*report.added, *report.updated, *report.unchanged)}


def _write_marker(marker: Path, pages: Mapping[str, "_Page"]) -> None:
    """Record the guide imported: each page's file, its place in the knowledge base and its SHA-256."""
    from .files import write_whole

    text = json.dumps({"pages": {name: page._asdict() for name, page in pages.items()}}, indent=1, ensure_ascii=False)
    write_whole(marker, text + "\n", private=True)


def _read_marker(marker: Path) -> dict[str, _Page]:
    """The pages the marker records, by file name. A marker written before it recorded more lists the
    files imported, one a line."""
    text = marker.read_text(encoding="utf-8")
    if not text.lstrip().startswith("{"):
        return {Path(line).name: _Page(line, line, "") for line in text.splitlines() if line.strip()}
    pages = json.loads(text)["pages"]
    return {str(name): _Page(str(page["file"]), str(page["location"]), str(page["sha256"]))
            for name, page in pages.items()}


def main(argv: list[str] | None = None) -> int:
    """``python -m tinyrag_desktop.firstrun``: probe the usual local servers and print what each said."""
    import argparse

    argparse.ArgumentParser(prog="python -m tinyrag_desktop.firstrun",
                            description="Look for an OpenAI-compatible server on this machine (Ollama, LM Studio, "
                                        "llama.cpp, vLLM) and say what each port answered. Exit status 0 when "
                                        "one with a chat model was found, 1 otherwise.").parse_args(argv)
    result = probe_servers_sync()
    for attempt in result.tried:
        mark = "✓" if attempt.ok else "·"
        print(f"{mark} {attempt.server_name:17} {attempt.base_url:28} {attempt.reason}")
    print(result.summary())
    return 0 if result.found is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
