"""Outside text (a model's link or tool name, a chat's title, a server's model name or error, a file's name) is
shown as written in tooltips, labels and message boxes: ``<img src=…>`` in it is words, never a picture Qt
loads from disk (``<img src=/dev/urandom>`` read that device until memory ran out)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QHelpEvent, QImage, QTextDocument
from PySide6.QtGui import Qt as GuiQt  # QtGui's Qt holds mightBeRichText
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QStatusBar, QToolTip, QWidget

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatInfo
from tinyrag_desktop.ui.elided_label import ElidedLabel
from tinyrag_desktop.ui.sidebar import ChatsSidebar
from tinyrag_desktop.ui.sources_row import SourceLink, SourcesRow
from tinyrag_desktop.ui.status import ServerStatus
from tinyrag_desktop.ui.status_bar import ElidingStatusBar
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import ask_and_wait
from .test_images import _point, _segment
from .test_link_tips import _tip_at

PICTURE = (900, 700)  # px: a tooltip or a label as large as this has loaded the picture


@pytest.fixture
def picture(tmp_path) -> str:
    """A small local PNG, PICTURE large: the file an <img> in outside text names."""
    path = tmp_path / "p.png"
    image = QImage(*PICTURE, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    assert image.save(str(path))
    return str(path)


def as_shown(text: str, form: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """The words a person reads when Qt shows ``text`` in a tooltip or a message box (AutoText), or in a label
    of format ``form``: Qt reads it as HTML when it might be rich text."""
    document = QTextDocument()
    if form == Qt.TextFormat.RichText or (form == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text)):
        document.setHtml(text)
    else:
        document.setPlainText(text)
    return document.toPlainText()


def _tip_label() -> QWidget:
    [label] = [w for w in QApplication.topLevelWidgets() if w.inherits("QTipLabel") and w.isVisible()]
    return label


def test_a_links_tooltip_shows_an_img_tag_in_its_address_as_words(qtbot, picture):
    tag = f"<img src={picture}>"
    seg = _segment(qtbot, f"See the [install guide](<&lt;img src={picture}&gt;>) first.")
    tip = _tip_at(seg, _point(seg, "install guide"))
    assert as_shown(tip).startswith(tag)
    assert _tip_label().width() < PICTURE[0]  # the picture was not loaded
    QToolTip.hideText()


def test_a_tool_cards_tooltip_shows_the_tool_name_the_model_wrote_as_words(qtbot, picture):
    card = ToolCard("c1", f"<img src={picture}>", "<b>query</b>")
    qtbot.add_widget(card)
    card.finish("error", error="<b>unknown</b> tool")
    assert f"<img src={picture}>" in as_shown(card.toolTip())
    assert "<b>unknown</b> tool" in as_shown(card.toolTip())


def test_a_sources_link_and_its_group_caption_show_names_as_words(qtbot, picture):
    row = SourcesRow()
    qtbot.add_widget(row)
    caption = row._group_label(f"Search “<img src={picture}>”:")
    assert caption.textFormat() == Qt.TextFormat.PlainText
    assert caption.sizeHint().width() < PICTURE[0]
    link = SourceLink(f"/notes/<b>{picture}</b>.md", "notes", "#2563eb")
    qtbot.add_widget(link)
    assert as_shown(link.toolTip()).startswith(f"/notes/<b>{picture}</b>.md")


def test_a_chats_title_is_words_in_its_rows_tooltip_and_the_undo_bar(qtbot, picture):
    title = f"<img src={picture}> plans"
    side = ChatsSidebar()
    qtbot.add_widget(side)
    side.resize(240, 400)
    side.show()
    now = time.time()
    side.set_chats([ChatInfo("1", title, "", now, now, "")], None, "")
    qtbot.waitExposed(side)
    point = side.list.visualItemRect(side.item_for("1")).center()
    QApplication.sendEvent(side.list.viewport(),
                           QHelpEvent(QEvent.Type.ToolTip, point, side.list.viewport().mapToGlobal(point)))
    assert QToolTip.isVisible() and as_shown(QToolTip.text()).startswith(title)
    assert _tip_label().width() < PICTURE[0]
    QToolTip.hideText()
    side.show_undo("1", title)
    assert side.undo_label.textFormat() == Qt.TextFormat.PlainText
    assert as_shown(side.undo_label.toolTip()) == title


def test_the_status_bars_tooltip_for_a_cut_message_is_words(qtbot, picture):
    bar = ElidingStatusBar()
    qtbot.add_widget(bar)
    bar.resize(200, 30)
    bar.show()
    qtbot.waitExposed(bar)
    message = f"<img src={picture}> and a message too long for the bar to show whole"
    bar.showMessage(message)
    assert bar.toolTip() and as_shown(bar.toolTip()) == message


def test_an_elided_labels_text_and_tooltip_are_words(qtbot, picture):
    title = f"<img src={picture}> a chat title far too long for the narrow label it is shown in"
    label = ElidedLabel(title)
    qtbot.add_widget(label)
    label.resize(80, 20)
    label.setText(title + " ")
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.sizeHint().height() < PICTURE[1]
    assert as_shown(label.toolTip()) == title + " "


def test_model_names_and_server_words_in_the_status_bar_are_words(qtbot, picture):
    bar = QStatusBar()
    qtbot.add_widget(bar)
    status = ServerStatus(bar)
    from tinyrag_desktop.settings import defaults

    name = f"<img src={picture}>"
    status.show_settings({**defaults(), "chat_model": name})
    assert as_shown(status.model.toolTip()).startswith(name)
    status.models = ["llama3", f"<b>{picture}</b>"]
    status._fill_model_menu()
    tips = [a.toolTip() for a in status.model_menu.actions() if a.data() == name]
    assert tips and as_shown(tips[0]).startswith(name)
    status._set("warn", "refused", f"The server said: <img src={picture}>")
    assert as_shown(status.reach.toolTip()) == f"The server said: <img src={picture}>"
    assert status.reach.textFormat() == Qt.TextFormat.PlainText


def test_a_message_box_about_a_failure_shows_the_path_as_words(make_window, server, monkeypatch, picture):
    win = make_window(server.base_url)
    win.scripted = False
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: said.append(text))
    win.problem("Chat history", f"Could not write <img src={picture}>")
    assert [as_shown(text) for text in said] == [f"Could not write <img src={picture}>"]


def test_in_the_window_no_tooltip_or_label_reads_the_models_markup(make_window, server, qloop, picture):
    """A model names a tool ``<img src=…>`` (the parser decodes the entities) and links to such an address."""
    tag = f"<img src={picture}>"
    server.queue(Stream(tokens=[f'Checking. <tool name="&lt;img src={picture}&gt;"><query>&lt;b&gt;x</query></tool>']),
                 Stream(tokens=[f"Done. See the [guide](<&lt;img src={picture}&gt;>)."]))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "hello")) == "done"
    QApplication.processEvents()
    tips = [w.toolTip() for w in win.findChildren(QWidget) if tag in as_shown(w.toolTip())]
    assert tips  # the card's, at least
    assert not [w for w in win.findChildren(QWidget) if w.toolTip() and "\ufffc" in as_shown(w.toolTip())]
    for label in win.findChildren(QLabel):
        assert "\ufffc" not in as_shown(label.text(), label.textFormat()), label.objectName()
        assert label.sizeHint().width() < PICTURE[0], label.objectName()
    [seg] = [s for s in win.view.answers()[-1].segments() if s.isVisible() and "guide" in s.toPlainText()]
    assert as_shown(_tip_at(seg, _point(seg, "guide"))).startswith(tag)
    QToolTip.hideText()
