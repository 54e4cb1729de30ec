"""A web address whose server name cannot be one ("www.ex..ample.com", "xn--", a part of 70 letters) is refused
in words by the check the command line, the Knowledge panel and url_fetch share; it was taken, and failed when
connecting with "unexpected error: UnicodeError: encoding with 'idna' codec failed" or a bare IDNAError."""

from __future__ import annotations

import asyncio
from http.server import BaseHTTPRequestHandler

import pytest

from tinyrag_desktop.kb.errors import FetchError
from tinyrag_desktop.kb.web import fetch_url, normalize_url
from tinyrag_desktop.tools import fetch as tool_fetch
from tinyrag_desktop.ui.kb_address import web_address_problem

from ..loopback import coded_pages, serving
from .cli_run import run_main

BAD = {
    "http://www.ex..ample.com/": "has an empty part",
    "http://.example.com/": "has an empty part",
    "http://xn--/": "is not a valid international name",
    "https://xn--zz.example/": "is not a valid international name",
    f"http://{'a' * 70}.com/": "has a part longer than 63 letters",
    f"http://{'abcdefghi.' * 26}com/": "is longer than 253 letters",
}
GOOD = ["https://bücher.de/", "https://xn--bcher-kva.de/x", "http://example.org./", f"https://{'a' * 63}.com/",
        "http://a_b.local/", "http://127.0.0.1:8000/", "http://[::1]/"]


@pytest.mark.parametrize("url", BAD)
def test_a_bad_server_name_is_said_by_the_address_check(url):
    with pytest.raises(FetchError, match=BAD[url]) as caught:
        normalize_url(url)
    assert str(caught.value).startswith("not a valid web address: the ")
    assert web_address_problem(url).startswith("Not a valid web address: the ")  # the panel's URL dialog


@pytest.mark.parametrize("url", BAD)
def test_url_fetch_refuses_a_bad_server_name_in_words(url):
    with pytest.raises(tool_fetch.FetchError, match=BAD[url]):
        asyncio.run(tool_fetch.fetch(url, policy=tool_fetch.FetchPolicy(allow_private=True)))


@pytest.mark.parametrize("url", GOOD)
def test_good_server_names_pass(url):
    assert normalize_url(url) and web_address_problem(url) == ""
    tool_fetch.check_url(url)


def test_kb_add_of_a_mistyped_address_says_what_is_wrong(tmp_path, capsys):
    code, out, err = run_main(capsys, "add", "http://www.ex..ample.com/", "http://xn--/", "--data-dir",
                              str(tmp_path / "data"))
    assert code == 1
    assert "failed: http://www.ex..ample.com/: not a valid web address: the name www.ex..ample.com has an " \
           "empty part" in err
    assert "failed: http://xn--/: not a valid web address: the name xn-- is not a valid international name" in err
    assert "unexpected" not in err and "Error" not in err


class _SendsOnToABadName(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(302)
        self.send_header("Location", "http://www.ex..ample.com/moved")
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_redirect_to_a_bad_server_name_is_said_in_words():
    with serving(_SendsOnToABadName) as base:
        with pytest.raises(FetchError, match="sent it on to an address whose server name is not valid"):
            fetch_url(f"{base}/old", 1_000_000)


def test_an_address_behind_an_invisible_character_says_so():
    problem = web_address_problem("\u202ehttp://example.org/")
    assert problem.startswith("Not a valid web address: it holds an invisible character (U+202E)")


def test_kb_add_of_an_address_behind_an_invisible_character_says_so(tmp_path, capsys):
    code, _, err = run_main(capsys, "add", "\u202ehttp://example.org/", "--data-dir", str(tmp_path / "data"))
    assert code == 1 and "holds an invisible character, U+202E: type it again" in err


# CJK input methods type 。 (U+3002), ． (U+FF0E) and ｡ (U+FF61) for a name's dots; IDNA reads them as dots.
CJK_DOTS = {"http://日本語。jp/": "http://日本語.jp/", "http://例え｡テスト/": "http://例え.テスト/",
            "https://bücher．de/x": "https://bücher.de/x", "http://EXAMPLE。org。/": "http://example.org./"}


@pytest.mark.parametrize("url", CJK_DOTS)
def test_a_name_written_with_cjk_full_stops_is_taken_and_stored_with_dots(url):
    assert normalize_url(url) == CJK_DOTS[url]
    assert web_address_problem(url) == ""
    assert tool_fetch.check_url(url).host == CJK_DOTS[url].split("/")[2].lower()


def test_kb_add_and_url_fetch_read_a_page_at_an_address_typed_with_cjk_full_stops(tmp_path, capsys):
    page = b"<html><body><p>The night ferry to the island leaves the harbour at eleven.</p></body></html>"
    with serving(coded_pages({"/ferry": ("identity", page)})) as base:
        typed = base.replace(".", "。") + "/ferry"  # http://127。0。0。1:port/ferry
        code, out, err = run_main(capsys, "add", typed, "--data-dir", str(tmp_path / "data"))
        assert code == 0, err
        code, out, err = run_main(capsys, "list", "--data-dir", str(tmp_path / "data"))
        assert f"{base}/ferry" in out and "。" not in out
        got = asyncio.run(tool_fetch.fetch(typed, policy=tool_fetch.FetchPolicy(allow_private=True)))
        assert got.status == 200 and got.url == f"{base}/ferry" and b"night ferry" in got.body
