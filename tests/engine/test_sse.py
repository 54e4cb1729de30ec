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


def test_a_line_or_a_message_that_never_ends_is_refused_not_held(monkeypatch) -> None:
    # A server that never ended its line grew the process by 9 GB in a minute; bytes kept coming, so no
    # timeout fired. Past MAX_HELD the decoder says so.
    import pytest

    from tinyrag_desktop.engine import sse

    monkeypatch.setattr(sse, "MAX_HELD", 1000)
    line = SSEDecoder()
    with pytest.raises(sse.TooLong, match="a line of over"):
        for _ in range(200):
            line.feed("data: " + "x" * 10)
    cut = SSEDecoder()  # the same, arriving with line ends in the pieces it is cut into
    with pytest.raises(sse.TooLong):
        cut.feed("data: ok\n\n" + "y" * 1200)
    message = SSEDecoder()  # data lines without the blank line that ends a message
    with pytest.raises(sse.TooLong, match="a message of over"):
        for _ in range(200):
            message.feed("data: " + "z" * 10 + "\n")
    assert [m.data for m in decode(["data: " + "w" * 900 + "\n\n"])] == ["w" * 900]  # under it: as before


def test_llama_cpps_error_field_is_a_message_of_event_error() -> None:
    # llama.cpp's server writes `error: {json}` (a field the format does not have, which it drops): the
    # answer was cut with nothing said. Its data, if any, comes first; other unknown fields stay dropped.
    msgs = decode(["data: a\n\n", 'error: {"code": 500,', ' "message": "x"}\n', "\n", "data: b\nerror: e\n\n",
                   "retry: 5\nid: 1\nfoo: bar\n\n", "data: [DONE]\n\n"])
    assert [(m.event, m.data) for m in msgs] == [
        ("message", "a"), ("error", '{"code": 500, "message": "x"}'), ("message", "b"), ("error", "e"),
        ("message", "[DONE]")]


def test_a_byte_order_mark_at_the_start_is_dropped() -> None:
    # "\ufeffdata: …" was a field of another name: the answer's first words were lost
    for pieces in (["\ufeffdata: first\n\ndata: second\n\n"], ["", "\ufeff", "data: first\n\n", "data: second\n\n"]):
        assert [m.data for m in decode(pieces)] == ["first", "second"]
    assert [m.data for m in decode(["data: a\ufeff\n\n", "\ufeffdata: b\n\n"])] == ["a\ufeff"]  # only at the start


def test_an_error_event_without_data_and_a_json_line_without_data_are_messages() -> None:
    # The format drops both; they are how servers say that they failed (see SSEDecoder)
    text = 'data: a\n\nevent: error\n\n{"error": "stopped"}\nevent: error\ndata:\n\n: ping\n{\n"x": 1}\n\n'
    expected = [("message", "a"), ("error", ""), ("message", '{"error": "stopped"}'), ("error", "")]
    for pieces in ([text], list(text)):  # whole, and a character at a time
        assert [(m.event, m.data) for m in decode(pieces)] == expected


def test_a_json_line_without_data_comes_after_the_message_being_read() -> None:
    # It was dispatched at once, ahead of the message still being read: the words before an error came after it
    # and were lost, and an "event: error" naming the object was an error without words beside a plain message
    cases = {
        'data: {"w": "Hello"}\n{"error": "boom"}\n\n': [("message", '{"w": "Hello"}'),
                                                        ("message", '{"error": "boom"}')],
        'event: error\n{"message": "CUDA out of memory"}\n\n': [("error", '{"message": "CUDA out of memory"}')],
        'error: e\n{"x": 1}\ndata: after\n\n': [("error", "e"), ("message", '{"x": 1}'), ("message", "after")],
    }
    for text, expected in cases.items():
        for pieces in ([text], list(text)):  # whole, and a character at a time
            assert [(m.event, m.data) for m in decode(pieces)] == expected, (text, len(pieces))
