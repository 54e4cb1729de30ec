"""What the status bar says as Settings are saved: "they apply to the next question" only when something
that does changed (after a new theme alone, shown at once, it said so all the same)."""

from __future__ import annotations


def test_saving_only_a_new_theme_says_it_applies_now(make_window, server, qloop):
    win = make_window(server.base_url, theme="light")
    win.apply_settings(win.settings.replace(theme="dark"))
    assert win.statusBar().currentMessage() == "Settings saved; the new theme applies now."
    win.apply_settings(win.settings.replace(theme="light", temperature=0.3))
    said = "Settings saved; the theme applies now, the rest to the next question."
    assert win.statusBar().currentMessage() == said
    win.apply_settings(win.settings.replace(temperature=0.4))
    assert win.statusBar().currentMessage() == "Settings saved; they apply to the next question."
    win.apply_settings(win.settings)
    assert win.statusBar().currentMessage() == "Settings saved."
