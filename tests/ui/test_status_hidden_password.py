"""The status bar names the server without the password written in its address."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QToolButton

from .conftest import wait_until


def test_the_status_bar_hides_the_addresss_password(make_window, server, qloop) -> None:
    win = make_window(server.base_url.replace("http://", "http://alice:s3cretpw@"))
    assert win.status.server.text() == server.base_url.replace("http://", "Server: http://alice:***@")
    shown = [*win.statusBar().findChildren(QLabel), *win.statusBar().findChildren(QToolButton)]
    said = [w.text() for w in shown] + [w.toolTip() for w in shown]
    assert any("alice:***@" in text for text in said)
    assert not any("s3cretpw" in text for text in said)


def test_the_reason_a_server_is_down_hides_its_password(make_window, qloop) -> None:
    win = make_window("http://alice:s3cretpw@127.0.0.1:9/v1")  # the discard port: nothing answers
    qloop.run(wait_until(lambda: win.status.state == "down"))
    assert "http://alice:***@127.0.0.1:9/v1" in win.status.reason
    assert "s3cretpw" not in win.status.reason + win.status.reach.toolTip() + win.status.server.text()
