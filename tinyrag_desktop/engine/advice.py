"""The engine's own words: notes that correct the model between rounds, and notes that end an answer.

Also where a call the model wrote so that it is no call is recognised: a <tool> block in code (a fence, an
indented code block, a code span, a comment: the parser names it), one not closed, or a call in the format
another chat template teaches (Hermes' <tool_call>, Llama's JSON, Mistral's [TOOL_CALLS], Phi's <|tool_call|>,
Gemma's tool_code). None of these is ever run (the spec runs
only valid <tool> blocks): the model is told how to write it, and gets one more round.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Callable, Sequence
from xml.sax.saxutils import escape as xml_escape

from ..protocol import ToolCall, inside_at, parse_all, rest_ends
from ..protocol.parser import DEFAULT_MAX_BLOCK_CHARS

if TYPE_CHECKING:
    from ..tools.registry import ToolSpec
    from .config import EngineConfig

# Names small models give the tools, from other apps' tool sets, and the tools they mean, the first enabled
# one taken ("search": the web when it is on, else the user's documents). The case, "_", "-" and spaces are
# folded first, so "web_search" is "websearch" already.
ALIASES: dict[str, tuple[str, ...]] = {
    "calculator": ("calculate",), "calc": ("calculate",), "search": ("websearch", "rag_knowledge"),
    "wiki": ("wikipedia",), "fetch": ("url_fetch",),
}


def folded(name: str) -> str:
    """``Web-Search`` → ``websearch``: how a model's spelling of a tool's name is compared."""
    return name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")


# -- calls written so that they are no call ------------------------------------------------------------

# A tool call at the very end of the model's message (where it stopped to wait for its result) that is no
# block: in a code fence or span (spec rule 5), or "<tool\nname=", "<TOOL " (rule 1). Small models often write one
# so; the answer ended on it, the user shown a code block and no result.
_MISWRITTEN = re.compile(r"<tool\s[^>]*>.*?</tool\s*>\s*(?:`+|~{3,}|-->)?\s*\Z", re.IGNORECASE | re.DOTALL)
# What may follow a call in a Markdown construct (spec rule 5) at the end of a message: the construct's end.
_CLOSES = re.compile(r"\s*(?:(?:[*_]{1,3}|~~|\]\([^()\s]*\)|\]|\||</[A-Za-z][A-Za-z0-9-]*\s*>|-->)\s*)*\Z")
CLOSING_CHARS = 200  # more text than that after an invalid block: the message goes on after it
_CLOSE_TAG_MOST = 16  # "</tool" and the spaces a model may write before its ">"


def past_close(text: str) -> tuple[str, bool]:
    """What of ``text``, the rest of a block the parser cut at its length limit, comes after its </tool>, and
    whether the block still goes on; only the end of it kept, where a </tool> split across deltas begins."""
    end = rest_ends(text)
    return (text[-_CLOSE_TAG_MOST:], True) if end < 0 else (text[end:], False)


def closes_only(text: str) -> bool:
    """Whether ``text``, after a call not run, only closes what the call was written inside (or is blank)."""
    return len(text) <= CLOSING_CHARS and _CLOSES.match(text) is not None
_MISWRITTEN_TAIL = 4000  # characters of the message looked at: a call is short

# What may end a call of another template: its own end tags, the end-of-turn tokens a server passed through.
_END = r"(?:\s*(?:</tool_call>|<\|/tool_call\|>|</function_call>|</function>|<\|eom_id\|>|<\|eot_id\|>|```))*\s*\Z"
# {"name": "calculate", "arguments": {...}}: Hermes and Qwen 2.5 (<tool_call>), Llama 3.x (bare, or after
# <|python_tag|>), Mistral ([TOOL_CALLS] [...]), Phi-4 (<|tool_call|>[...]), in a ```json fence or not.
_JSON_CALL = re.compile(
    r"(?:<tool_call>|<\|tool_call\|>|<\|python_tag\|>|\[TOOL_CALLS\]|<function_call>|```(?:json)?)?\s*\[?\s*"
    r'\{\s*"name"\s*:\s*"([^"\n]{1,64})"\s*,\s*"(?:arguments|parameters)"\s*:\s*(\{.*\})\s*\}\s*\]?' + _END,
    re.DOTALL,
)
# Mistral's newer [TOOL_CALLS]calculate[ARGS]{...}, and Llama 3.1's <function=calculate>{...}</function>.
_NAMED_JSON_CALL = re.compile(r"(?:\[TOOL_CALLS\]\s*([\w.-]{1,64})\s*\[ARGS\]|<function=([\w.-]{1,64})>)\s*(\{.*\})" + _END,
                              re.DOTALL)
# calculate(query="2+2") alone: Gemma's ```tool_code fence, Llama's <|python_tag|>calculate.call(...), and the
# pythonic [calculate(query="2+2")] of Llama 3.2.
_PYTHON_CALL = re.compile(
    r"(?:```(?:tool_code|python|py)?[ \t]*\n|<\|python_tag\|>|\[)[ \t]*(?:print\()?([A-Za-z_][\w]{0,63})(?:\.call)?"
    r"\(([^\n]*)\)\)?[ \t]*\]?" + _END,
)
_PYTHON_ARG = re.compile(r"""\w+\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")


def foreign_call(text: str, resolve: Callable[[str], ToolSpec | None]) -> str:
    """The note for a message that ends with a call to an available tool written as another chat template
    writes one ("" when it does not): what to write instead, that very call as a <tool> block."""
    tail = text[-_MISWRITTEN_TAIL:]
    found: tuple[str, str | None] | None = None
    if (m := _JSON_CALL.search(tail)) is not None:
        found = m.group(1), _first_string(m.group(2))
    elif (m := _NAMED_JSON_CALL.search(tail)) is not None:
        found = m.group(1) or m.group(2), _first_string(m.group(3))
    elif (m := _PYTHON_CALL.search(tail)) is not None:
        arg = _PYTHON_ARG.search(m.group(2))
        found = m.group(1), (arg.group(1) if arg.group(1) is not None else arg.group(2)) if arg else None
    if found is None:
        return ""
    spec = resolve(found[0])
    if spec is None:  # JSON or code that names no tool of ours: an answer, not a call
        return ""
    value = found[1].strip() if found[1] and found[1].strip() else spec.example
    block = f'<tool name="{spec.name}"><{spec.element}>{xml_escape(value)}</{spec.element}></tool>'
    return ("The tool call your last message ends with was not run: it is written in another format, and here "
            f"only a block like this one, written as plain text, calls a tool: {block} If you need the tool, "
            "write the call so; otherwise answer the question now.")


def _first_string(arguments: str) -> str | None:
    """The first string value of a call's JSON arguments, or None when they are no JSON object."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return None
    if isinstance(value, dict):
        for item in value.values():
            if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                return str(item)
    return None


# What the reader is told after such a call, which the answer shows as the model wrote it (code, or another
# template's JSON) and the model is asked to write again: the window says it there, `ask` on stderr. An
# invalid <tool> block needs none: the window marks it ("(a tool call not run: …)") and `ask` says it at the end.
FOREIGN_ASIDE = "(the tool call above was not run: it is written in another app's format; the model was asked again)"
MISWRITTEN_ASIDE = "(the tool call above was not run: its tag is not written exactly; the model was asked again)"


def code_aside(where: str) -> str:
    """The aside for a call shown as code: ``where`` names the code, as the parser reads it."""
    return f"(the tool call above was not run: it is inside {where}; the model was asked again)"


def miswritten_call(text: str, invalid: str, resolve: Callable[[str], ToolSpec | None]) -> tuple[str, str]:
    """The note telling the model why the call its message ends with was not run, and the aside telling the
    reader (both "" when it ends otherwise; the aside also for an invalid block, which is marked already).
    Asked only of a round that ended normally: a block left open there was not cut by a limit."""
    if invalid.startswith("it is inside "):  # rule 5
        why, aside = invalid, ""
    elif invalid.startswith("no </tool> within "):  # the parser's limit: a query that long is no query
        why, aside = f"it is longer than a tool call may be ({invalid}); keep the call short", ""
    elif invalid:  # why the block itself is wrong
        why, aside = f"it is not a valid block ({invalid})", ""
    elif _MISWRITTEN.search(tail := text[-_MISWRITTEN_TAIL:]):
        folded_tail = tail.lower()
        start = len(text) - len(tail) + folded_tail.rfind("<tool", 0, folded_tail.rfind("</tool"))
        where = inside_at(text, start)
        if where:
            why, aside = f"it is inside {where}, and a tool call there is shown as text, not run", code_aside(where)
        else:
            why = "its tag is written other than exactly <tool name=\"…\"> (lower case, one space)"
            aside = MISWRITTEN_ASIDE
    else:
        note = foreign_call(text, resolve)
        return note, FOREIGN_ASIDE if note else ""
    return (f"The tool call your last message ends with was not run: {why}. If you need the tool, write the call "
            "again as plain text, on its own (not in code, a quote, a list or emphasis), exactly like "
            "<tool name=\"calculate\"><query>2 + 2</query></tool>; otherwise answer the question now."), aside


_ENDS_KEPT = 1_000  # characters kept at each end of a tool block too long to run, in the reply sent back


def without_long_blocks(reply: str, most: int = DEFAULT_MAX_BLOCK_CHARS) -> str:
    """``reply`` as it is sent back to the model: a tool block longer than ``most`` characters (which never
    runs) cut to its start and end, with its length. Sent whole for the model to write again, it made the
    round longer than the context ("this question is longer than that … shorten the question")."""
    pieces, kept, close, ends = [], 0, -1, min(_ENDS_KEPT, most // 4)
    start = reply.find("<tool")
    while start >= 0:
        if close < start:  # the end of the block starting here (a block nested in one shares its end)
            close = reply.find("</tool>", start)
            close = len(reply) if close < 0 else close + len("</tool>")
        if close - start > most:
            left_out = f" … ({close - start:,} characters of this tool call left out) … "
            pieces += [reply[kept:start + ends], left_out, reply[close - ends:close]]
            kept = close
        start = reply.find("<tool", max(start + 1, kept))
    return "".join(pieces) + reply[kept:] if pieces else reply


def call_in_reasoning(reasoning: str) -> bool:
    """Whether the model's reasoning holds a whole, valid tool block (which never runs there)."""
    return "<tool" in reasoning and any(isinstance(e, ToolCall) for e in parse_all(reasoning))


CALL_IN_REASONING = ("A tool call in your reasoning is not run, and your last message had no answer. If you need "
                     "the tool, write the call in your answer, after your reasoning, as plain text exactly like "
                     "<tool name=\"calculate\"><query>2 + 2</query></tool>; otherwise answer the question now.")

# -- notes between rounds --------------------------------------------------------------------------------

REFUSED_ONLY = ("None of your calls in your last message was run (see the results above for why), and a "
                "repeated call will not run either. Do not call a tool again for the same thing: answer the "
                "question now from the results you already have.")

# Told with the results that start the last round: the model was never told, called a tool, and the answer
# ended on its card. A call it writes all the same still runs (DESIGN: a request has at most 1 +
# max_continuations rounds; the limits skip calls by count), and the user reads its result on the card.
LAST_ROUND = ("This is your last round: the result of any tool call you write now would not come back to you. "
              "Answer the question now from the results you already have.")

# After its tools ran, the model wrote nothing: it began by copying the results message (the server stopped
# it at STOP_SEQUENCES at once), or it only reasoned.
ANSWER_NOW = ("Your last message was empty: the tools' results are in the message before it. Answer the question "
              "now, in plain words, from those results. Do not write <tool_results> or <result> tags, and do not "
              "repeat the results' markup.")


def renamed(called: str, spec: ToolSpec) -> str:
    """The note for a call to "calculator" run as calculate."""
    return (f"There is no tool called “{called[:100]}”; your call ran as {spec.name}. Call it by that name: "
            f"<tool name=\"{spec.name}\"><{spec.element}>…</{spec.element}></tool>")


# -- notes that end an answer -----------------------------------------------------------------------------

# The setting (and `ask`'s flag) that allows more rounds, as the other limits' notes name theirs.
ROUNDS_SETTING = "“Rounds after the first” in Settings → Limits (or --max-continuations)"
# The settings (and flags) that allow more tool calls, by the limit a skipped call's reason names
# ("limit reached: at most 5 tool calls per answer"): more rounds would only be refused the same way.
CALLS_SETTINGS = {"answer": "“Tool calls per answer” in Settings → Limits (or --max-tools-total)",
                  "round": "“Tool calls per round” in Settings → Limits (or --max-tools-per-round)"}


def rounds(cfg: EngineConfig) -> str:
    """"4 rounds per answer": the first and the max_continuations after it."""
    most = cfg.max_continuations + 1
    return f"{most} round{'s' if most != 1 else ''} per answer"


def calls(count: int) -> str:
    """"at most 3 tool calls", "at most 1 tool call"; at a limit of 0, "no tool calls": none may run."""
    return "no tool calls" if count == 0 else f"at most {count} tool call{'' if count == 1 else 's'}"


def ended_waiting_note(results: Sequence[tuple[str, str, str, str, str]], cfg: EngineConfig,
                       told: bool = False) -> str:
    """Why the answer ends on tool cards with no text after them, in the answer's own words (Markdown).
    ``told``: the model was told (REFUSED_ONLY) that its repeated calls do not run, and repeated one again."""
    most = rounds(cfg)
    refused = [reason for _, _, status, _, reason in results if status == "skipped"]
    more = f"Ask again to go on, or raise {ROUNDS_SETTING} to allow more rounds."
    if refused and len(refused) == len(results):
        last = refused[-1]
        if last.startswith("duplicate call: the same call was refused"):
            why = "the model only repeated a tool call that had been refused"
        elif last.startswith("duplicate") and told:
            # more rounds would have been more repeats: the model reads the result, and does not use it
            return ("\n\n*The answer ends here: the model only repeated a tool call that had already run, instead "
                    "of answering from its result (see the card above). Ask again, perhaps in other words, or "
                    "choose another model in Settings.*\n")
        elif last.startswith("duplicate"):  # in its last round, never told: one round more may have helped
            why = "the model only repeated a tool call that had already run"
        else:
            why = f"the model's last tool call was not run ({last.rstrip('.')})"
            if last.startswith("limit reached:") and (per := last.rstrip(".").rsplit(" ", 1)[-1]) in CALLS_SETTINGS:
                more = f"Ask again to go on, or raise {CALLS_SETTINGS[per]} to allow more tool calls."
        note = f"The answer ends here: {why}, and no round was left for it to answer from the results (at most {most})."
    else:
        note = (f"The answer ends here: the model was still calling tools at the limit of {most}, so it could "
                "not answer from the last results.")
    return f"\n\n*{note} {more}*\n"


def blank_after_tools_note(reasoned: bool) -> str:
    """Why the answer ends on its tool cards: after the tools ran, the model wrote no answer (Markdown)."""
    what = "only reasoned and wrote no answer" if reasoned else "wrote no answer"
    return (f"\n\n*The answer ends here: after its tools ran, the model {what} from their results (see the cards "
            "above). Ask again, or choose another model in Settings.*\n")


def cut_short_words(max_tokens: int) -> str:
    """Why an answer stopped at the server's length limit, and what to do."""
    if max_tokens:
        limit = (f"the longest reply allowed, {max_tokens:,} tokens (“Longest reply (tokens)” in Settings → "
                 "Advanced)")
        fix = "raise that setting"
    else:
        limit = "the server's limit on the length of a reply, or filled its context"
        fix = "raise the limit on the server (Ollama: num_predict; llama.cpp: -n)"
    return (f"The answer was cut short: the model reached {limit}. The text so far is kept; ask it to go on, "
            f"or {fix} and try again.")


def filtered_words(begun: bool) -> str:
    """Why an answer stopped at the server's content filter (``begun``: some of it had come), and what to do."""
    if begun:
        return ("The server's content filter stopped the answer here. The text so far is kept; ask in other words, "
                "or use another model or server.")
    return ("The server's content filter held the answer back: none of it came. Ask in other words, or use another "
            "model or server.")


# The finish reasons of a reply the server, not the model, ended before its end (vLLM's "abort" when its engine
# stops a request: shut down, paused, scaled down; "error", some proxies')
SERVER_STOPPED = ("abort", "error")


def server_stopped_words(finish_reason: str, begun: bool) -> str:
    """Why an answer the server stopped itself (``finish_reason`` one of SERVER_STOPPED) ends there."""
    if begun:
        return (f"The server stopped the answer before the model finished it (its reason: “{finish_reason}”). The "
                "text so far is kept; try again.")
    return f"The server stopped the answer before any of it came (its reason: “{finish_reason}”). Try again."


def only_thought_words(max_tokens: int, finish_reason: str | None = "length") -> str:
    """Why a reply of reasoning alone gave no answer, and what to do (in the window, and from `ask`, which
    shows no reasoning: it names no Thinking section, and no setting that is not there to raise). A reply
    the model ended itself (finish_reason "stop") used up no limit."""
    if finish_reason not in (None, "length"):
        return ("The model only reasoned and gave no answer: it ended its reply without writing one. Try again, "
                "or choose another model in Settings.")
    if max_tokens:
        return ("The model only reasoned and gave no answer: its reasoning may have used up the longest reply "
                f"allowed, {max_tokens:,} tokens (“Longest reply (tokens)” in Settings → Advanced, or "
                "--max-tokens). Raise it, or try again.")
    return ("The model only reasoned and gave no answer: its reasoning may have used up the server's limit on "
            "the length of a reply. Try again, or raise that limit on the server (Ollama: num_predict; "
            "llama.cpp: -n).")
