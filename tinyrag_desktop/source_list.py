"""An answer's numbered Sources list: the entries the window's line under it shows (ui/sources_row.py), which a
copied answer ends with and an exported chat writes under it, with the same numbers. One list for the three:
an export that left it out kept the answer's "[1]" pointing nowhere. No Qt (exports are written in a thread).

The entries come from the route (the passages put into the prompt, numbered by document) and from the
results of the tools that read documents; ``arrange`` orders them (see ui/sources.py for the whole story).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any, Iterable, Mapping, Protocol, Sequence
from urllib.parse import quote, urlsplit

from .hidden_text import input_line
from .tools.registry import SOURCE_TOOLS

OFFERED_CAPTION = "Given to the model"
SOURCES_CAPTION = "Sources"
PAGES_CAPTION = "Pages read:"
OPENABLE_SCHEMES = frozenset({"http", "https", "file"})

WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]")
# A Wikipedia article imported without a URL is stored as ``wikipedia:LANG:TITLE`` (kb.ingest).
WIKIPEDIA_TITLE = re.compile(r"^wikipedia:([a-z][a-z-]{0,11}):(.+)$", re.S)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


def split_sources(text: str) -> list[str]:
    """The locations in a tool result's ``source`` field: one per line, blanks dropped."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


@dataclass(frozen=True, slots=True)
class SourceEntry:
    """One link of the Sources line: a location, the citation numbers the model had for it (none for a
    page it read), the caption of the group it stands in ("" while the numbers need no group), and the
    anchor to open it at (the id in an HTML page above the best passage the answer used; None: its top)."""

    location: str
    numbers: tuple[int, ...] = ()
    group: str = ""
    anchor: str | None = None


# A group of sources as the answer gathered them: its caption, and (location, numbers) pairs in order.
SourceSet = tuple[str, Sequence[tuple[str, Sequence[int]]]]


# "[2]", "[1, 3]", "[2-4]", "[1][3]": the citations tools.rag.format_hits asks for.
_CITATION = re.compile(r"\[(\d{1,2}(?:\s*[,;–-]\s*\d{1,2})*)\]")
# Code in an answer: "sys.argv[1]" there is an index, not a citation.
_CODE = re.compile(r"(```|~~~).*?(?:\1|\Z)|`[^`\n]+`", re.S)
# Brackets right after a word: "within 30 days[1]" cites (models often write so), "args[0]", "sys_argv[1]",
# "row2[3]", "obj.items[1]", "maxRows[2]" index (a name as code writes one, or no number a citation holds).
_AFTER_WORD = re.compile(r"([\w.]*\w)((?:\[[^\[\]\n]*\])+)")
_CODE_NAME = re.compile(r"[_.\d]|[a-z][A-Z]")


def _unindexed(text: str) -> str:
    """``text`` without the indexes written after names (see _AFTER_WORD), which cite nothing."""

    def index(match: re.Match[str]) -> str:
        brackets = match.group(2)
        cites = all(_CITATION.fullmatch(group + "]") for group in brackets[:-1].split("]"))
        if cites and "[0]" not in brackets and not _CODE_NAME.search(match.group(1)):
            return match.group(0)
        return match.group(1) + " "

    return _AFTER_WORD.sub(index, text)


def citations(answer: str) -> list[tuple[int, int]]:
    """The numbers ``answer`` cites, each as (first, last) of what it names ("[2-4]": (2, 4); "[1, 3]": (1, 1)
    and (3, 3)), in its text outside code and indexes ("args[0]"). No source is numbered 0: "[0]" cites none."""
    cited = []
    for match in _CITATION.finditer(_unindexed(_CODE.sub(" ", answer))):
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            ends = [int(n) for n in re.split(r"\s*[–-]\s*", part)]
            if 0 not in ends:
                cited.append((ends[0], ends[-1]))
    return cited


def unknown_citations(answer: str, entries: Sequence[SourceEntry]) -> tuple[int, ...]:
    """The numbers ``answer`` cites that none of its ``entries`` has: "[7]" after a search that found one
    document showed as plain text, as every citation does, and the Sources line, listing [1], said nothing
    of it. () when no entry has a number (an answer without a search may bracket numbers for other reasons)."""
    known = {n for entry in entries for n in entry.numbers}
    if not known:
        return ()
    return tuple(sorted({n for pair in citations(answer) for n in pair} - known))


def unknown_words(numbers: Sequence[int]) -> str:
    """How the Sources list says the numbers cited that name none of its sources; "" for none."""
    if not numbers:
        return ""
    return (f"No such source{'' if len(numbers) == 1 else 's'} in this answer's searches: "
            + ", ".join(f"[{n}]" for n in numbers))


def cited_as(numbers: Sequence[int]) -> str:
    """``[1]``, ``[1, 3]``; "" for none."""
    return f"[{', '.join(str(n) for n in numbers)}]" if numbers else ""


def arrange(sets: Sequence[SourceSet], anchors: Mapping[str, str | None] | None = None) -> list[SourceEntry]:
    """The Sources line's entries for ``sets`` (the route's, then each reading tool's, in the answer's order),
    each at its location's anchor in ``anchors`` (that of the best passage the answer used from it), if any.

    When every number names one location, each location is listed once, with all its numbers, in the order
    of its first number (the pages with none after them). When a number names two (two searches each numbered from 1), each numbered set is listed
    apart under its caption, and the pages that have no number after them.
    """
    entries = _arranged(sets)
    if not anchors:
        return entries
    return [replace(e, anchor=anchors.get(e.location)) if anchors.get(e.location) else e for e in entries]


def _arranged(sets: Sequence[SourceSet]) -> list[SourceEntry]:
    named: dict[int, set[str]] = {}
    for _caption, pairs in sets:
        for location, numbers in pairs:
            for n in numbers:
                named.setdefault(n, set()).add(location.strip())
    if all(len(locations) == 1 for locations in named.values()):
        # in the order of their numbers (two searches of one round number their files in the order they
        # end, not the order they were asked in), then the pages that have none, as they came
        entries = _merged("", [pair for _caption, pairs in sets for pair in pairs])
        return sorted((e for e in entries if e.numbers), key=lambda e: e.numbers[0]) + [
            e for e in entries if not e.numbers]
    out: list[SourceEntry] = []
    for caption, pairs in sets:
        if any(numbers for _loc, numbers in pairs):
            out += _merged(caption, pairs)
    pages = [pair for _caption, pairs in sets if not any(n for _loc, n in pairs) for pair in pairs]
    known = {entry.location for entry in out}
    return out + _merged(PAGES_CAPTION, [pair for pair in pages if pair[0].strip() not in known])


def _merged(group: str, pairs: Sequence[tuple[str, Sequence[int]]]) -> list[SourceEntry]:
    """One entry per location, in the order they first came, with the numbers of all its pairs."""
    numbers: dict[str, list[int]] = {}
    for location, given in pairs:
        location = location.strip()
        if location:
            have = numbers.setdefault(location, [])
            have += [n for n in given if n not in have]
    return [SourceEntry(loc, tuple(sorted(ns)), group) for loc, ns in numbers.items()]


class ToolCall(Protocol):
    """What a call tells of its sources: a StoredTool, as the chat history and a card's stored form hold it."""

    tool: str
    query: str
    status: str
    source: str
    result: str
    anchors: tuple[str | None, ...]


def source_sets(route: Mapping[str, Any] | None, calls: Iterable[ToolCall]) -> list[SourceSet]:
    """The sources, as the route and each reading tool gave them (see arrange): the route's first (they
    were in the prompt before any tool ran), then the calls' in the answer's order. ``route``: the answer's,
    as stored (None while its sources are not shown)."""
    sets: list[SourceSet] = []
    route = route or {}
    if route.get("sources"):
        numbers = route.get("numbers")
        if not (isinstance(numbers, list) and len(numbers) == len(route["sources"])
                and all(isinstance(n, int) for n in numbers)):
            numbers = [None] * len(route["sources"])  # stored before the numbers were: not known
        pairs = [(str(loc), (n,) if n else ()) for loc, n in zip(route["sources"], numbers)]
        sets.append(("Found for your question:", pairs))  # before the model answered, in the prompt
    for call in calls:
        # Only tools that read documents name sources worth opening; a failed call read nothing.
        if call.tool not in SOURCE_TOOLS or call.status not in ("done", "ok") or not call.source:
            continue
        locations = split_sources(call.source)
        if call.tool == "rag_knowledge":
            from .tools.rag import cited_numbers  # here: it loads the knowledge base's search

            found = cited_numbers(call.result, locations)
            query = input_line(call.query)
            query = query if len(query) <= 30 else query[:29] + "…"
            sets.append((f"Search “{query}”:", [(loc, found.get(loc, ())) for loc in locations]))
        else:
            sets.append(("", [(loc, ()) for loc in locations]))
    return sets


def source_anchors(route: Mapping[str, Any] | None, calls: Iterable[ToolCall]) -> dict[str, str | None]:
    """Where each source's page opens: at the best passage the route or a search found in it."""
    route = route or {}
    found: dict[str, str | None] = {}
    pairs = [zip(route.get("sources") or (), route.get("anchors") or ())]
    pairs += [zip(split_sources(call.source), call.anchors) for call in calls]
    for location, anchor in (pair for group in pairs for pair in group):
        if isinstance(anchor, str) and anchor:
            found.setdefault(str(location), anchor)
    return found


def answer_sources(route: Mapping[str, Any] | None, calls: Sequence[ToolCall], answer: str) -> list[SourceEntry]:
    """The Sources line's entries of ``answer``, with ``route`` and ``calls`` (see source_sets)."""
    return numbered_from_one(arrange(source_sets(route, calls), source_anchors(route, calls)), answer)


def numbered_from_one(entries: list[SourceEntry], answer: str) -> list[SourceEntry]:
    """``entries`` numbered 1, 2, 3… in their order when ``answer`` cites no number at all: an answer that used
    the prompt's second and third files, and cited neither, listed "[2] tools.md [3] settings.md" with no [1].
    An answer that cites any number keeps them all, gaps and all: its "[3]" names the file listed as [3], and a
    "[1]" that names none of the listed files is still warned of, not given to the first of them."""
    numbered = [entry for entry in entries if entry.numbers]
    if not numbered or any(entry.group for entry in numbered) or citations(answer):
        return entries
    count = iter(range(1, len(numbered) + 1))
    return [replace(entry, numbers=(next(count),)) if entry.numbers else entry for entry in entries]


def sources_offered(state: str, route: Mapping[str, Any] | None) -> bool:
    """Whether an answer in ``state`` lists the passages given to the model rather than its sources: one that
    did not finish cannot say which it drew on ("Given to the model", not "Sources": a stopped answer's four
    unrelated guide pages read as the files it came from)."""
    return state in ("stopped", "failed", "ended") and bool((route or {}).get("sources"))


def stored_state(message: Any) -> str:
    """The state the window shows a stored answer in (see ui/answer_stored.from_stored)."""
    if message.error:
        return "failed"
    return "stopped" if (message.stats or {}).get("outcome") == "stopped" else "done"


def message_sources(message: Any) -> tuple[list[SourceEntry], bool, tuple[int, ...]]:
    """A stored answer's Sources entries, as the window shows them when the chat is opened, whether they are
    only the passages given to the model (see sources_offered), and the numbers its text cites that none of
    them has (see unknown_citations)."""
    entries = answer_sources(message.route, message.tools, message.content)
    return entries, sources_offered(stored_state(message), message.route), unknown_citations(message.content,
                                                                                              entries)


def source_address(location: str) -> str | None:
    """The address an exported file links ``location`` at: a file:// URI for a path, the page's own
    address (percent-encoded where it must be), None for what is no file nor http(s) page (a relative
    path, a ``javascript:`` one): the location is then written as text only."""
    loc = location.strip()
    kind = source_kind(loc)
    if kind == "wikipedia":
        lang, title = WIKIPEDIA_TITLE.match(loc).groups()
        return f"https://{lang}.wikipedia.org/wiki/{quote(title.strip().replace(' ', '_'), safe='')}"
    if kind == "url":
        # quoted as a browser would send it: a space, a quote, a bracket or a "<" ends no attribute nor link
        return quote(loc, safe="!#$%&'*+,/:;=?@[]~")
    if kind != "file":
        return None
    try:
        if WINDOWS_PATH.match(loc) or loc.startswith("\\\\"):
            return PureWindowsPath(loc).as_uri()
        if loc.startswith("~"):
            from .paths import expand_home  # here: it is the file system's, not the text's

            loc = str(expand_home(loc))
        return PurePosixPath(loc).as_uri() if loc.startswith("/") else None
    except (ValueError, RuntimeError, LookupError):  # no such user's home, a path as_uri refuses
        return None


def anchored(address: str, anchor: str | None) -> str:
    """``address`` opening at ``anchor`` (its #fragment), as the window opens it."""
    return f"{address}#{quote(anchor, safe='')}" if anchor and "#" not in address else address


def _caption(offered: bool) -> str:
    return OFFERED_CAPTION if offered else SOURCES_CAPTION


def sources_markdown(entries: Sequence[SourceEntry], offered: bool, unknown: Sequence[int] = (), *,
                     links: bool = False) -> str:
    """The Sources list as Markdown: its caption, then a line for each entry ("- [1] /path/guide.md"),
    under the caption of its group when the numbers need groups, and the numbers cited that name none of
    them (``unknown``: see unknown_words). ``links``: each location a link to it (an export; a copy gives
    the locations as text). "" for no entries."""
    if not entries:
        return ""
    text, group = f"{_caption(offered)}:\n", None
    for entry in entries:
        if entry.group != group or group is None:
            group = entry.group
            # an export's caption escaped as its locations are: it holds the model's search words
            text += f"\n{_as_text(group) if links else group}\n\n" if group else "\n"
        where = _markdown_link(entry) if links else entry.location
        text += f"- {cited_as(entry.numbers)} {where}".replace("-  ", "- ") + "\n"
    if unknown:
        text += f"\n{_as_text(unknown_words(unknown)) if links else unknown_words(unknown)}\n"
    return text


# What a viewer would take for Markdown in a location: escaped with a backslash (CommonMark and Python-Markdown
# both read those), or written as an entity (Python-Markdown keeps "\<" as it is). A "_" between letters
# emphasizes nothing in either: "my_notes" is kept as it reads.
_MARKDOWN_MARKS = re.compile(r"[\\`*\[\]<&~]|(?<![^\W_])_|_(?![^\W_])")
_ENTITIES = {"<": "&lt;", "&": "&amp;", "~": "&#126;"}


def _as_text(text: str) -> str:
    """``text`` escaped so that a Markdown viewer shows it as it is (no link, image, HTML or emphasis)."""
    return _MARKDOWN_MARKS.sub(lambda m: _ENTITIES.get(m.group(), "\\" + m.group()), text)


def _markdown_link(entry: SourceEntry) -> str:
    """A location as a Markdown link to it, its text escaped (a file name is no Markdown); as text alone
    when it has no address."""
    label = _as_text(entry.location)
    address = source_address(entry.location)
    if address is None:
        return label
    return f"[{label}]({anchored(address, entry.anchor).replace('(', '%28').replace(')', '%29')})"


def sources_html(entries: Sequence[SourceEntry], offered: bool, unknown: Sequence[int] = ()) -> str:
    """The Sources list as HTML: its caption, then a list of each entry's numbers and its location as a
    link to it (none where it has no address: see source_address), and the numbers cited that name none of
    them (``unknown``). "" for no entries."""
    if not entries:
        return ""
    esc = html.escape
    out, group = [f'<div class="sources"><div class="who">{_caption(offered)}</div>'], None
    for entry in entries:
        if entry.group != group or group is None:
            out.append("</ul>" if group is not None else "")
            group = entry.group
            out.append((f'<div class="group">{esc(group)}</div>' if group else "") + "<ul>")
        address = source_address(entry.location)
        where = (f'<a href="{esc(anchored(address, entry.anchor))}">{esc(entry.location)}</a>' if address
                 else esc(entry.location))
        number = f"{cited_as(entry.numbers)} " if entry.numbers else ""
        out.append(f'<li dir="auto">{number}{where}</li>')
    out.append("</ul>" + (f'<div class="group">{esc(unknown_words(unknown))}</div>' if unknown else ""))
    return "".join(out) + "</div>"


def source_kind(location: str) -> str | None:
    """``"file"`` for a path, ``"url"`` for an http(s) or file URL, ``"wikipedia"`` for an article stored
    by title, None for what must not be opened."""
    loc = location.strip()
    if not loc or any(c in loc for c in "\0\n\r"):
        return None
    if WINDOWS_PATH.match(loc) or loc.startswith(("/", "~", "\\\\")):
        return "file"
    m = _SCHEME.match(loc)
    if m is None:
        return "file"  # a relative path, as a knowledge base imported from a relative folder stores it
    if WIKIPEDIA_TITLE.match(loc):
        return "wikipedia"
    scheme = m.group(1).lower()
    if scheme not in OPENABLE_SCHEMES:
        return None
    try:
        parts = urlsplit(loc)
    except ValueError:
        return None
    if scheme in ("http", "https") and not parts.netloc:
        return None
    return "url"
