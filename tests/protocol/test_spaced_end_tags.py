"""An end tag with spaces before its ">" ("</query   >", "</tool   >") is read the same whole, character by
character and cut anywhere: whole, any run of spaces was read; waiting, 64 spaces ended the wait, so a call ran
or not by where the stream was cut. And "</tool >" after a block held in a failed one closes the failed one,
as "</tool>" does: the nested call inside must not run (spec rule 4)."""

from __future__ import annotations

import random

from tinyrag_desktop.protocol import InvalidBlock, TextChunk, XMLParseState, parse_all

from .test_parser import calls, invalid, normal, parse_every_way
from .test_parser_properties import cut, run

CALC = '<tool name="calculate"><query>1+1</query></tool>'


def test_spaces_before_an_end_tags_close_are_read_the_same_however_the_stream_is_cut() -> None:
    rng = random.Random(48)
    for spaces in range(201):
        gap = " " * spaces
        for text in (f'<tool name="calculate"><query>1+1</query{gap}></tool> after {CALC}',
                     f'<tool name="calculate"><query>1+1</query></tool{gap}> after {CALC}'):
            whole = normal(parse_all(text))
            cuts = [cut(text, rng.sample(range(1, len(text)), rng.randint(1, 8))) for _ in range(3)]
            for pieces in (list(text), *cuts):
                events = run(pieces)
                assert "".join(e.raw for e in events) == text
                assert normal(events) == whole, (spaces, text[:60], [len(p) for p in pieces])
            assert calls(whole)[-1] == ("calculate", "query", "1+1")  # the call after it runs, however it ends


def test_an_end_tag_with_up_to_64_spaces_before_its_close_is_one_and_longer_is_text() -> None:
    for spaces, ran in ((1, 2), (64, 2), (65, 1), (200, 1)):
        text = f'<tool name="calculate"><query>1+1</query{" " * spaces}></tool> {CALC}'
        assert len(calls(parse_every_way(text))) == ran, spaces
    for spaces in (1, 64, 65):
        events = parse_every_way(f'<tool name="calculate"><query>1+1</query></tool{" " * spaces}> {CALC}')
        assert calls(events) == [("calculate", "query", "1+1")]  # only the one after it
        assert len(invalid(events)) == 1


def test_a_spaced_close_after_a_block_held_in_a_failed_one_keeps_the_nested_call_from_running() -> None:
    for close in ("</tool >", "</tool\n>", f"</tool{' ' * 64}>", " </tool  >"):
        text = f'<tool name="echo">hi {CALC}{close} after'
        events = parse_every_way(text)
        assert calls(events) == [], close
        assert invalid(events)[0].startswith("nested <tool> blocks are not supported"), close
        assert "".join(e.raw for e in events) == text
    # no close of the failed block after it: the held block was its own, and runs (late)
    for after in (" then prose", "\n\n</tool >", f"</tool{' ' * 65}>"):
        events = parse_every_way(f'<tool name="echo">hi {CALC}{after}')
        assert calls(events) == [("calculate", "query", "1+1")], after


def test_a_spaced_close_of_a_block_holding_a_nested_one_ends_it_and_the_nested_call_never_runs() -> None:
    # The outer block's "</tool >" was not counted: it ran on 4,000 characters, then ended where the nesting
    # began, and the nested call ran.
    for close in ("</tool >", f"</tool{' ' * 64}>"):
        text = f'<tool name="a"><query>x {CALC} </query>{close} ' + "word " * 1000
        events = parse_every_way(text)
        assert calls(events) == [] and invalid(events) == ["nested <tool> blocks are not supported"], close
        assert events[-1].text.startswith(" word")


def test_a_broken_block_ends_at_its_spaced_close_as_at_its_close() -> None:
    # A block known invalid before its end ("</tool >" after no element, an unquoted name, an element never
    # closed) ran past its "</tool >": held to the paragraph's end and then cut where it failed, or, with its
    # element open, on to the end of the answer, a later call shown as text and never run.
    more = f" more text\n\nanother paragraph {CALC} end"
    for broken in ('<tool name="a">2+2', '<tool name=a><query>x</query>', '<tool name="a"><query>x',
                   '<tool name="a"><source>x', '<tool name="a">'):
        exact = parse_every_way(f"{broken}</tool>{more}")
        for close in ("</tool >", "</tool\n>", f"</tool{' ' * 64}>"):
            events = parse_every_way(f"{broken}{close}{more}")
            assert [e.raw for e in events if isinstance(e, InvalidBlock)] == [broken + close], (broken, close)
            assert invalid(events) == invalid(exact), (broken, close)
            assert calls(events) == [("calculate", "query", "1+1")], (broken, close)
            assert events[1] == TextChunk(more.removesuffix(f"{CALC} end")), (broken, close)


def test_a_broken_blocks_spaced_close_is_read_as_soon_as_it_comes() -> None:
    # its paragraph's text after it streams at once, not held until a blank line shows the block abandoned
    state = XMLParseState()
    events = state.feed('<tool name="a">2+2</tool > and so on')
    assert [type(e) for e in events] == [InvalidBlock, TextChunk] and events[1].text == " and so on"


def test_a_spaced_close_after_a_nested_block_in_a_broken_one_still_makes_one_invalid_block() -> None:
    for broken in ('<tool name="echo">hi ', '<tool name=echo>', '<tool name="a"><query>x '):
        for close in ("</tool>", "</tool >"):
            text = f"{broken}{CALC}{close} after"
            events = parse_every_way(text)
            assert calls(events) == [] and [type(e) for e in events] == [InvalidBlock, TextChunk], (broken, close)
            assert invalid(events)[0].startswith("nested <tool> blocks are not supported"), (broken, close)


def test_a_spaced_close_with_too_many_spaces_or_another_name_does_not_end_a_broken_block() -> None:
    for close in (f"</tool{' ' * 65}>", "</toolbar>", "</tool x>"):
        events = parse_every_way(f'<tool name="a">2+2{close} more')
        assert [e.raw for e in events if isinstance(e, InvalidBlock)] == ['<tool name="a">'], close


def test_a_spaced_close_in_an_open_elements_text_is_its_text() -> None:
    # a valid block whose program or query holds "</tool >" ended there, broken, its rest shown as text
    for text, expected in (('<tool name="nanogo"><source>fmt.Println("</tool >")</source></tool> after',
                            ("nanogo", "source", 'fmt.Println("</tool >")')),
                           ('<tool name="kb_search"><query>a </tool\n> b</query></tool>',
                            ("kb_search", "query", "a </tool\n> b"))):
        events = parse_every_way(text)
        assert calls(events) == [expected] and invalid(events) == [], text


def test_a_block_whose_element_is_never_closed_ends_at_its_spaced_close_when_the_answer_ends() -> None:
    for close in ("</tool >", "</tool\n>"):
        events = parse_every_way(f'<tool name="a"><query>x{close} more text')
        assert [e.raw for e in events if isinstance(e, InvalidBlock)] == [f'<tool name="a"><query>x{close}']
        assert invalid(events) == ["the <query> element is not closed"] and events[-1] == TextChunk(" more text")


def test_text_after_a_spaced_close_in_an_element_never_closed_streams_before_the_answer_ends() -> None:
    head = '<tool name="search"><query>weather</tool >'
    prose = "\n\nThe weather today is sunny. " + "More prose here. " * 200
    text = head + prose
    for size in (1, 5, 64):
        state, events = XMLParseState(), []
        for i in range(0, len(text), size):
            events += state.feed(text[i : i + size])
            if i > len(head) + 1100:  # past a short reach after the "</tool >": the block is known unclosed
                assert [e.raw for e in events if isinstance(e, InvalidBlock)] == [head], (size, i)
        shown = "".join(e.text for e in events if isinstance(e, TextChunk))
        assert invalid(events) == ["the <query> element is not closed"]
        assert prose.startswith(shown) and len(shown) > len(prose) - 100, size  # the prose streamed as it came
        assert normal(events + state.finish()) == normal(parse_all(text))


def test_a_block_cut_by_the_limit_after_a_spaced_close_ends_there_not_closed_and_the_prose_after_is_text() -> None:
    head = '<tool name="search"><query>weather</tool >'
    text = head + "\n\nThe weather today is sunny. " + "More prose here. " * 20
    for size in (1, 5, len(text)):
        state, events = XMLParseState(max_block_chars=80), []
        for i in range(0, len(text), size):
            events += state.feed(text[i : i + size])
        events = normal(events + state.finish())
        assert [e.raw for e in events if isinstance(e, InvalidBlock)] == [head], size
        assert invalid(events) == ["the <query> element is not closed"]
        assert events[-1] == TextChunk(text[len(head) :])
