"""A wrong address in Settings is answered with an example of the right kind of address."""

from __future__ import annotations

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog


def test_a_wrong_searxng_url_gets_a_searxng_example_not_the_model_servers(qtbot) -> None:
    # It read "SearXNG URL must be an http:// or https:// address, like http://127.0.0.1:11434/v1": the
    # model server's address, which a user then typed in as their search engine.
    dialog = SettingsDialog(defaults().replace(network_tools=True))
    qtbot.addWidget(dialog)
    dialog.field("searxng_url").setText("searx.local")
    assert not dialog.save_button.isEnabled()
    assert dialog.problem_text == ("Cannot save yet (Tools tab): SearXNG URL must be an http:// or https:// "
                                     "address, like http://localhost:8888, not “searx.local”.")
    dialog.field("base_url").setText("127.0.0.1:11434/v1")  # the model server's own example is kept
    assert "Server URL must be an http:// or https:// address, like http://127.0.0.1:11434/v1" in (
        dialog._fields["base_url"].validate())
    tabs = dialog._tabs
    tabs.setCurrentIndex(next(i for i in range(tabs.count()) if tabs.tabText(i).replace("&", "") == "Tools"))


def test_words_that_are_no_address_at_all_are_told_what_an_address_looks_like(qtbot) -> None:
    # "not a url" was refused for its spaces ("… an address has none … written %20"), as if it were an
    # address with a space in it.
    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    dialog.field("base_url").setText("not a url")
    assert dialog._fields["base_url"].validate() == (
        "Server URL must be an http:// or https:// address, like http://127.0.0.1:11434/v1, not “not a url”.")
    dialog.field("base_url").setText("http://127.0.0.1:11434/v1 /x")  # an address with a space: said so
    assert "has a space in it" in dialog._fields["base_url"].validate()
