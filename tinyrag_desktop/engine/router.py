"""The router: cheap heuristics, before the first round, about what a question needs.

The decision is the spec's ``route`` event (a debugging aid in the window) and steers the prompt: ``rag``
puts the best knowledge-base passages into it, ``tools`` names the likely tool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_URL = re.compile(r"\bhttps?://[^\s<>\"']+", re.I)
# Go in the question itself, or a question that asks for Go: the route's reason says which ("the question has
# Go code" for "Sum the numbers below 300 million in Go", which has none, sent the user looking for it).
_GO_CODE = re.compile(r"```go\b|\bpackage main\b|\bfunc main\s*\(|\bfmt\.Print", re.I)
_GO_ASKED = re.compile(r"\bgolang\b|\bin go\b(?!-)|\bgo (?:code|program|snippet)", re.I)
# Arithmetic in symbols. A hyphen or a slash between two numbers with no space beside it is more often a
# range, a date, a version, a port or a telephone number ("pages 12-14", "2024-03-12", "PostgreSQL 14-15",
# "ports 80/443", "555-1234") than a sum: it counts only in a question that is the sum alone ("12-5",
# "what's 144/12?"). Taken for a sum, such a question lost its knowledge-base passages to a calculator hint.
_ARITH = re.compile(
    r"\d\s*(?:[+*^×÷%]|\*\*)\s*[\d(]|\d\s+[-−/]\s+[\d(]|[\d)]\s*[-−/]\s*\(|\)\s*[-−/]\s*\d"
    r"|\b(?:sqrt|factorial|percent)\b|\d\s*%\s*of\b", re.I)
_SUM_LEAD = re.compile(r"(?:what(?:'s| is)|calculate|compute)\s+", re.I)
_SUM_CHARS = re.compile(r"[\d\s.,+\-−*/^×÷%()=?]+")
_TIGHT = re.compile(r"\d[-−/]\d")


def _sum_alone(text: str) -> bool:
    """Whether ``text`` is a sum and nothing else, with at most "what is" before it (checked in one pass each:
    a pattern with the sum's characters on both sides of the operator would try every split of a long paste)."""
    body = text.strip()
    lead = _SUM_LEAD.match(body)
    body = body[lead.end():] if lead else body
    return _SUM_CHARS.fullmatch(body) is not None and _TIGHT.search(body) is not None
_CALC_WORDS = re.compile(r"\b(?:calculate|compute|how much is|what is \d)", re.I)
# Arithmetic said in words: a number, then an operation word ("3 books at 12.50 each"), or an operation of
# something, then a number ("average of 4, 8"). Looked for word by word (see _spoken_calc): as one pattern,
# "\d.*\b(?:each|…)\b" took time growing with the square of a pasted table of numbers (15 s for 13,000
# characters, on the window's own thread).
_OPERATION_WORD = re.compile(
    r"\b(?:each|times|total|sum|average|mean|plus|minus|divided|multiplied|squared|cubed|percent|"
    r"per ?cent|factorial|power|root)\b", re.I)
_OPERATION_OF = re.compile(r"\b(?:sum|average|mean|product|square root|factorial) of\b", re.I)
_DIGIT = re.compile(r"\d")


def _spoken_calc(text: str) -> bool:
    first = _DIGIT.search(text)
    if first is None:
        return False
    if any(m.start() > first.start() for m in _OPERATION_WORD.finditer(text, first.start() + 1)):
        return True
    of = _OPERATION_OF.search(text)
    return of is not None and _DIGIT.search(text, of.end()) is not None
# Encyclopedia questions: about a person, a place, a work, an event (general question forms, not topics).
_WIKI = re.compile(
    r"\bwikipedia\b|\bwho (?:is|was|were)\b|\btell me about\b|\bhistory of\b|\bbiography\b"
    r"|\bwho (?:wrote|invented|discovered|founded|painted|composed|directed|built|designed|created)\b"
    r"|\bwhat (?:is|was) the (?:capital|population|tallest|largest|longest|highest|biggest|oldest|deepest)\b",
    re.I,
)
_WIKIPEDIA = re.compile(r"\bwikipedia\b", re.I)
# "When was … born?": the question word, then the event word after it, looked for one after the other (as
# one pattern, ".*" between them took time growing with the square of a pasted transcript: 20 s for 100 KB).
_WHEN = re.compile(r"\bwhen (?:was|were|did)\b", re.I)
_EVENT = re.compile(r"\b(?:born|built|founded|discovered|invented|written|die|died|end|start|begin)\b", re.I)


def _wiki_question(text: str) -> bool:
    if _WIKI.search(text):
        return True
    when = _WHEN.search(text)
    return when is not None and _EVENT.search(text, when.end()) is not None
# Requests that make or rework text rather than look something up: small talk, writing a poem or a story,
# translating, rewriting or correcting text the user gives. Passages put into the prompt would only distract
# the model, unless the request names the user's own documents (_OWN_DOCS).
_SMALL_TALK = re.compile(
    r"^\W*(?:hi|hello|hey|good (?:morning|afternoon|evening)|thanks?(?: you)?|thank you(?: very much)?|"
    r"how are you(?: doing)?|bye|goodbye)(?:\W+(?:there|again|so much|a lot))?\W*$",
    re.I,
)
_CREATIVE = re.compile(
    r"^\W*(?:please\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:write|compose|make up|invent|tell)(?: me)?(?: an?| some| the| two| three)? (?:[\w'-]+,? ){0,3}?"
    r"(?:poem|haiku|limerick|sonnet|song|lyrics|story|tale|joke|riddle|"
    r"rhyme|verse|slogan|toast|birthday (?:message|card|wish))s?\b"
    r"|^\W*(?:please\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:translate|rephrase|paraphrase|reword|rewrite|proofread|correct the (?:grammar|spelling)|"
    r"fix the (?:grammar|spelling))\b",
    re.I,
)
_OWN_DOCS = re.compile(
    r"\b(?:my|our|these|the) (?:notes?|documents?|docs|files?|pdfs?|manuals?|knowledge base|sources?)\b"
    r"|\bknowledge base\b",
    re.I,
)
_WEB = re.compile(r"\b(?:search the web|web search|look up online|news|today'?s)\b", re.I)
# "latest", "current": recent information, which the user's own notes may hold ("the current retention policy")
_RECENT = re.compile(r"\b(?:latest|current(?:ly)?)\b", re.I)


@dataclass(frozen=True, slots=True)
class Decision:
    mode: str  # direct | rag | tools
    reason: str
    hints: tuple[str, ...] = ()
    problem: str = ""  # why the knowledge base could not be read (the engine's, not the router's)
    # the knowledge base may answer better than the hinted tools: the engine looks there first (see route)
    documents_first: bool = False
    weak: tuple[str, ...] = ()  # hints that come from the question's general form, not from what it names


def route(question: str, enabled: set[str], *, has_kb: bool) -> Decision:
    """Decide from the question's words alone; no model call, no I/O."""
    hints: list[str] = []
    reasons: list[str] = []

    def want(tool: str, why: str) -> None:
        if tool in enabled and tool not in hints:
            hints.append(tool)
            reasons.append(why)

    if _URL.search(question):
        want("url_fetch", "the question has a URL")
    if _GO_CODE.search(question):
        want("nanogo", "the question has Go code")
    elif _GO_ASKED.search(question):
        want("nanogo", "the question asks for Go")
    weak: list[str] = []  # hints from a question's form alone ("Who is …", "How do I calculate …")
    if _ARITH.search(question) or _sum_alone(question) or _spoken_calc(question):
        want("calculate", "the question has arithmetic")
    elif _CALC_WORDS.search(question):  # "calculate", "how much is": it asks for a sum, it holds none
        want("calculate", "the question asks for a calculation")
        if not _DIGIT.search(question):  # "How much is the travel allowance?", "How do I calculate …?"
            weak.append("calculate")
    if _wiki_question(question):
        want("wikipedia", "the question names an encyclopedia topic")
        if not _WIKIPEDIA.search(question):
            weak.append("wikipedia")
    if _WEB.search(question):
        want("websearch", "the question asks about recent or online information")
    elif _RECENT.search(question):
        want("websearch", "the question asks about recent or online information")
        weak.append("websearch")
    if hints:
        # "Who is our contact at ACME?", "tell me about the onboarding process", "the current retention
        # policy", "how much is the travel allowance": asked in an encyclopedia's, a news search's or a
        # calculator's words, answered by the user's documents (not when it names Wikipedia, the web or the
        # news, nor when it has numbers to work on). The engine looks, and routes it as rag when it has them.
        first = has_kb and (set(hints) <= set(weak) or bool(_OWN_DOCS.search(question)))
        return Decision("tools", "; ".join(reasons), tuple(hints), documents_first=first,
                        weak=tuple(h for h in hints if h in weak))
    if (_SMALL_TALK.search(question) or _CREATIVE.search(question)) and not _OWN_DOCS.search(question):
        return Decision("direct", "small talk, or writing or reworking text: no passages needed")
    if has_kb:
        return Decision("rag", "the knowledge base has documents", ("rag_knowledge",))
    return Decision("direct", "no tool is likely needed and the knowledge base is empty")
