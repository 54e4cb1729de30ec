"""settings.json changed while the window is open (edited by hand, as the README allows, or written by another
program): saving in the window writes what was changed there and keeps the rest of the file as it is now."""

from __future__ import annotations

import json
from pathlib import Path

from tinyrag_desktop.settings import load_settings, save_settings


def _edited_by_hand(data_dir: Path, **changes) -> None:
    """settings.json as a text editor leaves it: its keys, some changed, one only a hand edit sets."""
    path = data_dir / "settings.json"
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**on_disk, **changes}, indent=2), encoding="utf-8")


def test_a_model_picked_in_the_status_bar_keeps_what_was_edited_by_hand_meanwhile(make_window, server, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    save_settings(data, win.settings)  # the file the window was opened with
    _edited_by_hand(data, temperature=0.2, wikipedia_api_url="http://127.0.0.1:5/w/api.php", k=9)
    win.choose_model("other-model")
    on_disk = json.loads((data / "settings.json").read_text(encoding="utf-8"))
    # the pick was saved; the hand edits were put back to what the window had read (0.7, no wiki address, 5)
    assert on_disk["chat_model"] == "other-model"
    assert (on_disk["temperature"], on_disk["k"]) == (0.2, 9)
    assert on_disk["wikipedia_api_url"] == "http://127.0.0.1:5/w/api.php"
    assert win.settings["chat_model"] == "other-model"
    # A file damaged meanwhile is no base to keep: the window's settings are saved whole, as before.
    (data / "settings.json").write_text('{"temperature": 0.2,', encoding="utf-8")
    win.choose_model("scripted")
    settings, warnings = load_settings(data)
    assert not warnings
    assert (settings["chat_model"], settings["base_url"], settings["temperature"]) == ("scripted", server.base_url, 0.7)


def test_the_settings_window_writes_its_changes_over_the_file_as_it_is_now(make_window, server, qtbot, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    save_settings(data, win.settings)
    dialog = win.open_settings()
    _edited_by_hand(data, temperature=0.2, searxng_url="http://127.0.0.1:6/search")
    dialog.field("max_tools_total").setText("7")
    with qtbot.waitSignal(win.settingsApplied):
        dialog.save_button.click()
    settings, warnings = load_settings(data)
    assert settings["max_tools_total"] == 7 and not warnings
    assert (settings["temperature"], settings["searxng_url"]) == (0.2, "http://127.0.0.1:6/search")
    assert settings["base_url"] == server.base_url and settings["chat_model"] == "scripted"

