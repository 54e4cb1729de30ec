"""Settings and exports that cannot be written: the edits and the earlier file are kept, and the words say
what happened and what to do."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

import tinyrag_desktop.settings as settings_module
import tinyrag_desktop.ui.export as export
from tinyrag_desktop.settings import load_settings

_FULL = OSError(errno.ENOSPC, "No space left on device")


def test_settings_that_cannot_be_saved_keep_the_dialog_open_with_the_edits(make_window, server, qtbot,
                                                                           monkeypatch):
    win = make_window(server.base_url)
    dialog = win.open_settings()
    qtbot.waitExposed(dialog)
    dialog.field("temperature").setText("0.3")

    def full(*_args, **_kwargs):
        raise _FULL

    monkeypatch.setattr(settings_module, "save_settings", full)
    dialog.save_button.click()
    assert dialog.isVisible() and dialog.field("temperature").text() == "0.3"
    assert "disk is full" in dialog.problem_text and "Errno" not in dialog.problem_text
    assert win.settings["temperature"] != 0.3  # nothing was applied that was not saved
    monkeypatch.undo()
    dialog.save_button.click()  # space freed: Save again
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert win.settings["temperature"] == 0.3 and load_settings(win.data_dir)[0]["temperature"] == 0.3


def test_a_model_chosen_in_the_status_bar_that_cannot_be_saved_is_not_said_to_answer(make_window, server, qloop,
                                                                                     monkeypatch):
    # The status bar said "Answers now come from other-model." under the box saying the settings were not
    # saved, and the next answer came from the model before.
    win = make_window(server.base_url)
    said = []
    monkeypatch.setattr(win, "problem", lambda title, text: said.append(text))
    monkeypatch.setattr(settings_module, "save_settings", lambda *_a, **_k: (_ for _ in ()).throw(_FULL))
    win.choose_model("other-model")
    assert len(said) == 1 and "disk is full. Free some space, then try again" in said[0]
    assert "other-model" not in win.statusBar().currentMessage()
    assert win.settings["chat_model"] == "scripted"
    monkeypatch.undo()  # space freed: chosen again, it is used and said
    win.choose_model("other-model")
    assert win.statusBar().currentMessage() == "Answers now come from other-model."
    assert load_settings(win.data_dir)[0]["chat_model"] == "other-model"


def test_a_persona_renamed_in_settings_that_cannot_be_saved_leaves_the_chats_as_they_were(
        make_window, server, qtbot, monkeypatch):
    win = make_window(server.base_url)
    chat = win.store.new_chat(persona=next(iter(win.settings["personas"])))
    dialog = win.open_settings()
    renamed = []
    dialog.personasRenamed.connect(renamed.append)
    dialog.renamed_personas[chat.persona] = "Renamed"
    monkeypatch.setattr(settings_module, "save_settings", lambda *_a, **_k: (_ for _ in ()).throw(_FULL))
    dialog.save_button.click()
    assert renamed == [] and win.store.get_chat(chat.id).persona == chat.persona
    dialog.reject()


def test_an_export_that_fails_leaves_the_earlier_file_whole(tmp_path, monkeypatch):
    earlier = tmp_path / "chat.html"
    earlier.write_text("<html>the earlier export, whole</html>")

    import os

    def full(_fd):
        raise _FULL

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        export.write_whole(earlier, "<html>" + "a new export " * 10_000)
    assert earlier.read_text() == "<html>the earlier export, whole</html>"
    assert [p.name for p in tmp_path.iterdir()] == ["chat.html"]  # no part file left beside it
    words = export.failure_words(str(earlier), _FULL)
    assert "disk is full" in words and "left as it was" in words and "Errno" not in words


def test_an_export_replaces_the_earlier_file_when_it_is_written(tmp_path):
    earlier = tmp_path / "chat.md"
    earlier.write_text("old")
    export.write_whole(earlier, "new ✓")
    assert earlier.read_text(encoding="utf-8") == "new ✓" and len(list(Path(tmp_path).iterdir())) == 1


def test_an_export_keeps_the_permissions_a_file_gets_and_settings_stay_private(tmp_path):
    import os
    import stat

    from tinyrag_desktop.settings import defaults, save_settings

    new = tmp_path / "new.html"
    export.write_whole(new, "<html></html>")
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask  # as any new file (it was 0600)
    shared = tmp_path / "shared.md"
    shared.write_text("old")
    shared.chmod(0o664)
    export.write_whole(shared, "new")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o664  # written over, it keeps its own
    save_settings(tmp_path, defaults())
    assert stat.S_IMODE((tmp_path / "settings.json").stat().st_mode) == 0o600  # it holds the API key


@pytest.mark.parametrize("umask", [0o077, 0o002])
def test_a_new_export_takes_the_umask_where_no_proc_tells_it(tmp_path, monkeypatch, umask):
    # macOS has no /proc: the umask was taken to be 022 there, so exports were 0644 under a private 077
    import os
    import pathlib
    import stat

    read_text = pathlib.Path.read_text

    def no_proc(self, *args, **kwargs):
        if str(self).startswith("/proc/"):
            raise FileNotFoundError(2, "No such file or directory", str(self))
        return read_text(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "read_text", no_proc)
    before = os.umask(umask)
    try:
        export.write_whole(tmp_path / "chat.md", "# Chat")
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "chat.md").stat().st_mode) == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == ["chat.md"]


def test_a_screenshot_that_cannot_be_written_leaves_the_earlier_one_whole(qtbot, tmp_path, monkeypatch):
    # Qt wrote the picture in place: on a full disk, `--screenshot` left half a PNG where a whole one had been.
    import os

    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QLabel

    from tinyrag_desktop.app import save_screenshot

    window = QLabel("The window as it was")
    qtbot.add_widget(window)
    window.resize(320, 200)
    shot = tmp_path / "window.png"
    assert save_screenshot(window, shot) == ""
    earlier = shot.read_bytes()
    assert QImage(str(shot)).size().toTuple() == (320, 200)

    def full(_fd):
        raise _FULL

    monkeypatch.setattr(os, "fsync", full)
    window.setText("The window now")
    said = save_screenshot(window, shot)
    assert shot.read_bytes() == earlier and list(tmp_path.iterdir()) == [shot]
    assert said == (f"Could not write the screenshot {shot}: the disk is full. Free some space, or choose another "
                    "place. A file already there was left as it was.")
