"""An answer's sources: where each file or web page is, its citation numbers, its label, and how it opens.

Sources come from the engine's ``route`` event (the passages the rag route put into the prompt) and from
the results of the tools that read documents: ``rag_knowledge`` (one location per line), ``url_fetch`` and
``wikipedia`` (the page's URL). A location is a file path or a URL; only ``http``, ``https`` and ``file``
ones are opened (a knowledge base may hold anything, and a click must never run a ``javascript:`` or
custom-scheme handler).

A passage of an HTML page knows the id it sits under (its ``anchor``): the page then opens there. A web
address takes it as its ``#fragment``. A file does not: the desktop's openers drop a file URL's fragment
(xdg-open's generic path, Windows' and macOS's file handlers) or refuse it (``gio open``), so a small page
in the app's cache folder is opened instead, which sends the browser on to the file at its anchor. A
browser installed as a snap or a Flatpak cannot read that folder: the file is then opened at its top.

A source the model was given a citation number for shows it ("[1] guide.md"): the route's passages are
numbered by document in the prompt, and each ``rag_knowledge`` result by document too (``tools.rag``), so
the numbers come from the route's order and from the result's own heads. When two searches of one answer
gave one number to two files (each search numbers from 1), the model's [1] could be either: the line then
shows each search's sources apart, under its query. Pages (``url_fetch``, ``wikipedia``) have no number.

The line that shows them under the answer, one link each, is ``sources_row``.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import SplitResult, unquote, urlsplit

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from ..hidden_text import shown_name
from ..paths import UnknownHome, expand_home
from ..source_list import (OFFERED_CAPTION, OPENABLE_SCHEMES, PAGES_CAPTION, WIKIPEDIA_TITLE, SourceEntry, SourceSet,
                           arrange, cited_as, source_kind, split_sources)
from ..tools.registry import SOURCE_TOOLS

__all__ = ["OFFERED_CAPTION", "PAGES_CAPTION", "SOURCE_TOOLS", "SourceEntry", "SourceSet", "arrange", "cited_as",
           "source_kind", "split_sources"]

log = logging.getLogger(__name__)

LABEL_MAX = 48  # characters of a link's label; the tooltip has the whole location

_EDITION = re.compile(r"^[a-z][a-z-]{0,11}$")


def wikipedia_article(location: str) -> tuple[str, str] | None:
    """The edition and title of a Wikipedia article, stored by title (``wikipedia:en:Alan Turing``) or by
    its address (``https://de.wikipedia.org/wiki/Alan_Turing``, ``de.m.wikipedia.org``), else None."""
    m = WIKIPEDIA_TITLE.match(location.strip())
    if m:
        return m.group(1), m.group(2).strip()
    try:
        url = urlsplit(location.strip())
        host = (url.hostname or "").lower()
    except ValueError:  # a port that is no number
        return None
    if url.scheme.lower() not in ("http", "https") or not host.endswith(".wikipedia.org"):
        return None
    title = unquote(url.path.removeprefix("/wiki/")) if url.path.startswith("/wiki/") else ""
    lang = host.split(".")[0]
    if not title or not _EDITION.match(lang):
        return None
    return ("" if lang in ("www", "m") else lang), title.replace("_", " ").strip()


def source_url(location: str) -> QUrl | None:
    """The QUrl to open for ``location``, or None when it is not a file or an http(s)/file URL."""
    kind = source_kind(location)
    if kind == "file":
        path = location.strip()
        if path.startswith("~"):
            try:
                path = str(expand_home(path))
            except UnknownHome:
                return None
        return QUrl.fromLocalFile(path)
    if kind == "wikipedia":
        lang, title = WIKIPEDIA_TITLE.match(location.strip()).groups()
        url = QUrl(f"https://{lang}.wikipedia.org/wiki/")
        url.setPath(url.path() + title.strip().replace(" ", "_"))
        return url
    if kind == "url":
        url = QUrl(location.strip())
        return url if url.isValid() and url.scheme().lower() in OPENABLE_SCHEMES else None
    return None


def _shorten(text: str, limit: int = LABEL_MAX) -> str:
    text = shown_name(text)  # a right-to-left override in a file's name: "invoice‹U+202E›gpj.exe"
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


def _path_parts(path: str) -> list[str]:
    return [p for p in re.split(r"[\\/]+", path) if p]


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _host_and_port(parts: SplitResult) -> str:
    """The host, with its port unless it is the scheme's default: ``127.0.0.1:42035`` is another place than
    ``127.0.0.1``. No user name or password (a location may hold them); IPv6 keeps its brackets."""
    host = parts.hostname or parts.netloc
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:  # not a number, or out of range: the label says where the text says
        return parts.netloc.rpartition("@")[2] or host
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host += f":{port}"
    return host


def source_label(location: str, depth: int = 1) -> str:
    """A short label: a file's name (with ``depth`` - 1 parent folders), or a URL's host and path."""
    loc = location.strip()
    kind = source_kind(loc)
    if kind == "url":
        try:
            parts = urlsplit(loc)
        except ValueError:
            return _shorten(loc)
        if parts.scheme.lower() == "file":
            names = _path_parts(unquote(parts.path))
            return _shorten("/".join(names[-depth:]) or loc)
        host = _host_and_port(parts)
        host = host[4:] if host.startswith("www.") else host
        path = unquote(parts.path).rstrip("/")
        return _shorten(host + path if path else host or loc)
    if kind == "file":
        names = _path_parts(loc)
        return _shorten("/".join(names[-depth:]) or loc)
    if kind == "wikipedia":
        return _shorten(WIKIPEDIA_TITLE.match(loc).group(2).strip() + " (Wikipedia)")
    return _shorten(" ".join(loc.split()) or "?")


def unique_labels(locations: list[str]) -> list[str]:
    """Labels for ``locations`` that tell apart two files of one name (``a/README.md``, ``b/README.md``)."""
    labels = [source_label(loc) for loc in locations]
    for depth in (2, 3):
        seen: dict[str, int] = {}
        for label in labels:
            seen[label] = seen.get(label, 0) + 1
        if all(n == 1 for n in seen.values()):
            break
        labels = [source_label(loc, depth) if seen[label] > 1 else label for loc, label in zip(locations, labels)]
    return labels


def open_source(location: str, anchor: str | None = None) -> str | None:
    """Open a source with the desktop's handler (viewer or browser), at ``anchor`` (an id in an HTML page)
    when given; None, or why it could not be opened."""
    url = source_url(location)
    if url is None:
        return f"{location} is not a file or web address that can be opened."
    if url.isLocalFile() and not Path(url.toLocalFile()).exists():
        # by its name: a whole path cut the status bar's line short before it said what was wrong (the
        # link's tooltip has the whole location)
        name = Path(url.toLocalFile()).name or url.toLocalFile()
        return f"“{name}” is not there any more: it was moved or deleted since it was imported."
    if not QDesktopServices.openUrl(anchored_url(url, anchor)):
        return f"No application on this computer would open {location}."
    return None


def anchored_url(url: QUrl, anchor: str | None) -> QUrl:
    """What to open for ``url`` at ``anchor``: a web address with it as its fragment; for a file, a page
    that sends the browser on to the file at it (see the module's docstring); ``url`` as it is when there
    is no anchor, or no such page can be used."""
    if not anchor:
        return url
    if url.scheme().lower() in ("http", "https"):
        target = QUrl(url)
        target.setFragment(anchor)
        return target
    if not url.isLocalFile() or _browser_is_sandboxed():
        return url
    target = QUrl.fromLocalFile(url.toLocalFile())
    target.setFragment(anchor)
    try:
        return QUrl.fromLocalFile(str(_write_redirect(target, Path(url.toLocalFile()).name, anchor)))
    except OSError as exc:  # a cache folder that cannot be written: at the top, as before anchors
        log.warning("could not write the page that opens %s at #%s: %s", url.toLocalFile(), anchor, exc)
        return url


def redirect_folder() -> Path:
    """Where the pages that open a file at an anchor are written: the app's cache folder."""
    from platformdirs import user_cache_dir

    from ..paths import APP_NAME

    return Path(user_cache_dir(APP_NAME, appauthor=False)) / "open"


def _write_redirect(target: QUrl, name: str, anchor: str) -> Path:
    """Write the page that sends the browser to ``target`` (a file URL with its fragment); its path. One
    page per target, written again each time; pages not written for REDIRECT_DAYS go (a browser read them
    long ago)."""
    address = target.toString(QUrl.ComponentFormattingOption.FullyEncoded)
    folder = redirect_folder()
    folder.mkdir(parents=True, exist_ok=True)
    _forget_old_pages(folder)
    path = folder / f"{hashlib.sha256(address.encode()).hexdigest()[:20]}.html"
    # The meta refresh and the script both go on (a browser may ignore one); the link is for one that
    # does neither. location.replace leaves this page out of the browser's history: Back leaves the file.
    path.write_text(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"refresh\" content=\"0; url={html.escape(address)}\">\n"
        f"<title>{html.escape(name)}</title></head>\n"
        f"<body><script>location.replace({json.dumps(address)});</script>\n"
        f"<p><a href=\"{html.escape(address)}\">Open {html.escape(name)} at “{html.escape(anchor)}”</a></p>"
        "</body></html>\n", encoding="utf-8")
    return path


REDIRECT_DAYS = 2


def _forget_old_pages(folder: Path) -> None:
    """Remove the pages of ``folder`` last written more than REDIRECT_DAYS ago."""
    old = time.time() - REDIRECT_DAYS * 86400
    try:
        for page in folder.glob("*.html"):
            if page.stat().st_mtime < old:
                page.unlink(missing_ok=True)
    except OSError as exc:  # another app's files, a folder that went: the page to write matters, not these
        log.info("could not clear old pages in %s: %s", folder, exc)


# Where snapd and Flatpak put the desktop files of the applications they install.
_SANDBOXED_APPS = ("/var/lib/snapd/desktop/applications", "/var/lib/flatpak/exports/share/applications",
                   "~/.local/share/flatpak/exports/share/applications")


def _browser_is_sandboxed() -> bool:
    """Whether this desktop opens HTML files with a snap or a Flatpak (Ubuntu's Firefox is a snap). Such a
    browser cannot read hidden folders of the home folder, nor /tmp: the page of _write_redirect would
    show "access denied" where the file opened at its top before."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        found = subprocess.run(["xdg-mime", "query", "default", "text/html"], capture_output=True, text=True,
                               timeout=3, stdin=subprocess.DEVNULL).stdout.strip()
    except (OSError, subprocess.SubprocessError):  # no xdg-utils: xdg-open is not what opens files either
        return False
    return bool(found) and os.sep not in found and any(
        (expand_home(folder, keep_unknown=True) / found).is_file() for folder in _SANDBOXED_APPS)
