"""url_fetch on a URL whose port or server name cannot be: a reason in words (a ToolError the card shows),
never the network library's internals."""

from __future__ import annotations

from pathlib import Path

import pytest

from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.fetch import FetchError
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch

from .conftest import LoopbackServer

BAD_PORT = "The URL's port is not a number between 1 and 65535."
BAD_BRACKETS = ("The URL's server name is not written right: only an IPv6 address goes in square brackets, "
                "and whole, as in http://[2001:db8::1]:8080/.")
# What the user saw: "url_fetch failed unexpectedly: ExceptionGroup: unhandled errors in a TaskGroup".
_INTERNALS = ("ExceptionGroup", "TaskGroup", "Invalid port", "Port out of range", "Invalid IPv6")


def ctx(data_dir: Path) -> ToolContext:
    return ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir)


async def _reason(url: str, data_dir: Path) -> str:
    with pytest.raises(ToolError) as info:  # a ToolError: the card shows its words, nothing is logged
        await url_fetch(url, ctx(data_dir))
    assert isinstance(info.value, FetchError)
    message = str(info.value)
    assert not any(word in message for word in _INTERNALS), message
    return message


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:70000/", "http://127.0.0.1:99999/", "https://127.0.0.1:65536/page", "http://[::1]:65536/",
    "http://127.0.0.1:-1/", "http://127.0.0.1:+80/", "http://127.0.0.1:1_0/", "http://127.0.0.1:\u0668\u0660/",
    "http://127.0.0.1:0/", "http://127.0.0.1:abc/", "http://localhost:123456789012345678901234567890/",
])
async def test_a_port_that_cannot_be_is_refused_in_words(url: str, data_dir: Path) -> None:
    assert await _reason(url, data_dir) == BAD_PORT


@pytest.mark.parametrize("url", ["http://[::1", "http://[::1/page", "http://::1]/", "http://[zz]/"])
async def test_square_brackets_written_wrong_are_refused_in_words(url: str, data_dir: Path) -> None:
    assert await _reason(url, data_dir) == BAD_BRACKETS


async def test_a_redirect_to_a_port_that_cannot_be_says_so(server: LoopbackServer, data_dir: Path) -> None:
    server.redirect("/moved", "http://127.0.0.1:70000/new")
    message = await _reason(server.url("/moved"), data_dir)
    assert message == (f"{server.url('/moved')} redirects to 'http://127.0.0.1:70000/new', which is refused: "
                       f"{BAD_PORT}")


async def test_ports_that_can_be_still_work(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/notes.txt", "the tide turns at noon", "text/plain; charset=utf-8")
    assert (await url_fetch(url, ctx(data_dir))).text.endswith("the tide turns at noon")
    padded = url.replace(f":{server.port}/", f":000{server.port}/")  # leading zeros: the same port
    assert (await url_fetch(padded, ctx(data_dir))).text.endswith("the tide turns at noon")
