"""The knowledge panel's dialogs: the web page and article boxes, and Delete's question."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QMessageBox

from tests.kb.test_panel import _import, _select


def _when_shown(qtbot, act):
    """Call ``act(dialog)`` once a modal dialog is open (its exec runs the event loop meanwhile)."""
    done = []

    def look():
        dialog = QApplication.activeModalWidget()
        if dialog is None or not dialog.isVisible():
            QTimer.singleShot(10, look)
            return
        done.append(act(dialog))

    QTimer.singleShot(0, look)
    return done


@pytest.mark.parametrize("ask, example", [("ask_url", "https://"), ("ask_wikipedia", "Alan Turing")])
def test_the_address_and_title_boxes_are_wide_enough_for_an_address(qtbot, panel, monkeypatch, ask, example):
    started = []
    monkeypatch.setattr(panel, "import_items", lambda items, force=False: started.append(items) or True)
    panel.show()
    qtbot.waitExposed(panel)

    def fill(dialog):
        assert isinstance(dialog, QInputDialog)
        edit = dialog.findChild(QLineEdit)
        # 200 pixels wide, a dozen characters of an address in sight, and nothing said what to type
        seen = (edit.width(), edit.placeholderText())
        edit.setText("  https://example.org/guide.html  " if ask == "ask_url" else "  Alan Turing ")
        dialog.accept()
        return seen

    seen = _when_shown(qtbot, fill)
    getattr(panel, ask)()
    [(width, placeholder)] = seen
    assert width >= panel.fontMetrics().averageCharWidth() * 50
    assert example in placeholder
    [[item]] = started
    assert item.value == ("https://example.org/guide.html" if ask == "ask_url" else "Alan Turing")


def test_the_address_box_takes_only_a_web_address_and_says_why(qtbot, panel, monkeypatch):
    # "not a url" was taken, and refused only once the import began ("0 added, 0 updated, 0 unchanged,
    # 1 failed … not a web address"); a name like example.org/guide.html is taken as https.
    from PySide6.QtWidgets import QDialogButtonBox

    started = []
    monkeypatch.setattr(panel, "import_items", lambda items, force=False: started.append(items) or True)

    def fill(dialog):
        edit = dialog.findChild(QLineEdit)
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        seen = [ok.isEnabled()]
        for text in ("not a url", "ftp://files.example/a", "guide", "example.org/guide.html"):
            edit.setText(text)
            seen.append((text, ok.isEnabled(), dialog.labelText().split("\n")[1:]))
        dialog.accept()
        return seen

    seen = _when_shown(qtbot, fill)
    panel.ask_url()
    [[empty, *checks]] = seen
    assert empty is False
    assert checks == [
        ("not a url", False, ["An address has no spaces."]),
        ("ftp://files.example/a", False, ["Only http:// and https:// addresses can be imported, not ftp://."]),
        ("guide", False, ["Type a web address, like https://example.org/guide.html."]),
        ("example.org/guide.html", True, []),
    ]
    [[item]] = started
    assert item.value == "https://example.org/guide.html"


def test_the_address_box_refuses_a_server_name_that_cannot_be_one(qtbot, panel, monkeypatch):
    # "http://www.ex..ample.com/" was taken, and its import failed with "unexpected error: UnicodeError: encoding
    # with 'idna' codec failed"; an address behind U+202E was refused as "not ://."
    from PySide6.QtWidgets import QDialogButtonBox

    monkeypatch.setattr(panel, "import_items", lambda *a, **k: pytest.fail("nothing was asked to import"))

    def fill(dialog):
        edit = dialog.findChild(QLineEdit)
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        seen = []
        for text in ("http://www.ex..ample.com/", "http://xn--/", "\u202ehttp://example.org/"):
            edit.setText(text)
            seen.append((ok.isEnabled(), dialog.labelText().split("\n")[1:]))
        dialog.reject()
        return seen

    seen = _when_shown(qtbot, fill)
    panel.ask_url()
    assert seen == [[
        (False, ["Not a valid web address: the name www.ex..ample.com has an empty part (two dots together, or a "
                 "dot at its start)."]),
        (False, ["Not a valid web address: the name xn-- is not a valid international name."]),
        (False, ["Not a valid web address: it holds an invisible character (U+202E); type it again rather than "
                 "copy it."]),
    ]]


def test_cancelling_the_address_box_imports_nothing(qtbot, panel, monkeypatch):
    monkeypatch.setattr(panel, "import_items", lambda *a, **k: pytest.fail("nothing was asked to import"))
    _when_shown(qtbot, lambda dialog: dialog.reject())
    panel.ask_url()


def test_deleting_one_source_names_it_and_says_its_file_stays(qtbot, panel, sample_dir, monkeypatch):
    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: (
        asked.append(args[2]), QMessageBox.StandardButton.No)[1])
    row = next(r for r in range(2) if panel.sources_view.model().index(r, 0).data() == "Bread Guide")
    _select(panel.sources_view, row)
    assert panel.delete_selected() == 0  # answered No
    # "Remove 1 source from the knowledge base?": which one, and was the file on disk deleted too?
    assert asked == ["Remove “Bread Guide” from the knowledge base?\n\nThe file or page itself is not deleted."]
    panel.sources_view.selectAll()
    panel.delete_selected()
    assert asked[1] == "Remove 2 sources from the knowledge base?\n\nThe files and pages themselves are not deleted."
    assert panel.source_count() == 2


def test_deleting_a_source_named_with_an_override_names_it_as_the_list_shows_it(qtbot, panel, tmp_path,
                                                                               monkeypatch):
    # The list showed "invoice‹U+202E›gpj.txt", the question about removing it "invoicetxt.jpg".
    (tmp_path / "invoice\u202egpj.txt").write_text("The invoice is due in March.\n", encoding="utf-8")
    _import(qtbot, panel, [str(tmp_path / "invoice\u202egpj.txt")])
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: (
        asked.append(args[2]), QMessageBox.StandardButton.No)[1])
    _select(panel.sources_view, 0)
    assert panel.delete_selected() == 0  # answered No
    assert asked == ["Remove “invoice‹U+202E›gpj.txt” from the knowledge base?\n\n"
                     "The file or page itself is not deleted."]
