"""An invalid tool block inside a heading is set at body size, as elsewhere; the heading's words stay a heading."""

from __future__ import annotations

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens

BLOCK = '<tool name="calculate"><query></query></tool>'
TEXT = f"# Heading with {BLOCK} inside\n\nText {BLOCK} here.\n\n## Second {BLOCK}\n\nDone."


def _fragments(segments) -> list[tuple[str, float, int]]:
    """Each run of text of the answer's segments: its words, its font's point size and its weight."""
    runs = []
    for seg in segments:
        block = seg.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                font = fragment.charFormat().font()
                runs.append((fragment.text(), font.pointSizeF(), font.weight()))
                it += 1
            block = block.next()
    return runs


def test_an_invalid_block_in_a_heading_is_body_sized_and_the_heading_stays_large(make_window, server, qloop):
    server.queue(Stream(tokens(TEXT, 3)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "show me")) == "done"
    runs = _fragments(win.view.answers()[-1].segments())
    size = {text: (points, weight) for text, points, weight in runs}
    codes = [(points, weight) for text, points, weight in runs if text.startswith("<tool name=")]
    reasons = [(points, weight) for text, points, weight in runs if text.startswith("(a tool call not run")]
    assert len(codes) == len(reasons) == 3
    assert len(set(codes)) == 1 and len(set(reasons)) == 1  # in the headings as in the paragraph
    body_points = size["Text "][0]
    assert codes[0] == (body_points, size["Text "][1])
    assert size["Heading with "][0] > body_points and size[" inside"] == size["Heading with "]
    assert size["Second "][0] > body_points
