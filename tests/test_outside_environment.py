"""What a frozen build's children get: the environment as it was before PyInstaller's bootloader and PySide6's
runtime hook pointed LD_LIBRARY_PATH and QT_PLUGIN_PATH into the bundle (lifeline.outside_environment)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.orphans import ROOT
from tinyrag_desktop import lifeline

BUNDLE = "/opt/tinyrag-desktop/_internal"
PLUGINS = f"{BUNDLE}/PySide6/Qt/plugins"


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", BUNDLE, raising=False)


def _bundle_env(**more: str) -> dict[str, str]:
    """As the bootloader and the runtime hooks leave it for a user who had set none of these."""
    saved = {"QT_PLUGIN_PATH": None, "QML2_IMPORT_PATH": None, "DYLD_LIBRARY_PATH": None, "PATH": "/usr/bin:/bin"}
    return {"PATH": "/usr/bin:/bin", "HOME": "/home/ann", "LD_LIBRARY_PATH": BUNDLE, "QT_PLUGIN_PATH": PLUGINS,
            "QML2_IMPORT_PATH": f"{BUNDLE}/PySide6/Qt/qml", lifeline.SAVED_ENV: json.dumps(saved),
            "_PYI_ARCHIVE_FILE": "/opt/tinyrag-desktop/tinyrag-desktop", "_PYI_PARENT_PROCESS_LEVEL": "1",
            "_PYI_APPLICATION_HOME_DIR": BUNDLE, "_PYI_LINUX_PROCESS_NAME": "tinyrag-desktop", **more}


def test_a_frozen_builds_children_get_the_environment_the_app_was_started_with(frozen: None) -> None:
    assert lifeline.outside_environment(_bundle_env()) == {"PATH": "/usr/bin:/bin", "HOME": "/home/ann"}


def test_the_users_own_library_and_plugin_paths_come_back(frozen: None) -> None:
    saved = {"QT_PLUGIN_PATH": "/usr/lib/qt6/plugins", "QML2_IMPORT_PATH": None, "PATH": "/usr/bin"}
    env = _bundle_env(LD_LIBRARY_PATH=f"{BUNDLE}:/opt/cuda/lib64", LD_LIBRARY_PATH_ORIG="/opt/cuda/lib64",
                      **{lifeline.SAVED_ENV: json.dumps(saved)})
    outside = lifeline.outside_environment(env)
    assert outside["LD_LIBRARY_PATH"] == "/opt/cuda/lib64" and "LD_LIBRARY_PATH_ORIG" not in outside
    assert outside["QT_PLUGIN_PATH"] == "/usr/lib/qt6/plugins" and "QML2_IMPORT_PATH" not in outside
    assert lifeline.SAVED_ENV not in outside and not [name for name in outside if name.startswith("_PYI_")]


def test_without_the_saved_values_the_bundles_folders_are_left_out(frozen: None) -> None:
    # a bundle built without the runtime hook, or a variable it does not note: what points inside goes
    env = _bundle_env(LD_LIBRARY_PATH=f"{BUNDLE}:/opt/lib", QT_PLUGIN_PATH=f"{PLUGINS}:/usr/lib/qt6/plugins")
    del env[lifeline.SAVED_ENV]
    outside = lifeline.outside_environment(env)
    assert outside["LD_LIBRARY_PATH"] == "/opt/lib" and outside["QT_PLUGIN_PATH"] == "/usr/lib/qt6/plugins"
    assert "QML2_IMPORT_PATH" not in outside
    # a folder beside the bundle's, whose name only starts the same, is not inside it
    env = _bundle_env(LD_LIBRARY_PATH=f"{BUNDLE}:{BUNDLE}2")
    assert lifeline.outside_environment(env)["LD_LIBRARY_PATH"] == f"{BUNDLE}2"


def test_outside_a_frozen_build_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    env = _bundle_env()
    assert lifeline.outside_environment(env) == env


def test_child_options_give_the_outside_environment(frozen: None) -> None:
    env = lifeline.child_options(_bundle_env())["env"]
    assert "LD_LIBRARY_PATH" not in env and "QT_PLUGIN_PATH" not in env and env["HOME"] == "/home/ann"


def test_the_window_leaves_the_bundle_environment_to_what_qt_starts(frozen: None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # QDesktopServices starts xdg-open (and the browser) with this process's own environment
    for name, value in _bundle_env(LD_LIBRARY_PATH=f"{BUNDLE}:/opt/lib", LD_LIBRARY_PATH_ORIG="/opt/lib").items():
        monkeypatch.setenv(name, value)
    lifeline.leave_bundle_environment()
    assert os.environ["LD_LIBRARY_PATH"] == "/opt/lib" and "QT_PLUGIN_PATH" not in os.environ
    assert "_PYI_ARCHIVE_FILE" not in os.environ and os.environ["HOME"] == "/home/ann"


@pytest.mark.skipif(os.name != "posix", reason="no guard on Windows")
def test_a_frozen_guard_gives_its_program_the_outside_environment(tmp_path: Path) -> None:
    # The guard is the bundle's executable, whose own bootloader points LD_LIBRARY_PATH into the bundle again
    # (with what the app gave it kept in LD_LIBRARY_PATH_ORIG): the program it becomes must not get that.
    script = ("import sys; sys.frozen = True; sys._MEIPASS = %r\n"
              "from tinyrag_desktop.lifeline import guard_main\n"
              "guard_main(['/bin/sh', '-c', 'echo \"$LD_LIBRARY_PATH|${QT_PLUGIN_PATH-unset}|$_PYI_ARCHIVE_FILE\"'])"
              % BUNDLE)
    env = _bundle_env(LD_LIBRARY_PATH=f"{BUNDLE}:/opt/lib", LD_LIBRARY_PATH_ORIG="/opt/lib",
                      PYTHONPATH=str(ROOT), PATH=os.environ["PATH"])
    env[lifeline.SAVED_ENV] = json.dumps({"QT_PLUGIN_PATH": None, "PATH": os.environ["PATH"]})
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert done.stdout == "/opt/lib|unset|\n", done.stderr
