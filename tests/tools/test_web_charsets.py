"""One charset decision for every web text (html_encoding.web_text): url_fetch, a SearXNG answer and a
Wikipedia answer read a server that names UTF-8 but sends Windows-1252 as ``kb add`` does, on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings as hsettings, strategies as st

from tinyrag_desktop.kb.html_encoding import web_text
from tinyrag_desktop.kb.web import Fetched
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch, websearch
from tinyrag_desktop.tools.wikipedia_api import get_article

from .conftest import LoopbackServer, RequestHandler

FRENCH = "Café crème à la française, œuvre — naïve résumé déjà vu, and more words here for the guess."
# Windows-1252 bytes sent as UTF-8: a server's default header in front of a page saved by an old editor.
LYING_PAGE = f"<html><body><p>{FRENCH}</p></body></html>".encode("cp1252")
LYING_TYPE = "text/html; charset=utf-8"


def _cp1252_json(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("cp1252")


async def test_url_fetch_reads_a_page_served_as_utf8_in_windows_1252(server: LoopbackServer,
                                                                     data_dir: Path) -> None:
    url = server.static("/latin1", LYING_PAGE, LYING_TYPE)
    result = await url_fetch(url, ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir))
    assert FRENCH in result.text
    assert "\ufffd" not in result.text


def test_url_fetch_and_kb_add_read_the_page_alike() -> None:
    doc = Fetched("http://127.0.0.1/latin1", LYING_TYPE, LYING_PAGE).document()
    stored = " ".join(b.text for b in doc.blocks)
    assert FRENCH in stored
    assert web_text(LYING_PAGE, "utf-8", page=True) == f"<html><body><p>{FRENCH}</p></body></html>"


async def test_searxng_answer_in_windows_1252_is_read(server: LoopbackServer, data_dir: Path) -> None:
    body = _cp1252_json({"results": [{"title": "Crème brûlée", "url": "https://x.example/", "content": FRENCH}]})
    server.add("/search", lambda h: h.send_bytes(200, body, "application/json; charset=utf-8"))
    result = await websearch("creme", ToolContext(settings={"searxng_url": server.url("/")}, data_dir=data_dir))
    assert "Crème brûlée" in result.text and FRENCH in result.text


async def test_wikipedia_answer_in_windows_1252_is_read(server: LoopbackServer) -> None:
    page = {"ns": 0, "title": "Crème brûlée", "pageid": 7, "fullurl": "https://en.wikipedia.org/wiki/Cr",
            "extract": FRENCH}

    def answer(h: RequestHandler) -> None:
        h.send_bytes(200, _cp1252_json({"batchcomplete": True, "query": {"pages": [page]}}),
                     "application/json; charset=utf-8")

    api = server.add("/w/api.php", answer)
    article = await get_article(None, "Crème brûlée", "en", api_url=api)
    assert article.title == "Crème brûlée" and FRENCH in article.text


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "iso-8859-1", "windows-1251", None, "x-bogus", "utf-16"])
def test_utf8_bytes_read_as_utf8_whatever_is_declared(charset: str | None) -> None:
    assert web_text(FRENCH.encode("utf-8"), charset, page=False) == FRENCH


@hsettings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.one_of(st.none(), st.text(max_size=24), st.sampled_from(
    ["utf-8", "utf-16", "utf-32", "utf-7", "latin-1", "windows-1252", "shift_jis", "euc-jp", "gb18030", "big5",
     "koi8-r", "cp037", "base64", "rot13", "idna", "unicode-escape", "undefined", "ascii", "mbcs", "hz"])),
       st.booleans())
@example(LYING_PAGE, "utf-8", True)
@example(b"\xff\xfe\x00", "utf-8", True)
@example(b'<meta charset="utf-16">\xe9', None, True)
def test_any_bytes_with_any_declared_charset_decode(data: bytes, charset: str | None, page: bool) -> None:
    text = web_text(data, charset, page=page)
    assert isinstance(text, str)
    if data.isascii() and b"\x00" not in data:
        assert text == data.decode("ascii")
