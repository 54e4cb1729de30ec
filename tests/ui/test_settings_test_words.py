"""Test connection in Settings says a thing once, where it is to be corrected, in one sentence that reads.

With Server URL "not a url at all", the same reason showed under Server URL and again under Chat model; and
"Could not connect: The model server…" had a capital after its colon (see also test_settings_dialog_fit)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tinyrag_desktop.sentences import after_colon as continued

from .conftest import keep_picture


def _shown(dialog) -> list[str]:
    return [label.text() for label in dialog.findChildren(QLabel) if label.isVisible() and label.text()]


def test_a_server_url_that_is_no_address_is_said_once_under_server_url(make_window, server, qloop):
    win = make_window(server.base_url)
    dialog = win.open_settings()
    dialog.field("base_url").setText("not a url at all")
    assert dialog.test_connection() is None
    shown = _shown(dialog)
    keep_picture(dialog, "settings_bad_url.png")
    said = [text for text in shown if "not a url at all" in text]
    assert len(said) == 1, shown
    assert dialog.test_result.isHidden()
    assert dialog.field("base_url").hasFocus() or dialog.focusWidget() is dialog.field("base_url")
    dialog.reject()


def test_names_keep_their_capitals_after_the_colon():
    assert continued("The model server did not answer.") == "the model server did not answer."
    assert continued("Ollama is not running.") == "Ollama is not running."
    assert continued("HTTP 404 came back.") == "HTTP 404 came back."
    assert continued("LM Studio has no model loaded.") == "LM Studio has no model loaded."
    assert continued("vLLM said no.") == "vLLM said no."
    assert continued("") == ""
    assert continued("I gave up.") == "I gave up."
    assert continued("A proxy said no.") == "a proxy said no."


def test_items_are_listed_as_a_sentence_lists_them():
    from tinyrag_desktop.sentences import listed

    assert [listed(["Theme"]), listed(["Theme", "Chat model"]), listed(["a", "b", "c"])] == [
        "Theme", "Theme and Chat model", "a, b and c"]
