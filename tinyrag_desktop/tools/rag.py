"""The ``rag_knowledge`` tool: the best passages of the local knowledge base for a query, numbered, with sources.

The model's text only ever becomes a bound parameter of one fixed SELECT, run on a read-only connection
whose authorizer allows nothing but reading the knowledge tables (see ``kb.search``). An empty or missing
knowledge base is an answer the model can pass on, not an error.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

import httpx

from ..kb import Hit, Hits, StoreError, has_documents
from ..kb import search as kb_search
from ..kb.readers import is_code_location
from ..kb.embed import query_vector
from ..kb.excerpt import also_in
from ..kb.query_words import STOP_WORDS, _in_a_word
from ..kb.textform import is_cjk, nfkc
from ..source_list import citations
from .common_words import COMMON_WORDS
from .errors import ToolError
from .registry import ToolContext, ToolResult, ToolSpec

log = logging.getLogger(__name__)

EMPTY_MESSAGE = (
    "The knowledge base is empty; add documents (files, folders, web pages or Wikipedia articles) with the "
    "Knowledge base panel (View → Knowledge base), or on the command line with "
    "`python -m tinyrag_desktop kb add PATH|URL`."
)


NO_MATCH = "No passages in the knowledge base match"
NOT_SEARCHED = "Not searched:"  # a query of only common words (format_hits), which nearly every passage has


# The share of a question (its words weighed by IDF: Hits.relevance) the best passage must mention to be
# about it. Below it the engine's rag route puts no passages into the prompt, and this tool's result says
# the passages found are only near the query (benchmarks/bench_kb_relevance.py measures the choice).
RELEVANT_SHARE = 0.4


def document_numbers(hits: Sequence[Hit], given: dict[str, int] | None = None) -> dict[str, int]:
    """The number each document (by location) is cited by: 1, 2, … in the order the documents first come
    in ``hits``. One number per document, not per passage: the "Sources" line under an answer lists
    documents, so [2] there names the same file as the model's [2] (see format_hits).

    ``given`` holds the numbers an answer gave already (its prompt's passages, its earlier searches): a
    document there keeps its number, a new one takes the next, and is added to it. Without it, each call
    numbers from 1 (the tool cannot tell one answer's calls from another's: see run).
    """
    numbers = given if given is not None else {}
    for location in dict.fromkeys(h.location for h in hits):
        if location not in numbers:
            numbers[location] = max(numbers.values(), default=0) + 1
    return {h.location: numbers[h.location] for h in hits}


def format_hits(query: str, hits: Sequence[Hit], max_chars: int = 8000,
                numbers: dict[str, int] | None = None, missing: bool = True) -> str:
    """Numbered passages, each with its source title, location and heading path, for the model to cite.

    A number names a document (document_numbers, which ``numbers`` is passed to): two passages of one file
    are both [1], side by side, so whatever passage the model cites, [1] is the file the answer's "Sources"
    line shows as [1].
    When the passages together are longer than ``max_chars``, each is shortened to its share, so every
    numbered source still reaches the model (cutting the whole text at the end would drop the last ones).
    A word searched in place of a misspelt one (``Hits.corrected``) is said first: the passages answer
    that word, which may not be the one meant. So are, with ``missing``, the query's words that no passage
    holds (``Hits.missing``: an invoice number, a name), and a search whose best passage is not about the
    query (``Hits.relevance`` below RELEVANT_SHARE), so that the model does not answer from near misses.
    A query of only common words (``Hits.common``) was not searched: the model is asked for specific words.
    """
    if not hits and isinstance(hits, Hits) and hits.common:  # "what is it": not searched (see kb.search)
        return (f"{NOT_SEARCHED} “{query}” holds only common words ({', '.join(hits.common)}), which nearly every "
                "passage has. Search again with the specific words of what you need: a name, a technical term or "
                "the subject, as the documents would write it.")
    near = bool(hits) and isinstance(hits, Hits) and hits.relevance is not None and hits.relevance < RELEVANT_SHARE
    note = hits.note(missing and not near) if isinstance(hits, Hits) else ""  # near: its words are said below
    said = note + "\n\n" if note else ""
    if near:
        said += (f"None of these passages is clearly about “{query}”: they share only some of its words. If "
                 "they do not answer it, say that the knowledge base does not cover it.\n\n")
    if not hits:
        return (said + f"{NO_MATCH} “{query}”. Try other words, such as the technical terms the documents "
                "would use.")
    numbers = document_numbers(hits, numbers)
    ordered = sorted(hits, key=lambda hit: numbers[hit.location])  # stable: best passage first in each
    heads = []
    for hit in ordered:
        where = hit.heading if hit.heading and hit.heading != hit.title else hit.title
        also = f"Also in: {also_in(hit.location, hit.copies)}\n" if hit.copies else ""  # its copies: one passage
        heads.append(f"[{numbers[hit.location]}] {where}\nSource: {hit.title} ({hit.location})\n{also}")
    room = max_chars - sum(len(h) + 2 for h in heads)
    share = max(200, room // len(hits))
    parts = []
    for head, hit in zip(heads, ordered):
        text = hit.text
        if len(text) > share and sum(len(h.text) for h in hits) > room:
            text = text[:share].rsplit(" ", 1)[0] + " …"
        parts.append(head + text)
    return said + "\n\n".join(parts)


# A passage's head as format_hits writes it: "[2] Heading", "Source: Title (location)", and "Also in: b.log" when
# other files hold the same passage.
_HEAD = re.compile(r"^\[(\d{1,3})\] [^\n]*\nSource: ([^\n]*)(?:\nAlso in: [^\n]*)?$", re.M)


def code_pieces(result: str) -> list[tuple[str, bool]]:
    """A ``rag_knowledge`` result (format_hits') in pieces, each with whether it is the text of a passage
    from a program or configuration file, which the window shows in the code font; a passage's head is not.
    Its "Source:" line ends in "(location)": a location with ")" in it ("a (1).py") still ends in its name."""
    pieces, pos, code = [], 0, False
    for match in _HEAD.finditer(result):
        pieces += [(result[pos:match.start()], code), (match.group(0), False)]
        pos, code = match.end(), is_code_location(match.group(2)[:-1]) if match.group(2).endswith(")") else False
    pieces.append((result[pos:], code))
    return [(text, code) for text, code in pieces if text]


def cited_numbers(result: str, locations: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """The numbers a ``rag_knowledge`` result gave each of its ``locations`` (its ``source`` lines), read
    from the passages' heads: what the model was told to cite them by. Results written before numbers
    named documents numbered each passage, so a file may have several ("[1, 3]"). A location with no head
    in ``result`` (a result cut short) has none."""
    found: dict[str, list[int]] = {}
    by_length = sorted(set(locations), key=len, reverse=True)  # "a (1).md" before "1).md"
    for match in _HEAD.finditer(result or ""):
        line = match.group(2)
        location = next((loc for loc in by_length if line.endswith(f"({loc})")), None)
        if location is not None:
            numbers = found.setdefault(location, [])
            if int(match.group(1)) not in numbers:
                numbers.append(int(match.group(1)))
    return {loc: tuple(sorted(found[loc])) for loc in locations if loc in found}


def _k(settings: object) -> int:
    try:
        return max(1, min(50, int(settings.get("k", 5))))  # type: ignore[attr-defined]
    except (TypeError, ValueError, AttributeError):
        return 5


def _max_chars(settings: object) -> int:
    try:
        return max(1000, int(settings.get("result_max_chars", 8000)))  # type: ignore[attr-defined]
    except (TypeError, ValueError, AttributeError):
        return 8000


async def find_passages(settings: Mapping[str, Any], data_dir: Path, query: str, k: int,
                        http: httpx.AsyncClient | None = None, spelling: bool = True) -> Hits:
    """The ``k`` best passages for ``query``, as the tool, the engine's ``rag`` route and the panel's
    search tab all find them: with the query's vector when an embedding model is set. Raises StoreError.
    ``spelling`` False leaves misspelt words as they are (see ``kb.search``)."""
    vector, problem = await query_vector(settings, query, http)
    if problem:
        log.warning("query embedding failed, using keyword search only: %s", problem)
    model = str(settings.get("embed_model", "") or "")
    # sqlite3 blocks; a thread keeps the event loop (and the window) responsive.
    return await asyncio.to_thread(kb_search, data_dir, query, k, query_vector=vector, vector_model=model,
                                   spelling=spelling)


_WORD = re.compile(r"\w+")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
# An uncited passage was drawn on when the answer shares with it this share of its own words that are not
# the question's, at least one word and at most three (a long answer takes a few words from each passage);
# one word alone must not be one of everyday English's most common (common_words.py).
SHARED_PART, SHARED_MAX = 0.2, 3


def used_passages(question: str, answer: str, hits: Sequence[Hit]) -> list[Hit]:
    """The passages that ``answer`` drew on: the ones it cites (a number names all the passages of one
    document, as format_hits numbers them); when it cites none, the ones it shares enough words with that
    the question does not have (SHARED_PART).

    Passages put into the prompt unasked (the engine's ``rag`` route) are the best matches for the
    question's words, which is no proof they are about it: "a good name for a cat" finds the user guide's
    passages about naming chats. The question's words are in every such passage, so they prove nothing; an
    answer that took something from a passage repeats more of it.
    """
    numbers = document_numbers(hits)
    cited: set[int] = set()
    for first, last in citations(answer):
        if last - first <= len(numbers):
            cited.update(range(first, last + 1))
    named = [hit for hit in hits if numbers[hit.location] in cited]
    if named:
        return named
    # Tags are no words taken from a passage: a block the engine did not run is shown as written
    text = _TAG.sub(" ", answer)
    said = _words(text) - _words(question)
    if not said:
        return []
    enough = min(SHARED_MAX, math.ceil(SHARED_PART * len(said)))
    # One shared word that everyday English uses all the time ("The result is 33.", "The final answer is
    # 5.") is no sign of a passage: the user guide was listed under such answers
    common = {_root(word) for word in _WORD.findall(nfkc(text).lower()) if word in COMMON_WORDS}
    used = []
    for hit in hits:
        shared = said & _words(f"{hit.heading} {hit.text}")
        if len(shared) >= enough and (len(shared) > 1 or not shared <= common):
            used.append(hit)
    return used


def _words(text: str) -> set[str]:
    """The content words of ``text``, comparable: lower-cased, four letters or more, without stop words, as
    their roots (see _root); numbers of two digits or more; a run of Chinese, Japanese or Korean characters
    as its pairs of neighbours (those languages have no spaces)."""
    out: set[str] = set()
    for word in _WORD.findall(nfkc(text).lower()):
        if any(is_cjk(c) for c in word):
            chars = [c for c in word if is_cjk(c)]
            # not the pairs no word has (Japanese endings, "くだ" "さい"): every passage shares them
            out.update(a + b for a, b in zip(chars, chars[1:]) if _in_a_word(a, b))
        elif word.isdigit():
            if len(word) >= 2:  # a figure ("27 days") is what a short answer takes; "1." numbers a list
                out.add(word)
        elif len(word) >= 4 and word not in STOP_WORDS:
            out.add(_root(word))
    return out


def _root(word: str) -> str:
    # Equal for the forms of a word an answer and a passage write differently: a plural's "s" dropped,
    # then the first six letters ("imports", "imported", "importing" → "import"; "names" → "name").
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        word = word[:-1]
    return word[:6]


async def run(query: str, ctx: ToolContext) -> ToolResult:
    data_dir = Path(ctx.data_dir)
    try:
        hits = await find_passages(ctx.settings, data_dir, query, _k(ctx.settings), ctx.http)
    except StoreError as exc:
        raise ToolError(str(exc)) from exc
    if not hits:
        if not await asyncio.to_thread(has_documents, data_dir):
            return ToolResult(EMPTY_MESSAGE, source="")
    # Numbered on from the answer's prompt passages and earlier searches (ctx.citations, shared by its
    # calls), so [3] is one file in the whole answer; a context without them numbers from 1, and the window
    # then lists a search's sources apart when its numbers clash with another's.
    numbers = document_numbers(hits, ctx.citations)
    text = format_hits(query, hits, _max_chars(ctx.settings), numbers=ctx.citations)
    sources = sorted(numbers, key=numbers.__getitem__)  # in the order of their numbers
    return ToolResult(text, source="\n".join(sources), anchors=best_anchors(hits, sources))


def best_anchors(hits: Sequence[Hit], locations: Sequence[str]) -> tuple[str | None, ...]:
    """For each of ``locations``, the anchor of its best passage among ``hits`` (they come best first)."""
    first: dict[str, str | None] = {}
    for hit in hits:
        first.setdefault(hit.location, hit.anchor)
    return tuple(first.get(location) for location in locations)


TOOLS = [
    ToolSpec(
        name="rag_knowledge",
        element="query",
        icon="🔍",
        description=(
            "Search the user's local knowledge base (documents, notes and pages they imported). Write the "
            "query as plain words about what you need. Returns passages with their source title, location and "
            "section, numbered by document (passages of one document share its number); cite them as [1], [2]."
        ),
        run=run,
        example="product return policy",
    )
]
