"""Suite-wide: reference cycles are collected in the main thread only, as the app does (ui/collector.py)."""

from __future__ import annotations

import gc

import pytest

from tinyrag_desktop.ui.collector import collect_due


@pytest.fixture(autouse=True, scope="session")
def _no_collection_in_worker_threads():
    """Loopback servers and workers run in threads; a cycle holding an old event loop's timers must not
    be collected there, or Qt fires a dangling timer later and the run crashes."""
    gc.disable()
    yield
    gc.collect()
    gc.enable()


@pytest.fixture(autouse=True)
def _collect_between_tests():
    yield
    collect_due()
