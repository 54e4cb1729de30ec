"""What kb add reads from disk it reads from a URL, whatever its server calls it: the content type decides
when it names a format, else the address's extension, else the bytes (a real loopback HTTP server)."""

from __future__ import annotations

import gzip
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.errors import Error
from tinyrag_desktop.kb.readers import SUPPORTED
from tinyrag_desktop.kb.web import Fetched, served_kind

from .conftest import make_docx, make_pdf

RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour news</title>
<item><title>Quokka sighted</title><description>A quokka swam across the marina at dawn.</description></item>
</channel></rss>"""
PLAIN = b"Notes on the aye-aye, a lemur that taps on wood to find grubs.\n"
CSV = b"name,city,pet\nAnna,Oslo,wombat\nBen,Lima,capybara\n"


def _pages(tmp_path: Path) -> dict[str, tuple[str | None, bytes]]:
    make_docx(tmp_path / "policy.docx")
    return {
        "/files/policy.docx": ("application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                               (tmp_path / "policy.docx").read_bytes()),
        "/files/feed.xml": ("application/xml", RSS),
        "/files/rss": ("application/rss+xml", RSS),
        "/files/excel.csv": ("application/vnd.ms-excel", CSV),
        "/files/octet.txt": ("application/octet-stream", PLAIN),
        "/files/doc.txt.gz": ("application/gzip", gzip.compress(PLAIN)),
        "/files/report.pdf": ("application/octet-stream", make_pdf(["Lobster catches doubled this season."])),
        "/files/typeless.csv": (None, CSV),
        "/download?id=7": ("application/octet-stream", make_pdf(["Herring quotas were cut by a third."])),
    }


def _serve(pages: dict[str, tuple[str | None, bytes]]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            parts = urlsplit(self.path)
            ctype, body = pages[parts.path + (f"?{parts.query}" if parts.query else "")]
            self.send_response(200)
            if ctype is not None:
                self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


@pytest.mark.parametrize(("path", "kind", "words"), [
    ("/files/policy.docx", "docx", "Garden Handbook"),
    ("/files/feed.xml", "xml", "quokka marina"),
    ("/files/rss", "xml", "quokka marina"),
    ("/files/excel.csv", "csv", "wombat Oslo"),
    ("/files/octet.txt", "text", "aye-aye grubs"),
    ("/files/doc.txt.gz", "text", "aye-aye grubs"),
    ("/files/report.pdf", "pdf", "Lobster catches"),
    ("/files/typeless.csv", "csv", "capybara Lima"),
    ("/download?id=7", "pdf", "Herring quotas"),
])
def test_a_supported_file_imports_by_url_whatever_its_server_calls_it(tmp_path, data_dir, path, kind, words):
    with serving(_serve(_pages(tmp_path))) as base:
        with open_store(data_dir) as kb:
            report = Importer(kb).run([base + path])
            assert report.added == [base + path], report.failed
            [source] = kb.sources()
    assert source.type == kind
    assert search(data_dir, words, 1)[0].location == base + path


def test_a_csv_by_url_is_read_in_columns_as_a_file_is(tmp_path, data_dir):
    with serving(_serve(_pages(tmp_path))) as base:
        with open_store(data_dir) as kb:
            Importer(kb).run([base + "/files/excel.csv"])
    [hit] = search(data_dir, "capybara", 1)
    assert "name: Ben" in hit.text or "Ben | Lima | capybara" in hit.text, hit.text


def test_binary_bytes_and_unknown_types_are_still_refused():
    with pytest.raises(Error, match="PNG image data"):
        Fetched("http://127.0.0.1/logo.txt", "application/octet-stream", b"\x89PNG\r\n\x1a\n" + b"\0" * 500).document()
    with pytest.raises(Error, match="application/javascript"):
        Fetched("http://127.0.0.1/app", "application/javascript", b"var x = 1;\n").document()


_MIMES = st.sampled_from(["", "text/plain", "text/html", "application/octet-stream", "application/xml",
                          "application/vnd.ms-excel", "application/gzip", "image/png", "text/csv",
                          "application/json", "application/x-whatever", "text/x-rst", "application/atom+xml"])
_PATHS = st.sampled_from(["/", "/a", "/a.txt", "/a.csv", "/a.json", "/a.xml", "/a.md", "/a.pdf", "/a.docx",
                          "/a.txt.gz", "/a.php", "/v2.0", "/a.html", "/%FF%FE.csv", "/a.log"])
_STARTS = st.sampled_from([b"", b"%PDF-1.4\n", b"PK\x03\x04", b"\x1f\x8b", b"<?xml version='1.0'?>",
                           b"<!DOCTYPE html><html>", b"\xef\xbb\xbf", b"\xff\xfe", b"{", b"name,city\n"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_MIMES, _PATHS, _STARTS, st.binary(max_size=300))
def test_any_served_page_is_read_or_refused_with_a_reason(mime, path, start, rest):
    data = start + rest
    try:
        kind = served_kind(mime, Path(path), data)
    except Error as exc:
        assert str(exc)
    else:
        assert kind in set(SUPPORTED.values())
    try:
        doc = Fetched(f"http://127.0.0.1{path}", mime, data).document()
    except Error as exc:  # ReadError, NoText: a reason in words, never a parser's own exception
        assert str(exc)
    else:
        assert doc.blocks


def test_a_web_page_is_a_web_page_whatever_its_server_calls_it(data_dir):
    # with no Content-Type it was typed "HTML", with text/html "Web page"
    page = (b"<!DOCTYPE html><html><head><title>Lighthouse keeping</title></head><body><article><h1>Duties</h1>"
            b"<p>The keeper trimmed the wick every four hours, and polished the Fresnel lens each morning.</p>"
            b"</article></body></html>")
    pages = {"/typed": ("text/html; charset=utf-8", page), "/untyped": (None, page), "/plain": ("text/plain", page)}
    with serving(_serve(pages)) as base:
        with open_store(data_dir) as kb:
            report = Importer(kb).run([base + path for path in pages])
            assert len(report.added) == 3, report.failed
            assert {s.location.rsplit("/", 1)[1]: s.type for s in kb.sources()} == {
                "typed": "url", "untyped": "url", "plain": "url"}


def test_binary_bytes_say_though_only_where_the_server_claims_text():
    # "the page is binary data, not text, though the server calls it application/octet-stream": that type
    # says binary itself.
    noise = bytes(range(256)) * 4
    with pytest.raises(Error) as raised:
        Fetched("http://127.0.0.1/dump", "application/octet-stream", noise).document()
    assert str(raised.value) == ("the page is binary data (the server sends it as application/octet-stream), not "
                                 "a document tinyRAG reads (text, HTML, PDF, Word, CSV, JSON or XML)")
    with pytest.raises(Error) as raised:
        Fetched("http://127.0.0.1/dump", "", noise).document()
    assert "though" not in str(raised.value) and "(the server names no type)" in str(raised.value)
    for claim in ("text/plain", "application/json", "application/atom+xml"):
        with pytest.raises(Error) as raised:
            Fetched("http://127.0.0.1/dump", f"{claim}; charset=utf-8", noise).document()
        assert str(raised.value) == f"the page is binary data, not text, though the server calls it {claim}"


def test_a_zip_archive_served_as_one_is_said_to_be_one(tmp_path, data_dir):
    # served as application/zip, it was "a ZIP archive, not a Word document": every ZIP was taken for one
    import io
    import zipfile

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("notes.txt", "Quokkas live on Rottnest Island.")
    make_docx(tmp_path / "policy.docx")
    pages = {"/files/arch.zip": ("application/zip", archive.getvalue()),
             "/files/policy": ("application/zip", (tmp_path / "policy.docx").read_bytes()),  # a .docx all the same
             "/files/bad.docx": ("application/zip", archive.getvalue())}
    with serving(_serve(pages)) as base:
        with open_store(data_dir) as kb:
            report = Importer(kb).run([base + path for path in pages])
    assert report.added == [base + "/files/policy"]
    assert {f.location.rsplit("/", 1)[1]: f.reason for f in report.failed} == {
        "arch.zip": "a ZIP archive, which is not read (unpack it and import the files in it)",
        "bad.docx": "a ZIP archive, not a Word document"}
