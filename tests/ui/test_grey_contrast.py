"""The grey texts read against the backgrounds they are drawn on reach WCAG's 4.5:1 in both themes: the words
found under the open chat's title, and a code block's language label."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from tinyrag_desktop.ui import theme
from tinyrag_desktop.ui.markdown_render import DARK, LIGHT

from .test_focus import contrast


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_words_found_under_the_open_chats_title_stand_out_from_its_row(dark):
    # Drawn in the muted colour on the selected row: 4.28:1 in the light theme, 4.43:1 in the dark one.
    selected = QColor(theme._variables("dark" if dark else "light")["@select"])
    for background in (selected, theme._colors(dark).bg):
        assert contrast(theme._colors(dark).muted, background) >= 4.5, background.name()


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_a_code_blocks_language_label_and_output_notes_stand_out_from_their_block(palette):
    # The label was #6b7280 on #f4f6f9 in the light theme: 4.47:1.
    for background in (palette.code_bg, palette.output_bg):
        assert contrast(QColor(palette.muted), QColor(background)) >= 4.5, background
