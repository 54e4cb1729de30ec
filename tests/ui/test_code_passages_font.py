"""A passage of a program, in a knowledge base card and in the Search tab, is shown in the font of an answer's
code blocks with its indentation kept, so that its lines line up, and its tabs four spaces wide; a passage of a
document stays in the text's font. What is a program is its source's type, not its location's name: a
Markdown file named Dockerfile.md, or a web page at https://rustup.rs/, is text."""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from PySide6.QtCore import QRegularExpression, Qt
from PySide6.QtGui import QFontInfo, QTextCursor, QTextDocument
from PySide6.QtWidgets import QStyleOptionViewItem, QTextBrowser, QVBoxLayout, QWidget

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import code_pieces, format_hits
from tinyrag_desktop.ui.kb_panel import KnowledgePanel
from tinyrag_desktop.ui.toolcard import ToolCard

STORE_PY = ("class SettingsStore:\n    def load(self):\n        try:\n"
            "            self.values = json.loads(self.path.read_text())\n"
            "        except ValueError:\n            self.values = {}\n        return self.values\n")
ZWSP = "\u200b"
NOTES_MD = "# Settings\n\nThe settings store loads its values at start-up.\n"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    for name, text in (("store.py", STORE_PY), ("notes.md", NOTES_MD)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    with open_store(tmp_path / "data") as kb:
        Importer(kb, chunk_size=1200).run([str(tmp_path / "store.py"), str(tmp_path / "notes.md")])
    return tmp_path / "data"


def _find(document: QTextDocument, words: str) -> QTextCursor:
    """``words`` in ``document``, where a line of code may hold the zero-width spaces it may wrap at."""
    cursor = document.find(QRegularExpression(f"{ZWSP}?".join(re.escape(c) for c in words)))
    assert not cursor.isNull(), words
    return cursor


def _shown(document: QTextDocument) -> str:
    return document.toPlainText().replace(ZWSP, "")


def _fixed_at(document: QTextDocument, words: str) -> bool:
    """Whether ``words`` in ``document`` are set in a fixed-pitch font (the code blocks' DejaVu Sans Mono)."""
    cursor = _find(document, words)
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


@contextmanager
def _search_tab(qtbot, data: Path, query: str, width: int = 520) -> Iterator[KnowledgePanel]:
    """The knowledge panel's Search tab, ``width`` pixels wide, once it has shown what ``query`` finds."""
    panel = KnowledgePanel(data, lambda: defaults())
    qtbot.add_widget(panel)
    try:
        panel.tabs.setCurrentIndex(1)
        panel.resize(width, 500)
        panel.show()
        with qtbot.waitSignal(panel.searchFinished, timeout=30_000):
            panel.run_search(query)
        yield panel
    finally:
        panel.shutdown()


def test_the_search_tabs_code_passage_is_in_the_code_font_with_its_indentation(qtbot, data) -> None:
    with _search_tab(qtbot, data, "settings store load values") as panel:
        items = {Path(panel.results.item(n).data(Qt.ItemDataRole.UserRole) or "").name: panel.results.item(n)
                 for n in range(panel.results.count())}
        code, notes = items["store.py"], items["notes.md"]
        assert "\n    def load(self):\n        try:\n" in code.text()  # its lines as written, not run together
        delegate = panel.results.itemDelegate()
        option = QStyleOptionViewItem()
        option.font = panel.results.font()
        option.rect = panel.results.visualItemRect(code)
        document = delegate._document(option, panel.results.indexFromItem(code))
        assert "\n    def load(self):\n" in _shown(document)
        assert _fixed_at(document, "def load(self):") and not _fixed_at(document, "store.py > SettingsStore")
        assert not _fixed_at(delegate._document(option, panel.results.indexFromItem(notes)), "loads its values")


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


SERVER_GO = "package main\n\nfunc (s *Server) Serve() {\n\tfor {\n\t\tif ok {\n\t\t\treturn s.handle(conn)\n\t\t}\n\t}\n}\n"
DOCKERFILE_MD = "# Dockerfile notes\n\nThe server image is built in two stages; serve it with the handle.\n"


def test_the_search_tab_shows_code_by_the_sources_type_with_tabs_of_four_spaces(qtbot, tmp_path) -> None:
    for name, text in (("server.go", SERVER_GO), ("Dockerfile.md", DOCKERFILE_MD)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    with open_store(tmp_path / "data") as kb:
        Importer(kb, chunk_size=1200).run([str(tmp_path / "server.go"), str(tmp_path / "Dockerfile.md")])
    assert {Path(h.location).name: h.type for h in search(tmp_path / "data", "serve handle", 5)} == {
        "server.go": "code", "Dockerfile.md": "markdown"}
    with _search_tab(qtbot, tmp_path / "data", "serve handle", width=380) as panel:
        delegate = panel.results.itemDelegate()
        option = QStyleOptionViewItem()
        option.font = panel.results.font()
        documents = {}
        for n in range(panel.results.count()):
            item = panel.results.item(n)
            option.rect = panel.results.visualItemRect(item)
            documents[Path(item.data(Qt.ItemDataRole.UserRole)).name] = delegate._document(
                option, panel.results.indexFromItem(item))
        notes, code = documents["Dockerfile.md"], documents["server.go"]
        assert not _fixed_at(notes, "built in two stages") and _fixed_at(code, "return s.handle(conn)")
        code.size()  # laid out
        start = _find(code, "return s.handle").selectionStart()
        block = code.findBlock(start)
        assert block.layout().lineCount() == 1
        x = block.layout().lineAt(0).cursorToX(start - block.position())[0]  # after the three tabs
        assert code.defaultTextOption().tabStopDistance() < 40 and x < 130, x  # 240 with Qt's 80-pixel stops


def test_a_knowledge_cards_passages_are_code_only_from_a_program_or_configuration_file() -> None:
    def head(n: int, location: str) -> str:
        return f"[{n}] where\nSource: title ({location})\n"

    result = "".join(head(n, location) + f"text {n}\n\n" for n, location in enumerate(
        ["https://rustup.rs/", "https://bun.sh", "/home/me/docs/Dockerfile.md", "/home/me/docs/makefile.txt",
         "/home/me/src/a.py", "/home/me/src/Makefile"], start=1))
    code = {text.strip(): is_code for text, is_code in code_pieces(result) if text.strip().startswith("text")}
    assert code == {"text 1": False, "text 2": False, "text 3": False, "text 4": False, "text 5": True,
                    "text 6": True}
