"""The SSE decoder: any cutting of the byte stream gives the same messages."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.engine.sse import SSEDecoder, SSEMessage

DATA = st.text(alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=30)


def decode(pieces: list[str]) -> list[SSEMessage]:
    d = SSEDecoder()
    out = []
    for p in pieces:
        out += d.feed(p)
    return out + d.finish()


@settings(max_examples=300, deadline=None)
@given(payloads=st.lists(DATA.filter(lambda s: s.strip() and not s.startswith(":")), max_size=6),
       eol=st.sampled_from(["\n", "\r\n", "\r"]), points=st.lists(st.integers(0, 5000), max_size=15))
def test_messages_do_not_depend_on_cutting(payloads: list[str], eol: str, points: list[int]) -> None:
    text = "".join(f": keep-alive{eol}data: {p}{eol}{eol}" for p in payloads)
    cuts = sorted({p % (len(text) + 1) for p in points})
    pieces, last = [], 0
    for c in cuts + [len(text)]:
        pieces.append(text[last:c])
        last = c
    assert [m.data for m in decode(pieces)] == payloads


def test_multiline_data_event_names_and_unicode_line_separators() -> None:
    msgs = decode(["event: x\r\ndata: a\r\ndata:b\r\n\r\n", "data: \u2028c\n\n", "data: tail"])
    assert [(m.event, m.data) for m in msgs] == [("x", "a\nb"), ("message", "\u2028c"), ("message", "tail")]
