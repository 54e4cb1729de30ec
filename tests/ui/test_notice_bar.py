"""The notice bar above the conversation: lines added and taken back one by one, commands in quotes."""

from __future__ import annotations

from tinyrag_desktop.ui.notice_bar import NoticeBar


def test_a_command_written_as_code_is_shown_in_quotes_and_lines_come_and_go_one_by_one(qtbot):
    bar = NoticeBar(None)
    qtbot.add_widget(bar)
    no_models = "The server has no models yet. Get one first: with Ollama, `ollama pull llama3.2` in a terminal."
    bar.show_notices(["settings.json: theme must be one of light, dark, system, not 'purple'."])
    bar.add(no_models)
    assert bar.isVisible() or not bar.isHidden()
    assert bar.label.text().split("\n")[1] == ("The server has no models yet. Get one first: with Ollama, "
                                               "“ollama pull llama3.2” in a terminal.")  # the backticks were shown
    bar.add(no_models)  # a check that says it again adds nothing
    assert len(bar.label.text().split("\n")) == 2
    bar.withdraw(no_models)  # a model came: only that line goes
    assert bar.label.text().startswith("settings.json: theme") and "\n" not in bar.label.text()
    bar.withdraw("settings.json: theme", starting=True)
    assert bar.isHidden()
    bar.show_notices(["One."])
    bar.hide()  # dismissed: its lines are not shown again with the next one
    bar.add("Two.")
    assert bar.label.text() == "Two."
