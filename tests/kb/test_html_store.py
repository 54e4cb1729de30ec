"""Shortcuts of an import outside the HTML reader give what the long way gave: where a link points (its
target's real path, found a folder at a time), the real paths of a folder's files, a source found by its
location in one query, and a chunk's heading path worked out once per heading."""

from __future__ import annotations

import os
from itertools import groupby
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, chunking, ingest, links as links_module, open_store
from tinyrag_desktop.kb.chunking import chunk_blocks
from tinyrag_desktop.kb.import_items import ImportItem, expand
from tinyrag_desktop.kb.import_report import ImportReport
from tinyrag_desktop.kb.models import Block, Chunk
from tinyrag_desktop.kb.links import resolve_link

needs_symlinks = pytest.mark.skipif(os.name != "posix", reason="symlinks made freely on POSIX only")


def _resolved_the_long_way(location: str, href: str) -> str:
    """resolve_link as it was: urlsplit asked of every href, and every folder of a target's path resolved."""
    href = href.strip()
    try:
        scheme = urlsplit(href).scheme.lower()
        if urlsplit(location).scheme.lower() in ("http", "https"):
            target = urljoin(location, href)
            return target.split("#", 1)[0] if urlsplit(target).scheme in ("http", "https") else ""
        if scheme in ("http", "https"):
            return href.split("#", 1)[0]
        if scheme == "file":
            path = unquote(urlsplit(href).path)
        elif scheme and len(scheme) > 1:
            return ""
        else:
            path = unquote(href.split("#", 1)[0].split("?", 1)[0])
            if not path:
                return ""
            path = os.path.join(os.path.dirname(location), path)
    except ValueError:
        return ""
    path = os.path.normpath(path)
    return os.path.realpath(path) if os.path.isabs(path) else path


_HREF_PARTS = st.sampled_from(["a.html", "../b.html", "sub/", "#x", "?q=1", "%20", "//", "[", "]", ":", "é",
                               "file:", "http://h/", "mailto:", " ", "\t", ".", "..", "/abs", "c:", "x#y"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_HREF_PARTS, max_size=4).map("".join),
       st.sampled_from(["/docs/manual/a.html", "https://example.org/x/", "relative/a.html", "C:\\docs\\a.html"]))
def test_a_link_points_where_the_long_way_said(href: str, location: str) -> None:
    links_module._real_folder.cache_clear()
    assert resolve_link(location, href) == _resolved_the_long_way(location, href)


@needs_symlinks
def test_links_through_linked_folders_and_files_name_the_real_pages(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "deep").mkdir(parents=True)
    (real / "deep" / "page.html").write_text("x")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "folder").symlink_to(real / "deep")  # a linked folder on the way
    (tmp_path / "site" / "page.html").symlink_to(real / "deep" / "page.html")  # a linked page
    (tmp_path / "site" / "loop.html").symlink_to(tmp_path / "site" / "loop.html")  # a link to itself
    location = str(tmp_path / "site" / "from.html")
    for href in ("folder/page.html", "page.html", "loop.html", "missing.html", "folder/../page.html",
                 "folder/missing.html"):
        links_module._real_folder.cache_clear()
        links_module._real_path.cache_clear()
        assert resolve_link(location, href) == _resolved_the_long_way(location, href), href
    assert resolve_link(location, "folder/page.html") == str((real / "deep" / "page.html").resolve())


def test_a_plain_link_is_not_taken_apart_as_an_address(monkeypatch) -> None:
    asked = []
    monkeypatch.setattr(links_module, "urlsplit", lambda url, *args: asked.append(url) or urlsplit(url, *args))
    assert resolve_link("/docs/manual/a.html", "sql-select.html#x") == os.path.normpath("/docs/manual/sql-select.html")
    assert asked == ["/docs/manual/a.html"]  # where the link is, not the link


@needs_symlinks
def test_a_folder_linked_elsewhere_between_two_pages_is_seen_anew(tmp_path: Path, data_dir: Path) -> None:
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "target.html").write_text("x")
        (tmp_path / name / "other.html").write_text("x")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "shelf").symlink_to(tmp_path / "one")
    kb = open_store(data_dir)
    words = [("shelf/target.html", "the words around the link to the target page")]
    kb.replace_source(title="A", location=str(tmp_path / "site" / "a.html"), type="html", size=1, content_hash="a",
                      chunks=[Chunk("A", "text")], load_id="l", links=words)
    (tmp_path / "site" / "shelf").unlink()
    (tmp_path / "site" / "shelf").symlink_to(tmp_path / "two")
    kb.replace_source(title="B", location=str(tmp_path / "site" / "sub.html"), type="html", size=1,
                      content_hash="b", chunks=[Chunk("B", "text")], load_id="l",
                      links=[("shelf/other.html", "the words around a link to another page")])
    targets = [row[0] for row in kb.conn.execute("SELECT target FROM links ORDER BY id")]
    kb.close()
    assert targets == [str((tmp_path / "one" / "target.html").resolve()),
                       str((tmp_path / "two" / "other.html").resolve())]


# ---- a folder's files ----------------------------------------------------------------------------------


@needs_symlinks
def test_a_folder_s_files_are_named_by_their_real_paths(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    real = docs / "real"  # inside the folder imported: a link out of it is not followed
    real.mkdir(parents=True)
    (real / "kept.md").write_text("# Kept\n\nwords")
    (docs / "sub").mkdir(parents=True)
    (docs / "a.md").write_text("# A\n\nwords")
    (docs / "sub" / "b.md").write_text("# B\n\nwords")
    (docs / "linked.md").symlink_to(real / "kept.md")
    (docs / "shelf").symlink_to(real)
    (docs / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    (tmp_path / "via").symlink_to(docs)
    for folder in (docs, tmp_path / "via"):
        report = ImportReport()
        found = [item.value for item in expand([ImportItem("path", str(folder))], report)]
        walked = [Path(root, name) for root, _, names in os.walk(folder, followlinks=True) for name in names]
        assert sorted(found) == sorted({str(p.resolve()) for p in walked if p.exists()})
        assert any("dangling.md" in failure.location for failure in report.skipped)


@needs_symlinks
def test_a_folder_s_files_are_resolved_a_folder_at_a_time(tmp_path: Path, monkeypatch) -> None:
    for n in range(30):
        (tmp_path / f"page{n}.md").write_text(f"# Page {n}\n\nwords")
    resolved = []
    realpath = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda path, **kw: resolved.append(path) or realpath(path, **kw))
    found = expand([ImportItem("path", str(tmp_path))], ImportReport())
    assert len(found) == 30
    assert len(resolved) < 5  # the folder, not each of its pages (twice each, before)


# ---- a source by its location --------------------------------------------------------------------------


def test_a_source_found_by_location_is_the_source_found_by_id(data_dir: Path) -> None:
    kb = open_store(data_dir)
    sid = kb.replace_source(title="T", location="/x/t.md", type="markdown", size=3, content_hash="h",
                            chunks=[Chunk("T", "one"), Chunk("T", "two")], load_id="l")
    assert kb.source_by_location("/x/t.md") == kb.source(sid)
    assert kb.source_by_location("/x/other.md") is None
    kb.close()


# ---- heading paths -------------------------------------------------------------------------------------


def test_heading_paths_change_with_each_heading_and_only_then(monkeypatch) -> None:
    made = []
    new_path = chunking._Builder._new_path
    monkeypatch.setattr(chunking._Builder, "_new_path", lambda self: made.append(1) or new_path(self))
    blocks = [Block("heading", "Process", 1), *[Block("text", "word " * 100) for _ in range(6)],
              Block("heading", "Events", 2), Block("text", "event " * 50),
              Block("heading", "Events", 2), Block("text", "again " * 50),
              Block("heading", "Exit", 1), Block("text", "bye " * 20)]
    chunks = chunk_blocks("Process | Node.js", blocks, size=300)
    assert len(chunks) > 6
    assert [heading for heading, _ in groupby(c.heading for c in chunks)] == [
        "Process | Node.js", "Process | Node.js > Events", "Process | Node.js > Exit"]
    assert len(made) == 4  # once for each heading with text under it, not for each chunk


def test_importing_a_folder_stores_what_it_did_before(tmp_path: Path, data_dir: Path) -> None:
    pages = tmp_path / "site"
    pages.mkdir()
    for n in range(3):
        (pages / f"p{n}.html").write_text(
            f"<html><head><title>Page {n} – é</title></head><body><h1>Page {n}</h1>"
            f"<p>Words of page {n}; see <a href='p{(n + 1) % 3}.html#top'>the next page</a> for more.</p>"
            "</body></html>", encoding="utf-8")
    kb = open_store(data_dir)
    report = Importer(kb).run([str(pages)])
    rows = list(kb.conn.execute("SELECT s.location, l.target, l.text FROM links l JOIN sources s ON s.id = l.source_id"
                                " ORDER BY s.location"))
    kb.close()
    assert len(report.added) == 3
    real = str(pages.resolve())
    assert [(Path(a).name, Path(b).name) for a, b, _ in rows] == [("p0.html", "p1.html"), ("p1.html", "p2.html"),
                                                                   ("p2.html", "p0.html")]
    assert all(a.startswith(real) and b.startswith(real) for a, b, _ in rows)
    assert ingest.READER_VERSION >= 3  # 3: passages keep their anchor; their texts are read as before
