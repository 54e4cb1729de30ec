"""Parser throughput: a long Markdown answer with tool blocks, fed in 4-character chunks and whole."""

from __future__ import annotations

import time

from tinyrag_desktop.protocol import ToolCall, XMLParseState

PARAGRAPH = (
    "Retrieval-augmented generation combines a search step with a language model, so that answers can "
    "cite *passages* from your own documents.\nIt works well when the index is fresh and the chunks keep "
    "their headings; see `kb search` for details.\n\n"
)
CODE = "```go\nfor i := 0; i < 10; i++ {\n\tfmt.Println(i << 1)\n}\n```\n\n"
BLOCK = '<tool name="calculate"><query>3 * (17 + 5) / 2</query></tool>\n'


def make_text(size: int) -> str:
    unit = PARAGRAPH * 3 + CODE + "- item one\n- item <b>two</b>\n\n" + BLOCK
    return unit * (size // len(unit) + 1)


def run(text: str, chunk: int) -> tuple[float, int]:
    state = XMLParseState()
    calls = 0
    t0 = time.process_time()  # CPU time: steadier than wall time on a shared machine
    if chunk:
        feed = state.feed
        for i in range(0, len(text), chunk):
            for ev in feed(text[i : i + chunk]):
                calls += type(ev) is ToolCall
    else:
        calls += sum(type(ev) is ToolCall for ev in state.feed(text))
    calls += sum(type(ev) is ToolCall for ev in state.finish())
    return time.process_time() - t0, calls


def best(text: str, chunk: int, repeat: int = 5) -> tuple[float, int]:
    return min(run(text, chunk) for _ in range(repeat))


def go_blocks(count: int) -> str:
    """Answers that write Go programs of about 1 KB, as a model writing nanogo calls does."""
    program = "package main\n\nimport \"fmt\"\n\nfunc main() {\n" + "\tfmt.Println(\"line\", 1 < 2)\n" * 34 + "}\n"
    return ("Let me check. " + f'<tool name="nanogo"><source>{program}</source></tool>' + " Done.\n\n") * count


def run_polled(text: str, chunk: int, poll: bool) -> float:
    """Feed ``text`` in ``chunk``-character pieces; ``poll``: ask open_block after each, as the engine does."""
    state = XMLParseState()
    t0 = time.process_time()
    feed = state.feed
    for i in range(0, len(text), chunk):
        feed(text[i : i + chunk])
        if poll:
            state.open_block
    state.finish()
    return time.process_time() - t0


def main() -> None:
    rates = []
    for size in (1_000_000, 4_000_000):
        text = make_text(size)
        mb = len(text) / 1e6
        t4, c4 = best(text, 4)
        tw, cw = best(text, 0)
        assert c4 == cw
        rates.append((mb / t4, mb / tw))
        print(f"parser {mb:.1f} MB: 4-char chunks {mb / t4:6.2f} MB/s (target >= 1.5), "
              f"whole {mb / tw:6.1f} MB/s (target >= 50), {cw} tool calls (MB per CPU second)")
    (a4, aw), (b4, bw) = rates
    print(f"linearity 1 MB -> 4 MB: throughput ratio {b4 / a4:.2f} (4-char), {bw / aw:.2f} (whole); 1.00 is linear")
    # A fence never closed, full of lines that might have closed it: each must not send the parser
    # looking through the rest of the text again.
    odd = []
    for lines in (25_000, 100_000):
        text = "Code:\n````\n" + "```\n" * lines
        seconds, _ = best(text, 0, repeat=3)
        odd.append(len(text) / 1e6 / seconds)
    print(f"an unclosed fence of 0.1 and 0.4 MB of short runs, whole: {odd[0]:.1f} and {odd[1]:.1f} MB/s "
          f"(ratio {odd[1] / odd[0]:.2f}; 1.00 is linear)")


    # The engine asks the parser after each piece whether a call is being written (the window's card).
    text = go_blocks(1000)
    mb = len(text) / 1e6
    fed = min(run_polled(text, 4, False) for _ in range(5))
    polled = min(run_polled(text, 4, True) for _ in range(5))
    print(f"1 KB Go blocks ({mb:.1f} MB), 4-char chunks: {mb / fed:.2f} MB/s fed, {mb / polled:.2f} MB/s with "
          f"open_block asked after each chunk")


if __name__ == "__main__":
    main()
