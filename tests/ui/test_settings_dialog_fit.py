"""The settings dialog as the window opens it: reasons under fields fit, Test connection checks the model."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QLineEdit, QTabWidget

from .conftest import keep_picture

_LIMITS = ("max_tools_total", "max_tools_per_round", "max_continuations", "tool_timeout", "connect_timeout",
           "first_token_timeout", "result_max_chars")


def _squeezed(dialog) -> list[str]:
    """Visible wrapped labels shorter than their lines, and boxes shorter than their text."""
    out = [f"{label.text()[:40]!r}: {label.height()} < {label.heightForWidth(label.width())}"
           for label in dialog.findChildren(QLabel)
           if label.isVisible() and label.wordWrap() and label.text()
           and label.height() < label.heightForWidth(label.width())]
    out += [f"{edit.objectName()}: {edit.height()} < {edit.minimumSizeHint().height()}"
            for edit in dialog.findChildren(QLineEdit)
            if edit.isVisible() and edit.height() < edit.minimumSizeHint().height()]
    return out


def test_reasons_under_every_limit_fit_and_no_field_is_squeezed(make_window, server, qtbot):
    # The dialog kept the height it opened with: seven reasons at once were drawn over the fields below
    # them, the boxes were squeezed until "-5" was cut, and the last reason lost its second line.
    win = make_window(server.base_url)
    dialog = win.open_settings()
    qtbot.waitExposed(dialog)
    dialog.findChild(QTabWidget).setCurrentIndex(2)  # Limits
    for name in _LIMITS:
        dialog.field(name).setText("-5")
    qtbot.waitUntil(lambda: all(dialog._fields[n].error.isVisible() for n in _LIMITS))
    qtbot.waitUntil(lambda: not _squeezed(dialog), timeout=2000)
    dialog.findChild(QTabWidget).setCurrentIndex(0)  # Model: a bad address's reason takes two lines
    dialog.field("base_url").setText("localhost:11434")
    qtbot.waitUntil(lambda: not _squeezed(dialog), timeout=2000)
    dialog.reject()


def test_test_connection_says_when_the_chat_model_is_not_on_the_server(make_window, server, qloop, qtbot):
    # It said "Connected. 2 chat models: scripted, other-model" beside "llama3-wrong": Save, and every
    # question failed with "The server has no model called …".
    win = make_window(server.base_url, chat_model="llama3-wrong")
    dialog = win.open_settings()
    qloop.run(dialog.test_connection())
    said = dialog.test_result.text()
    assert "no model called “llama3-wrong”" in said and "scripted, other-model" in said
    assert dialog.test_result.property("failed") is True
    assert dialog.field("chat_model").currentText() == "llama3-wrong"  # the user's choice stays until changed
    dialog.field("chat_model").setCurrentText("other-model")
    qloop.run(dialog.test_connection())
    assert dialog.test_result.text().startswith("Connected. 2 chat models")
    assert dialog.test_result.property("failed") is False
    dialog.reject()


def test_test_connection_against_a_server_that_is_down_says_so(make_window, server, qloop):
    from tests.sse_server import free_port

    win = make_window(server.base_url)
    dialog = win.open_settings()
    dialog.field("base_url").setText(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(dialog.test_connection())
    assert dialog.test_result.text().startswith("Could not connect: the model server")  # not ": The model…"
    assert "cannot be reached" in dialog.test_result.text() and dialog.test_result.property("failed") is True
    assert dialog.test_button.isEnabled()
    dialog.reject()


def test_the_limits_are_labelled_in_words_not_field_names():
    from tinyrag_desktop.ui.settings_fields import label_for

    # "Max tools total", "Max continuations": the engine's names, with no word for what they limit
    assert [label_for(n) for n in ("max_tools_total", "max_tools_per_round", "max_continuations", "max_tokens",
                                   "websearch_results")] == [
        "Tool calls per answer", "Tool calls per round", "Rounds after the first", "Longest reply (tokens)",
        "Web search results"]


def test_test_connection_tells_a_server_that_answered_from_one_that_did_not(make_window, server, qloop):
    # "Could not connect: The server … has no such endpoint (404)": it had connected, and the server had
    # answered; only a server that does not answer is one the test could not connect to.
    from http.server import BaseHTTPRequestHandler

    from tests.loopback import serving

    class Answers(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            code, body = {"/missing/models": (404, b"404 page not found"),
                          "/locked/models": (401, b'{"error": {"message": "Invalid API key"}}'),
                          "/web/models": (200, b"<html><body>Welcome to nginx</body></html>")}[self.path]
            self.send_response(code)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    win = make_window(server.base_url)
    dialog = win.open_settings()
    with serving(Answers) as root:
        for path, words in (("missing", "found nothing at that address (404)"), ("locked", "refused the request (401)"),
                            ("web", "did not answer /models as an OpenAI-compatible server does")):
            dialog.field("base_url").setText(f"{root}/{path}")
            qloop.run(dialog.test_connection())
            said = dialog.test_result.text()
            assert said.startswith("Connected, but the ") and words in said, said
            assert dialog.test_result.property("failed") is True
    dialog.reject()


def test_a_test_result_goes_when_the_address_key_or_model_it_was_about_changes(make_window, server, qloop):
    # "no model called “llama3-wrong”" stayed in red after the user chose a model the server has.
    win = make_window(server.base_url, chat_model="llama3-wrong")
    dialog = win.open_settings()
    qloop.run(dialog.test_connection())
    assert dialog.test_result.isVisible() and dialog.test_result.property("failed") is True
    dialog.field("chat_model").setCurrentText("scripted")
    assert not dialog.test_result.isVisible()
    qloop.run(dialog.test_connection())
    assert dialog.test_result.isVisible() and dialog.test_result.property("failed") is False
    dialog.field("base_url").setText(server.base_url + "/")
    assert not dialog.test_result.isVisible()
    dialog.reject()


def test_remove_is_greyed_out_for_the_last_persona(qtbot):
    # Clicked with one persona left, it did nothing and said nothing.
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    remove = dialog.remove_persona_button
    count = dialog.persona_list.count()
    assert count > 1 and remove.isEnabled()
    for _ in range(count - 1):
        dialog.persona_list.setCurrentRow(0)
        remove.click()
    assert dialog.persona_list.count() == 1 and not remove.isEnabled()
    assert "at least one" in remove.toolTip()


def test_a_reason_names_the_field_without_its_unit(qtbot):
    # "Tool timeout (s) must be at least 0.1, not -1.": the unit in brackets read as part of the sentence.
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    for name, typed, reason in (("tool_timeout", "-1", "Tool timeout must be at least 0.1, not -1."),
                                ("chunk_size", "abc", "Chunk size must be a number, not “abc”."),
                                ("nanogo_memory_mb", "", "nanoGo memory needs a value.")):
        dialog.field(name).setText(typed)
        assert dialog._fields[name].validate() == reason


def test_no_label_loses_the_edge_of_its_last_letter(qtbot):
    # "Tool calls per answer" was drawn 125 pixels wide, its text's ink 126: the "r" was cut
    import math

    from PySide6.QtGui import QFontMetricsF
    from PySide6.QtWidgets import QApplication

    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    dialog.show()
    for index in range(dialog._tabs.count()):
        dialog._tabs.setCurrentIndex(index)
        QApplication.processEvents()  # laid out
    for name, label in dialog._labels.items():
        ink = QFontMetricsF(label.font()).tightBoundingRect(label.text().replace("&", ""))
        assert label.contentsRect().width() >= math.ceil(ink.right()) + 1, name


def test_a_chat_model_the_server_does_not_list_is_said_under_the_field_before_save(make_window, server, qloop):
    # The models were listed already (the window's check, or Test connection); "nosuch-model" typed over the
    # name was said nowhere until every question failed after Save. Said, and Save is not held back.
    win = make_window(server.base_url)
    qloop.run(win.status._check)
    dialog = win.open_settings()
    model = dialog.field("chat_model")
    model.setCurrentText("nosuch-model")
    warning = dialog.model_warning
    assert warning.isVisible() and warning.text().startswith(
        "The server does not list a model called “nosuch-model”; it has scripted, other-model."), warning.text()
    assert dialog.save_button.isEnabled()  # a server offline now, or still pulling it: its name is kept
    model.setCurrentText("other-model")
    assert not warning.isVisible()
    model.setCurrentText("nosuch-model")
    dialog.field("base_url").setText(f"{server.base_url}/x")  # another server: its models are not known
    assert not warning.isVisible()
    dialog.reject()


def test_fields_start_at_one_place_on_every_tab_and_number_boxes_are_one_width(qtbot):
    # Each tab had its own label column: the fields started 127, 150, 206, 159 and 171 pixels in, and
    # jumped left and right as the tabs changed; the number boxes were 112, 143 and 150 pixels wide.
    from PySide6.QtWidgets import QApplication, QCheckBox

    from tinyrag_desktop.settings import OPTIONS, defaults
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    dialog.show()
    starts: dict[int, str] = {}
    number_widths: dict[int, str] = {}
    for index in range(dialog._tabs.count()):
        dialog._tabs.setCurrentIndex(index)
        QApplication.processEvents()  # laid out
        page = dialog._tabs.widget(index)
        for name, field in dialog._fields.items():
            if dialog._tab_of[name] != index or isinstance(field.widget, QCheckBox):
                continue
            starts.setdefault(field.widget.mapTo(page, field.widget.rect().topLeft()).x(), name)
            if OPTIONS[name].type in (int, float):
                number_widths.setdefault(field.widget.width(), name)
                assert field.widget.width() >= field.widget.fontMetrics().horizontalAdvance(
                    field.widget.placeholderText()), name  # what an empty box means is shown whole
    assert len(starts) == 1, starts
    assert len(number_widths) == 1, number_widths


def _grow_into(dialog, qtbot, width: int, shot: str) -> None:
    """``dialog`` at ``width``: every reason shown whole, and a grab of it to look at."""
    dialog.resize(width, dialog.height())
    qtbot.waitUntil(lambda: not dialog._fit_timer.isActive() and not _squeezed(dialog), timeout=2000)
    keep_picture(dialog, f"{shot}-{width}.png")


def test_reasons_fit_with_every_limit_and_the_context_wrong_at_any_width(make_window, server, qtbot):
    # "-5" in all eight limits: "Context to use must be at least 1536…" (four lines) was cut after one and a
    # half: the form shared its height out by the reasons' one-line heights, not their wrapped ones. A bad
    # SearXNG URL beside other reasons lost its second line the same way.
    win = make_window(server.base_url, network_tools=True, allow_nanogo=True)
    dialog = win.open_settings()
    qtbot.waitExposed(dialog)
    dialog.show_tab("Limits")
    for name in (*_LIMITS, "context_tokens"):
        dialog.field(name).setText("-5")
    for width in (560, 720, 640):
        _grow_into(dialog, qtbot, width, "limits")
    dialog.show_tab("Tools")
    for name, typed in (("searxng_url", "searx.local:8888:x"), ("websearch_results", "0"),
                        ("nanogo_memory_mb", "10")):
        dialog.field(name).setText(typed)
    for width in (560, 800, 600):
        _grow_into(dialog, qtbot, width, "tools")
    dialog.reject()


def test_on_a_low_screen_the_dialog_widens_rather_than_cutting_the_reasons(make_window, server, qtbot, monkeypatch):
    # 1024×560 free: eight reasons at 560 pixels wide need more height than there is. Cut to the screen's
    # height, the form squeezed them; wider, each takes fewer lines, and all of them fit.
    from PySide6.QtCore import QRect

    from tinyrag_desktop.ui import settings_dialog

    monkeypatch.setattr(settings_dialog, "free_area", lambda _widget=None: QRect(0, 0, 1024, 560))
    win = make_window(server.base_url)
    dialog = win.open_settings()
    qtbot.waitExposed(dialog)
    dialog.show_tab("Limits")
    for name in (*_LIMITS, "context_tokens"):
        dialog.field(name).setText("-5")
    qtbot.waitUntil(lambda: dialog.width() > 560 and dialog.height() <= 560 - 48 and not _squeezed(dialog),
                    timeout=2000)
    keep_picture(dialog, "low-screen.png")
    dialog.reject()
