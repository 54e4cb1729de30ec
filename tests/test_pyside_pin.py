"""PySide6 pin: 6.12.0 drops a reference to None on every void Qt call on Python 3.11; 6.11.x is clean."""

from __future__ import annotations

import sys
from importlib.metadata import version

import pytest

pytest.importorskip("PySide6")


def _parse(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split(".")[:3] if p.isdigit())


def test_installed_pyside6_is_in_the_pinned_range():
    installed = _parse(version("PySide6"))
    assert (6, 11) <= installed < (6, 12), f"PySide6 {version('PySide6')} is outside >=6.11,<6.12"


def test_void_qt_calls_keep_the_reference_count_of_none(qapp):
    from PySide6.QtWidgets import QLabel

    label = QLabel()
    label.setText("warm-up")  # the first call may create caches that hold None
    before = sys.getrefcount(None)
    for i in range(10_000):
        label.setText("x" if i % 2 else "y")  # returns None: a broken binding decrements None each time
    after = sys.getrefcount(None)
    assert after >= before - 50, f"refcount of None fell from {before} to {after} over 10,000 void calls"
