"""A field greyed out by its switch (nanoGo memory under Allow Go, the web search ones under Network tools)
never holds Save back: its reason hides while it is off, and comes back when it is switched on again."""

from __future__ import annotations

import pytest

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog

from .test_settings_dialog_fit import _squeezed

from .conftest import keep_picture


@pytest.fixture
def dialog(qtbot):
    d = SettingsDialog(defaults().replace(allow_nanogo=True, network_tools=True))
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    d.show_tab("Tools")
    saved = []
    d.saved.connect(saved.append)
    d.saved_settings = saved
    return d


@pytest.mark.parametrize("switch, typed", [
    ("allow_nanogo", {"nanogo_memory_mb": "10"}),
    ("network_tools", {"searxng_url": "searx.local:8888:x", "websearch_results": "0"}),
])
def test_a_bad_value_in_a_field_switched_off_does_not_hold_save_back(qtbot, dialog, switch, typed):
    # Allow Go on, nanoGo memory 10, Allow Go off: the field went grey, still said "must be at least 64",
    # and Save stayed disabled with nothing the user could see to correct.
    for name, text in typed.items():
        dialog.field(name).setText(text)
    errors = [dialog._fields[name].error for name in typed]
    assert all(e.isVisible() for e in errors) and not dialog.save_button.isEnabled()
    dialog.field(switch).setChecked(False)
    qtbot.waitUntil(lambda: not _squeezed(dialog), timeout=2000)
    keep_picture(dialog, f"off-{switch}.png")
    assert all(not dialog.field(name).isEnabled() for name in typed)
    assert not any(e.isVisible() for e in errors) and not dialog.problem.isVisible()
    assert dialog.save_button.isEnabled()
    dialog.field(switch).setChecked(True)  # on again: the bad value is said again
    assert all(e.isVisible() for e in errors) and not dialog.save_button.isEnabled()
    dialog.field(switch).setChecked(False)
    with qtbot.waitSignal(dialog.accepted):
        dialog.save_button.click()
    saved = dialog.saved_settings[-1]
    assert saved[switch] is False
    for name in typed:  # what it held when Settings opened, not the text refused
        assert saved[name] == defaults()[name], name

