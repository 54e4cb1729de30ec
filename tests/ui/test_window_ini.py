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
