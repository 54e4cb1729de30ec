"""What a drop on the Knowledge panel means: the files, folders and web pages to import, and what is not.

Links and files dragged from a file manager or a browser come as URLs. Text dragged from an editor or a
terminal comes as text: each of its lines may be a link, an address typed without http:// (as the URL dialog
takes them: see kb.web.typed_address), or the path of a file or folder. Of text with a link on each line,
only the first link was imported and the rest dropped unsaid; an address without http:// and a path were
refused.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Sequence
from urllib.parse import unquote_to_bytes

from PySide6.QtCore import QUrl

from ..kb import ImportItem, why_missing
from ..kb.readers import SUPPORTED
from ..paths import expand_home
from .kb_address import web_address_problem, with_scheme
from .kb_summary import elided, showable

_LINK = re.compile(r"https?://\S+", re.I)
_PATH_START = ("/", "~", "./", "../", "\\\\")  # and a drive: C:\ (see _looks_like_path)


def items_from_urls(urls: Sequence[QUrl], text: str = "") -> list[ImportItem]:
    """What a drop means: local files and folders by path, web links as URLs; without URLs, what its text
    names (see the module's docstring)."""
    return _read(urls, text)[0]


def left_out(urls: Sequence[QUrl], text: str = "") -> list[str]:
    """What a drop holds that items_from_urls does not import, as the panel names it: links of other kinds
    (ftp://, mailto:), a path of no file or folder, or text that is no link at all."""
    return _read(urls, text)[1]


def _read(urls: Sequence[QUrl], text: str) -> tuple[list[ImportItem], list[str]]:
    items: list[ImportItem] = []
    left: list[str] = []
    if urls:
        for url in urls:
            if url.isLocalFile():
                items.append(_file_item(url))
            elif url.scheme() in ("http", "https"):
                items.append(ImportItem("url", url.toString()))
            else:
                left.append(elided(showable(url.toString())))
        return items, left
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    words: list[str] = []  # lines with nothing to import in them
    for line in lines:
        found = _line_items(line)
        if found is None:
            # said as kb add says it (a file:// link by the path it names, not as an address to fetch)
            left.append(f"“{elided(showable(line))}” ({why_missing(ImportItem.parse(line).value)})")
        elif found:
            items += found
        else:
            words.append(line)
    if words and not items and len(words) == len(lines):  # prose, no link in it
        joined = " ".join(" ".join(words).split())
        left.append(f"the text “{joined[:40]}{'…' if len(joined) > 40 else ''}”")
    elif words:
        left += [f"“{elided(showable(line), 40)}”" for line in words]
    return _unique(items), left


def _line_items(line: str) -> list[ImportItem] | None:
    """What one line of dropped text names: a file or folder (its whole line, which may hold spaces), a
    ``file://`` link, an address on its own (with or without http://), or the web links in a sentence; []
    for none of these, None for a path of nothing there."""
    if line.lower().startswith("file://"):
        url = QUrl(line)
        if not url.isLocalFile():
            return None
        item = _file_item(url)
        return [item] if _elsewhere(url) or os.path.lexists(item.value) else None
    if _looks_like_path(line):
        path = expand_home(line, keep_unknown=True)
        return [ImportItem("path", str(path))] if path.exists() else None
    if "/" not in line and Path(line).suffix.lower() in SUPPORTED:  # notes.txt: a file's name, no server's
        return None
    if not any(c.isspace() for c in line) and "://" not in line and not web_address_problem(line):
        return [ImportItem("url", with_scheme(line))]  # 127.0.0.1:18601/page.html, example.org/guide
    # a sentence, "see https://example.org/guide (the part on tools)": its links, without the brackets and
    # full stop around them
    return [ImportItem("url", link.rstrip(".,;:!?)]}>'\"”’")) for link in _LINK.findall(line)]


def _file_item(url: QUrl) -> ImportItem:
    """A file:// link as the import takes it; one from another computer (file://server/share/x) as written, so
    that the import says why it cannot be read, as ``kb add`` does (the panel said "no such file or folder")."""
    return ImportItem.parse(url.toString()) if _elsewhere(url) else ImportItem("path", local_path(url))


def _elsewhere(url: QUrl) -> bool:
    """Whether the file:// ``url`` names another computer (file://server/…), not this one."""
    return url.host().lower() not in ("", "localhost")


def local_path(url: QUrl) -> str:
    """The path of a file:// ``url`` as Python names the file: its percent-encoded bytes decoded as the
    file system's names are (os.fsdecode). ``toLocalFile`` turned a name that is not UTF-8 ("bad%FFname.txt")
    into "bad�name.txt", a file that is not there: the import said "no such file or folder", where
    ``kb add`` says the name is not valid text. On Windows names are UTF-16, and a link from another computer
    (file://server/…) keeps Qt's own reading, which the import explains."""
    if os.name == "nt" or url.host():
        return url.toLocalFile()
    return os.fsdecode(unquote_to_bytes(url.path(QUrl.ComponentFormattingOption.FullyEncoded)))


def on_disk(path: str) -> str:
    """``path`` as chosen in a file dialog, with the names Qt could not read as UTF-8 found again on disk:
    Qt gives U+FFFD ("�") for their bytes (GTK's own dialog lists such files; Qt's does not), a file that is not
    there. Unchanged when it is there, or when no single name in its folder reads so."""
    if os.name == "nt" or "\ufffd" not in path or os.path.lexists(path):
        return path
    folder, name = os.path.split(path)
    if not name:
        return path
    folder = on_disk(folder)
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return path
    read = [found for found in names if _as_qt_reads(found) == _as_qt_reads(name)]
    return os.path.join(folder, read[0]) if len(read) == 1 else path


def _as_qt_reads(name: str) -> str:
    """A name with the bytes that are not UTF-8 as one U+FFFD a run (Qt and Python replace them alike, but
    not always as many)."""
    return re.sub("\ufffd+", "\ufffd", os.fsencode(name).decode("utf-8", "replace"))


def _looks_like_path(line: str) -> bool:
    return line.startswith(_PATH_START) or bool(re.match(r"[A-Za-z]:[\\/]", line))


def _unique(items: list[ImportItem]) -> list[ImportItem]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for item in items:
        if (item.kind, item.value) not in seen:
            seen.add((item.kind, item.value))
            kept.append(item)
    return kept
