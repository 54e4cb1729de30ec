"""reStructuredText and the plain-text formats read as a person reads the rendered page, from defects found
importing /usr/share/doc: directives show what Sphinx shows, comments and tables of contents show nothing,
and a parser's complaint is one line of a reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.readers import file_type, read_bytes

_RST = """\
.. SPDX-License-Identifier: GPL-2.0

:orphan:

.. _tut-dates:

Dates
=====

.. module:: calendar
   :synopsis: Functions for working with calendars, including some emulation
      of the Unix cal program.

.. toctree::
   :maxdepth: 2

   intro
   usage

Example::

    cal = Calendar()

.. note::

   Weeks start on Monday.

.. function:: monthrange(year, month)
   :noindex:

   Returns the weekday of the first day of the month.

   .. versionadded:: 3.7

See :class:`!HTMLCalendar` and :meth:`~calendar.Calendar.iterweekdays`.

.. [1] Proleptic calendar.

----------

.. code-block:: console

   $ cal 2024
"""


def _blocks(text: str, name: str = "dates.rst") -> list[tuple[str, str]]:
    doc = read_bytes(text.encode(), file_type(Path(name)), name)
    return [(b.kind, b.text.strip()) for b in doc.blocks]


@pytest.mark.parametrize("name", ["dates.rst", "dates.rst.txt"])  # a Sphinx site's copy of its sources too
def test_rst_directives_read_as_the_rendered_page(name):
    blocks = _blocks(_RST, name)
    assert blocks == [
        ("heading", "Dates"), ("text", "Example:"), ("code", "cal = Calendar()"), ("text", "Note:"),
        ("text", "Weeks start on Monday."), ("term", "monthrange(year, month)"),
        ("text", "Returns the weekday of the first day of the month."), ("text", "New in version 3.7."),
        ("text", "See HTMLCalendar and iterweekdays."), ("text", "[1] Proleptic calendar."),
        ("code", "$ cal 2024"),
    ]


def test_plain_text_keeps_a_paragraph_that_starts_with_two_dots():
    text = "Notes\n=====\n\n.. and so the story ends, or so they say.\n\nExample:: fine\n"
    assert _blocks(text, "notes.txt") == [("heading", "Notes"), ("text", ".. and so the story ends, or so they say."),
                                          ("text", "Example:: fine")]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([".. note::", ".. toctree::", ".. _x:", ".. [1] a", "   indented", "text", "",
                                 "Title", "=====", "x::", ".. code-block:: c", ":orphan:", ".. |s| replace:: y",
                                 "   :opt: v", "..", "-----"]), max_size=30))
def test_any_arrangement_of_rst_markup_reads_without_error(lines):
    try:
        doc = read_bytes("\n".join(lines).encode(), "rst", "any.rst")
    except ReadError:  # nothing readable left: an empty document, said in words
        return
    assert all(b.text.strip() for b in doc.blocks)


def test_a_toctree_is_not_a_search_hit(data_dir, tmp_path):
    (tmp_path / "index.rst").write_text("Handbook\n========\n\nWelcome to the handbook for gardeners.\n\n"
                                        ".. toctree::\n   :caption: Chapters\n\n   pruning\n   watering\n",
                                        encoding="utf-8")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "index.rst")])
    assert search(data_dir, "pruning watering chapters", 5) == []


def test_a_malformed_xml_file_is_refused_in_one_line():
    data = (b'<?xml version="1.0"?>\n<!-- \nSign it with:\n  xmlsec sign --privkey key.pem --output out.xml\n-->'
            b"\n<Response/>")
    with pytest.raises(ReadError) as info:
        read_bytes(data, "xml", "bad.xml")
    reason = str(info.value)
    assert "\n" not in reason and reason.startswith("not well-formed XML (line ") and len(reason) < 160, reason


_MARKDOWN = """\
<!-- This file is maintained within the docker/cli GitHub
     repository at https://github.com/docker/cli/. Make all
     pull requests against that repo. -->

# node update

[![Build Status](https://ci.example/badge.svg)](https://ci.example/job) [![codecov](cov.svg)](https://cov.example)

### <a name="label-add"></a> Add label metadata to a node (--label-add)

Add metadata with `--label-add`.<br>Use `<br>` in a table cell; run `git add <file>` or docker port CONTAINER <name>.

<details>
  <summary>Packaged for 15+ systems. Click here for more</summary>

See the {term}`source distribution <Source Distribution (or "sdist")>` page.
</details>

```html
<!-- kept: it is code -->
<a name="x"></a>
```
"""


def test_markdown_reads_as_a_viewer_shows_it(data_dir, tmp_path):
    assert _blocks(_MARKDOWN, "node_update.md") == [
        ("heading", "node update"), ("text", "Build Status codecov"),
        ("heading", "Add label metadata to a node (--label-add)"),
        ("text", "Add metadata with `--label-add`. Use `<br>` in a table cell; run `git add <file>` or docker port "
                 "CONTAINER <name>."),
        ("text", "Packaged for 15+ systems. Click here for more"),
        ("text", "See the source distribution page."),
        ("code", '<!-- kept: it is code -->\n<a name="x"></a>'),
    ]
    (tmp_path / "node_update.md").write_text(_MARKDOWN, encoding="utf-8")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "node_update.md")])
    hit = search(data_dir, "label metadata node", 1)[0]
    assert hit.heading == "node update > Add label metadata to a node (--label-add)"
    assert search(data_dir, "maintained repository pull requests", 5) == []


_PLAIN_WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=6)
_PIECE = st.one_of(_PLAIN_WORD, _PLAIN_WORD.map(lambda w: f"<{w}x>"), _PLAIN_WORD.map(lambda w: f"`<br>{w}`"),
                   st.sampled_from(["<file>", "<NAME>", "a < b", "x > y", "{braces}", "`{term}`"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECE, min_size=1, max_size=12))
def test_markdown_text_without_html_tags_reads_as_written(pieces):
    text = " ".join(pieces)
    assert _blocks(f"# T\n\n{text}\n", "p.md") == [("heading", "T"), ("text", text)]


def test_json_values_that_hold_html_read_as_their_text():
    # Sphinx's glossary.json and Node.js's API JSON keep each entry as HTML
    data = ('{"2to3": {"title": "2to3", "body": "<main>\\n<dd><p>A tool that tries to convert Python 2.x\\ncode '
            'to <a href=\\"x.html\\"><code>Python 3</code></a>.</p>\\n<ul><li><p>first</p></li><li>second</li></ul>'
            '<pre>a = 1\\nb = 2</pre></dd>\\n</main>\\n"}, "plain": "run git add <file> when a < b and c > d",'
            ' "tag": "<b>bold"}')
    assert _blocks(data, "glossary.json") == [
        ("text", "2to3.title: 2to3\n2to3.body: A tool that tries to convert Python 2.x code to Python 3.\n"
                 "first\nsecond\na = 1\nb = 2"),
        ("text", "plain: run git add <file> when a < b and c > d"), ("text", "tag: <b>bold")]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ab<>/ \n&;", max_size=40))
def test_any_json_string_value_reads_without_error(value):
    import json

    try:
        doc = read_bytes(json.dumps({"k": value}).encode(), "json", "v.json")
    except ReadError:  # nothing readable left: an empty document, said in words
        return
    assert all(b.text for b in doc.blocks)


_MAN_TEXT = """\
TAR(1)                         GNU TAR Manual                         TAR(1)

NAME
       tar - an archiving utility

SYNOPSIS
   Traditional usage
       tar {A|c|d|r|t|u|x}[GnSkUWOmpsMBiajJzZhPlRvwo] [ARG...]

SEE ALSO
       bzip2(1), compress(1), gzip(1)

GPL v3
This line is not indented: the capitals above are not a heading.
"""


def test_a_manual_page_saved_as_text_keeps_its_sections(data_dir, tmp_path):
    blocks = _blocks(_MAN_TEXT, "tar.txt")
    assert [text for kind, text in blocks if kind == "heading"] == ["NAME", "SYNOPSIS", "SEE ALSO"]
    (tmp_path / "tar.txt").write_text(_MAN_TEXT, encoding="utf-8")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "tar.txt")])
    hit = search(data_dir, "gzip compress", 1)[0]
    assert (hit.title, hit.heading) == ("tar.txt", "tar.txt > SEE ALSO")


def test_a_page_of_only_a_table_of_contents_is_skipped_with_its_reason(data_dir, tmp_path):
    (tmp_path / "bpf.rst").write_text("Testing BPF\n===========\n\n.. toctree::\n   :maxdepth: 1\n\n   drgn\n   s390\n",
                                      encoding="utf-8")
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(tmp_path / "bpf.rst")])
    assert [f.reason for f in report.skipped] == [
        "no readable text found (only headings, and markup that shows none of its own: a table of contents, "
        "or text taken from other files)"]


def test_roles_of_a_sphinx_domain_read_as_their_text():
    # ":c:func:`PyIter_Next`" read ":cPyIter_Next", a word no search finds
    text = "Types\n=====\n\nSee :c:func:`PyIter_Next`, :c:type:`PyMethodDef` and :py:meth:`~dict.keys`; :std:doc:`intro`.\n"
    doc = read_bytes(text.encode(), "rst", "types.rst")
    assert [b.text for b in doc.blocks] == ["Types", "See PyIter_Next, PyMethodDef and keys; intro."]
    assert [link.href for link in doc.links] == ["intro.rst"]


def test_a_page_that_only_includes_another_file_says_so():
    with pytest.raises(ReadError) as info:
        read_bytes(b".. SPDX-License-Identifier: GPL-2.0\n\n.. include:: ../../README.rst\n", "text", "x.rst.txt")
    assert str(info.value) == ("no readable text found (only markup that shows none of its own: a table of "
                               "contents, or text taken from other files)")


def test_a_reference_by_one_word_reads_as_the_word():
    text = "Jansson\n=======\n\nJansson_ is a C library; my_var_ stays and snake_case too.\n\n.. _Jansson: http://www.digip.org/jansson/\n"
    assert _blocks(text, "README.rst")[1] == ("text", "Jansson is a C library; my_var_ stays and snake_case too.")


def test_myst_targets_and_quote_marks_are_not_text():
    text = "# Installs\n\n> Stability: 2 - Stable\n> (since v10)\n\n(editable-installs)=\n\n## Editable installs\n\nUse -e.\n"
    assert _blocks(text, "installs.md") == [("heading", "Installs"), ("text", "Stability: 2 - Stable\n(since v10)"),
                                            ("heading", "Editable installs"), ("text", "Use -e.")]


def test_a_listing_between_unlike_rules_is_no_title():
    from tinyrag_desktop.kb.readers import read_rst, read_text

    # git-doc's diff-options.txt (AsciiDoc): its source was titled "+    return frotz(nitfol, two->ptr, 1, 0);"
    asciidoc = ("Look for differences whose patch text contains added/removed lines.\n+\n----\n"
                "+    return frotz(nitfol, two->ptr, 1, 0);\n...\n-    hit = frotz(nitfol, mf2.ptr, 1, 0);\n----\n")
    doc = read_text(asciidoc.encode(), "diff-options.txt")
    assert doc.title == "diff-options.txt"
    assert all(block.kind != "heading" for block in doc.blocks)
    assert "return frotz" in " ".join(block.text for block in doc.blocks)
    # git-doc's api-trace2.txt: "+" continues a list item with the listing below it, and was its title
    listing = "`<event-message>`::\n\tis a free-form message.\n+\n------------\n{\n\t\"event\":\"version\"\n}\n------------\n"
    assert read_text(listing.encode(), "api-trace2.txt").title == "api-trace2.txt"
    # a real over- and underlined title keeps its place, also a little shorter than its rules
    assert read_rst(b"=======\n Title\n=======\n\nBody text.\n", "a.rst").title == "Title"
    assert read_rst(b"=====\nA Title\n=====\n\nBody text.\n", "b.rst").title == "A Title"


def test_asciidoc_titles_and_one_line_listings():
    from tinyrag_desktop.kb.readers import read_text

    # git-doc's user-manual.txt was titled "$ man git-clone": its first listing, one line between long rules
    manual = ("= Git User Manual\n\n[preface]\n== Introduction\n\nGit is a fast distributed revision control "
              "system.\n\n[[how-to-get]]\n=== How to get a Git repository ===\n\n------------------------------------------------\n"
              "$ man git-clone\n------------------------------------------------\n\nThe command is git clone.\n")
    doc = read_text(manual.encode(), "user-manual.txt")
    assert doc.title == "Git User Manual"
    headings = [(b.text, b.level) for b in doc.blocks if b.kind == "heading"]
    assert headings == [("Git User Manual", 1), ("Introduction", 2), ("How to get a Git repository", 3)]
    assert any("$ man git-clone" in b.text for b in doc.blocks if b.kind != "heading")
    assert not any("[[" in b.text or "[preface]" in b.text for b in doc.blocks)
    # not titles: a sum's result, marks without words, a title hugged by its rules still is one
    assert all(b.kind != "heading" for b in read_text(b"x + y\n\n= 5\n\n==\n", "sum.txt").blocks)
    assert read_text(b"=========\n Recipes\n=========\n\nBread.\n", "notes.txt").title == "Recipes"
    # git-doc's urls.txt: an anchor after an underlined title
    assert read_text(b"GIT URLS[[URLS]]\n----------------\n\nIn general, URLs...\n", "urls.txt").title == "GIT URLS"
