"""The two settings.json keys outside the schema (wikipedia_api_url, url_fetch_trusted_networks), written by
hand as anything: a warning in words naming the key, its default used, never a Python error; read from real
files, asked of loopback servers."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tinyrag_desktop.settings import load_settings, save_settings
from tinyrag_desktop.tools import web as web_tools
from tinyrag_desktop.tools import wikipedia_api
from tinyrag_desktop.tools.fetch import BlockedAddress
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch, wikipedia
from tinyrag_desktop.tools.wikipedia_api import Article

from .conftest import LoopbackServer


def _settings(data_dir: Path, **values: object):
    (data_dir / "settings.json").write_text(json.dumps(values))
    return load_settings(data_dir)


def _fake_article(asked: list[object]):
    async def get_article(http, title, lang, *, api_url=None, seconds=None):
        asked.append(api_url)
        return Article(title, "https://en.wikipedia.org/wiki/Otter", "Otters swim.", "Otters swim.", "en")
    return get_article


def test_values_of_the_wrong_kind_are_said_and_the_defaults_used(data_dir: Path) -> None:
    settings, warnings = _settings(data_dir, url_fetch_trusted_networks=5, wikipedia_api_url=7)
    assert warnings == [
        'settings.json: url_fetch_trusted_networks must be a list of networks, such as ["10.20.0.0/16", '
        '"127.0.0.1/32"], not 5. Using the default, none.',
        "settings.json: wikipedia_api_url must be text, not 7. Using the default, Wikipedia's own address."]
    save_settings(data_dir, settings)  # written back as they were, as any refused value is
    raw = json.loads((data_dir / "settings.json").read_text())
    assert raw["url_fetch_trusted_networks"] == 5 and raw["wikipedia_api_url"] == 7


def test_an_address_that_is_no_address_is_said(data_dir: Path) -> None:
    _s, [said] = _settings(data_dir, wikipedia_api_url="en.wikipedia.org/w/api.php")
    assert said.startswith("settings.json: wikipedia_api_url must be an http:// or https:// address, like "
                           "https://{lang}.wikipedia.org/w/api.php, not ")


async def test_url_fetch_with_a_number_for_the_networks_is_refused_in_words(server: LoopbackServer,
                                                                           data_dir: Path) -> None:
    settings, _ = _settings(data_dir, url_fetch_trusted_networks=5)
    url = server.static("/page", "a page", "text/plain")
    with pytest.raises(BlockedAddress, match="127.0.0.1 is a loopback address"):
        await url_fetch(url, ToolContext(settings=settings, data_dir=data_dir))
    # a plain mapping (a test's, a caller's) with the same value: the same, not "'int' object is not iterable"
    with pytest.raises(BlockedAddress):
        await url_fetch(url, ToolContext(settings={"url_fetch_trusted_networks": 5}, data_dir=data_dir))


async def test_one_network_written_as_text_is_a_list_of_it(server: LoopbackServer, data_dir: Path) -> None:
    settings, warnings = _settings(data_dir, url_fetch_trusted_networks="127.0.0.1/32")
    assert warnings == []
    url = server.static("/page", "an intranet page", "text/plain")
    result = await url_fetch(url, ToolContext(settings=settings, data_dir=data_dir))
    assert result.text.endswith("an intranet page")


async def test_entries_that_are_no_network_are_named_and_the_rest_used(server: LoopbackServer,
                                                                       data_dir: Path) -> None:
    settings, warnings = _settings(data_dir, url_fetch_trusted_networks=["10.0.0.300/8", "127.0.0.1/32", 12])
    assert warnings == ['settings.json: url_fetch_trusted_networks: “10.0.0.300/8”, 12 are no networks (a '
                        'network is written like “10.20.0.0/16” or “127.0.0.1/32”), left out.']
    url = server.static("/page", "an intranet page", "text/plain")
    result = await url_fetch(url, ToolContext(settings=settings, data_dir=data_dir))
    assert result.text.endswith("an intranet page")
    _s, [said] = _settings(data_dir, url_fetch_trusted_networks=["bogus"])
    assert said.endswith('“bogus” is no network (a network is written like “10.20.0.0/16” or '
                         "“127.0.0.1/32”), left out. No network is trusted.")


async def test_the_wikipedia_tool_with_a_number_for_its_address_asks_wikipedia(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings, _ = _settings(data_dir, wikipedia_api_url=7)
    asked: list[object] = []
    monkeypatch.setattr(web_tools, "get_article", _fake_article(asked))  # no request leaves the machine
    result = await wikipedia("Otter", ToolContext(settings=settings, data_dir=data_dir))
    assert "Otters swim." in result.text and asked == [None]
    await wikipedia("Otter", ToolContext(settings={"wikipedia_api_url": 7}, data_dir=data_dir))
    assert asked == [None, None]


def test_kb_add_of_a_wikipedia_article_with_a_number_for_its_address(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tinyrag_desktop.kb.web import wikipedia_article

    settings, _ = _settings(data_dir, wikipedia_api_url=7)
    asked: list[object] = []
    monkeypatch.setattr(wikipedia_api, "get_article", _fake_article(asked))
    article = asyncio.run(wikipedia_article("Otter", settings))
    assert article.text == "Otters swim." and asked == [None]


async def test_an_address_with_spaces_around_it_is_asked(server: LoopbackServer, data_dir: Path) -> None:
    page = {"ns": 0, "title": "Otter", "pageid": 7, "fullurl": "https://en.wikipedia.org/wiki/Otter",
            "extract": "Otters are semiaquatic mammals."}
    server.add("/w/api.php", lambda h: h.send_json({"batchcomplete": True, "query": {"pages": [page]}}))
    settings, warnings = _settings(data_dir, wikipedia_api_url=f"  {server.url('/w/api.php')} ")
    assert warnings == []
    result = await wikipedia("Otter", ToolContext(settings=settings, data_dir=data_dir))
    assert "Otters are semiaquatic mammals." in result.text
