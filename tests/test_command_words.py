"""Messages that send the user to the command line name the command they can type: the bundle's own
executable, the installed script, or the module (the bundle said `python -m tinyrag_desktop ask`, which a
bundle has no Python for)."""

from __future__ import annotations

import sys

from tinyrag_desktop.app import no_display_words
from tinyrag_desktop.paths import command
from tinyrag_desktop.ui.platform_start import platform_words


def test_the_bundle_names_its_executable(monkeypatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/tinyrag/tinyrag-desktop")
    assert command() == "tinyrag-desktop"
    assert "use the command line: tinyrag-desktop ask \"QUESTION\"" in no_display_words()
    words = platform_words(["could not connect to display :99"], display=":99", missing=[])
    assert words.endswith("which needs no window: tinyrag-desktop ask \"QUESTION\".")
    assert "python -m" not in words


def test_the_installed_script_and_the_module(monkeypatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setattr(sys, "argv", ["/home/me/.venv/bin/tinyrag-desktop", "--ask", "x"])
    assert command() == "tinyrag-desktop"
    monkeypatch.setattr(sys, "argv", ["/home/me/src/tinyrag_desktop/__main__.py"])
    assert command() == "python -m tinyrag_desktop"
    assert "python -m tinyrag_desktop ask" in no_display_words()
