"""Suite-wide: reference cycles are collected in the main thread only, as the app does (ui/collector.py);
property tests explore new random inputs on a developer's run and replay fixed ones in CI."""

from __future__ import annotations

import gc
import os

import pytest
from hypothesis import settings

from tinyrag_desktop.ui.collector import collect_due

# CI (``.ci/run`` sets HYPOTHESIS_PROFILE=ci) must give the same verdict on the same commit: a property
# test there draws the same examples every run, and slow shared machines do not trip its deadline. A
# developer's ``make test`` keeps drawing new random inputs, which is how they find new bugs.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


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
