"""The settings dialog's fields parse whatever is typed into a value or a reason, never a crash."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QComboBox
from hypothesis import HealthCheck, example, given, settings, strategies as st

from tinyrag_desktop.settings import OPTIONS, SettingsError, defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog

_TEXT_FIELDS = [name for name, opt in OPTIONS.items() if opt.type in (int, float, str) and not opt.choices
                and name not in ("chat_model", "embed_model")]


@pytest.fixture
def dialog(qtbot):
    d = SettingsDialog(defaults())
    qtbot.addWidget(d)
    return d


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(_TEXT_FIELDS), text=st.text(max_size=40))
@example(name="local_model", text="\x00")  # "ValueError: embedded null byte" from the GGUF check's open()
def test_any_typed_text_gives_a_valid_value_or_a_reason(dialog, name, text):
    field = dialog._fields[name]
    put = field.widget.setCurrentText if isinstance(field.widget, QComboBox) else field.widget.setText
    put(text)
    try:
        value = field.value()
    except SettingsError as exc:
        assert str(exc) and dialog.revalidate() and not dialog.save_button.isEnabled()
        return
    assert OPTIONS[name].check(value) == value  # what the dialog accepts, the schema accepts
    put(str(defaults()[name]))


def test_defaults_are_valid_and_save_is_enabled(dialog):
    assert dialog.revalidate() == [] and dialog.save_button.isEnabled()
    assert dialog.values() == defaults()


def test_numbers_accept_a_decimal_comma_and_refuse_fractions_for_counts(dialog):
    dialog.field("tool_timeout").setText("12,5")
    assert dialog.values()["tool_timeout"] == 12.5
    dialog.field("k").setText("2.5")
    assert any("whole number" in p for p in dialog.revalidate())


def test_a_text_pasted_into_a_number_field_is_not_quoted_whole(dialog):
    field = dialog._fields["temperature"]
    field.widget.setText("pasted " * 4000)
    reason = field.validate() or ""
    assert reason.startswith("Temperature must be a number, not “pasted") and len(reason) < 200, reason[:200]
    assert "(27,999 characters)" in reason  # stripped: the last space goes


def test_infinity_and_nan_are_refused_with_a_reason(dialog):
    for text in ("inf", "Infinity", "nan", "-inf"):
        field = dialog._fields["max_continuations"]
        field.widget.setText(text)
        assert "finite number" in (field.validate() or "")


def test_fields_a_switch_turns_off_are_greyed_and_warnings_show_only_when_on(dialog):
    network = dialog.field("network_tools")
    network.setChecked(True)
    assert dialog.field("searxng_url").isEnabled() and dialog._labels["searxng_url"].isEnabled()
    network.setChecked(False)
    for name in ("searxng_url", "websearch_results", "url_fetch_allow_private"):
        assert not dialog.field(name).isEnabled()
    assert not dialog._labels["searxng_url"].isEnabled()
    assert dialog.values()["searxng_url"] == defaults()["searxng_url"]  # greyed, not cleared

    shell = dialog.field("allow_shell_exec")
    warning = next(w for w in dialog.findChildren(type(dialog.problem), "fieldWarning")
                   if "run commands" in w.text())
    shell.setChecked(False)
    assert warning.isHidden()
    shell.setChecked(True)
    assert not warning.isHidden()
    assert dialog.test_result.isHidden()  # no empty gap under the model field before a test


def test_number_fields_are_short_and_say_their_range(dialog):
    dialog.show()
    k, url = dialog.field("k"), dialog.field("base_url")
    assert k.maximumWidth() < url.width() / 2  # a count is not given the whole row a URL needs
    assert k.toolTip().endswith("(from 1 to 50)")
    assert dialog.field("temperature").toolTip().endswith("(from 0 to 2)")
    assert "(from" not in url.toolTip()


def test_a_persona_too_long_is_named_as_its_tab_is(dialog):
    name = dialog.persona_list.currentItem().text()
    dialog.persona_prompt.setPlainText("x" * 100_001)
    dialog._on_save()
    assert dialog.result() == 0 and not dialog.problem.isHidden()
    assert dialog.problem_text.startswith(f"Personas: “{name}” is 100,001 characters long")


def test_a_reason_under_a_field_is_shown_whole_beside_a_long_model_name(qtbot):
    long_model = "hf.co/bartowski/Meta-Llama-3.1-70B-Instruct-abliterated-GGUF:Q4_K_M-imatrix-experimental-v2"
    dialog = SettingsDialog(defaults().replace(chat_model=long_model))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.field("base_url").setText("nonsense")
    dialog.field("temperature").setText("abc")
    for name in ("base_url", "temperature"):
        error = dialog._fields[name].error
        # Its whole text fits: as tall as its wrapped lines need at the width it was given, never cut to one.
        qtbot.waitUntil(lambda error=error: error.isVisible()
                        and error.height() >= error.heightForWidth(error.width()))
    # A short number box does not make its reason as narrow as itself.
    assert dialog._fields["temperature"].error.width() > dialog.field("temperature").width()


def _typed_name(monkeypatch, name: str) -> None:
    from PySide6.QtWidgets import QInputDialog

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: (name, True)))


def test_a_persona_name_already_taken_or_too_long_is_refused_in_words(dialog, monkeypatch):
    names = [dialog.persona_list.item(i).text() for i in range(dialog.persona_list.count())]
    dialog.persona_list.setCurrentRow(0)
    _typed_name(monkeypatch, f"  {names[1]} ")
    dialog._add_persona()  # it did nothing, and said nothing
    assert [dialog.persona_list.item(i).text() for i in range(dialog.persona_list.count())] == names
    assert dialog.persona_list.currentItem().text() == names[1]
    note = dialog.persona_note
    assert not note.isHidden() and f"already a persona called “{names[1]}”" in note.text()
    _typed_name(monkeypatch, "n" * 201)
    dialog._add_persona()  # it was added, and Save refused it later
    assert dialog.persona_list.count() == len(names) and "at most 200 characters" in dialog.persona_note.text()
    _typed_name(monkeypatch, "Pirate")
    dialog._add_persona()
    assert dialog.persona_list.currentItem().text() == "Pirate" and dialog.persona_note.isHidden()
    assert "Pirate" in dialog.values()["personas"]


def test_personas_renamed_twice_or_swapped_are_reported_from_their_saved_names(dialog, monkeypatch):
    renamed = []
    dialog.personasRenamed.connect(renamed.append)

    def rename(row: int, name: str) -> None:
        dialog.persona_list.setCurrentRow(row)
        _typed_name(monkeypatch, name)
        dialog._rename_persona()

    rename(1, "Spare")      # Concise -> Spare
    rename(2, "Concise")    # Teacher -> Concise
    rename(1, "Teacher")    # Spare -> Teacher: the two have swapped names
    prompt = dialog.values()["personas"]["Teacher"]
    dialog._on_save()
    assert renamed == [{"Concise": "Teacher", "Teacher": "Concise"}]
    assert prompt == defaults()["personas"]["Concise"]


def test_closing_the_dialog_during_a_connection_test_ends_the_test(qloop, qtbot):
    import asyncio

    from PySide6.QtCore import QCoreApplication, QEvent

    answer = asyncio.Event()

    async def slow_server(url: str, key: str) -> list[str]:
        await answer.wait()
        raise RuntimeError("no server")  # it answers only after the dialog is gone

    dialog = SettingsDialog(defaults(), slow_server)
    dialog.open()
    task = dialog.test_connection()
    qloop.run(asyncio.sleep(0.01))
    dialog.reject()
    dialog.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    answer.set()
    qloop.run(asyncio.wait([task]))
    # It wrote its result into the deleted dialog: RuntimeError "Internal C++ object already deleted".
    assert task.cancelled()


def test_a_failed_connection_test_is_in_the_error_colour_and_a_good_one_is_not(qloop, qtbot):
    from tinyrag_desktop.ui.theme import style_sheet

    async def no_server(url: str, key: str) -> list[str]:
        raise RuntimeError("The model server cannot be reached.")

    async def a_server(url: str, key: str) -> list[str]:
        return ["llama3.2"]

    colours = {}
    for name, list_models in (("failed", no_server), ("ok", a_server)):
        dialog = SettingsDialog(defaults(), list_models)
        qtbot.addWidget(dialog)
        dialog.setStyleSheet(style_sheet(False))
        dialog.show()
        qloop.run(dialog.test_connection())
        label = dialog.test_result
        colours[name] = label.palette().color(label.foregroundRole()).name()
    assert colours["failed"] == "#b91c1c" and colours["ok"] != colours["failed"]  # light.qss's @errortext


def test_test_connection_leaves_embedding_models_out_of_the_chat_model_list(qloop, qtbot):
    from tinyrag_desktop.firstrun import chat_models

    listed = ["llama3.2", "nomic-embed-text", "qwen2.5:7b", "mxbai-embed-large", "bge-m3"]

    async def a_server(url: str, key: str) -> list[str]:
        return listed

    dialog = SettingsDialog(defaults(), a_server)
    qtbot.addWidget(dialog)
    qloop.run(dialog.test_connection())
    # The first run's rule, not a copy of it: the same names are chat models here and there.
    assert dialog.models() == chat_models({"data": [{"id": n} for n in listed]})[0] == ["llama3.2", "qwen2.5:7b"]
    assert dialog.field("chat_model").currentText() == ""  # listed, none chosen: the server default stays
    embed = dialog.field("embed_model")
    assert [embed.itemText(i) for i in range(embed.count())][:3] == ["nomic-embed-text", "mxbai-embed-large",
                                                                     "bge-m3"]
    assert dialog.test_result.text() == ("Connected. 2 chat models: llama3.2, qwen2.5:7b (and 3 embedding models: "
                                         "nomic-embed-text, mxbai-embed-large, bge-m3)")


def test_a_server_with_only_embedding_models_says_there_is_none_to_chat_with(qloop, qtbot):
    async def a_server(url: str, key: str) -> list[str]:
        return ["nomic-embed-text"]

    dialog = SettingsDialog(defaults(), a_server)
    qtbot.addWidget(dialog)
    qloop.run(dialog.test_connection())
    assert dialog.models() == [] and dialog.field("chat_model").currentText() == ""
    assert "only embedding models (nomic-embed-text)" in dialog.test_result.text()
    assert dialog.test_result.property("failed") is True


def test_a_long_model_name_shows_its_start_not_its_end(qloop, qtbot):
    long_model = "hf.co/bartowski/Meta-Llama-3.1-70B-Instruct-abliterated-GGUF:Q4_K_M-imatrix-experimental-v2"
    other = "hf.co/bartowski/Qwen2.5-Coder-32B-Instruct-GGUF:Q5_K_M-imatrix-experimental-v3"

    async def a_server(url: str, key: str) -> list[str]:
        return [other, long_model]

    dialog = SettingsDialog(defaults().replace(chat_model=long_model), a_server)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    edit = dialog.field("chat_model").lineEdit()

    def start_shows() -> bool:
        # The first letter is at the box's left edge: the text is not scrolled to its end.
        return edit.cursorPosition() == 0 and edit.cursorRect().left() < edit.width() // 4

    assert edit.fontMetrics().horizontalAdvance(long_model) > edit.width()  # too long to show whole
    assert start_shows()
    qloop.run(dialog.test_connection())  # the list is filled again, the name kept
    assert edit.text() == long_model and start_shows()
    dialog.field("chat_model").setCurrentIndex(0)  # chosen from the list
    assert edit.text() == other and start_shows()


def test_a_server_url_with_a_space_in_the_middle_is_refused_in_the_dialog_in_words(qtbot) -> None:
    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    dialog.field("base_url").setText("http://127.0.0.1:11434/v1 /x")
    assert not dialog.save_button.isEnabled()  # it was taken, and failed later as "cannot be reached"
    assert dialog._fields["base_url"].validate() == (
        "Server URL has a space in it, and an address has none: “http://127.0.0.1:11434/v1 /x”. Remove it (a "
        "space that belongs in the address is written %20).")
    assert dialog.problem_text == "Cannot save yet: see the reason under Server URL."
    dialog.field("base_url").setText("  http://127.0.0.1:11434/v1 ")  # around it, a space is only trimmed
    assert dialog.save_button.isEnabled()


def test_the_built_in_model_file_has_a_browse_button_that_fills_the_field(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog, QPushButton

    old = tmp_path / "old" / "SmolLM2-135M.gguf"
    old.parent.mkdir()
    chosen = tmp_path / "models" / "qwen2.5-0.5b-instruct-q4_k_m.gguf"
    chosen.parent.mkdir()
    chosen.write_bytes(b"GGUF\x03\x00\x00\x00")  # a GGUF file's start is all the dialog reads
    asked = []

    def pick(parent, caption, folder, filters):
        asked.append((folder, filters))
        return str(chosen), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(pick))
    dialog = SettingsDialog(defaults().replace(local_model=str(old)))
    qtbot.addWidget(dialog)
    browse = dialog.findChild(QPushButton, "browseLocalModel")
    assert browse is not None and browse.text().replace("&", "") == "Browse…"
    qtbot.mouseClick(browse, Qt.MouseButton.LeftButton)
    assert asked == [(str(old), "GGUF models (*.gguf);;All files (*)")]  # opens where the file is
    assert dialog.field("local_model").text() == str(chosen)
    assert dialog.values()["local_model"] == str(chosen)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: ("", "")))  # cancelled
    qtbot.mouseClick(browse, Qt.MouseButton.LeftButton)
    assert dialog.field("local_model").text() == str(chosen)


def _mnemonic(text: str) -> str:
    """The letter after a single "&" ("" for none)."""
    plain = text.replace("&&", "")
    return plain[plain.index("&") + 1].casefold() if "&" in plain else ""


def test_every_field_and_button_has_its_own_alt_letter_in_its_tab(dialog):
    from PySide6.QtWidgets import QAbstractButton, QLabel, QTabWidget

    tabs = dialog.findChild(QTabWidget)
    for i in range(tabs.count()):
        page = tabs.widget(i)
        labels = [w for w in page.findChildren(QLabel) if w.buddy() is not None]
        buttons = page.findChildren(QAbstractButton)
        letters = [_mnemonic(w.text()) for w in labels + buttons]
        assert all(letters), (tabs.tabText(i), [w.text() for w in labels + buttons])
        assert len(set(letters)) == len(letters), (tabs.tabText(i), letters)
    # The words themselves are unchanged where they are read out or quoted in a reason.
    assert dialog.field("base_url").accessibleName() == "Server URL"
    assert dialog._labels["base_url"].text() == "&Server URL"
    assert dialog.test_button.text() == "&Test connection && load models"


def test_the_dialog_opens_on_its_first_field_and_alt_letters_move_between_fields(qtbot):
    from PySide6.QtCore import Qt

    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    # It opened on the tab bar, and the Server URL was a Tab away.
    qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.field("base_url"))
    assert dialog.field("base_url").hasFocus()
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    assert dialog.focusWidget() in (dialog.field("embed_model"), dialog.field("embed_model").lineEdit())
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_S, Qt.KeyboardModifier.AltModifier)
    assert dialog.focusWidget() is dialog.field("base_url")


def test_an_empty_box_says_what_it_means_and_longest_reply_zero_shows_as_the_servers_default(qtbot, dialog):
    # "Longest reply (tokens) 0" read as "no reply at all", and an empty SearXNG URL as a blank to guess at
    reply = dialog.field("max_tokens")
    assert reply.text() == "" and reply.placeholderText() == "(the server's default)"
    assert dialog.values()["max_tokens"] == 0  # left empty, it is saved as it was
    assert dialog.field("searxng_url").placeholderText() == "(none: DuckDuckGo)"
    assert reply.width() >= reply.fontMetrics().horizontalAdvance(reply.placeholderText())  # shown whole
    reply.setText("4096")
    assert dialog.values()["max_tokens"] == 4096
    other = SettingsDialog(defaults().replace(max_tokens=2048))
    qtbot.addWidget(other)
    assert other.field("max_tokens").text() == "2048"


def test_a_reason_is_said_once_and_a_tab_with_one_is_marked(qtbot):
    # The reason stood under the field and again above Save; with a bad Answer language on General, the
    # Model tab showed only "Cannot save yet: …", and nothing said which tab to look in.
    from tinyrag_desktop.ui.theme import colors

    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    tabs = dialog._tabs
    general = next(i for i in range(tabs.count()) if tabs.tabText(i).replace("&", "") == "General")
    dialog.field("k").setText("0")
    reason = dialog._fields["k"].validate()
    assert reason and not dialog.save_button.isEnabled()
    assert dialog.problem_text == f"Cannot save yet (General tab): {reason}"
    assert tabs.tabBar().tabTextColor(general) == colors().error
    assert tabs.tabBar().tabTextColor(0) != colors().error
    tabs.setCurrentIndex(general)
    assert dialog.problem_text == "Cannot save yet: see the reason under Passages per search."
    dialog.field("k").setText("5")
    assert dialog.save_button.isEnabled() and tabs.tabBar().tabTextColor(general) != colors().error


def test_an_example_address_in_a_reason_is_never_cut_across_two_lines(qtbot):
    # "like http://" ended one line and "127.0.0.1:11434/v1" began the next, in a 560-px dialog
    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.field("base_url").setText("localhost:11434")
    label = dialog._fields["base_url"].error
    assert "\u2060".join("http://127.0.0.1:11434/v1") in label.text()  # joined: no line break inside
    assert "localhost:11434" in label.text() and dialog.problem_text.endswith("under Server URL.")


@pytest.mark.parametrize("typed, completed", [
    ("localhost:11434", "http://localhost:11434/v1"),
    ("127.0.0.1:1234", "http://127.0.0.1:1234/v1"),
    ("http://localhost:11434", "http://localhost:11434/v1"),  # Ollama's OLLAMA_HOST, pasted
    ("http://localhost:11434/", "http://localhost:11434/v1"),
    ("https://models.example.org", "https://models.example.org/v1"),
    ("http://127.0.0.1:8000/api/v1", "http://127.0.0.1:8000/api/v1"),  # a path of its own: kept
    ("not an address", "not an address"),
    ("ftp://127.0.0.1:21", "ftp://127.0.0.1:21"),  # refused as before, as typed
])
def test_a_server_address_typed_without_its_obvious_parts_is_completed(typed, completed):
    from tinyrag_desktop.ui.settings_fields import completed_url

    assert completed_url(typed) == completed


def test_the_server_url_field_completes_localhost_and_a_port_when_left(qtbot):
    # "localhost:11434" was refused: "Server URL must be an http:// or https:// address"
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(defaults(), None)
    qtbot.add_widget(dialog)
    field = dialog.field("base_url")
    field.setText("localhost:11434")
    field.editingFinished.emit()
    assert field.text() == "http://localhost:11434/v1" and not dialog.revalidate()


def test_the_answer_language_is_chosen_by_name_and_stored_as_its_code(qtbot):
    # it was a text box holding "en"
    dialog = SettingsDialog(defaults().replace(lang="de"))
    qtbot.addWidget(dialog)
    box = dialog.field("lang")
    assert box.currentText() == "Deutsch (de)"
    box.setCurrentIndex(box.findData("ja"))
    assert box.currentText() == "日本語 (ja)" and dialog.values()["lang"] == "ja"
    box.setCurrentText("pt-BR")  # a code not listed is typed
    assert dialog.values()["lang"] == "pt-BR"
    box.setCurrentText("klingon!")
    assert dialog._fields["lang"].validate()
    other = SettingsDialog(defaults().replace(lang="eo"))  # one not listed, from the settings file
    qtbot.addWidget(other)
    assert other.field("lang").currentText() == "eo" and other.values()["lang"] == "eo"


def test_a_context_too_small_for_the_apps_instructions_is_refused_with_why(dialog):
    """"Context to use" took 10, and every question then failed, the server blamed: it is refused now, with
    the reason (the app's instructions alone take about 1,000 tokens); empty and 0 are "as the server says"."""
    box = dialog.field("context_tokens")
    for typed in ("10", "600"):
        box.setText(typed)
        reason = dialog._fields["context_tokens"].validate() or ""
        assert reason.startswith(f"Context to use must be at least 1536, not {typed}: the app's instructions "
                                 "alone take up to about 1,000 tokens"), reason
        assert not dialog.save_button.isEnabled()
    for typed, saved in (("", 0), ("0", 0), ("1536", 1536), ("32768", 32768)):
        box.setText(typed)
        assert dialog.revalidate() == [] and dialog.values()["context_tokens"] == saved


def test_a_port_out_of_range_is_said_as_the_command_line_says_it(dialog, tmp_path):
    """Port 99999: the dialog said "must be an http:// or https:// address…", of an address that was one but
    for its port; the command line said what was wrong. Both say it in the same words now."""
    from tinyrag_desktop.cli import build_parser
    from tinyrag_desktop.cliargs import context_from_args

    address = "http://127.0.0.1:99999/v1"
    dialog.field("base_url").setText(address)
    said = dialog._fields["base_url"].validate()
    assert said == ("Server URL: the port 99999 is out of range; a port is a number from 1 to 65535, like 11434 in "
                    "http://127.0.0.1:11434/v1."), said
    args = build_parser().parse_args(["ask", "hi", "--base-url", address, "--data-dir", str(tmp_path)])
    with pytest.raises(SettingsError) as cli:
        context_from_args(args)
    assert str(cli.value) == f"--base-url {address}: " + said.removeprefix("Server URL: ")
    dialog.field("searxng_url").setText("http://localhost:70000")
    assert dialog._fields["searxng_url"].validate() == (
        "SearXNG URL: the port 70000 is out of range; a port is a number from 1 to 65535, like 8888 in "
        "http://localhost:8888.")


def test_the_built_in_model_file_must_be_there_and_a_gguf_file(dialog, tmp_path):
    """/etc/passwd, or a path to nothing, was taken without a word; the built-in model then failed to start."""
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF\x03\x00\x00\x00" + bytes(64))
    box, field = dialog.field("local_model"), dialog._fields["local_model"]
    box.setText(str(tmp_path / "gone.gguf"))
    assert field.validate() == f"Built-in model file: there is no file at {tmp_path / 'gone.gguf'}."
    assert not dialog.save_button.isEnabled()
    box.setText(str(text))
    said = field.validate() or ""
    assert said.startswith(f"Built-in model file: {text} is no GGUF model file (a GGUF file starts with the "
                           "letters GGUF"), said
    box.setText(str(tmp_path))
    assert field.validate() == f"Built-in model file: {tmp_path} is a folder: choose the .gguf file in it."
    box.setText(str(model))
    assert field.validate() is None and dialog.values()["local_model"] == str(model)
    box.setText("")  # none: SmolLM2, if installed
    assert dialog.revalidate() == [] and dialog.save_button.isEnabled()


@pytest.mark.skipif(sys.platform == "win32", reason="Windows makes ~name the folder beside the user's own")
def test_a_built_in_model_file_in_the_home_of_no_such_user_is_said_in_words(dialog):
    # Path.expanduser raised RuntimeError for "~name" of a user this computer does not know
    box, field = dialog.field("local_model"), dialog._fields["local_model"]
    box.setText("~nosuchuser-tinyrag/tiny.gguf")
    assert field.validate() == ("Built-in model file: ~nosuchuser-tinyrag/tiny.gguf: there is no user called "
                                "nosuchuser-tinyrag on this computer, so ~nosuchuser-tinyrag names no home folder.")
    assert not dialog.save_button.isEnabled()


def test_a_wrong_scheme_is_said_before_a_wrong_port_and_the_port_too(dialog, tmp_path):
    """ftp://nope:99999 was told only of its port; once that was mended, of its scheme. Both at once now, the
    scheme first, in the dialog and on the command line."""
    from tinyrag_desktop.cli import build_parser
    from tinyrag_desktop.cliargs import context_from_args

    dialog.field("base_url").setText("ftp://nope:99999")
    said = dialog._fields["base_url"].validate()
    assert said == ("Server URL must be an http:// or https:// address, like http://127.0.0.1:11434/v1, not "
                    "“ftp://nope:99999”. Its port is out of range too: a port is a number from 1 to 65535."), said
    args = build_parser().parse_args(["ask", "hi", "--base-url", "ftp://nope:99999", "--data-dir", str(tmp_path)])
    with pytest.raises(SettingsError) as cli:
        context_from_args(args)
    assert str(cli.value).startswith("--base-url must be an http:// or https:// address"), str(cli.value)
    assert str(cli.value).endswith("Its port is out of range too: a port is a number from 1 to 65535.")
    dialog.field("base_url").setText("ftp://nope:8000")  # a port in range: nothing said of it
    assert dialog._fields["base_url"].validate().endswith("not “ftp://nope:8000”.")


def test_a_refused_value_is_quoted_in_the_apps_curly_quotes(dialog, tmp_path):
    """It read 'not "-1x"' beside the app's “Allow Go code (nanoGo)”; the command line quotes as the window."""
    from tinyrag_desktop.cli import build_parser
    from tinyrag_desktop.cliargs import context_from_args

    dialog.field("temperature").setText("-1x")
    assert dialog._fields["temperature"].validate() == "Temperature must be a number, not “-1x”."
    (tmp_path / "settings.json").write_text('{"theme": "C:\\\\dark"}')
    args = build_parser().parse_args(["kb", "list", "--data-dir", str(tmp_path)])
    ctx = context_from_args(args)
    assert ctx.warnings == ("settings.json: theme must be one of light, dark, system, not “C:\\dark”. "
                            "Using the default, “system”.",)
