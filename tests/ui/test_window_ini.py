"""A garbled window.ini (the window's layout) is ignored: the window opens as on a first start."""

from __future__ import annotations

import pytest

from tests.ui.test_damaged_data_folder import _answering_server, _window


@pytest.mark.parametrize("ini", [
    "[General]\ngeometry=@ByteArray(garbage)\nsplitter=123\ndocks=some text\nshow_routing=maybe\nshow_chats=7\n",
    "[General]\ngeometry=1\nsplitter=@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x16garbage)\ndocks=@ByteArray()\n",
])
def test_a_garbled_window_ini_is_ignored(tmp_path, ini):
    data = tmp_path / "data"
    data.mkdir()
    (data / "window.ini").write_text(ini)
    with _answering_server() as srv:
        done = _window(data, tmp_path, srv.base_url)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr


def test_a_start_reopens_the_chat_left_open(make_window, server, qloop, tmp_path):
    from tests.sse_server import Stream

    from .conftest import ask_and_wait, tokens, wait_until

    data = tmp_path / "data"
    first = make_window(server.base_url, data_dir=data, reopen_last=True)
    server.queue(Stream(tokens("Kept for later.")), Stream(tokens("Another one.")))
    assert qloop.run(ask_and_wait(first, "Remember this?")) == "done"
    kept = first.chat_id
    first.new_chat()
    assert qloop.run(ask_and_wait(first, "A second chat")) == "done"
    first.open_chat(kept)
    qloop.run(wait_until(lambda: first.chat_id == kept and not first.loading))
    first.close()  # saves the layout, and which chat is open

    again = make_window(server.base_url, data_dir=data, reopen_last=True)
    qloop.run(wait_until(lambda: again.chat_id == kept and not again.loading))
    assert again.view.answers()[-1].content() == "Kept for later."
    assert again.sidebar.current_id() == kept and again.title_label.text() == "Remember this?"
    again.close()

    # a scripted --ask run (reopen_last False) starts a new chat; a chat deleted since is not reopened
    assert make_window(server.base_url, data_dir=data).chat_id is None
    store = again.store.__class__(data)
    store.delete(kept)
    store.purge_deleted()
    store.close()
    assert make_window(server.base_url, data_dir=data, reopen_last=True).chat_id is None
