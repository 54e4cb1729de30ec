"""Suite-wide: reference cycles are collected in the main thread only, as the app does (ui/collector.py);
property tests explore new random inputs on a developer's run and replay fixed ones in CI; each test starts
with no model known to reason first."""

from __future__ import annotations

import gc
import os
import sys

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


@pytest.fixture(autouse=True)
def _forget_thinking_models():
    """The engine remembers, per process, the models whose replies start inside their reasoning (and which
    data folders it has read that from): one test's model must not make another's replies start there. So
    does the LLM client, what a server with no list of models did with a question: a later test's server
    may get the same port."""

    def forget() -> None:
        engine = sys.modules.get("tinyrag_desktop.engine.engine")
        if engine is not None:
            engine._OPENS_THINKING.clear()
            engine._READ_FROM.clear()
        llm = sys.modules.get("tinyrag_desktop.engine.llm")
        if llm is not None:
            llm._ASKED.clear()

    forget()
    yield
    forget()
