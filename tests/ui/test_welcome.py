"""The welcome panel in the window: shown while no server answers, gone once one is found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from PySide6.QtWidgets import QDialog, QLabel

from tests.sse_server import ScriptedLLMServer, Stream, free_port
from tinyrag_desktop.firstrun import Attempt, Found, ProbeResult
from tinyrag_desktop.settings import defaults, load_settings, save_settings

from .conftest import ask_and_wait, tokens, wait_until


def test_no_server_shows_the_welcome_panel_and_try_again_finds_one(make_window, server, qloop):
    calls = []

    async def probe():
        calls.append(1)
        if len(calls) == 1:
            return ProbeResult(None, (Attempt("Ollama", "http://127.0.0.1:11434/v1", False, "nothing listens"),))
        return ProbeResult(Found(server.base_url, "scripted", "Test server"), ())

    mine = f"http://127.0.0.1:{free_port()}/v1"
    win = make_window(mine, probe=probe)
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    assert panel.objectName() == "welcomePanel" and not win.view.isVisible()
    panel.retry_button.click()
    qloop.run(wait_until(lambda: "Ollama" in panel.status.text()))
    assert win.welcome.visible()  # still nothing: the panel says what was tried
    panel.retry_button.click()

    async def found_and_checked():
        # in one run of the loop: the window's check of the server found starts as the panel closes, and a
        # connection being made when the loop stops between two runs goes on outside it, where anyio fails
        # ("no running event loop"; the app's loop never stops)
        await wait_until(lambda: not win.welcome.visible())
        await wait_until(lambda: win.status.state == "ok")

    qloop.run(found_and_checked())
    assert win.settings["base_url"] == server.base_url
    assert json.loads((win.data_dir / "settings.json").read_text())["base_url"] == server.base_url
    # The address in the settings was replaced: said where it stays (a status-bar line went in seconds)
    assert win.notice_bar.isVisible()
    assert win.notice_label.text() == (f"Your server at {mine} did not answer, so tinyRAG now uses Test server at "
                                       f"{server.base_url}. To go back, change Server URL in Settings.")
    server.queue(Stream(tokens("Hello.")))
    assert qloop.run(ask_and_wait(win, "Hi")) == "done" and win.view.isVisible()


def test_enter_a_server_address_opens_the_settings(make_window, qloop):
    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(win.welcome.visible))
    win.welcome.panel.settings_button.click()
    dialog = win.findChild(QDialog, "settingsDialog")
    assert dialog is not None and dialog.isVisible()


def test_asking_anyway_shows_the_inline_error_instead(make_window, qloop):
    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(win.welcome.visible))
    assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
    assert not win.welcome.visible() and win.view.answers()[-1].error


def test_a_server_found_is_used_even_when_the_settings_cannot_be_saved(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    (data / "settings.json").mkdir(parents=True)  # something in its place: saving fails
    found = Found(server.base_url, "scripted", "Test server")
    win = make_window(f"http://127.0.0.1:{free_port()}/v1", data_dir=data,
                      probe=lambda: _result(found))
    qloop.run(wait_until(win.welcome.visible))
    win.welcome.panel.retry_button.click()
    qloop.run(wait_until(lambda: not win.welcome.visible()))
    assert win.settings["base_url"] == server.base_url  # used now
    assert win.notice_bar.isVisible() and "could not be saved" in win.notice_label.text()
    assert (data / "settings.json").is_dir()
    qloop.run(wait_until(lambda: win.status.state == "ok"))
    server.queue(Stream(tokens("Hello.")))
    assert qloop.run(ask_and_wait(win, "Hi")) == "done"


async def _result(found: Found) -> ProbeResult:
    return ProbeResult(found, ())


def test_the_panel_fits_beside_the_knowledge_panel_without_scrolling_sideways(make_window, qloop):
    # The knowledge panel docked beside it leaves the chat about 360 pixels: the title did not wrap, so
    # the panel scrolled sideways with its title cut off ("Let’s connect a language mod").
    from PySide6.QtWidgets import QDockWidget, QScrollArea

    async def probe():
        return ProbeResult(None, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe)
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    scroll = panel.findChild(QScrollArea)
    win.findChild(QDockWidget, "kbDock").show()
    qloop.run(wait_until(lambda: panel.width() < 420))
    qloop.run(wait_until(lambda: not scroll.horizontalScrollBar().isVisible()))
    assert panel.title.width() <= scroll.viewport().width()
    assert panel.settings_button.geometry().right() <= scroll.viewport().width()


def test_the_buttons_go_one_above_another_where_a_row_does_not_fit(qtbot):
    from tinyrag_desktop.ui.welcome_panel import WelcomePanel

    panel = WelcomePanel(start_builtin=lambda: None)
    qtbot.add_widget(panel)
    panel.resize(900, 600)
    panel.show()
    qtbot.waitUntil(lambda: panel.builtin_button.isVisible())
    qtbot.waitUntil(lambda: panel.retry_button.y() == panel.builtin_button.y() == panel.settings_button.y())
    panel.resize(380, 600)
    qtbot.waitUntil(lambda: panel.retry_button.y() < panel.builtin_button.y() < panel.settings_button.y())
    assert panel.settings_button.geometry().right() < 380
    panel.resize(900, 600)
    qtbot.waitUntil(lambda: panel.retry_button.y() == panel.settings_button.y())


def test_try_again_finds_the_server_in_the_settings_and_keeps_it(make_window, qloop, tmp_path):
    # The address entered by hand ("Enter a server address…", or a server on another port or computer)
    # was never tried: started since, it still got "Still no model server", with a list of the usual ports
    # only; and an Ollama that happened to run on its usual port replaced it in the settings.
    port = free_port()
    mine = f"http://127.0.0.1:{port}/v1"
    other = Found("http://127.0.0.1:11434/v1", "llama3.2", "Ollama")

    async def probe():
        return ProbeResult(other, (Attempt("Ollama", other.base_url, True, "lists 1 chat model(s)", ("llama3.2",)),))

    save_settings(tmp_path / "data", defaults().replace(base_url=mine, chat_model="other-model"))  # saved by hand
    win = make_window(mine, probe=probe, chat_model="other-model")
    qloop.run(wait_until(win.welcome.visible))

    async def try_again():  # in one run of the loop: the check that follows must not start between two
        win.welcome.panel.retry_button.click()
        await wait_until(lambda: not win.welcome.visible())
        await wait_until(lambda: win.status.state == "ok")

    with ScriptedLLMServer(models=("scripted", "other-model"), port=port):
        qloop.run(try_again())
    assert win.settings["base_url"] == mine and win.settings["chat_model"] == "other-model"
    assert json.loads((win.data_dir / "settings.json").read_text())["base_url"] == mine


def test_try_again_says_the_server_in_the_settings_was_tried_first(make_window, qloop):
    async def probe():
        return ProbeResult(None, (Attempt("Ollama", "http://127.0.0.1:11434/v1", False, "nothing answers there"),))

    mine = f"http://127.0.0.1:{free_port()}/v1"
    win = make_window(mine, probe=probe)
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    panel.retry_button.click()
    qloop.run(wait_until(lambda: "Ollama" in panel.status.text()))
    text = panel.status.text()
    assert f"Your server ({mine}): nothing answers there" in text and text.index(mine) < text.index("Ollama")
    assert win.settings["base_url"] == mine


@pytest.fixture
def default_address(monkeypatch) -> str:
    """The default server address, moved to a port where nothing listens: a developer's own Ollama on its
    usual port answered these tests' window, which then never showed the welcome panel."""
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui import welcome

    usual = f"http://127.0.0.1:{free_port()}/v1"
    monkeypatch.setattr(welcome, "defaults", lambda: defaults().replace(base_url=usual))
    return usual


def test_try_again_names_the_default_address_as_ollamas_not_as_the_users_server(make_window, qloop,
                                                                                default_address):
    # "Your server (http://127.0.0.1:11434/v1): nothing is listening" to a user who never entered a server
    async def probe():
        return ProbeResult(None, (Attempt("LM Studio", "http://127.0.0.1:1234/v1", False, "nothing answers there"),))

    usual = default_address
    win = make_window(usual, probe=probe)
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    panel.retry_button.click()
    qloop.run(wait_until(lambda: "LM Studio" in panel.status.text()))
    assert f"Ollama’s usual address ({usual}): nothing answers there" in panel.status.text()
    assert "Your server" not in panel.status.text()


def test_a_server_found_in_place_of_the_default_address_needs_no_notice(make_window, server, qloop,
                                                                         default_address):
    # On a first start the settings hold the default address, which nobody chose: nothing was replaced.
    async def probe():
        return ProbeResult(Found(server.base_url, "scripted", "Test server"), ())

    win = make_window(default_address, probe=probe)
    qloop.run(wait_until(win.welcome.visible))

    async def found_and_checked():
        win.welcome.panel.retry_button.click()
        await wait_until(lambda: not win.welcome.visible())
        await wait_until(lambda: win.status.state == "ok")

    qloop.run(found_and_checked())
    assert win.settings["base_url"] == server.base_url and not win.notice_bar.isVisible()


def test_the_user_guide_added_on_first_start_is_said_in_the_notice_bar(make_window, server, qloop):
    from tinyrag_desktop.ui.welcome import GUIDE_ADDED

    win = make_window(server.base_url)
    qloop.run(win.welcome._import_guide())
    assert win.notice_bar.isVisible() and win.notice_bar.label.text() == GUIDE_ADDED
    assert GUIDE_ADDED.startswith("The tinyRAG user guide was added to your knowledge base (View → Knowledge base)")
    win.notice_bar.hide()
    qloop.run(win.welcome._import_guide())  # imported once: said once
    assert not win.notice_bar.isVisible()


def test_a_first_start_that_finds_a_server_says_it_and_that_the_guide_was_added(make_window, server, qloop):
    # "Found Ollama at … with the model llama3.2." replaced "The tinyRAG user guide was added …" in the status
    # bar as the two ended together: the guide's was never seen.
    import asyncio

    from tinyrag_desktop.ui.welcome import GUIDE_ADDED

    found = Found(server.base_url, "scripted", "Ollama")

    async def probe():
        return ProbeResult(found, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe)

    async def first_start():
        await asyncio.gather(win.welcome._import_guide(), win.welcome._first_probe())
        await wait_until(lambda: win.status.state == "ok")

    qloop.run(first_start())
    assert win.statusBar().currentMessage() == f"Found Ollama at {server.base_url} with the model scripted."
    assert win.notice_bar.isVisible() and GUIDE_ADDED in win.notice_bar.label.text().split("\n")


def test_the_buttons_are_in_sight_at_800_by_600_on_a_first_start(make_window, qloop):
    """First start, no server, an 800×600 window: the guide's notice and the built-in model's install
    commands pushed "Try again" and "Enter a server address…" below the visible part of the panel."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QScrollArea

    from tinyrag_desktop.localmodel import LocalModelStatus
    from tinyrag_desktop.ui.welcome import GUIDE_ADDED, add_notice, builtin_needs

    note = builtin_needs(LocalModelStatus(False, "", None, None), python="/work/main/.venv/bin/python",
                         frozen=False)  # nothing installed: the longest note

    async def probe():
        return ProbeResult(None, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe)
    qloop.run(wait_until(win.welcome.visible))
    add_notice(win, GUIDE_ADDED)
    panel = win.welcome.panel
    panel.set_builtin_available(False, note)
    win.resize(800, 600)
    scroll = panel.findChild(QScrollArea)
    qloop.run(wait_until(lambda: win.width() == 800 and win.height() == 600))
    qloop.run(wait_until(lambda: scroll.viewport().height() < 500))
    view = scroll.viewport()
    for button in (panel.retry_button, panel.settings_button):
        seen = QRect(button.mapTo(view, button.rect().topLeft()), button.size())
        assert view.rect().contains(seen), (button.text(), seen, view.rect())
    assert scroll.verticalScrollBar().value() == 0
    # the install commands are there, a click away
    assert not panel.builtin_label.isVisible() and panel.builtin_more.isVisible()
    panel.builtin_more.click()
    qloop.run(wait_until(panel.builtin_label.isVisible))
    assert "pip install" in panel.builtin_label.text()


def test_an_address_saved_from_the_welcome_page_is_asked_at_once_and_said(make_window, qloop):
    """Enter a server address… → an address where nothing listens → Save: the page said nothing of it (still
    "No model server has answered yet…") until Try again was pressed."""
    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    panel.settings_button.click()
    dialog = win.findChild(QDialog, "settingsDialog")
    dead = f"http://127.0.0.1:{free_port()}/v1"
    dialog.field("base_url").setText(dead)
    dialog.save_button.click()
    qloop.run(wait_until(lambda: "did not answer" in panel.status.text()))
    said = panel.status.text()
    assert said.startswith("Asked just now, and the address you saved did not answer. ") and dead in said, said
    assert panel.status.isVisible() and win.welcome.visible()


def test_the_error_after_a_first_question_with_no_server_opens_the_settings(make_window, qloop):
    """After the first question failed with no server, the card offered only Retry, and the welcome page
    with its "Enter a server address…" had gone: the card has a button to Settings when its words name a setting."""
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(win.welcome.visible))
    assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
    answer = win.view.answers()[-1]
    assert "Server URL in Settings" in answer.error and answer.settings_button.isVisible()
    answer.settings_button.click()
    dialog = win.findChild(SettingsDialog, "settingsDialog")
    assert dialog is not None and dialog.isVisible()
    assert dialog._tabs.tabText(dialog._tabs.currentIndex()).replace("&", "") == "Model"
    dialog.reject()


def test_the_no_server_error_offers_the_welcome_pages_help_in_its_words(make_window, qloop, qtbot):
    """After a first question with no server, the error had "Open Settings" and Retry only: the ways to start a
    server and the built-in model were gone with the welcome page, and its "Enter a server address…" read
    "Open Settings" in the error. The error leads back to the page, which leads back to the chat."""
    from PySide6.QtWidgets import QApplication

    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    assert not panel.back_button.isVisible()  # nothing to go back to before a question
    assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
    answer = win.view.answers()[-1]
    assert answer.settings_button.text() == panel.settings_button.text() == "Enter a server address…"
    assert answer.help_button.isVisible() and answer.help_button.text() == "How to start a server…"
    answer.help_button.click()
    assert win.welcome.visible() and panel.findChild(QLabel, "welcomeHowLMStudio").isVisible()
    assert QApplication.focusWidget() is panel.retry_button and panel.back_button.isVisible()
    panel.back_button.click()
    assert not win.welcome.visible() and win.view.answers()[-1] is answer and answer.retry_button.isVisible()
    answer.fail("The server failed (500): out of memory.")  # a server that answers: no help, the usual words
    assert not answer.help_button.isVisible() and answer.settings_button.text() == "Open Settings"


def test_a_new_chat_from_the_help_over_a_chat_leaves_no_way_back_to_that_chat(make_window, qloop):
    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(win.welcome.visible))
    assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
    win.view.answers()[-1].help_button.click()
    panel = win.welcome.panel
    assert win.welcome.visible() and panel.back_button.isVisible()
    win.new_chat()  # Ctrl+N on the page: the page stays (no server), over no chat now
    assert win.welcome.visible() and not panel.back_button.isVisible()


def test_the_open_settings_button_goes_to_the_tab_the_error_names_and_only_then(qtbot):
    from tinyrag_desktop.tool_words import settings_tab
    from tinyrag_desktop.ui.answer import AnswerWidget

    assert settings_tab("It may still be loading; raise the First-token timeout in Settings → Limits.") == "Limits"
    assert settings_tab("Context to use in Settings → Limits is 1,536 tokens (or pass --context-tokens)") == "Limits"
    assert settings_tab("The API key is missing or wrong. Set it in Settings (or pass --api-key).") == "Model"
    assert settings_tab("The server failed (500): out of memory.") is None
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.show()
    answer.fail("The server failed (500): out of memory.")
    assert answer.retry_button.isVisible() and not answer.settings_button.isVisible()
    with qtbot.waitSignal(answer.settingsRequested) as asked:
        answer.fail("The model took too long. Raise the First-token timeout in Settings → Limits.")
        assert answer.settings_button.isVisible()
        answer.settings_button.click()
    assert asked.args == ["Limits"]


def test_a_start_after_an_upgrade_puts_the_new_guide_in_place_of_the_old(make_window, server, qloop, tmp_path):
    # The guide was imported at the first start of an older version, from its install folder, and stayed
    # there through upgrades (3 of its 4 pages said other things than the guide shipped now).
    import shutil

    from tinyrag_desktop import kb
    from tinyrag_desktop.firstrun import GUIDE_MARKER, guide_files

    shipped = guide_files()
    old = tmp_path / "old-install" / "guide"
    shutil.copytree(shipped[0].parent, old)
    for page in sorted(old.glob("*.md"))[:3]:
        page.write_text(page.read_text(encoding="utf-8") + "\nOLDWORDING\n", encoding="utf-8")
    data = tmp_path / "data"
    with kb.open_store(data) as store:
        assert not kb.Importer(store).run([str(f) for f in guide_files(old)]).failed
        titles = sorted(s.title for s in store.sources())
    (data / GUIDE_MARKER).write_text("".join(f"{f}\n" for f in guide_files(old)), encoding="utf-8")

    def guide_now():
        with kb.open_store(data) as store:
            return sorted((s.title, str(Path(s.location).parent)) for s in store.sources())

    win = make_window(server.base_url, data_dir=data)
    new_folder = str(Path(shipped[0]).parent.resolve())
    qloop.run(wait_until(lambda: guide_now() == [(title, new_folder) for title in titles], timeout=20))
    assert not kb.search(data, "OLDWORDING", k=3)
    assert not win.notice_bar.isVisible()  # quietly: the log says it


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_panel_lines_up_with_the_message_box_and_try_again_is_the_blue_button(make_window, qloop, theme):
    # Its left edge was 16 px left of the message box's; Try again and "Enter a server address…" were plain
    # grey buttons beside the app's blue ones, and in dark the second one's outline was nearly invisible.
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QPalette

    from .test_focus import contrast

    async def probe():
        return ProbeResult(None, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe, theme=theme)
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    box = win.composer.parentWidget()
    for width in (1200, 800):
        win.resize(width, 700)
        qloop.run(wait_until(lambda: win.width() == width and panel.title.isVisible()))
        qloop.run(wait_until(lambda: panel.title.mapTo(win, QPoint(0, 0)).x() == box.mapTo(win, QPoint(0, 0)).x(),
                             timeout=2))
    retry, other = panel.retry_button.grab().toImage(), panel.settings_button.grab().toImage()
    send = win.send_button.grab().toImage()
    fill = retry.pixelColor(4, retry.height() // 2)
    assert fill == send.pixelColor(4, send.height() // 2), (fill.name(), send.pixelColor(4, send.height() // 2).name())
    assert contrast(QColor("white"), fill) >= 4.5
    background = panel.palette().color(QPalette.ColorRole.Window)
    edge = max(contrast(other.pixelColor(x, other.height() // 2), background) for x in range(3))
    assert edge >= 3, edge  # the outline shows (WCAG's 3:1 for a control's boundary)


def test_a_server_found_at_start_is_saved_alone_not_this_runs_key_nor_over_a_hand_edit(make_window, server, qloop,
                                                                                        tmp_path):
    # The window's settings were written whole: this run's TINYRAG_API_KEY (or --api-key) went into
    # settings.json, and a value edited there by hand since the window opened was put back.
    data = tmp_path / "data"
    save_settings(data, defaults())
    found = Found(server.base_url, "scripted", "Test server")
    win = make_window(f"http://127.0.0.1:{free_port()}/v1", data_dir=data, probe=lambda: _result(found),
                      api_key="sk-from-the-environment", chat_model="")
    qloop.run(wait_until(win.welcome.visible))
    on_disk = json.loads((data / "settings.json").read_text(encoding="utf-8"))
    (data / "settings.json").write_text(json.dumps({**on_disk, "temperature": 0.2}), encoding="utf-8")
    win.welcome.panel.retry_button.click()
    qloop.run(wait_until(lambda: not win.welcome.visible()))
    settings, warnings = load_settings(data)
    assert not warnings
    assert (settings["base_url"], settings["chat_model"]) == (server.base_url, "scripted")
    assert settings["api_key"] == "" and settings["temperature"] == 0.2
    assert win.settings["api_key"] == "sk-from-the-environment"  # still used in this run


def test_the_panel_points_to_the_servers_below_it_as_these(qtbot):
    # "Start one of those below": the servers are listed just under the sentence
    from tinyrag_desktop.ui.welcome_panel import WelcomePanel

    panel = WelcomePanel(start_builtin=lambda: None)
    qtbot.add_widget(panel)
    assert "Start one of these below, then press <b>Try again</b>" in panel.intro.text()
