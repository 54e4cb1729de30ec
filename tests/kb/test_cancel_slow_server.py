"""Cancel stops a web page's import at once while its server has not answered yet, in the panel too."""

from __future__ import annotations

import threading
import time

import pytest

from tests.loopback import Silent, silent_server
from tinyrag_desktop.kb import ImportItem
from tinyrag_desktop.kb.errors import Cancelled
from tinyrag_desktop.kb.web import fetch_url



@pytest.fixture
def silent():
    with silent_server() as served:
        yield served


def test_fetch_url_stops_when_cancelled_before_the_server_answers(silent):
    url, handler = silent
    cancel = threading.Event()
    threading.Thread(target=lambda: handler.asked.wait(10) and cancel.set(), daemon=True).start()
    started = time.monotonic()
    # It waited for the server's answer (30 s, the read time-out) before it looked at Cancel.
    with pytest.raises(Cancelled):
        fetch_url(url + "/late.html", 1 << 20, cancelled=cancel.is_set)
    assert time.monotonic() - started < 10


def test_fetch_url_without_cancel_still_reads_the_page_and_says_its_errors(silent):
    url, handler = silent
    handler.release.set()
    assert fetch_url(url + "/late.html", 1 << 20, cancelled=lambda: False).data == Silent.page
    with pytest.raises(Exception, match="nothing answers"):
        fetch_url("http://127.0.0.1:1/x", 1 << 20, cancelled=lambda: False)


def test_cancel_in_the_panel_while_a_server_says_nothing_ends_the_import_at_once(qtbot, panel, silent):
    url, handler = silent
    with qtbot.waitSignal(panel.importFinished, timeout=10_000) as finished:
        panel.import_items([ImportItem("url", url + "/late.html")])
        qtbot.waitUntil(handler.asked.is_set, timeout=10_000)
        panel.cancel_import()
    # "Cancelling…" for 30 seconds, then "✗ …/late.html: the server took too long to answer"
    report = finished.args[0]
    assert report.cancelled and not report.failed and not report.added
    assert panel.status_label.text().startswith("Nothing was imported — cancelled")


def test_a_wikipedia_article_stops_when_cancelled_before_the_server_answers(silent):
    import asyncio

    from tinyrag_desktop.kb.web import wikipedia_article
    from tinyrag_desktop.settings import Settings, defaults

    url, handler = silent
    settings = Settings(defaults().values, {"wikipedia_api_url": f"{url}/api.php"})
    started = time.monotonic()
    # It waited for the server (15 s a request, more than one request an article) before it looked at Cancel.
    with pytest.raises(Cancelled):
        asyncio.run(wikipedia_article("Narwhal", settings, cancelled=handler.asked.is_set))
    assert time.monotonic() - started < 10


def test_a_wikipedia_article_without_cancel_is_asked_as_before(silent):
    import asyncio

    from tinyrag_desktop.kb.errors import FetchError
    from tinyrag_desktop.kb.web import wikipedia_article
    from tinyrag_desktop.settings import Settings, defaults

    url, handler = silent
    handler.release.set()  # the silent server then answers every request with an HTML page, not the API's JSON
    settings = Settings(defaults().values, {"wikipedia_api_url": f"{url}/api.php"})
    for cancelled in (None, lambda: False):
        with pytest.raises(FetchError):
            asyncio.run(wikipedia_article("Narwhal", settings, cancelled=cancelled))


def test_cancel_during_a_wikipedia_import_ends_it_at_once(data_dir, silent):
    # The import hands its Cancel to the article's requests: it waited up to 15 s a request before.
    from tinyrag_desktop.kb import Importer, open_store

    url, handler = silent
    cancel = threading.Event()
    threading.Thread(target=lambda: handler.asked.wait(10) and cancel.set(), daemon=True).start()
    settings = {"wikipedia_api_url": f"{url}/api.php", "network_tools": True}
    started = time.monotonic()
    with open_store(data_dir) as kb:
        report = Importer(kb, settings=settings, cancel=cancel).run([ImportItem("wikipedia", "Narwhal")])
    assert report.cancelled and not report.failed and not report.added
    assert time.monotonic() - started < 10
