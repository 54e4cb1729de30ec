"""The web tools share the engine's HTTP client, not its cookies: a fetched site's cookie is not kept (it went
to the LLM server on the same host with the next request), the LLM server's cookies and API key go to no
site, and redirects are followed without them."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tinyrag_desktop.tools.netutil import plain_get
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch

from .conftest import LoopbackServer

PAGE = "<html><head><title>Tides</title></head><body><p>Spring tides rise six metres in the estuary.</p></body></html>"
KEY = "sk-never-to-a-site-42"


def _llm_and_site(server: LoopbackServer) -> None:
    """The "LLM server" and a "site" on one host: each sets a cookie."""
    server.add("/v1/models", lambda h: h.send_bytes(200, b'{"data": []}', "application/json",
                                                    {"Set-Cookie": "llmsession=LLMCOOKIE; Path=/"}))
    server.add("/page", lambda h: h.send_bytes(200, PAGE.encode(), "text/html; charset=utf-8",
                                               {"Set-Cookie": "sitecookie=SITECOOKIE; Path=/"}))


async def test_a_fetched_sites_cookie_is_not_kept_for_the_llm_server(server: LoopbackServer, data_dir: Path) -> None:
    _llm_and_site(server)
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {KEY}"}) as shared:
        await shared.get(server.url("/v1/models"))  # the LLM client's own cookie: kept, as before
        context = ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir, http=shared)
        result = await url_fetch(server.url("/page"), context)
        await shared.get(server.url("/v1/models"))
    assert "Spring tides" in result.text
    assert dict(shared.cookies) == {"llmsession": "LLMCOOKIE"}
    site, llm = server.seen[1].headers, server.seen[2].headers
    assert "cookie" not in site and "authorization" not in site
    assert llm["cookie"] == "llmsession=LLMCOOKIE" and llm["authorization"] == f"Bearer {KEY}"


async def test_a_redirect_followed_for_a_web_tool_carries_no_cookie_or_key(server: LoopbackServer) -> None:
    _llm_and_site(server)
    server.redirect("/api.php", "/page")
    timeout = httpx.Timeout(5.0)
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {KEY}"}) as shared:
        await shared.get(server.url("/v1/models"))
        response = await plain_get(shared, server.url("/api.php"), params={"q": "tides"},
                                   headers={"User-Agent": "test"}, timeout=timeout)
    assert response.status_code == 200 and "Spring tides" in response.text
    assert [r.path for r in server.seen] == ["/v1/models", "/api.php", "/page"]
    for hop in server.seen[1:]:
        assert "cookie" not in hop.headers and "authorization" not in hop.headers
    assert dict(shared.cookies) == {"llmsession": "LLMCOOKIE"}


async def test_redirects_still_end_somewhere(server: LoopbackServer) -> None:
    for n in range(12):
        server.redirect(f"/loop{n}", f"/loop{n + 1}")
    async with httpx.AsyncClient() as shared:
        with pytest.raises(httpx.TooManyRedirects):
            await plain_get(shared, server.url("/loop0"), params={}, headers={}, timeout=httpx.Timeout(5.0))
    assert len(server.seen) == 11  # the first request and ten redirects
