"""Anchors: each passage of an HTML page keeps the id of the place it sits under (a heading, its section, a
definition term, an <a name>), so the page can be opened there."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kb.html_markup import markup
from tinyrag_desktop.kb import reader_worker
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.html_reader import parse_html

# A definition long enough that each term starts a passage of its own (chunks of 1,200 characters).
_LONG = " ".join(["This setting changes how much memory a query may use before it spills to disk."] * 12)


def _docbook() -> str:
    """A reference page as DocBook's XSL writes the PostgreSQL manual: sections as <div class="sectN" id>,
    an <a id> inside a heading, parameters as <dt id> with an index term's <a id> inside."""
    terms = "".join(
        f'<dt id="GUC-{name.upper().replace("_", "-")}"><span class="term"><code class="varname">{name}</code> '
        f'(<code class="type">integer</code>) <a id="id-1.6.7.{n}" class="indexterm"></a></span></dt>'
        f"<dd><p>{name} {_LONG}</p><p>Part two of {name}. {_LONG}</p></dd>"
        for n, name in enumerate(["shared_buffers", "work_mem", "maintenance_work_mem"]))
    return (
        '<html><head><title>19.4. Resource Consumption</title></head><body id="docContent">'
        '<div class="navheader"><a href="prev.html">Prev</a> <a href="next.html">Next</a></div>'
        '<div class="sect1" id="RUNTIME-CONFIG-RESOURCE"><div class="titlepage"><div><div>'
        '<h2 class="title"><a id="RUNTIME-CONFIG-RESOURCE"></a>19.4. Resource Consumption</h2></div></div></div>'
        '<div class="toc"><dl class="toc"><dt><a href="#RUNTIME-CONFIG-RESOURCE-MEMORY">19.4.1. Memory</a></dt>'
        "</dl></div>"
        '<div class="sect2" id="RUNTIME-CONFIG-RESOURCE-MEMORY"><div class="titlepage"><div><div>'
        '<h3 class="title">19.4.1. Memory</h3></div></div></div>'
        f'<div class="variablelist"><dl class="variablelist">{terms}</dl></div></div>'
        '<div class="sect2" id="RUNTIME-CONFIG-RESOURCE-DISK"><div class="titlepage"><div><div>'
        '<h3 class="title"><a id="RUNTIME-CONFIG-RESOURCE-DISK"></a>19.4.2. Disk</h3></div></div></div>'
        "<p>Temporary files are written to the disk when sorting needs more room than it was given.</p>"
        "</div></div></body></html>")


def _chunks(tmp_path: Path, name: str, page: str):
    """The page written to a file, read back and cut into passages as an import does."""
    path = tmp_path / name
    path.write_text(page, encoding="utf-8")
    return chunk_document(parse_html(path.read_bytes(), path.stem))


def _anchor_of(chunks, words: str) -> str | None:
    found = [c for c in chunks if words in c.text]
    assert found, f"no passage holds {words!r}"
    return found[0].anchor


def test_a_docbook_reference_page_opens_each_parameter_at_its_term(tmp_path):
    chunks = _chunks(tmp_path, "runtime-config-resource.html", _docbook())
    # the section's first passage opens at the section's heading, the parameters' at their own terms
    assert chunks[0].heading.endswith("19.4.1. Memory") and chunks[0].anchor == "RUNTIME-CONFIG-RESOURCE-MEMORY"
    assert _anchor_of(chunks, "work_mem (integer)") == "GUC-WORK-MEM"
    assert _anchor_of(chunks, "maintenance_work_mem (integer)") == "GUC-MAINTENANCE-WORK-MEM"
    # a definition's second passage is still under its term, not the index term's generated id
    assert _anchor_of(chunks, "Part two of work_mem.") == "GUC-WORK-MEM"
    assert _anchor_of(chunks, "Temporary files are written") == "RUNTIME-CONFIG-RESOURCE-DISK"
    assert not any(c.anchor and c.anchor.startswith("id-1.6") for c in chunks)


def test_plain_heading_ids_and_section_ids(tmp_path):
    chunks = _chunks(tmp_path, "guide.html", (
        "<html><body><main><h1>Guide</h1><p>What this guide is about, in a sentence or two.</p>"
        '<h2 id="install">Installing</h2><p>Unpack the archive into a folder of your own.</p>'
        '<section id="config"><h2>Configuring</h2><p>Edit the file settings.ini to taste.</p></section>'
        "<h2>Afterwards</h2><p>Nothing more needs doing after that.</p></main></body></html>"))
    assert _anchor_of(chunks, "What this guide is about") is None  # nothing above it: the page's top
    assert _anchor_of(chunks, "Unpack the archive") == "install"
    assert _anchor_of(chunks, "Edit the file settings.ini") == "config"
    # a heading without an id: the nearest anchor above it, not the page's top
    assert _anchor_of(chunks, "Nothing more needs doing") == "config"


def test_old_style_named_anchors_before_and_inside_headings_and_terms(tmp_path):
    chunks = _chunks(tmp_path, "faq.html", (
        "<html><head><title>FAQ</title></head><body><p>An introduction that stands before any question.</p>"
        f'<a name="q1"></a><h2>Why is the sky blue?</h2><p>Light of short wavelengths scatters more. {_LONG}</p>'
        f'<h2><a name="q2">Why is grass green?</a></h2><p>Chlorophyll absorbs red and blue light. {_LONG}</p>'
        f'<dl><dt><a name="opt-v"></a>-v</dt><dd>Says more. {_LONG}</dd>'
        f'<dt id="opt-q">-q</dt><dd>Says nothing. {_LONG}</dd>'
        "</dl></body></html>"))
    assert _anchor_of(chunks, "An introduction") is None
    assert _anchor_of(chunks, "Light of short wavelengths") == "q1"
    assert _anchor_of(chunks, "Chlorophyll absorbs") == "q2"
    assert _anchor_of(chunks, "-v\n\nSays more") == "opt-v"
    assert _anchor_of(chunks, "-q\n\nSays nothing") == "opt-q"


def test_an_anchor_inside_running_text_counts_from_the_next_passage(tmp_path):
    page = ('<html><body><h2 id="top-section">Section</h2><div>Some loose words <a id="mid"></a>and more.</div>'
            f"<p>{_LONG}</p><p>{_LONG}</p></body></html>")
    chunks = _chunks(tmp_path, "loose.html", page)
    assert chunks[0].anchor == "top-section"
    assert chunks[-1].anchor == "mid"


def test_pages_without_ids_and_other_formats_have_no_anchor(tmp_path):
    page = "<html><body><h2>A</h2><p>Text here.</p></body></html>"
    assert {c.anchor for c in _chunks(tmp_path, "plain.html", page)} == {None}


def test_anchors_come_back_from_a_reader_process(tmp_path):
    page = _docbook().encode()
    readers = reader_worker.Readers(1, share=False)
    try:
        reading = readers.read(reader_worker.ReadJob(page, "html", "resource.html", 1200))
        _doc, chunks = reading.result(threading.Event())
        assert not readers.broken  # read in the reader process, not here
    finally:
        readers.close()
    here = chunk_document(parse_html(page, "resource"))
    assert [(c.heading, c.text, c.anchor) for c in chunks] == [(c.heading, c.text, c.anchor) for c in here]
    assert _anchor_of(chunks, "work_mem (integer)") == "GUC-WORK-MEM"


_TAG = re.compile(r"<(p|div|li|dt|dd|section|h2|table|span|a)>")


@st.composite
def _with_ids(draw):
    """Random markup, and the same markup with ids given to some of its elements."""
    words = ["alpha beta", "gamma", "delta epsilon zeta", "eta", "Theta iota kappa lambda"]
    page = draw(markup(words, ["<br>", "<hr>", "<img>"]))
    count = [0]

    def add_id(match: re.Match[str]) -> str:
        if not draw(st.booleans()):
            return match.group(0)
        count[0] += 1
        attribute = "name" if match.group(1) == "a" and draw(st.booleans()) else "id"
        return f'<{match.group(1)} {attribute}="place-{count[0]}">'

    return page, _TAG.sub(add_id, page)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_with_ids())
def test_ids_never_change_the_passages_and_anchors_name_places_in_the_page(pages):
    plain, marked = pages
    try:
        without = chunk_document(parse_html(f"<html><body><h1>Page</h1>{plain}</body></html>".encode(), "page"))
    except Exception as exc:  # nothing readable: the same with ids
        without = exc
    try:
        with_ids = chunk_document(parse_html(f"<html><body><h1>Page</h1>{marked}</body></html>".encode(), "page"))
    except Exception as exc:
        assert type(exc) is type(without)
        return
    assert [(c.heading, c.text) for c in with_ids] == [(c.heading, c.text) for c in without]
    named = set(re.findall(r'(?:id|name)="(place-\d+)"', marked))
    assert {c.anchor for c in with_ids} <= named | {None}
    # anchors only move forward through the page: a passage never opens above an earlier passage's place
    order = [int(c.anchor.split("-")[1]) for c in with_ids if c.anchor]
    assert order == sorted(order)
