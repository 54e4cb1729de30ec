"""ux31: a closed tool card's reason takes two lines where one would cut the setting it names."""

from __future__ import annotations

from PySide6.QtGui import QColor

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens

_OFF = '<tool name="nanogo"><source>fmt.Println(1)</source></tool>'


def _inked_rows(card, top: int, bottom: int) -> int:
    """How many pixel rows between ``top`` and ``bottom`` hold text (pixels far from the card's colour)."""
    image = card.grab().toImage()
    ratio = image.devicePixelRatio()
    back = image.pixelColor(int(card.width() * ratio) - int(20 * ratio), int(top * ratio))
    rows = 0
    for y in range(int(top * ratio), int(bottom * ratio)):
        if any(_far(image.pixelColor(x, y), back) for x in range(int(14 * ratio), int(card.width() * ratio // 2))):
            rows += 1
    return rows


def _far(a: QColor, b: QColor) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) > 120


def test_a_narrow_cards_reason_wraps_to_a_second_line_that_keeps_the_setting(make_window, server, qloop):
    # At 560 px it read "This tool is off. Turn on “Allow Go code (…": the setting's name was what was cut.
    server.queue(Stream(tokens("Let me see. " + _OFF)), Stream(tokens("That tool is off here.")))
    win = make_window(server.base_url, allow_nanogo=False)
    win.resize(560, 700)
    assert qloop.run(ask_and_wait(win, "Try it")) == "done"
    [card] = win.view.answers()[-1].cards()
    line = card.fontMetrics().height()
    assert card.fontMetrics().horizontalAdvance(card.note) > card.width() - 24  # one line could not hold it
    assert card.height() >= 7 + 22 + 2 * line + 7  # two lines of note under the header row
    second = card.height() - 7 - line
    assert _inked_rows(card, second, card.height() - 7) > line // 3  # something is drawn on the second line
    lines = card._note_lines()
    assert len(lines) == 2 and "Settings" in lines[1] and "“Allow Go code (nanoGo)”" in " ".join(lines)
    card.set_expanded(True)  # open, the details say it whole, and the note goes
    assert card.height() > 0 and not card._note_shown()


def test_a_reason_that_fits_keeps_the_card_one_line_high(make_window, server, qloop):
    server.queue(Stream(tokens("Let me see. " + _OFF)), Stream(tokens("That tool is off here.")))
    win = make_window(server.base_url, allow_nanogo=False)
    win.resize(1400, 700)
    assert qloop.run(ask_and_wait(win, "Try it")) == "done"
    [card] = win.view.answers()[-1].cards()
    assert card._note_lines() == [card.note]
    assert card.height() < 7 + 22 + 2 * card.fontMetrics().height() + 7


def test_a_note_too_long_for_two_lines_keeps_the_settings_name_whole(qapp):
    # At 18 pt beside the knowledge panel it read "This tool is off. Turn on / …tools” in Settings to use it.":
    # the words dropped from the start of the second line were the setting's name.
    from PySide6.QtGui import QFont, QFontMetrics

    from tinyrag_desktop.ui.toolcard_header import two_lines

    big = QFont()
    big.setPointSize(18)
    fm = QFontMetrics(big)
    note = "This tool is off. Turn on “Allow shell commands” in Settings to use it."
    room = fm.horizontalAdvance("This tool is off. Turn on") + 4
    lines = two_lines(fm, note, room)
    assert "“Allow shell commands”" in " ".join(lines)
    assert " ".join(lines).endswith("in Settings to use it.")
    assert all(fm.horizontalAdvance(line) <= room for line in lines)
    # A note whose cut leaves every name whole is still held to two lines, its start cut.
    long = "This answer used every tool call it was given, and it stops here, unless you raise “Tool calls”."
    wide = fm.horizontalAdvance("This answer used every tool call") + 4
    cut = two_lines(fm, long, wide)
    assert len(cut) == 2 and cut[1].startswith("…") and cut[1].endswith("raise “Tool calls”.")


def test_a_note_cut_to_two_lines_loses_no_words_from_the_middle(make_window, server, qloop):
    """The calculator's "…write (3!)!! for the double …(7!! is 7 × 5 × 3 × 1) or…" had lost "factorial" from
    the middle, which changed what it said: with no whole clause to keep, the note is cut at its end."""
    server.queue(Stream(tokens('A <tool name="calculate"><query>(3!)!!!</query></tool>', 6)),
                 Stream(tokens("Done.")))
    win = make_window(server.base_url)
    win.resize(620, 700)
    assert qloop.run(ask_and_wait(win, "calc")) == "done"
    [card] = win.view.answers()[-1].cards()
    note = card.note
    assert "double factorial (7!!" in note
    lines = card._note_lines()
    assert len(lines) == 2, lines  # cut: the note needs three or more lines at this width
    assert "…" in lines[1]
    said = " ".join(lines)
    assert said.endswith("…") and note.startswith(said[:-1].rstrip()), said
