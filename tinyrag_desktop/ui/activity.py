"""What the answer being written is doing, in the status bar's words, followed from the engine's events.

The status bar said "Answering…" from the question to the end of the answer, also while a search ran for
seconds or the model wrote a Go program for a minute. It now says what is happening: "Thinking…" while the
model reasons, "Writing Go code…" while it writes a call, "Searching the knowledge base…" while a call runs,
and "Answering…" while it writes its answer. A call running is said before a call being written, which is
said before the text: a search goes on while the model writes on; a question to the user (the shell's Run /
Deny) before them all: nothing goes on until it is answered. No Qt (status.py shows the words), and no
timers: each event says the words at once. Until the model's first words it says "Waiting for the model…",
as the chat does (it said "Answering…" beside the chat's "Waiting for the model…" while a slow model loaded).
"""

from __future__ import annotations

from ..tool_words import running_words, writing_call_words
ANSWERING = "Answering…"
WAITING = "Waiting for the model…"  # until its first words: the chat says it too (answer_footer.waiting_words)
THINKING = "Thinking…"
# The shell's question is open: it said "Running a shell command…" while the card said "waiting for you".
ASKING = "Waiting for your answer…"


class AnswerActivity:
    """The words for the answer being written, after each of its events (see ``words``)."""

    def __init__(self) -> None:
        self._writing: dict[str, str] = {}  # the calls being written: id → tool, in the order they began
        self._running: dict[str, str] = {}  # the calls running: id → tool
        self._writes = WAITING  # what the model itself writes: its answer, or its reasoning (none yet: waiting)
        self._asking = 0  # questions to the user open (or waiting their turn)

    def words(self) -> str:
        if self._asking:
            return ASKING
        if self._running:
            tools = set(self._running.values())
            if len(tools) == 1:
                return running_words(next(iter(tools)))
            return f"Running {len(self._running)} tools…"
        if self._writing:
            return writing_call_words(list(self._writing.values())[-1])
        return self._writes

    def text(self, text: str) -> str:
        # the line breaks after a reasoning's </think> are not the answer begun; as the first words, they are
        if text.strip() or (text and self._writes == WAITING):
            self._writes = ANSWERING
        return self.words()

    def reasoning(self, _text: str) -> str:
        self._writes = THINKING
        return self.words()

    def tool_writing(self, call_id: str, tool: str, dropped: bool) -> str:
        if dropped:  # no call after all: its text follows
            self._writing.pop(call_id, None)
        else:
            self._writing[call_id] = tool
        return self.words()

    def tool_started(self, call_id: str, tool: str) -> str:
        self._writing.pop(call_id, None)
        self._running[call_id] = tool
        return self.words()

    def tool_finished(self, call_id: str) -> str:
        self._writing.pop(call_id, None)
        self._running.pop(call_id, None)
        return self.words()

    def asking(self, on: bool) -> str:
        """A question to the user opened (``on``) or answered."""
        self._asking = max(0, self._asking + (1 if on else -1))
        return self.words()
