"""The knowledge panel's 2-second look at the knowledge base while ``kb add`` runs in a terminal: read off the
GUI thread, not while the window is minimized, and less often while another program imports (kb_watch.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.store import KnowledgeBase
from tinyrag_desktop.kb.unfinished import SUFFIX
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.kb_panel import KnowledgePanel


def _add_elsewhere(data_dir: Path, folder: Path, names: list[str]) -> None:
    """Import as ``kb add`` in a terminal does: its own connection, committed."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / f"{name}.md").write_text(f"# {name}\n\nThe heron of {name} fishes at dawn.\n", encoding="utf-8")
    with open_store(data_dir) as kb:
        assert not Importer(kb).run([str(folder)]).failed


def _settled(panel) -> None:
    """Whatever the panel's search thread was given has run, and what it sent back has arrived."""
    panel._searcher.submit(lambda: None).result(timeout=30)
    QApplication.processEvents()


def _shown(qtbot, panel, tmp_path) -> None:
    _add_elsewhere(panel.data_dir, tmp_path / "docs", ["alpha", "beta", "gamma"])
    panel.refresh()
    panel.show()
    qtbot.waitExposed(panel)
    _settled(panel)
    assert panel.sources_model.rowCount() == 3


def test_a_minimized_window_reads_the_list_again_only_once_restored(qtbot, panel, tmp_path):
    # Minimized, the panel is still "visible": each of kb add's commits read the whole list on the GUI thread.
    _shown(qtbot, panel, tmp_path)
    panel.showMinimized()
    qtbot.waitUntil(panel.isMinimized)
    _add_elsewhere(panel.data_dir, tmp_path / "more", ["delta", "epsilon"])
    panel._check_for_changes()  # the timer's tick
    _settled(panel)
    assert panel.sources_model.rowCount() == 3
    panel.showNormal()  # the user comes back to the window
    qtbot.waitUntil(lambda: panel.sources_model.rowCount() == 5, timeout=20_000)


def test_the_timer_reads_the_sources_off_the_gui_thread(qtbot, data_dir, tmp_path, monkeypatch):
    # With an embedding model set, finding the sources without its vectors scans every passage: 0.2 s at
    # 300,000 of them, on the GUI thread, at each of kb add's commits.
    settings = defaults().replace(embed_model="toy-embed")
    panel = KnowledgePanel(data_dir, lambda: settings)
    qtbot.add_widget(panel)
    try:
        _shown(qtbot, panel, tmp_path)
        threads = []
        unembedded = KnowledgeBase.unembedded

        def noted(kb, model):
            threads.append(threading.current_thread())
            return unembedded(kb, model)

        monkeypatch.setattr(KnowledgeBase, "unembedded", noted)
        _add_elsewhere(data_dir, tmp_path / "more", ["delta"])
        panel._check_for_changes()
        qtbot.waitUntil(lambda: panel.sources_model.rowCount() == 4, timeout=20_000)
        assert threads and threading.main_thread() not in threads
        assert not panel.sources_view.isColumnHidden(4)  # the Vectors column, shown with the model
    finally:
        panel.shutdown()


def test_while_another_program_imports_the_list_is_read_again_less_often(qtbot, panel, tmp_path):
    # Another program importing commits every few seconds: the list was read again at every tick.
    _shown(qtbot, panel, tmp_path)
    other = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    mark = panel.data_dir / f"import-{other.pid}{SUFFIX}"
    try:
        mark.write_text("", encoding="utf-8")  # as kb add's import marks the data folder while it runs
        _add_elsewhere(panel.data_dir, tmp_path / "more", ["delta"])
        panel._listed_at = time.monotonic()  # the list was just read (however long that import took)
        panel._check_for_changes()
        _settled(panel)
        assert panel.sources_model.rowCount() == 3
    finally:
        other.stdin.close()
        other.wait(30)
        mark.unlink()
    panel._check_for_changes()  # that import is over
    qtbot.waitUntil(lambda: panel.sources_model.rowCount() == 4, timeout=20_000)


def test_a_list_that_cannot_be_read_is_said_once_not_read_again_at_every_tick(qtbot, panel, tmp_path, monkeypatch):
    # A read that failed was read again (its traceback logged again) every 2 seconds, and nothing was said.
    from tinyrag_desktop.ui import kb_watch
    _shown(qtbot, panel, tmp_path)
    reads = []

    def broken(data_dir, model):
        reads.append(1)
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(kb_watch, "read_list", broken)
    _add_elsewhere(panel.data_dir, tmp_path / "more", ["delta"])
    panel._check_for_changes()
    qtbot.waitUntil(lambda: panel.status_label.text() == kb_watch.NOT_LISTED, timeout=20_000)
    for _ in range(3):  # the timer's next ticks: nothing changed since
        panel._check_for_changes()
        _settled(panel)
    assert reads == [1]
    assert panel.sources_model.rowCount() == 3  # the list as it was
