"""``kb add`` with the network off (``--offline``, or Network tools unticked in Settings): web pages and
Wikipedia articles are not downloaded, the message says how to turn the network on, the files named with
them are imported, and the exit status is 2 (the command line asked for what its settings forbid).

Never the internet: the pages and the Wikipedia API are a loopback server that counts what it is asked."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tests.loopback import serving
from tinyrag_desktop.kb import open_store

_asked: list[str] = []


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        _asked.append(self.path)
        body = b"<html><head><title>Tides</title></head><body><p>The tide turns twice a day here.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server():
    _asked.clear()
    with serving(_Handler) as url:
        yield url


@pytest.fixture
def note(tmp_path: Path) -> Path:
    path = tmp_path / "note.md"
    path.write_text("# Harbour\n\nThe harbour master keeps the tide tables.\n", encoding="utf-8")
    return path


def _settings(data: Path, **values: object) -> None:
    data.mkdir(parents=True, exist_ok=True)
    (data / "settings.json").write_text(json.dumps(values), encoding="utf-8")


def _stored(data: Path) -> list[str]:
    with open_store(data) as kb:
        return sorted(s.location for s in kb.sources())


def test_offline_downloads_no_page_nor_article_and_still_imports_the_files(server, note, tmp_path, capsys):
    data = tmp_path / "data"
    _settings(data, wikipedia_api_url=f"{server}/w/api.php")
    code, out, err = run_main(capsys, "add", "--offline", f"{server}/tides.html", str(note),
                              "--wikipedia", "Tide", "--data-dir", str(data))
    assert _asked == []  # was: the page and the article fetched, --offline or not
    assert code == 2 and "Traceback" not in err
    assert f"failed: {server}/tides.html: not downloaded: the network is off (offline mode)" in err.splitlines()
    assert "failed: Tide: not downloaded: the network is off (offline mode)" in err.splitlines()
    assert "run the same kb add without --offline to import them" in err
    assert out.startswith("1 added, 0 updated, 0 unchanged, 2 failed")
    assert _stored(data) == [str(note)]


def test_network_tools_off_in_settings_is_offline_too_and_says_where_to_turn_it_on(server, note, tmp_path, capsys):
    # Settings say "off: fully offline": a URL named on the command line is no exception (see the README)
    data = tmp_path / "data"
    _settings(data, network_tools=False)
    code, out, err = run_main(capsys, "add", f"{server}/tides.html", str(note), "--data-dir", str(data))
    assert _asked == []
    assert code == 2 and "Traceback" not in err
    assert f"failed: {server}/tides.html: not downloaded: the network is off (offline mode)" in err.splitlines()
    assert "turn on Network tools in Settings" in err and "--offline" not in err
    assert _stored(data) == [str(note)]


def test_with_the_network_on_the_page_is_imported(server, note, tmp_path, capsys):
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "add", f"{server}/tides.html", str(note), "--data-dir", str(data))
    assert code == 0 and _asked == ["/tides.html"], err
    assert out.startswith("2 added")


def test_offline_still_says_what_is_wrong_with_an_address_it_could_never_read(tmp_path, capsys):
    code, out, err = run_main(capsys, "add", "--offline", "ftp://example.org/notes.txt", "--data-dir",
                              str(tmp_path / "data"))
    assert code == 1  # a failure, not "offline": without --offline it would fail the same
    assert "failed: ftp://example.org/notes.txt: only http:// and https:// addresses can be imported" in err
    assert "--offline" not in err


def test_offline_with_network_tools_off_in_settings_too_names_both(server, note, tmp_path, capsys):
    data = tmp_path / "data"
    _settings(data, network_tools=False)
    code, out, err = run_main(capsys, "add", "--offline", f"{server}/tides.html", "--data-dir", str(data))
    assert code == 2 and _asked == []
    assert ("turn on Network tools in Settings (\"network_tools\": true in settings.json), then run the same "
            "kb add without --offline to import them.") in err
