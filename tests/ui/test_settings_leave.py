"""Leaving Settings without saving: Esc, Cancel and the close button ask first when something was edited."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog


@pytest.fixture
def dialog(qtbot):
    d = SettingsDialog(defaults())
    qtbot.addWidget(d)
    d.open()
    qtbot.waitExposed(d)
    saved = []
    d.saved.connect(saved.append)
    d.saved_settings = saved
    return d


def _question(qtbot, dialog) -> QMessageBox:
    qtbot.waitUntil(lambda: dialog.discard_question is not None and dialog.discard_question.isVisible())
    return dialog.discard_question


def _answer(qtbot, dialog, button) -> None:
    box = _question(qtbot, dialog)
    with qtbot.waitSignal(box.finished):
        box.button(button).click() if isinstance(button, QMessageBox.StandardButton) else button.click()


def test_esc_with_nothing_edited_closes_at_once(qtbot, dialog):
    with qtbot.waitSignal(dialog.rejected):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.discard_question is None and not dialog.isVisible()


def test_esc_after_an_edit_asks_and_keep_editing_keeps_the_edit(qtbot, dialog):
    dialog.field("chat_model").setCurrentText("qwen2.5:7b")
    left = []
    dialog.rejected.connect(lambda: left.append(True))
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    box = _question(qtbot, dialog)
    assert box.text() == "Your changes to Settings are not saved."
    assert box.escapeButton() is not box.button(QMessageBox.StandardButton.Discard)
    with qtbot.waitSignal(box.finished):
        box.escapeButton().click()  # "Keep editing", also what Esc on the question does
    assert dialog.isVisible() and left == []
    assert dialog.field("chat_model").currentText() == "qwen2.5:7b" and dialog.saved_settings == []


def test_discard_closes_without_saving(qtbot, dialog):
    dialog.field("max_tools_total").setText("9")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    with qtbot.waitSignal(dialog.rejected):
        _answer(qtbot, dialog, QMessageBox.StandardButton.Discard)
    assert not dialog.isVisible() and dialog.saved_settings == []


def test_save_in_the_question_saves_the_edits(qtbot, dialog):
    dialog.field("max_tools_total").setText("9")
    dialog.close()  # the window's close button
    with qtbot.waitSignal(dialog.accepted):
        _answer(qtbot, dialog, QMessageBox.StandardButton.Save)
    assert [s["max_tools_total"] for s in dialog.saved_settings] == [9]


def test_save_in_the_question_with_a_bad_field_stays_and_says_why(qtbot, dialog):
    dialog.field("max_tools_total").setText("many")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    _answer(qtbot, dialog, QMessageBox.StandardButton.Save)
    assert dialog.isVisible() and dialog.saved_settings == []
    assert dialog.problem.isVisible() and "Tool calls per answer" in dialog.problem_text


def test_a_persona_prompt_edit_counts_and_an_edit_typed_back_does_not(qtbot, dialog):
    before = dialog.persona_prompt.toPlainText()
    dialog.persona_prompt.setPlainText("You answer in haiku.")
    assert dialog.edited()
    dialog.persona_prompt.setPlainText(before)
    assert not dialog.edited()
    with qtbot.waitSignal(dialog.rejected):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)


def test_test_connection_alone_is_no_change(qloop, qtbot):
    # With the server default (empty), the test chose the first model listed: Esc asked about unsaved changes
    # no one made, and Save would have pinned a model the user never chose.
    async def a_server(url: str, key: str) -> list[str]:
        return ["llama3.2", "qwen2.5:7b", "nomic-embed-text"]

    d = SettingsDialog(defaults().replace(chat_model=""), a_server)
    qtbot.addWidget(d)
    d.open()
    qtbot.waitExposed(d)
    qloop.run(d.test_connection())
    chat = d.field("chat_model")
    assert [chat.itemText(i) for i in range(chat.count())] == ["llama3.2", "qwen2.5:7b"]  # listed to choose
    assert chat.currentText() == "" and d.field("embed_model").currentText() == ""
    assert not d.edited()
    with qtbot.waitSignal(d.rejected):
        qtbot.keyClick(d, Qt.Key.Key_Escape)
    assert d.discard_question is None


@pytest.mark.parametrize("letter, left", [(Qt.Key.Key_S, "accepted"), (Qt.Key.Key_D, "rejected"),
                                          (Qt.Key.Key_K, None)])
def test_each_answer_to_the_question_has_its_own_alt_letter(qtbot, dialog, letter, left):
    # Only "Keep editing" had one: Alt+D did nothing, and Discard was a Tab or two away.
    from PySide6.QtWidgets import QApplication

    dialog.field("max_tools_total").setText("9")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    box = _question(qtbot, dialog)
    letters = [b.text().split("&", 1)[1][:1].casefold() for b in box.buttons() if "&" in b.text()]
    assert sorted(letters) == ["d", "k", "s"]  # every answer, no letter twice
    qtbot.waitUntil(lambda: QApplication.activeWindow() is box)
    with qtbot.waitSignal(box.finished):
        qtbot.keyClick(QApplication.focusWidget(), letter, Qt.KeyboardModifier.AltModifier)
    if left is None:
        assert dialog.isVisible()
    else:
        qtbot.waitUntil(lambda: not dialog.isVisible())
        assert dialog.result() == {"accepted": 1, "rejected": 0}[left]
        assert [s["max_tools_total"] for s in dialog.saved_settings] == ([9] if left == "accepted" else [])


def test_enter_on_the_question_keeps_editing_and_saves_nothing(qtbot, dialog):
    # Save was the default button: Esc (leave) then Enter (make the question go) saved what was being left.
    dialog.field("max_tools_total").setText("9")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    box = _question(qtbot, dialog)
    assert box.defaultButton() is box.escapeButton()
    with qtbot.waitSignal(box.finished):
        qtbot.keyClick(box, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.saved_settings == []
    assert dialog.field("max_tools_total").text() == "9"
