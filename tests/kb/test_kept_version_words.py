"""A source that cannot be read again says its earlier version stays after a semicolon, not in a second pair
of brackets: "nothing answers at 127.0.0.1:45865 (connection refused) (the version imported 2026-12-05
stays in the knowledge base)"."""

from __future__ import annotations

import re

from tests.kb.test_panel_import import _Pages
from tests.loopback import serving
from tinyrag_desktop.kb import Importer, ImportItem, open_store


def test_a_page_whose_server_is_gone_says_its_earlier_version_stays_after_a_semicolon(data_dir):
    with serving(_Pages) as url:
        with open_store(data_dir) as kb:
            assert Importer(kb).run([ImportItem("url", f"{url}/herons")]).added
    with open_store(data_dir) as kb:  # the server stopped: nothing answers at its port
        report = Importer(kb, force=True).run([ImportItem("url", f"{url}/herons")])
    [failure] = report.failed
    assert re.search(r"\(connection refused\); the version imported \d{4}-\d\d-\d\d stays in the knowledge base$",
                     failure.reason), failure.reason
