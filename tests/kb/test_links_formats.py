"""Links in Markdown, reStructuredText and web pages feed the link index as HTML links do; links to a
symlinked page are filed under its real path, where the import stored it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.readers import read_markdown, read_rst
from tinyrag_desktop.kb.links import resolve_link
from tinyrag_desktop.kb.web import html_document

MARKDOWN = """# Guide

To empty a whole table at once, [TRUNCATE](truncate.md#top "Truncate") is the faster way to go.

![diagram](img.png) shows how the [planner] and the [rows][r] fit together in one picture.

[Short](alone.md)

| command | what it does |
|---|---|
| [VACUUM](vacuum.md) | reclaims the space that deleted rows leave behind |

```
[not a link](code.md) inside a fence, where nothing is a link at all
```

[planner]: <planner.md> "The planner"
[r]: rows.md
"""


def test_markdown_links_are_read_with_their_words_and_their_markup_removed():
    doc = read_markdown(MARKDOWN.encode(), "guide.md")
    by_href = {link.href: link.text for link in doc.links}
    assert by_href["truncate.md#top"] == "Guide: To empty a whole table at once, TRUNCATE is the faster way to go."
    assert "shows how the planner and the rows fit" in by_href["planner.md"]  # a reference link
    assert "rows.md" in by_href  # a full reference link
    assert "reclaims the space" in by_href["vacuum.md"]  # a table row is the link's sentence
    assert "img.png" not in by_href  # an image is not a link
    assert "alone.md" not in by_href  # a link standing alone says nothing of its target
    assert "code.md" not in by_href  # code is not text
    texts = [b.text for b in doc.blocks]
    assert "To empty a whole table at once, TRUNCATE is the faster way to go." in texts
    assert not any("[r]:" in t or "](" in t for t in texts if not t.startswith("[not a link]"))


def test_wiki_links_of_note_taking_apps_are_read():
    text = ("# Heating\n\nIf the boiler knocks, first see [[Bleeding radiators]] and then "
            "[[plumbing/Valves#Thermostatic|the valve notes]] before calling anyone.\n\n"
            "![[boiler-photo.png]] shows the boiler itself, with the pressure gauge on its left side.\n")
    doc = read_markdown(text.encode(), "heating.md")
    by_href = {link.href: link.text for link in doc.links}
    assert set(by_href) == {"Bleeding radiators.md", "plumbing/Valves.md"}
    assert "first see Bleeding radiators and then the valve notes before" in by_href["plumbing/Valves.md"]
    texts = [b.text for b in doc.blocks]
    assert "[[" not in "".join(texts) and "boiler-photo.png shows the boiler" in texts[2]


def test_importing_a_notes_vault_links_notes_by_name(tmp_path, data_dir):
    (tmp_path / "Heating.md").write_text("# Heating\n\nWhen the boiler makes a knocking noise, read "
                                         "[[Bleeding radiators]] first.\n", encoding="utf-8")
    (tmp_path / "Bleeding radiators.md").write_text("# Bleeding radiators\n\nOpen the valve until water "
                                                    "appears.\n", encoding="utf-8")
    kb = open_store(data_dir)
    Importer(kb).run([str(tmp_path)])
    kb.close()
    assert [Path(h.location).name for h in search(data_dir, "knocking noise", 5)] == [
        "Heating.md", "Bleeding radiators.md"]


RST = """Guide
=====

To empty a whole table at once, `TRUNCATE <truncate.rst>`_ is the faster way to go.
See :doc:`the vacuum page <vacuum>` for how the space deleted rows leave is reclaimed,
and the `project site`_ or :ref:`a label <somewhere>` for the rest of this long sentence.

.. _project site: https://example.org/site
"""


def test_rst_links_and_sphinx_doc_roles_are_read():
    doc = read_rst(RST.encode(), "guide.rst")
    by_href = {link.href: link.text for link in doc.links}
    assert set(by_href) == {"truncate.rst", "vacuum.rst", "https://example.org/site"}
    assert by_href["truncate.rst"].startswith("Guide: To empty a whole table at once, TRUNCATE is the faster")
    text = next(b.text for b in doc.blocks if b.kind == "text")
    assert "See the vacuum page for how" in text and "a label for the rest" in text
    assert "`" not in text and ".. _project" not in "".join(b.text for b in doc.blocks)


@given(st.text(max_size=300))
def test_any_markdown_or_rst_text_reads_without_error(text):
    for reader in (read_markdown, read_rst):
        try:
            doc = reader(text.encode("utf-8", "surrogatepass"), "x")
        except UnicodeEncodeError:
            return
        for link in doc.links:
            assert link.href and link.text


def test_web_page_links_keep_the_page_relative_address():
    page = b"""<html><head><title>Deleting rows</title></head><body><nav><a href='/x'>home</a></nav>
    <article><h1>Deleting rows</h1>
    <p>To empty a whole table at once, <a href="truncate.html#top">TRUNCATE</a> is the faster way, and it
    is described fully on its own page, with many more words to make this paragraph long enough.</p>
    <p>Another paragraph long enough to matter here, on <a href="/docs/vacuum.html">VACUUM</a>, which reclaims
    the space that deleted rows leave behind them in the tables of a database.</p></article></body></html>"""
    url = "https://example.org/docs/delete.html"
    doc = html_document(page, url)
    targets = {resolve_link(url, link.href): link.text for link in doc.links}
    # trafilatura alone would make the first https://example.org/truncate.html (the site's root)
    assert set(targets) == {"https://example.org/docs/truncate.html", "https://example.org/docs/vacuum.html"}
    assert "faster way" in targets["https://example.org/docs/truncate.html"]


def test_importing_a_markdown_folder_finds_a_page_by_what_links_to_it_say(tmp_path, data_dir):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "index.md").write_text(
        "# Index\n\nWhen the boiler makes a knocking noise, read [bleeding radiators](heating/bleed.md) first.\n",
        encoding="utf-8")
    (folder / "heating").mkdir()
    (folder / "heating" / "bleed.md").write_text(
        "# Bleeding radiators\n\nOpen the valve with the key until water appears, then close it.\n",
        encoding="utf-8")
    (folder / "garden.md").write_text("# Garden\n\nPrune the roses in early spring.\n", encoding="utf-8")
    kb = open_store(data_dir)
    Importer(kb).run([str(folder)])
    kb.close()
    # bleed.md never says "knocking" or "noise": only index.md's link to it does.
    found = [Path(h.location).name for h in search(data_dir, "knocking noise", 5)]
    assert found == ["index.md", "bleed.md"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks here")
def test_a_link_to_a_symlinked_page_is_filed_under_its_real_path(tmp_path, data_dir):
    real = tmp_path / "site" / "store"  # inside the folder imported: a link out of it is not followed
    real.mkdir(parents=True)
    (real / "target.html").write_text(
        "<html><head><title>Target</title></head><body><main><p>Plain words about valves.</p></main></body></html>",
        encoding="utf-8")
    site = tmp_path / "site"
    try:
        (site / "target.html").symlink_to(real / "target.html")
    except OSError:
        pytest.skip("symlinks are not allowed here")
    (site / "from.html").write_text(
        "<html><head><title>From</title></head><body><main><p>For the squeaky hinges problem, read "
        "<a href='target.html'>the target page</a> before anything else.</p></main></body></html>",
        encoding="utf-8")
    assert resolve_link(str(site / "from.html"), "target.html") == str((real / "target.html").resolve())
    kb = open_store(data_dir)
    Importer(kb).run([str(site)])
    kb.close()
    found = [Path(h.location).name for h in search(data_dir, "squeaky hinges", 5)]
    assert "target.html" in found
