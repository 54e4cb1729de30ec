"""The line above Save names every field to correct, briefly; an empty address is said to be empty."""

from __future__ import annotations

import pytest

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog


@pytest.fixture
def dialog(qtbot):
    d = SettingsDialog(defaults())
    qtbot.addWidget(d)
    return d


def test_two_bad_fields_are_both_named(dialog):
    # "Cannot save yet: see the reason under Server URL", with Temperature wrong too and not named.
    dialog.field("base_url").setText("")
    dialog.field("temperature").setText("hot")
    assert dialog.problem_text == "Cannot save yet: see the reasons under Server URL and Temperature."


def test_many_bad_fields_are_counted(dialog):
    dialog.show_tab("Limits")
    for name in ("max_tools_total", "max_tools_per_round", "tool_timeout"):
        dialog.field(name).setText("-5")
    assert dialog.problem_text == "Cannot save yet: see the reasons under Tool calls per answer and 2 other fields."


def test_a_reason_on_another_tab_names_the_other_fields_too(dialog):
    dialog.field("max_tools_total").setText("-5")
    dialog.field("tool_timeout").setText("-5")
    reason = dialog._fields["max_tools_total"].validate()
    assert dialog.problem_text == f"Cannot save yet (Limits tab): {reason} Also see Tool timeout."


def test_an_empty_server_url_is_said_to_be_empty_in_words(dialog):
    # It said: must be an http:// or https:// address, like http://127.0.0.1:11434/v1, not "".
    dialog.field("base_url").setText("")
    reason = dialog._fields["base_url"].validate()
    assert reason == ("Server URL must be an http:// or https:// address, like http://127.0.0.1:11434/v1; it is "
                      "empty.")
