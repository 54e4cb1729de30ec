"""What a person is told of a tool call that did not run as asked, in the window's words: the card says it,
and so do a copied answer and an exported chat (chat_export.py). The engine's reasons are written for the model
and the command line; these turn them into sentences for the window. No Qt."""

from __future__ import annotations

import re

from .tools.console_text import terminal_text
from .tools.nanogo_tool import KEEPS_OUTPUT, OUTPUT_CUT
from .tools.rag import EMPTY_MESSAGE, NO_MATCH, NOT_SEARCHED
from .tools.shell import CUT_NOTE, status_note

# The engine's reason for a call to a tool that is off; the setting or flag that turns it on follows.
DISABLED = "The tool {tool} is disabled: "
# A command the user denied is their choice, not a failure: said in their words (the model reads the
# engine's DENIED, in the third person).
DENIED_NOTE = "You chose not to run this command."
# The setting a disabled tool's reason names ("enable 'Allow shell commands' in Settings or pass
# --allow-shell-exec"): only the setting is said, as the window has no command line to pass a flag to.
_SETTING_NAMED = re.compile(r"(?:enable|turn on) '([^']+)' in Settings")
# A setting named in such a reason as an older version labelled it, which its chats keep: said as Settings
# labels it now (a chat from the first days sent the user looking for "Allow nanoGo", which Settings no longer shows).
_RENAMED_SETTINGS = {"Allow nanoGo": "Allow Go code (nanoGo)"}
# Where the engine's reason goes on to advise the model ("Available tools: …", "Write: <tool …>"): what a
# person is told stops there (the open card shows all of it).
_TO_THE_MODEL = (" Available tools:", " Write for example:", " Write:")
# The engine's reason for a call over a limit, and the setting that raises it.
LIMIT = re.compile(r"limit reached: (at most .*|no tool calls) per (round|answer)\b")
# A hint for the command line in a message the window shows: "(or pass --api-key)", "(or --base-url)",
# "or pass --allow-nanogo". The engine's messages serve both; the window has no flags to pass.
_FLAG_HINT_RE = re.compile(r" \((?:or )?(?:pass )?--[a-z][a-z-]*\)| or pass --[a-z][a-z-]*")
# The knowledge base's advice (kb/store.py words it for both): a window user quits and starts tinyRAG on
# another data folder instead.
_DATA_DIR_FLAG = re.compile(r"\b([Uu])se another data folder \(--data-dir\)")


# What a person is told of a knowledge base search that found nothing. The result is the model's (the empty
# knowledge base's names the command line's `kb add`); the card, a copy and an export say these instead.
EMPTY_KB_NOTE = "The knowledge base is empty: add documents in the Knowledge base panel (View → Knowledge base)."
NO_MATCH_NOTE = "No passage in the knowledge base matched these words."
COMMON_WORDS_NOTE = ("Not searched: these are all common words, which nearly every passage holds. The model was "
                     "asked to search with more specific ones.")
NOTHING_FOUND = "nothing found"  # the word beside such a search's badge, where a tick said it had answered


def found_nothing(tool: str, result: str) -> str:
    """What a person is told of a knowledge base search that found nothing ("" for any other call): the
    knowledge base is empty, no passage matched, or the query held only common words and was not searched."""
    if tool != "rag_knowledge":
        return ""
    if result.startswith(EMPTY_MESSAGE):
        return EMPTY_KB_NOTE
    if result.startswith(NOT_SEARCHED):
        return COMMON_WORDS_NOTE
    return NO_MATCH_NOTE if NO_MATCH in result else ""


# The word beside the tick of a run stopped at its output limit (a Go program's 64 KB, a command's 2 MB): it
# finished, and its result is the start of what it printed. A plain tick with its time read as a whole run.
OUTPUT_CUT_WORD = "output cut"


def output_was_cut(tool: str, query: str, result: str) -> bool:
    """Whether the call (done) was stopped at its output limit, as its result's closing words say."""
    if tool == "nanogo":
        return result.endswith(OUTPUT_CUT)
    return tool == "shell" and status_note(query, result) == CUT_NOTE


def result_words(tool: str, result: str) -> str:
    """A call's result as a person reads it: the empty knowledge base's in the window's words, not the
    model's (which ends with a command line), a program's output as a terminal shows it (terminal_text: a chat
    saved before the tools cleaned it held colour codes), any other as it came."""
    if tool in KEEPS_OUTPUT:
        return terminal_text(result)
    return EMPTY_KB_NOTE if tool == "rag_knowledge" and result.startswith(EMPTY_MESSAGE) else result


# A reason that names the setting which would let the call through, in the model's words ("…; url_fetch does
# not reach such addresses unless 'Let URL fetch reach private addresses' (url_fetch_allow_private) is on in
# Settings."): the window names the setting as its other cards do ("Turn on “Allow shell commands” in Settings"),
# without the settings file's key.
_UNLESS_ON = re.compile(r"; url_fetch does not reach such addresses unless '([^']+)' \([a-z_]+\) is on in Settings\.")
_TURN_ON_TO_READ = ". Turn on “{}” in Settings → Tools to read pages there."


# A hint for the window in a message the command line shows too (the settings' own checks serve both): the
# command line has no box to leave empty.
_BOX_HINT = " (or leave the box empty)"


def command_line_words(text: str) -> str:
    """``text`` as the command line says it: without the window's hints (window_words's other half)."""
    return text.replace(_BOX_HINT, "")


def window_words(text: str) -> str:
    """``text`` as the window says it: without its command-line hints, so it names only what a user can do
    in the app (the setting to change in Settings, which the message names beside the flag; quitting and
    starting tinyRAG with another data folder, for a knowledge base it cannot use)."""
    text = _DATA_DIR_FLAG.sub(lambda m: ("Q" if m.group(1) == "U" else "q")
                              + "uit tinyRAG and start it with another data folder", text)
    text = _UNLESS_ON.sub(lambda m: _TURN_ON_TO_READ.format(m.group(1)), text)
    return _FLAG_HINT_RE.sub("", text)


# "… in Settings" for a setting on its Model tab (no "→ Limits" after it): said inside Settings, "above".
_IN_MODEL_TAB = re.compile(r" in Settings\b(?! →)")


def settings_words(text: str) -> str:
    """``text`` as Settings itself says it (Test connection's result, under the model box): "check the
    Server URL in Settings" sent the user to the dialog already open before them; the Server URL, the API
    key and the model are above the result."""
    return _IN_MODEL_TAB.sub(" above", window_words(text))


def sentence(text: str, tool: str) -> str:
    """``text`` with a capital first letter ("duplicate call: …"), unless it starts with a name: the tool's
    ("calculate takes <query>, …") or one spelt with capitals or marks ("nanoGo is off", "url_fetch …")."""
    first = text.split(" ", 1)[0].rstrip(":,;.")
    if text.startswith(tool) or not (first.isalpha() and first.islower()):
        return text
    return text[:1].upper() + text[1:]


def split_advice(reason: str) -> tuple[str, str]:
    """``reason`` as what went wrong and the advice the model was given after it ("Available tools: …")."""
    cut = min((reason.find(mark) for mark in _TO_THE_MODEL if mark in reason), default=len(reason))
    return (reason[:cut].strip() or reason.strip()), reason[cut:].strip() if reason[:cut].strip() else ""


def limit_setting(reason: str | None) -> str:
    """The setting that raises the limit a reason names: the engine said only the limit."""
    m = LIMIT.match(reason or "")
    if m is None:
        return ""
    some = "them" if m.group(1) == "no tool calls" else "more"  # at a limit of 0, none ran
    return f". To allow {some}, raise “Tool calls per {m.group(2)}” in Settings → Limits."


def for_a_person(reason: str, tool: str) -> str:
    """The part of ``reason`` a person reads, as a sentence: up to the model's advice."""
    return sentence(split_advice(window_words(reason))[0], tool) + limit_setting(reason)


def off_note(error: str | None, tool: str) -> str | None:
    """What is said of a call to a tool switched off in Settings (None for any other reason, one switched off
    for the run by its command line too): off is the user's setting, and the way to switch it on is a setting,
    not a flag."""
    if not error or not error.startswith(DISABLED.format(tool=tool)):
        return None
    named = _SETTING_NAMED.search(error)
    if named is None and "in Settings" not in error:  # off for this run (--ask holds the shell back): no setting
        return None                                   # turns it on, and the reason says what does
    if named is None:
        return "This tool is off. Turn it on in Settings to use it."
    setting = _RENAMED_SETTINGS.get(named.group(1), named.group(1))
    return f"This tool is off. Turn on “{setting}” in Settings to use it."


# What a call's card is titled, and what a copied answer and an exported chat call the tool: the tool in a
# person's words. The name the model calls it by ("rag_knowledge", "nanogo") read as code, and the open card
# said "Source: nanoGo" under a title "nanogo". A tool this version does not know keeps the name the model
# wrote. The model's name stays in the card's tooltip, its `tool_name`, and an exported page's tooltip.
TOOL_TITLES = {"rag_knowledge": "Knowledge base", "websearch": "Web search", "wikipedia": "Wikipedia",
               "url_fetch": "Web page", "calculate": "Calculator", "nanogo": "Go program",
               "shell": "Shell command"}
# The source a tool gives that names only what ran, not a place ("calculator" for a calculation, "nanoGo" for
# Go): a copy and an export leave it out, as the title says it ("Calculator … source: calculator").
_SOURCE_IS_THE_TOOL = {"calculate": "calculator", "nanogo": "nanoGo"}


def tool_title(tool: str) -> str:
    """The title of a card for a call of ``tool``: "Calculator" for calculate, an unknown name as it is."""
    return TOOL_TITLES.get(tool, tool)


def source_is_the_tool(tool: str, source: str) -> bool:
    """True when a call's ``source`` only names the tool that ran it (see _SOURCE_IS_THE_TOOL)."""
    return tool in _SOURCE_IS_THE_TOOL and source.strip() == _SOURCE_IS_THE_TOOL[tool]


# What a tool is doing, in a person's words: while it runs (the status bar), and while the model writes a call
# of it (the status bar, and the card being written, beside its title). The model's names ("nanogo",
# "rag_knowledge") are code to a reader; a tool this version does not know is named as the model wrote it.
_DOING = {
    "rag_knowledge": ("Searching the knowledge base…", "Writing a knowledge base search…"),
    "websearch": ("Searching the web…", "Writing a web search…"),
    "wikipedia": ("Looking it up in Wikipedia…", "Writing a Wikipedia lookup…"),
    "url_fetch": ("Reading a web page…", "Writing a web address…"),
    "calculate": ("Calculating…", "Writing a calculation…"),
    "nanogo": ("Running Go code…", "Writing Go code…"),
    "shell": ("Running a shell command…", "Writing a shell command…"),
}


def running_words(tool: str) -> str:
    """What is said while a call of ``tool`` runs: "Searching the knowledge base…"."""
    return _DOING[tool][0] if tool in _DOING else f"Running {tool}…"


def writing_call_words(tool: str) -> str:
    """What is said while the model writes a call of ``tool``: "Writing Go code…"."""
    return _DOING[tool][1] if tool in _DOING else f"Writing a {tool} call…"


# "… in Settings", "… in Settings → Limits": the tab an error's remedy is on (the Model tab unless named).
_IN_SETTINGS = re.compile(r"\bin Settings(?: → (Model|Tools|Limits|General|Advanced|Personas)\b)?")


def settings_tab(message: str) -> str | None:
    """The Settings tab whose change an error's words ask for ("check the Server URL in Settings": Model),
    or None when they name no setting. With a tab, the error card offers "Open Settings" beside Retry
    (after a first question with no server, only Retry was offered, and the welcome page had gone)."""
    found = _IN_SETTINGS.search(message)
    if found is None:
        return None
    return found.group(1) or "Model"


# The field an error's remedy on the Model tab is in, by the setting its words name (the first that matches)
_FIELDS = (("API key", "api_key"), ("Server URL", "base_url"), ("Chat model", "chat_model"),
           ("model in Settings", "chat_model"), ("one in Settings", "chat_model"))


def settings_field(message: str) -> str | None:
    """The Model tab's field an error's words ask to change (settings_tab): "api_key" for a refused key,
    "chat_model" for a missing model, "base_url" for an address that does not answer; None for another tab
    or none. Only our own words count: not what the server said after them."""
    ours = message.split("The server said:", 1)[0]
    if settings_tab(ours) != "Model":
        return None
    return next((field for words, field in _FIELDS if words in ours), None)
