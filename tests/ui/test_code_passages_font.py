"""A passage of a program, in a knowledge base card and in the Search tab, is shown in the font of an answer's
code blocks with its indentation kept, so that its lines line up; a passage of a document stays in the text's
font."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo, QTextDocument
from PySide6.QtWidgets import QStyleOptionViewItem, QTextBrowser, QVBoxLayout, QWidget

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import format_hits
from tinyrag_desktop.ui.kb_panel import KnowledgePanel
from tinyrag_desktop.ui.toolcard import ToolCard

STORE_PY = ("class SettingsStore:\n    def load(self):\n        try:\n"
            "            self.values = json.loads(self.path.read_text())\n"
            "        except ValueError:\n            self.values = {}\n        return self.values\n")
NOTES_MD = "# Settings\n\nThe settings store loads its values at start-up.\n"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    for name, text in (("store.py", STORE_PY), ("notes.md", NOTES_MD)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    with open_store(tmp_path / "data") as kb:
        Importer(kb, chunk_size=1200).run([str(tmp_path / "store.py"), str(tmp_path / "notes.md")])
    return tmp_path / "data"


def _fixed_at(document: QTextDocument, words: str) -> bool:
    """Whether ``words`` in ``document`` are set in a fixed-pitch font (the code blocks' DejaVu Sans Mono)."""
    cursor = document.find(words)
    assert not cursor.isNull(), words
    font = cursor.charFormat().font()
    return QFontInfo(font).fixedPitch() and "DejaVu Sans Mono" in (font.families() or [font.family()])


def test_a_cards_code_passage_is_in_the_code_font_with_its_indentation(qtbot, data) -> None:
    query = "settings store load values"
    hits = search(data, query, 5)
    assert {Path(h.location).name for h in hits} == {"store.py", "notes.md"}
    card = ToolCard("c1", "rag_knowledge", query)
    card.finish("ok", source="\n".join(h.location for h in hits), result=format_hits(query, hits), elapsed_ms=5)
    column = QWidget()
    qtbot.addWidget(column)
    QVBoxLayout(column).addWidget(card)
    column.resize(560, 600)
    column.show()
    qtbot.waitExposed(column)
    card.set_expanded(True)
    details = card.findChild(QTextBrowser, "toolDetails")
    qtbot.waitUntil(lambda: details.height() > 60)
    document = details.document()
    assert "\n        try:\n            self.values = json.loads(" in document.toPlainText()
    assert _fixed_at(document, "self.values = {}") and _fixed_at(document, "def load(self):")
    # the passage's head, and a document's passage, are in the text's font
    assert not _fixed_at(document, "loads its values at start-up")
    assert not _fixed_at(document, "Source: store.py")


def test_the_search_tabs_code_passage_is_in_the_code_font_with_its_indentation(qtbot, data) -> None:
    panel = KnowledgePanel(data, lambda: defaults())
    qtbot.add_widget(panel)
    try:
        panel.tabs.setCurrentIndex(1)
        panel.resize(520, 500)
        panel.show()
        with qtbot.waitSignal(panel.searchFinished, timeout=30_000):
            panel.run_search("settings store load values")
        items = {Path(panel.results.item(n).data(Qt.ItemDataRole.UserRole) or "").name: panel.results.item(n)
                 for n in range(panel.results.count())}
        code, notes = items["store.py"], items["notes.md"]
        assert "\n    def load(self):\n        try:\n" in code.text()  # its lines as written, not run together
        delegate = panel.results.itemDelegate()
        option = QStyleOptionViewItem()
        option.font = panel.results.font()
        option.rect = panel.results.visualItemRect(code)
        document = delegate._document(option, panel.results.indexFromItem(code))
        assert "\n    def load(self):\n" in document.toPlainText()
        assert _fixed_at(document, "def load(self):") and not _fixed_at(document, "store.py > SettingsStore")
        assert not _fixed_at(delegate._document(option, panel.results.indexFromItem(notes)), "loads its values")
    finally:
        panel.shutdown()


def test_the_panels_import_summary_says_how_many_secrets_were_hidden(qtbot, tmp_path) -> None:
    config = tmp_path / "app.ini"
    config.write_text("[database]\nhost = db.internal\npassword = hunter2\n", encoding="utf-8")
    panel = KnowledgePanel(tmp_path / "data", lambda: defaults())
    qtbot.add_widget(panel)
    try:
        with qtbot.waitSignal(panel.importFinished, timeout=30_000):
            panel.import_items([str(config)])
        qtbot.waitUntil(lambda: "hidden" in panel.status_label.text())
        assert "1 added (1 passage), 1 password or key hidden (stored as ***)" in panel.status_label.text()
    finally:
        panel.shutdown()
