"""Saving only what the window changed (settings_changes.py) over settings.json as it is then, and the lock
beside a file that two programs read, change and write back (file_lock.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from tinyrag_desktop import file_lock, settings_changes
from tinyrag_desktop.engine import habits
from tinyrag_desktop.settings import defaults, load_settings, save_settings
from tinyrag_desktop.settings_changes import save_changes


def _on_disk(data: Path) -> dict:
    return json.loads((data / "settings.json").read_text(encoding="utf-8"))


def test_a_value_this_version_refuses_stays_in_the_file_until_the_window_changes_that_setting(tmp_path):
    # "k": "ten" edited by hand was replaced by the default, 5, at the next save of any setting, unsaid.
    save_settings(tmp_path, defaults())
    (tmp_path / "settings.json").write_text(json.dumps({**_on_disk(tmp_path), "k": "ten"}), encoding="utf-8")
    window, warnings = load_settings(tmp_path)
    assert window["k"] == 5 and any("ten" in w for w in warnings)
    assert save_changes(tmp_path, window, window.replace(chat_model="picked")) is None
    assert _on_disk(tmp_path)["k"] == "ten" and _on_disk(tmp_path)["chat_model"] == "picked"
    assert any("ten" in w for w in load_settings(tmp_path)[1])  # said again at the next start
    assert save_changes(tmp_path, window, window.replace(k=7)) is None  # changed in the window: written
    assert _on_disk(tmp_path)["k"] == 7


def test_with_no_file_yet_the_changes_go_over_the_defaults_not_over_this_runs_address_and_key(tmp_path):
    run = defaults().replace(base_url="http://127.0.0.1:9/v1", api_key="sk-from-the-environment")
    assert save_changes(tmp_path, run, run.replace(chat_model="picked")) is None
    written = _on_disk(tmp_path)
    assert written["chat_model"] == "picked"
    assert (written["base_url"], written["api_key"]) == (defaults()["base_url"], "")
    assert written.keys() >= set(defaults())  # every setting, to be found and edited by hand


def _racing(monkeypatch, module, reader: str, first, second) -> None:
    """``first()`` and ``second()`` in two threads, the first held just after it read its file until the
    second has started its own save: waiting for the lock, or (with no lock) done with it."""
    monkeypatch.setattr(file_lock, "WAIT_S", 30.0)  # whatever the machine's speed: the lock is waited for
    monkeypatch.setattr(file_lock, "GUI_WAIT_S", 30.0)
    monkeypatch.setattr(settings_changes, "GUI_WAIT_S", 30.0)
    read_once, second_going = threading.Event(), threading.Event()
    read = getattr(module, reader)

    def held(*args):
        got = read(*args)
        if threading.current_thread().name == "first":
            read_once.set()
            assert second_going.wait(30)
        return got

    tried = file_lock._try

    def waiting(fd):
        got = tried(fd)
        if got is None:
            second_going.set()  # the second found the lock held
        return got

    monkeypatch.setattr(module, reader, held)
    monkeypatch.setattr(file_lock, "_try", waiting)

    def then_said(action):
        action()
        second_going.set()

    one = threading.Thread(target=first, name="first")
    one.start()
    assert read_once.wait(30)
    two = threading.Thread(target=then_said, args=(second,), name="second")
    two.start()
    one.join(30)
    two.join(30)
    assert not one.is_alive() and not two.is_alive()


def test_two_windows_saving_at_once_both_keep_their_change(tmp_path, monkeypatch):
    # A model picked in one window while the other saved its Settings: the later write put the earlier
    # one's file back, without its change.
    save_settings(tmp_path, defaults())
    window = defaults()
    _racing(monkeypatch, settings_changes, "decoded",
            lambda: save_changes(tmp_path, window, window.replace(chat_model="picked")),
            lambda: save_changes(tmp_path, window, window.replace(temperature=0.2)))
    settings, warnings = load_settings(tmp_path)
    assert (settings["chat_model"], settings["temperature"], warnings) == ("picked", 0.2, [])


def test_two_programs_noting_a_thinking_model_at_once_both_keep_theirs(tmp_path, monkeypatch):
    monkeypatch.setattr(habits, "_OPENS_THINKING", set())
    one, other = ("http://127.0.0.1:9/v1", "qwen3"), ("http://127.0.0.1:9/v1", "deepseek-r1")
    _racing(monkeypatch, habits, "_habits_on_disk",
            lambda: habits.learn(tmp_path, one, True), lambda: habits.learn(tmp_path, other, True))
    assert sorted(map(tuple, json.loads((tmp_path / habits.THINKING_MODELS).read_text()))) == sorted([one, other])


def test_a_lock_whose_program_ended_is_free_at_once_and_one_held_on_is_not_waited_for_long(tmp_path):
    # A lock file left by a crash was taken over after 30 s by age, by two waiters at once as well.
    target = tmp_path / "settings.json"
    ended = subprocess.run([sys.executable, "-c", "import os, sys\nfrom pathlib import Path\n"
                            "from tinyrag_desktop.file_lock import locked\n"
                            "with locked(Path(sys.argv[1])) as held:\n    os._exit(0 if held else 1)", str(target)],
                           cwd=Path(__file__).resolve().parents[1], timeout=60)
    assert ended.returncode == 0  # it held the lock, and ended (as by a crash) without letting it go
    with file_lock.locked(target, wait=0) as held:
        assert held
        window = defaults()  # held on, by "another program": the save goes ahead after its short wait
        assert save_changes(tmp_path, window, window.replace(chat_model="again")) is None
    assert _on_disk(tmp_path)["chat_model"] == "again"


def test_the_window_waits_less_for_a_lock_than_a_terminal_does(tmp_path, monkeypatch):
    # The window froze for up to WAIT_S while another program held settings.json's lock.
    waits = []
    monkeypatch.setattr(file_lock, "_take", lambda fd, lock, wait: waits.append(wait) or True)
    window = defaults()
    assert save_changes(tmp_path, window, window.replace(chat_model="picked")) is None
    assert waits == [file_lock.GUI_WAIT_S] and file_lock.GUI_WAIT_S < file_lock.WAIT_S


def test_a_persona_another_window_added_is_kept_when_this_one_edits_its_own(tmp_path):
    # The personas are one setting: the whole list this window held was written over the other's.
    save_settings(tmp_path, defaults())
    one, other = load_settings(tmp_path)[0], load_settings(tmp_path)[0]
    first, *rest = list(one["personas"])
    assert save_changes(tmp_path, other, other.replace(personas={**other["personas"], "Pirate": "Say arr."})) is None
    edited = {name: text for name, text in one["personas"].items() if name != rest[0]}
    edited[first] = "Changed here."
    edited["Poet"] = "Rhyme."
    assert save_changes(tmp_path, one, one.replace(personas=edited)) is None
    personas = load_settings(tmp_path)[0]["personas"]
    assert personas["Pirate"] == "Say arr." and personas["Poet"] == "Rhyme." and personas[first] == "Changed here."
    assert rest[0] not in personas  # removed in this window: removed from the file too
