"""What the panel says when another program holds the knowledge base's write lock: a Delete that removed
nothing and an import that stopped say why in one sentence, and name a terminal's kb add or kb remove as
the likely holder, not the window asking."""

from __future__ import annotations

from contextlib import closing

import pytest

from tests.kb.test_panel import _import, _select
from tests.kb.test_waiting_for_lock import _locked, quick_waits  # noqa: F401 - a fixture
from tinyrag_desktop.kb import open_store
from tinyrag_desktop.kb.errors import StoreLocked
from tinyrag_desktop.sentences import after_colon

WINDOW = "tinyRAG window"
TERMINAL = "(kb add or kb remove in a terminal, perhaps)"


def test_a_delete_held_up_by_another_program_says_why_in_one_sentence(qtbot, panel, sample_dir, data_dir,
                                                                      quick_waits):  # noqa: F811
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    _select(panel.sources_view, 0)
    with closing(_locked(data_dir)):
        with qtbot.waitSignal(panel.deleteFinished, timeout=30_000) as deleted:
            panel.delete_selected(confirm=False)
    assert deleted.args == [0] and panel.source_count() == 1
    # "Nothing was removed: Could not remove 1 sources: another program … (the tinyRAG window importing or
    # deleting, perhaps) …"
    assert panel.status_label.text() == (f"Nothing was removed: another program is writing to the knowledge base "
                                         f"{TERMINAL} and did not finish in time. Try again when it is done.")


def test_an_import_held_up_by_another_program_does_not_suspect_the_window(qtbot, panel, sample_dir, data_dir,
                                                                          quick_waits):  # noqa: F811
    with closing(_locked(data_dir)):
        report = _import(qtbot, panel, [str(sample_dir / "guide.md")])
    assert report.stopped
    shown = panel.status_label.text() + "\n" + panel.status_label.toolTip()
    assert TERMINAL in shown and WINDOW not in shown, shown
    assert "guide.md: could not save" in shown, shown  # no capital after the colon


def test_the_store_counts_one_source_as_one(data_dir, quick_waits):  # noqa: F811
    with open_store(data_dir) as kb:
        with closing(_locked(data_dir)):
            with pytest.raises(StoreLocked) as raised:
                kb.remove_sources([1, 1])
    assert str(raised.value).startswith("Could not remove 1 source: another program")
    assert f"({'the ' + WINDOW} importing or deleting, perhaps)" in str(raised.value)  # as kb remove says it


@pytest.mark.parametrize(("reason", "joined"), [
    ("Could not save x", "could not save x"), ("The server answered 404", "the server answered 404"),
    ("A number", "a number"), ("SQLite says no", "SQLite says no"), ("URLs with passwords", "URLs with passwords"),
    ("Wikipedia has no article", "Wikipedia has no article"), ("no such file", "no such file"), ("", ""),
    ("README: empty", "README: empty"), ("3 lines", "3 lines"),
])
def test_a_reason_after_a_colon_starts_in_lower_case_unless_it_starts_with_a_name(reason, joined):
    assert after_colon(reason) == joined
