"""The settings dialog's fields parse whatever is typed into a value or a reason, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tinyrag_desktop.settings import OPTIONS, SettingsError, defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog

_TEXT_FIELDS = [name for name, opt in OPTIONS.items() if opt.type in (int, float, str) and not opt.choices
                and name not in ("chat_model", "embed_model")]


@pytest.fixture
def dialog(qtbot):
    d = SettingsDialog(defaults())
    qtbot.addWidget(d)
    return d


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(_TEXT_FIELDS), text=st.text(max_size=40))
def test_any_typed_text_gives_a_valid_value_or_a_reason(dialog, name, text):
    field = dialog._fields[name]
    field.widget.setText(text)
    try:
        value = field.value()
    except SettingsError as exc:
        assert str(exc) and dialog.revalidate() and not dialog.save_button.isEnabled()
        return
    assert OPTIONS[name].check(value) == value  # what the dialog accepts, the schema accepts
    field.widget.setText(str(defaults()[name]))


def test_defaults_are_valid_and_save_is_enabled(dialog):
    assert dialog.revalidate() == [] and dialog.save_button.isEnabled()
    assert dialog.values() == defaults()


def test_numbers_accept_a_decimal_comma_and_refuse_fractions_for_counts(dialog):
    dialog.field("tool_timeout").setText("12,5")
    assert dialog.values()["tool_timeout"] == 12.5
    dialog.field("k").setText("2.5")
    assert any("whole number" in p for p in dialog.revalidate())


def test_infinity_and_nan_are_refused_with_a_reason(dialog):
    for text in ("inf", "Infinity", "nan", "-inf"):
        field = dialog._fields["max_continuations"]
        field.widget.setText(text)
        assert "finite number" in (field.validate() or "")
