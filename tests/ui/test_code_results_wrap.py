"""A passage of code in the Search tab wraps as an editor's soft wrap does: between words or after punctuation,
never inside a name, its wrapped part indented under its own line (it went on at the left edge); a passage
starting "…" keeps its first line's indent. A document's passage is laid out as before."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextBlock, QTextDocument
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QStyleOptionViewItem

from tinyrag_desktop.ui.kb_results import CODE_ROLE, HitDelegate

ZWSP = "\u200b"
CODE = ("        for path in walked:\n"
        "            if path not in seen:\n"
        "                added(resolved, found=str(file), reason=\"unchanged since the import of 2026-01-02\")\n"
        "        return out")


def _document(qtbot, text: str, width: int, code: bool = True) -> QTextDocument:
    """The document the Search tab draws the result ``text`` in, in a list ``width`` pixels wide."""
    view = QListWidget()
    qtbot.addWidget(view)
    view.resize(width, 400)
    delegate = HitDelegate(view)
    item = QListWidgetItem(text)
    item.setData(Qt.ItemDataRole.UserRole, "/src/import_items.py")
    item.setData(CODE_ROLE, code)
    view.addItem(item)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect.setWidth(view.viewport().width() - 8)
    document = delegate._document(option, view.model().index(0, 0))
    document.size()  # laid out
    return document


def _block(document: QTextDocument, words: str) -> QTextBlock:
    block = document.firstBlock()
    while block.isValid() and words not in block.text().replace(ZWSP, ""):
        block = block.next()
    assert block.isValid(), words
    return block


def _x(block: QTextBlock, words: str) -> float:
    """Where ``words`` start in ``block``, from the document's left edge."""
    at = re.search(f"{ZWSP}?".join(map(re.escape, words)), block.text()).start()
    layout = block.layout()
    return layout.lineForTextPosition(at).cursorToX(at)[0] + layout.position().x()


@pytest.mark.parametrize("width", [274, 560])
def test_a_wrapped_line_of_code_breaks_between_words_and_goes_on_under_its_own_indent(qtbot, width) -> None:
    document = _document(qtbot, f"[3] import_items.py > expand\n/src/import_items.py\n{CODE}", width)
    block = _block(document, "added(resolved")
    layout, text = block.layout(), block.text()
    assert layout.lineCount() > 1
    indent = _x(block, "added(")
    for n in range(1, layout.lineCount()):
        line = layout.lineAt(n)
        assert line.x() + layout.position().x() > indent + 4  # it went on at the left edge
        before, after = text[:line.textStart()].rstrip(ZWSP), text[line.textStart():].lstrip(ZWSP)
        assert not (before[-1:].isalnum() and after[:1].isalnum()), (before[-12:], after[:12])  # "resolv" / "ed"
    # the indent all its lines share left out: a narrow panel's first third was blank
    assert _x(_block(document, "for path"), "for path") < 10
    assert _x(_block(document, "if path"), "if path") == pytest.approx(indent / 2, abs=2)


def test_a_passage_starting_with_an_ellipsis_keeps_its_first_lines_indent(qtbot) -> None:
    passage = ("…             walked.add(os.path.join(gone, \"\"))  # are gone too\n"
               "        else:\n"
               "            added(resolved)")
    document = _document(qtbot, f"[3] import_items.py > expand\n/src/import_items.py\n{passage}", 274)
    first = _block(document, "walked.add")
    # "walked.add(" was alone at the left edge under the "…", and out of line with the code under it
    assert first.text().startswith("…") and first.layout().lineForTextPosition(
        first.text().index("walked")).lineNumber() == 0
    assert _x(first, "walked.add") == pytest.approx(_x(_block(document, "added(resolved)"), "added"), abs=1)
    assert _x(_block(document, "else:"), "else:") < _x(first, "walked.add") - 20


def test_a_documents_passage_is_laid_out_as_before(qtbot) -> None:
    text = ("[1] Guide > Install\n/notes/guide.md\nTo install the program, download the archive and unpack it "
            "into a folder of your choice; then run the installer.\n    An indented second line.")
    document = _document(qtbot, text, 274, code=False)
    block = _block(document, "To install")
    assert block.text() == ("To install the program, download the archive and unpack it into a folder of your "
                            "choice; then run the installer.")
    assert block.blockFormat().leftMargin() == 0 and block.blockFormat().textIndent() == 0
    assert block.layout().lineCount() > 1 and block.layout().lineAt(1).x() == 0
    assert block.next().text() == "An indented second line."  # spaces run together, as in a paragraph
