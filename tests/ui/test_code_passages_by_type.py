"""Whether a passage is shown as code is its source's type, not its location's name: a Markdown file named
Dockerfile.md, or a web page at https://rustup.rs/, is text; a Go program's tabs are four spaces wide."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontInfo, QTextDocument
from PySide6.QtWidgets import QStyleOptionViewItem

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import code_pieces
from tinyrag_desktop.ui.kb_panel import KnowledgePanel

SERVER_GO = "package main\n\nfunc (s *Server) Serve() {\n\tfor {\n\t\tif ok {\n\t\t\treturn s.handle(conn)\n\t\t}\n\t}\n}\n"
DOCKERFILE_MD = "# Dockerfile notes\n\nThe server image is built in two stages; serve it with the handle.\n"


def _fixed_at(document: QTextDocument, words: str) -> bool:
    cursor = document.find(words)
    assert not cursor.isNull(), words
    return QFontInfo(cursor.charFormat().font()).fixedPitch()


def test_the_search_tab_shows_code_by_the_sources_type_with_tabs_of_four_spaces(qtbot, tmp_path) -> None:
    for name, text in (("server.go", SERVER_GO), ("Dockerfile.md", DOCKERFILE_MD)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    with open_store(tmp_path / "data") as kb:
        Importer(kb, chunk_size=1200).run([str(tmp_path / "server.go"), str(tmp_path / "Dockerfile.md")])
    assert {Path(h.location).name: h.type for h in search(tmp_path / "data", "serve handle", 5)} == {
        "server.go": "code", "Dockerfile.md": "markdown"}
    panel = KnowledgePanel(tmp_path / "data", lambda: defaults())
    qtbot.add_widget(panel)
    try:
        panel.tabs.setCurrentIndex(1)
        panel.resize(380, 500)
        panel.show()
        with qtbot.waitSignal(panel.searchFinished, timeout=30_000):
            panel.run_search("serve handle")
        delegate = panel.results.itemDelegate()
        option = QStyleOptionViewItem()
        option.font = panel.results.font()
        documents = {}
        for n in range(panel.results.count()):
            item = panel.results.item(n)
            option.rect = panel.results.visualItemRect(item)
            documents[item.text().split("\n")[1].rsplit("/", 1)[-1]] = delegate._document(
                option, panel.results.indexFromItem(item))
        notes, code = documents["Dockerfile.md"], documents["server.go"]
        assert not _fixed_at(notes, "built in two stages") and _fixed_at(code, "return s.handle(conn)")
        # three tabs take twelve spaces of the code font, not 240 of Qt's default 80-pixel tab stops
        code.size()  # laid out
        block = code.findBlock(code.toPlainText().index("return s.handle"))
        assert block.layout().lineCount() == 1
        x = block.layout().lineAt(0).cursorToX(3)[0]  # after the three tabs
        assert code.defaultTextOption().tabStopDistance() < 40 and x < 130, x  # 240 with Qt's 80-pixel stops
    finally:
        panel.shutdown()


def test_a_knowledge_cards_passages_are_code_only_from_a_program_or_configuration_file() -> None:
    def head(n: int, location: str) -> str:
        return f"[{n}] where\nSource: title ({location})\n"

    result = "".join(head(n, location) + f"text {n}\n\n" for n, location in enumerate(
        ["https://rustup.rs/", "https://bun.sh", "/home/me/docs/Dockerfile.md", "/home/me/docs/makefile.txt",
         "/home/me/src/a.py", "/home/me/src/Makefile"], start=1))
    code = {text.strip(): is_code for text, is_code in code_pieces(result) if text.strip().startswith("text")}
    assert code == {"text 1": False, "text 2": False, "text 3": False, "text 4": False, "text 5": True,
                    "text 6": True}
