"""An HTML page made of links (a bookmarks export, a reading list, a manual's index), named by itself as a
file or a web address, is imported as its links; found in a folder it is navigation, and left out."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.errors import Error
from tinyrag_desktop.kb.link_pages import link_page

BOOKMARKS = """<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>
<DL><p>
    <DT><H3>Cooking</H3>
    <DL><p>
""" + "".join(f'    <DT><A HREF="https://recipes.example.org/{n}" ADD_DATE="1700000000">Recipe {n}: '
              f'{dish}</A>\n' for n, dish in enumerate(["slow cooker chili", "lemon tart", "saffron risotto"] * 5)) + \
    "    </DL><p>\n</DL><p>\n"

INDEX = """<html><head><title>Index</title></head><body><div class="index"><dl>
<dt>statistics, <a href="functions-statistics.html">Statistics Information Functions</a></dt>
<dt>vacuum, <a href="routine-vacuuming.html">Routine Vacuuming</a></dt>
<dd><dl><dt>full, <a href="sql-vacuum.html">VACUUM</a></dt></dl></dd>
</dl></div></body></html>"""


def _files(tmp_path: Path) -> Path:
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "bookmarks.html").write_text(BOOKMARKS, encoding="utf-8")
    (folder / "bookindex.html").write_text(INDEX, encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nBuy flour.\n", encoding="utf-8")
    return folder


def test_a_page_of_links_named_by_itself_is_imported_as_its_links(tmp_path, data_dir):
    folder = _files(tmp_path)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder / "bookmarks.html"), str(folder / "bookindex.html")])
    assert len(report.added) == 2 and not report.skipped, report.skipped
    [hit] = search(data_dir, "saffron risotto", 1)
    assert hit.location == str(folder / "bookmarks.html") and "Cooking" in hit.heading
    assert "(https://recipes.example.org/2)" in hit.text  # a bookmark is kept for its address
    [hit] = search(data_dir, "vacuum full", 1)
    assert "full, VACUUM" in hit.text  # an index's term, before its link
    assert "sql-vacuum.html" not in hit.text  # a manual's own links say nothing


def test_in_a_folder_a_page_of_links_is_navigation(tmp_path, data_dir):
    folder = _files(tmp_path)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert "notes.md" in [Path(p).name for p in report.added]
    assert [(Path(f.location).name, f.reason) for f in report.skipped] == [
        ("bookmarks.html", "no readable text found (only navigation or markup)")]


def test_a_page_of_links_by_its_address_is_imported(data_dir):
    # a site's page of links, all in its <aside>, which the readers leave out of a page with text
    page = ("<!DOCTYPE html><html><head><title>Links</title></head><body><aside><h2>Friends of the harbour</h2><ul>"
            + "".join(f'<li><a href="https://{name}.example.org/">{name.title()} sailing club</a></li>'
                      for name in ("kestrel", "osprey", "plover", "tern")) + "</ul></aside></body></html>").encode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

    with serving(Handler) as base:
        with open_store(data_dir) as kb:
            report = Importer(kb).run([base + "/links.html"])
            assert report.added == [base + "/links.html"], report.skipped
            assert kb.sources()[0].type == "url"
    assert "Plover sailing club (https://plover.example.org/)" in search(data_dir, "plover club", 1)[0].text


_PIECES = st.sampled_from(["<a href='https://x.org/a'>", "<a href=b.html>", "</a>", "<h2>", "</h2>", "<li>",
                           "<dt>", "<dd>", "<dl>", "</dl>", "<ul>", "</ul>", "<script>", "</script>", "<!-- c -->",
                           "<title>", "</title>", "<p>", "<table><tr><td>", "&amp;", "\x00", "\ufeff", "words here"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=40), st.booleans())
def test_any_page_is_read_as_links_or_refused_with_a_reason(pieces, as_bytes):
    page = "".join(pieces)
    try:
        doc = link_page(page.encode("utf-8", "surrogatepass") if as_bytes else page, "page.html")
    except Error as exc:  # NoText: a reason in words, never a parser's own exception
        assert str(exc)
    else:
        assert any(b.kind == "text" and b.text.strip() for b in doc.blocks)


def test_a_table_of_contents_named_with_the_pages_it_leads_to_is_navigation(tmp_path, data_dir):
    # A manual's pages each named (a selection of them all, as the benchmark imports the PostgreSQL manual):
    # its table of contents leads to them and is left out; named by itself it is read as its links. Enough
    # pages that reader processes read them, whose answer carries where the links lead too.
    manual = tmp_path / "manual"
    manual.mkdir()
    names = [f"chapter{n:02}.html" for n in range(14)]
    for n, name in enumerate(names):
        (manual / name).write_text(f"<html><head><title>Chapter {n}</title></head><body><h1>Chapter {n}</h1>"
                                   f"<p>The lighthouse keeper's duty number {n} is explained here.</p></body></html>")
    (manual / "toc.html").write_text("<html><head><title>Contents</title></head><body><dl>" + "".join(
        f'<dt><a href="{name}">Chapter {n}: duties of the keeper</a></dt>' for n, name in enumerate(names))
        + "</dl></body></html>")
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(manual / name) for name in ["toc.html", *names]])
        assert len(report.added) == 14
        assert [(Path(f.location).name, f.reason) for f in report.skipped] == [
            ("toc.html", "no readable text found (only navigation or markup)")]
        report = Importer(kb).run([str(manual / "toc.html")])
        assert report.added == [str(manual / "toc.html")]


def test_where_the_links_lead_comes_back_from_a_reader_process():
    import subprocess

    from tinyrag_desktop.kb import reader_worker

    page = b'<html><body><aside><a href="a.html">Alpha duties</a> <a href="b.html">Beta duties</a></aside>'
    job = reader_worker.ReadJob(page, "html", "toc.html", 1200, link_pages=True)
    proc = subprocess.Popen(reader_worker.reader_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=reader_worker._environment())
    reader_worker._send(proc.stdin, job)
    proc.stdin.close()
    ok, packed = reader_worker._receive(proc.stdout)
    proc.stdout.close()
    assert proc.wait(30) == 0
    doc, _chunks = reader_worker._unpacked(packed)
    assert ok and doc.link_targets == ("a.html", "b.html")
