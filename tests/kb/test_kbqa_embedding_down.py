"""An embedding server that is down is said in words, and Cancel does not wait for one that is silent."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest

from tests.loopback import silent_server
from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.embed import Embedder
from tinyrag_desktop.settings import defaults


def _refusing_port() -> int:
    """A loopback port nothing listens on (it refuses connections)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def silent():
    with silent_server() as served:
        yield served


def _notes(folder):
    (folder / "pets.txt").write_text("A kitten sleeps all day on the sofa.", encoding="utf-8")
    (folder / "garage.txt").write_text("The car engine needs new oil.", encoding="utf-8")
    return [str(folder / "pets.txt"), str(folder / "garage.txt")]


def test_a_refused_embedding_server_is_named_in_words_not_in_the_systems(data_dir, tmp_path):
    port = _refusing_port()
    files = _notes(tmp_path)
    embedder = Embedder(defaults().replace(base_url=f"http://127.0.0.1:{port}/v1", embed_model="fake-embed"))
    with open_store(data_dir) as kb:
        report = Importer(kb, embedder=embedder).run(files)
    embedder.close()
    # It said "the embedding server could not be reached ([Errno 111] Connection refused)".
    assert report.embedding_problem == ("the embedding server could not be reached (nothing answers at "
                                        f"127.0.0.1:{port})")
    summary = report.summary()
    assert "Errno" not in summary and "Connection refused" not in summary
    assert (f"2 stored without embeddings, as the embedding server could not be reached (nothing answers at "
            f"127.0.0.1:{port}): keyword search finds them, and importing them again once the server works "
            "embeds them") in summary
    assert [h.location for h in search(data_dir, "kitten", 1)] == [files[0]]


def test_an_unknown_embedding_server_name_is_said_as_such(data_dir, tmp_path):
    def unknown(request: httpx.Request) -> httpx.Response:  # as the system says it, without asking a resolver
        raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)

    client = httpx.Client(transport=httpx.MockTransport(unknown))
    embedder = Embedder(defaults().replace(base_url="http://no-such-host.invalid/v1", embed_model="fake-embed"),
                        client)
    with open_store(data_dir) as kb:
        report = Importer(kb, embedder=embedder).run(_notes(tmp_path)[:1])
    client.close()
    assert report.embedding_problem == ("the embedding server could not be reached (no server is named "
                                        "no-such-host.invalid: check the address in Settings)")


def test_cancel_while_the_embedding_server_is_silent_stops_the_import_at_once(data_dir, tmp_path, silent):
    url, handler = silent
    files = _notes(tmp_path)
    cancel = threading.Event()
    threading.Thread(target=lambda: handler.asked.wait(10) and cancel.set(), daemon=True).start()
    embedder = Embedder(defaults().replace(base_url=url + "/v1", embed_model="fake-embed"))
    started = time.monotonic()
    with open_store(data_dir) as kb:
        # It waited for the batch's answer (up to 120 s, the time-out) before it looked at Cancel.
        report = Importer(kb, embedder=embedder, cancel=cancel).run(files)
        assert time.monotonic() - started < 10
        assert report.cancelled and not report.added and kb.sources() == []
    embedder.close()


def test_the_panel_says_a_refused_embedding_server_in_words(qtbot, data_dir, tmp_path):
    from tinyrag_desktop.ui.kb_panel import KnowledgePanel

    port = _refusing_port()
    settings = defaults().replace(base_url=f"http://127.0.0.1:{port}/v1", embed_model="fake-embed")
    panel = KnowledgePanel(data_dir, lambda: settings)
    qtbot.add_widget(panel)
    try:
        with qtbot.waitSignal(panel.importFinished, timeout=30_000):
            panel.import_items(_notes(tmp_path))
        said = panel.status_label.text()
        assert "Errno" not in said and "Connection refused" not in said
        assert f"the embedding server could not be reached (nothing answers at 127.0.0.1:{port})" in said
        assert "keyword search finds them" in said
    finally:
        panel.shutdown()


def test_cancel_in_the_panel_while_the_embedding_server_is_silent_ends_the_import_at_once(
        qtbot, data_dir, tmp_path, silent):
    from tinyrag_desktop.ui.kb_panel import KnowledgePanel

    url, handler = silent
    settings = defaults().replace(base_url=url + "/v1", embed_model="fake-embed")
    panel = KnowledgePanel(data_dir, lambda: settings)
    qtbot.add_widget(panel)
    try:
        panel.import_items(_notes(tmp_path))
        qtbot.waitUntil(handler.asked.is_set, timeout=10_000)
        started = time.monotonic()
        with qtbot.waitSignal(panel.importFinished, timeout=5_000) as finished:
            panel.cancel_button.click()
        assert time.monotonic() - started < 5
        assert finished.args[0].cancelled and panel.source_count() == 0
    finally:
        panel.shutdown()
