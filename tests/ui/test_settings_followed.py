"""settings.json changed by another program while the window is open is used by the window without a restart,
and the window's next save never puts its old values back. Before, the window kept what it read as it opened
until the next start (its saves kept the file's changes, but it went on asking the old server, in the old theme)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tinyrag_desktop.settings as settings_module
import tinyrag_desktop.ui.main_window as main_window
from tinyrag_desktop.firstrun import Found
from tinyrag_desktop.settings import load_settings, save_settings
from tinyrag_desktop.settings_changes import save_changes

from .conftest import wait_until

# Another tinyRAG program saving settings, as the window does: its changes over the file, under its lock.
ELSEWHERE = """
import json, sys
from pathlib import Path
from tinyrag_desktop.settings import load_settings
from tinyrag_desktop.settings_changes import save_changes
data, changes = Path(sys.argv[1]), json.loads(sys.argv[2])
before, _ = load_settings(data)
problem = save_changes(data, before, before.replace(**changes))
sys.exit(1 if problem else 0)
"""


def _saved_elsewhere(data: Path, **changes) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    subprocess.run([sys.executable, "-c", ELSEWHERE, str(data), json.dumps(changes)], check=True, env=env,
                   timeout=60)


def _on_disk(data: Path) -> dict:
    return json.loads((data / "settings.json").read_text(encoding="utf-8"))


def _settings_open(make_window, server, tmp_path):
    """A window over a settings.json it has read, and its Settings window open: (window, dialog, data folder)."""
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    save_settings(data, win.settings)
    win.settings_watch.look()
    return win, win.open_settings(), data


def test_settings_another_program_saves_are_used_at_once_and_this_runs_address_stays(make_window, server, qloop,
                                                                                       tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    save_settings(data, load_settings(data)[0].replace(temperature=0.5))  # no base_url of this run's in it
    win = make_window(server.base_url, data_dir=data)  # started with this run's --base-url, as it were
    _saved_elsewhere(data, theme="dark", temperature=0.2, chat_model="other-model", max_tools_total=9)
    qloop.run(wait_until(lambda: win.settings["theme"] == "dark", timeout=6))  # the window's own look, every 2 s
    assert (win.settings["temperature"], win.settings["chat_model"], win.settings["max_tools_total"]) == \
        (0.2, "other-model", 9)
    assert win.settings["base_url"] == server.base_url  # not changed in the file: this run's stays
    assert win.palette().window().color().lightness() < 128  # dark now
    words = win.statusBar().currentMessage()
    assert words.endswith(" were changed in another program and are now used.")
    assert "Chat model" in words and "Theme" in words
    assert win.status.model.text() == "Model: other-model ▾"  # the status bar says the model that answers now


def test_the_windows_own_save_is_not_followed_as_a_change_from_elsewhere(make_window, server, qloop, tmp_path):
    # No settings.json yet: the window's save writes its pick over the defaults, the default Server URL with it,
    # which the window must not then take for a change made elsewhere (it would leave this run's server).
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    win.choose_model("other-model")
    assert _on_disk(data)["base_url"] != server.base_url
    assert not win.settings_watch.look()
    assert win.settings["base_url"] == server.base_url and win.settings["chat_model"] == "other-model"


def test_settings_opened_before_a_change_elsewhere_put_none_of_their_old_values_back(make_window, server, qloop,
                                                                                     qtbot, tmp_path):
    win, dialog, data = _settings_open(make_window, server, tmp_path)  # opened with temperature 0.7
    _saved_elsewhere(data, temperature=0.2, k=9)
    assert win.settings_watch.look()  # (the timer's look, at once)
    assert (win.settings["temperature"], win.settings["k"]) == (0.2, 9)
    dialog._fields["max_tools_total"].widget.setText("8")  # an edit of its own
    with qtbot.waitSignal(dialog.saved):
        dialog._on_save()
    on_disk = _on_disk(data)
    assert (on_disk["temperature"], on_disk["k"], on_disk["max_tools_total"]) == (0.2, 9, 8)
    assert (win.settings["temperature"], win.settings["k"], win.settings["max_tools_total"]) == (0.2, 9, 8)


def test_an_open_settings_window_shows_changes_elsewhere_in_the_fields_not_edited(make_window, server, qloop,
                                                                                   qtbot, tmp_path):
    win, dialog, data = _settings_open(make_window, server, tmp_path)
    shown = dialog._fields["temperature"].widget.text()
    dialog._fields["temperature"].widget.setText("0.9")  # the user's own edit, kept over the file's
    _saved_elsewhere(data, temperature=0.2, k=9, theme="dark", chat_model="other-model", network_tools=False)
    assert win.settings_watch.look()
    assert dialog._fields["k"].widget.text() == "9"
    assert dialog._fields["theme"].widget.currentData() == "dark"
    assert dialog._fields["chat_model"].widget.currentText() == "other-model"
    assert dialog._fields["network_tools"].widget.isChecked() is False
    assert dialog._fields["temperature"].widget.text() == "0.9"
    assert dialog.edited()  # the user's edit only: the followed fields are no edit to ask about on Cancel
    dialog._fields["temperature"].widget.setText(shown)  # typed back
    assert not dialog.edited()
    dialog._fields["temperature"].widget.setText("0.9")
    with qtbot.waitSignal(dialog.saved):
        dialog._on_save()
    on_disk = _on_disk(data)
    assert (on_disk["temperature"], on_disk["k"], on_disk["theme"], on_disk["chat_model"]) == \
        (0.9, 9, "dark", "other-model")


def test_a_value_followed_in_an_open_settings_window_then_typed_back_is_saved(make_window, server, qloop, qtbot,
                                                                               tmp_path):
    win, dialog, data = _settings_open(make_window, server, tmp_path)
    before = dialog._fields["k"].widget.text()
    _saved_elsewhere(data, k=9)
    assert win.settings_watch.look() and dialog._fields["k"].widget.text() == "9"
    dialog._fields["k"].widget.setText(before)  # the user wants the value back: an edit, which Save writes
    with qtbot.waitSignal(dialog.saved):
        dialog._on_save()
    assert win.settings["k"] == int(before) == _on_disk(data)["k"]


def test_a_damaged_file_or_a_refused_value_elsewhere_leaves_the_windows_settings(make_window, server, qloop,
                                                                                tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    save_settings(data, win.settings)
    win.settings_watch.look()
    (data / "settings.json").write_text('{"temperature": 0.2,', encoding="utf-8")  # half written
    assert not win.settings_watch.look()
    on_disk = {**win.settings.to_json(), "temperature": "warm", "k": 7}  # edited by hand: one value refused
    (data / "settings.json").write_text(json.dumps(on_disk), encoding="utf-8")
    assert win.settings_watch.look()
    assert (win.settings["temperature"], win.settings["k"]) == (0.7, 7)


def _model_menu(win, qtbot) -> None:
    win.choose_model("other-model")


def _settings_window(win, qtbot) -> None:
    dialog = win.open_settings()
    dialog._fields["max_tools_total"].widget.setText("8")
    with qtbot.waitSignal(dialog.saved):
        dialog._on_save()


def _welcome_panel(win, qtbot) -> None:
    win.welcome._use_found(Found(win.settings["base_url"], "other-model", "Ollama"))


@pytest.mark.parametrize("save", [_model_menu, _settings_window, _welcome_panel])
@pytest.mark.parametrize("elsewhere", ["before", "while"])
def test_a_change_elsewhere_just_before_or_while_the_window_saves_is_used(make_window, server, qloop, qtbot,
                                                                          tmp_path, monkeypatch, save, elsewhere):
    # The window's own save took the whole file as read: another program's change made since the last look (every
    # 2 s), or landing as the window wrote, was never used (until the next start), though the file held it
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    save_settings(data, win.settings)
    win.settings_watch.look()
    if elsewhere == "before":
        _saved_elsewhere(data, theme="dark", k=9)
    else:  # just after the window's write, before it is back from saving
        def and_elsewhere(*args):
            problem = save_changes(*args)
            _saved_elsewhere(data, theme="dark", k=9)
            return problem

        monkeypatch.setattr(main_window, "save_changes", and_elsewhere)
    save(win, qtbot)
    assert win.settings_watch.look()  # (the timer's look, at once)
    assert (win.settings["theme"], win.settings["k"]) == ("dark", 9)
    assert (_on_disk(data)["theme"], _on_disk(data)["k"]) == ("dark", 9)
    assert not win.settings_watch.look()  # the window's own edit is not followed as a change from elsewhere
    assert win.settings["chat_model"] == _on_disk(data)["chat_model"]


def test_a_change_elsewhere_before_a_save_that_fails_is_used(make_window, server, qloop, tmp_path, monkeypatch):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    save_settings(data, win.settings)
    win.settings_watch.look()
    _saved_elsewhere(data, k=9)
    said = []
    monkeypatch.setattr(win, "problem", lambda title, text: said.append(text))
    monkeypatch.setattr(settings_module, "save_settings",
                        lambda *_a, **_k: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device")))
    win.choose_model("other-model")  # a full disk: not saved, and said
    assert said and win.settings["chat_model"] != "other-model"
    assert win.settings_watch.look()
    assert win.settings["k"] == 9


def test_another_programs_save_into_no_file_yet_leaves_this_runs_address(make_window, server, qloop, tmp_path):
    # Its save writes the defaults of what it does not change, the Server URL with them: taken for a change of
    # that setting, it moved the window off this run's --base-url
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    _saved_elsewhere(data, k=9)
    assert win.settings_watch.look() and win.settings["k"] == 9
    assert win.settings["base_url"] == server.base_url != _on_disk(data)["base_url"]


def test_the_words_for_settings_changed_elsewhere_read_as_a_sentence():
    # "Settings changed in another program are used now: Theme." read as a heading and a list
    from tinyrag_desktop.ui.settings_watch import followed_words

    assert followed_words(["Theme"]) == "Theme was changed in another program and is now used."
    assert followed_words(["Theme", "Chat model", "Temperature"]) == (
        "Theme, Chat model and Temperature were changed in another program and are now used.")
