"""The chrome style sheets: every @colour filled in, every icon they name present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tinyrag_desktop.ui.theme import style_sheet


@pytest.mark.parametrize("dark", [False, True])
def test_style_sheets_are_complete_and_their_icons_exist(dark):
    sheet = re.sub(r"/\*.*?\*/", "", style_sheet(dark), flags=re.S)  # comments may say "@names"
    assert re.findall(r"@\w+", sheet) == []
    icons = re.findall(r"url\(([^)]*)\)", sheet)
    assert icons and all(Path(icon).is_file() for icon in icons)
    assert all(("-dark." in icon) == dark for icon in icons)
