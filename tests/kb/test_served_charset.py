"""The charset a web server names in its Content-Type (``text/html; charset=windows-1251``) is the one a page
or a plain text is read in when the page names none: a byte order mark outranks it, it outranks a <meta
charset> and a guess; a name no codec has is passed over, as if none were given. All served on loopback."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.web import Fetched

# What each address serves: its Content-Type and its bytes.
_SERVED: dict[str, tuple[str, bytes]] = {}


class _Server(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        ctype, body = _SERVED[self.path]
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _page(title: str, text: str, head: str = "") -> str:
    return f"<html><head>{head}<title>{title}</title></head><body><article><p>{text}</p></article></body></html>"


def _imported(data_dir: Path, served: dict[str, tuple[str, bytes]]) -> tuple[object, dict[str, str]]:
    """The import's report, and the text stored of each page by its path."""
    _SERVED.clear()
    _SERVED.update(served)
    with serving(_Server) as url:
        kb = open_store(data_dir)
        try:
            report = Importer(kb).run([url + path for path in served])
            texts = {s.location.removeprefix(url): "\n".join(c.text for c in kb.chunks(s.id)) for s in kb.sources()}
        finally:
            kb.close()
    return report, texts


# Pages and texts their bytes alone would be read wrong from: too short to tell (a guess, said as such), or
# in a code page whose bytes are another's letters (ISO-8859-2's "ą" is Windows-1250's "ħ", Hungarian's "ő"
# Windows-1252's "õ").
_CASES = {
    "/sklad.html": ("text/html; charset=windows-1251", "Склад", "Склад закрыт.", "cp1251"),
    "/soko.html": ("text/html; charset=Shift_JIS", "倉庫", "倉庫の在庫は月曜日に数えます。", "shift_jis"),
    "/magazyn.html": ("text/html; charset=iso-8859-2", "Magazyn",
                      "Zażółć gęślą jaźń. Magazyn jest zamknięty w środę, ale w czwartek będzie otwarty.", "iso8859_2"),
    "/raktar.html": ("text/html;charset=\"windows-1250\"", "Raktár",
                     "A főváros legnagyobb raktára hétfőn zárva tart, de kedden újra nyitva lesz.", "cp1250"),
    "/sklad.txt": ("text/plain; charset=koi8-r", "", "Склад номер пять закрыт.", "koi8_r"),
    "/sandelis.txt": ("text/plain; Charset=windows-1257", "", "Sandėlis uždarytas iki pirmadienio.", "cp1257"),
}


@pytest.mark.parametrize("path", list(_CASES))
def test_a_page_or_text_is_read_in_the_charset_its_server_names(data_dir, path):
    ctype, title, text, codec = _CASES[path]
    body = _page(title, text) if path.endswith(".html") else text + "\n"
    report, texts = _imported(data_dir, {path: (ctype, body.encode(codec))})
    assert report.added and not report.failed and not report.notes, (report.failed, report.notes)
    assert texts[path] == text


def test_the_servers_charset_outranks_a_meta_charset_and_a_byte_order_mark_outranks_both(data_dir):
    hungarian = _CASES["/raktar.html"][2]
    text = "Склад номер пять закрыт до понедельника."
    report, texts = _imported(data_dir, {
        # a <meta> naming another encoding: the header says how the page was sent
        "/meta.html": ("text/html; charset=windows-1250",
                       _page("Raktár", hungarian, '<meta charset="iso-8859-1">').encode("cp1250")),
        # a byte order mark: the bytes say it themselves
        "/bom.html": ("text/html; charset=windows-1251", b"\xef\xbb\xbf" + _page("Склад", text).encode()),
        "/bom.txt": ("text/plain; charset=windows-1251", ("\ufeff" + text + "\n").encode("utf-16-le")),
    })
    assert not report.failed and not report.notes, (report.failed, report.notes)
    assert texts == {"/meta.html": hungarian, "/bom.html": text, "/bom.txt": text}


def test_a_server_naming_latin_1_for_a_page_saved_as_utf8_still_gives_utf8(data_dir):
    # Apache's old default (AddDefaultCharset ISO-8859-1) sent with a page any editor of today saved
    text = "Grüße aus München: schöne Straße am Flußufer."
    report, texts = _imported(data_dir, {
        "/gruss.html": ("text/html; charset=ISO-8859-1", _page("Grüße", text).encode()),
        "/gruss.txt": ("text/plain; charset=iso-8859-1", (text + "\n").encode()),
    })
    assert texts == {"/gruss.html": text, "/gruss.txt": text} and not report.notes


@pytest.mark.parametrize("charset", ["x-klingon", "base64", "utf-16", "hex", "utf-7", "", '"', "unicode-escape"])
def test_a_charset_no_page_can_be_in_is_passed_over(data_dir, charset):
    text = "Привет, это русский текст о складе и инвентаризации, который читается по догадке."
    report, texts = _imported(data_dir, {
        "/page.html": (f"text/html; charset={charset}", _page("Склад", text).encode("cp1251")),
        "/page.txt": (f"text/plain; charset={charset}", (text + "\n").encode("cp1251")),
    })
    assert not report.failed, report.failed
    assert texts == {"/page.html": text, "/page.txt": text}  # guessed, as with no charset


def test_the_content_types_parts_are_read_as_servers_write_them():
    fetched = Fetched("http://127.0.0.1/a", 'TEXT/HTML ; Charset = "Shift_JIS" ; q=1', b"")
    assert (fetched.mime, fetched.charset) == ("text/html", "Shift_JIS")
    assert Fetched("http://127.0.0.1/a", "text/plain", b"").charset is None
    assert Fetched("http://127.0.0.1/a", "", b"").mime == ""


_LABELS = st.sampled_from(["windows-1251", "shift_jis", "iso-8859-2", "utf-8", "utf-16", "UTF-32", "latin1", "koi8-r",
                           "gbk", "big5", "base64", "rot13", "x-bogus", "cp037", "utf-7", "idna", ""])


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300), charset=_LABELS | st.text(max_size=20))
def test_any_bytes_in_any_named_charset_give_utf8_or_are_left_alone(data, charset):
    from tinyrag_desktop.kb.html_encoding import served_as_utf8

    served = served_as_utf8(data, charset)
    assert served is None or isinstance(served.decode("utf-8"), str)


@settings(max_examples=150, deadline=None)
@given(data=st.binary(min_size=1, max_size=300)
       | st.text(max_size=200).map(lambda t: _page("t", t).encode("cp1251", "replace")),
       mime=st.sampled_from(["text/html", "text/plain", "application/json", "text/markdown", ""]),
       charset=_LABELS | st.text(max_size=20))
def test_any_page_in_any_named_charset_is_read_or_refused_with_a_reason(data, mime, charset):
    try:
        doc = Fetched("http://127.0.0.1/page", f"{mime}; charset={charset}", data).document()
    except ReadError:
        return
    assert all("\x00" not in block.text for block in doc.blocks)
