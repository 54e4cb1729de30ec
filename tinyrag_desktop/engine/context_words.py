"""What a person is told when the chat or the request is longer than the model's context, and what to do."""

from __future__ import annotations

from collections.abc import Collection

# Where each server sets the window it loads a model with.
LARGER = ("give the model a larger context (Ollama: OLLAMA_CONTEXT_LENGTH, or num_ctx in its Modelfile; LM Studio: "
          "the context length it loads the model with; llama.cpp: -c)")
# The settings that take tools' descriptions out of the app's instructions, and the tools each one offers
# (the knowledge base and the calculator are always offered). With network tools off, the instructions are a
# third shorter (about 750 tokens with the five default tools, 520 with the two left).
_TOOL_SWITCHES = (("“Network tools”", " (or pass --offline)", {"url_fetch", "websearch", "wikipedia"}),
                  ("“Allow shell commands”", "", {"shell"}), ("“Allow Go code (nanoGo)”", "", {"nanogo"}))


def _holds(window: int) -> str:
    return f"; the model's context holds {window:,} tokens" if window else ""


def _context_setting(window: int) -> str:
    return f"Context to use in Settings → Limits is {window:,} tokens (or pass --context-tokens)"


def too_long_words(window: int, size: int = 0, *, setting: bool = False) -> str:
    """Why a request cannot be sent at all: the question (with its passages, or a round's results) is
    longer than the model's whole context, or than the user's context_tokens (``setting``) when that is
    what limits it: the server was blamed for a limit the user had set."""
    about = f" (about {size:,} tokens with the app's instructions)" if size else ""
    if setting:
        return (f"{_context_setting(window)}, and this question is longer than that{about}. Raise it, or leave it "
                "empty to use as much as the server says the model holds; or shorten the question.")
    return f"This question is longer than the model can read at once{about}{_holds(window)}. Shorten it, or {LARGER}."


def instructions_too_long_words(window: int, size: int, question: int, tools: Collection[str], *,
                                passages: bool = False, setting: bool = False) -> str:
    """Why a request cannot be sent at all when the app's own instructions take the room (``size`` tokens in
    all, ``question`` of them the question's): a model loaded with a small context. A three-word question
    was told "This question is longer than the model can read at once … Shorten it"."""
    parts = ["the app's instructions"] + (["the descriptions of its tools"] if tools else []) \
        + (["the passages found in your knowledge base"] if passages else [])
    what = ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]
    about = f"about {size:,} tokens, of which the question is {question:,}"
    if setting:
        said = (f"{_context_setting(window)}, too little for {what} ({about}). Raise it, or leave it empty to use "
                "as much as the server says the model holds")
    else:
        said = f"The model's context is too small for {what} ({about}){_holds(window)}. {LARGER[0].upper()}{LARGER[1:]}"
    switches = [(name, hint) for name, hint, offers in _TOOL_SWITCHES if offers & set(tools)]
    if not switches:
        return said + "."
    names = " and ".join(name + hint for name, hint in switches)
    return f"{said}; or offer fewer tools: turn off {names} in Settings → Tools."


def persona_too_long_words(window: int, persona: int, size: int, *, setting: bool = False) -> str:
    """Why a request cannot be sent at all when the persona is what takes the room (``persona`` tokens of
    ``size``): the question is not the one to shorten."""
    about = f"about {persona:,} tokens; {size:,} with the app's instructions and the question"
    if setting:
        limit = f"{_context_setting(window)}, and the persona is too long for it ({about})"
        larger = "raise Context to use, or leave it empty to use as much as the server says the model holds"
    else:
        limit = f"The persona is longer than the model can read at once ({about}){_holds(window)}"
        larger = LARGER
    return f"{limit}. Shorten the persona (Settings → Personas; for ask, --system), choose another, or {larger}."


def left_out_words(left_out: int, window: int, shortened: int = 0) -> str:
    """The footer's tooltip: what was left out (``left_out`` of the chat's first messages; of ``shortened``
    earlier answers, some of what their tools returned, or a long one's middle), and what to do about it."""
    holds = f" (its context holds about {window:,} tokens)" if window else ""
    said = [f"This chat is longer than the model can read at once{holds}, so"]
    if left_out:
        messages = f"first {left_out} messages" if left_out != 1 else "first message"
        were, them = ("were", "them") if left_out != 1 else ("was", "it")
        said.append(f"the {messages} of this chat {were} not sent with this question: the model answered "
                    f"without {them}.")
    if shortened:
        one = shortened == 1
        answers = "an earlier answer was" if one else f"{shortened} earlier answers were"
        its = "its" if one else "their"
        said.append(f"{'And ' if left_out else ''}{answers} sent shorter than shown here: what {its} tools "
                    "returned was cut or left out (or, for a long answer, its middle).")
    said.append(f"Start a new chat for a new topic, or {LARGER}.")
    return " ".join(said)
