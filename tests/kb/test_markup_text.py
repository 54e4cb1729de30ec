"""Passages of Markdown, reStructuredText and AsciiDoc read as the rendered page reads, without the marks of
the markup that made it: tables as rows of cells, emphasis without its stars and underscores, escapes as their
characters, links and roles as their text; code, addresses and names with stars or underscores in them exactly
as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.inline import _DUNDERS
from tinyrag_desktop.kb.readers import file_type, read_bytes, read_markdown


def _doc(text: str, name: str):
    return read_bytes(text.encode(), file_type(Path(name)), name)


def _blocks(text: str, name: str) -> list[tuple[str, str]]:
    return [(b.kind, b.text) for b in _doc(text, name).blocks]


def _passages(text: str, name: str) -> list[str]:
    return [c.text for c in chunk_document(_doc(text, name))]


_README = """\
# fastgrep

**fastgrep** is a *very* fast grep for __large__ trees of _source_ files, ***really***.
Use `snake_case_names`, `**kwargs` and `__init__.py`; 2*3*4 is 24 and a * b is a product.
Files like *.txt and *.md match globs such as src/**/*.py; see https://example.com/my_long_url_name/page_one
or <https://example.com/_private_/x>, and __pycache__/ or __init__.py beside my_module_name; __getstate__ stays.
Escaped: \\*not bold\\* and \\_not italic\\_ and \\[not a link\\](x) and 5 \\> 3; AT&amp;T&nbsp;and&#42;more.
A break<br>here, a <b>bold</b>word.

* **Fast**: 10x faster
* Smart_: respects `.gitignore`

## Options

| Option | Default | Description |
|--------|:-------:|-------------|
| `--jobs` | `4` | Number of **worker** threads |
| `--glob` | `*` | Files, e.g. `*.py` or `a\\|b` |
| [docs](docs/opts.md) | off | Match _case-insensitively_ |

Flag | Meaning
--- | ---
`-q` | quiet

```
pip install fastgrep  # **not bold**, _kept_
```
"""


def test_markdown_passages_read_without_the_marks_of_emphasis_escapes_and_tables():
    passages = _passages(_README, "README.md")
    assert passages == [
        "fastgrep is a very fast grep for large trees of source files, really.\n"
        "Use `snake_case_names`, `**kwargs` and `__init__.py`; 2*3*4 is 24 and a * b is a product.\n"
        "Files like *.txt and *.md match globs such as src/**/*.py; see https://example.com/my_long_url_name/page_one\n"
        "or <https://example.com/_private_/x>, and __pycache__/ or __init__.py beside my_module_name; "
        "__getstate__ stays.\n"
        "Escaped: *not bold* and _not italic_ and [not a link](x) and 5 > 3; AT&T\xa0and*more.\n"
        "A break here, a boldword.\n\n"
        "* Fast: 10x faster\n"
        "* Smart_: respects `.gitignore`",
        "Option | Default | Description\n"
        "`--jobs` | `4` | Number of worker threads\n"
        "`--glob` | `*` | Files, e.g. `*.py` or `a|b`\n"
        "docs | off | Match case-insensitively\n\n"
        "Flag | Meaning\n"
        "`-q` | quiet\n\n"
        "pip install fastgrep  # **not bold**, _kept_",
    ]


def test_a_markdown_table_row_is_the_sentence_of_its_links():
    doc = _doc(_README, "README.md")
    assert [link.href for link in doc.links] == ["docs/opts.md"]
    assert "docs | off | Match case-insensitively" in doc.links[0].text


def test_markup_inside_code_spans_stays_as_written_and_links_are_not_read_there():
    text = "Call `a[0](x)` and `f(*args, **kw)`, then `x_y_` or ``a ` *b*``; [real](r.md) link."
    assert _blocks(text, "n.md") == [
        ("text", "Call `a[0](x)` and `f(*args, **kw)`, then `x_y_` or ``a ` *b*``; real link.")]


def test_emphasis_over_a_code_span_or_a_line_break_loses_its_marks():
    text = "**`--force`** overwrites; *this is a\nlong phrase*; 这是**重要**的"
    assert _blocks(text, "n.md") == [("text", "`--force` overwrites; this is a\nlong phrase; 这是重要的")]


def test_headings_read_without_emphasis_or_escapes():
    assert _doc("# The **fast** way to \\_grep\\_\n\ntext\n", "n.md").title == "The fast way to _grep_"


# ---- properties -------------------------------------------------------------------------------------

_WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=6)
_CODE = st.text(alphabet="ab*_\\|[]()<>& ", min_size=1, max_size=8).filter(lambda c: c.strip() == c).map(
    lambda c: f"`{c}`")
_PIECE = st.one_of(
    _WORD, _CODE,
    _WORD.map(lambda w: f"*{w}*"), _WORD.map(lambda w: f"**{w}**"), _WORD.map(lambda w: f"_{w}_"),
    _WORD.map(lambda w: f"__{w}__"), _WORD.map(lambda w: f"{w}_{w}_{w}"), _WORD.map(lambda w: f"*.{w}"),
    _WORD.map(lambda w: f"https://x.org/_{w}_/{w}_{w}"),
    st.sampled_from(["2*3*4", "a * b", "*", "**", "_", "__init__.py", "src/**/*.py", "\\*", "\\_", "*a", "b_",
                     "&amp;", "x\\y"]),
)


def _letters(text: str) -> str:
    return re.sub(r"[\W_]", "", text.replace("&amp;", "&"))  # an address keeps its "&amp;" as written


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECE, min_size=1, max_size=14), st.sampled_from([" ", "\n", ""]))
def test_markdown_inline_markup_never_loses_a_word_or_changes_code(pieces, gap):
    text = "x " + gap.join(pieces)
    [(kind, shown)] = _blocks(text, "p.md")
    assert kind == "text"
    # letters and digits all there, in order: only marks go
    assert _letters(shown) == _letters(text)
    for piece in pieces:
        if piece.startswith("`") or piece.startswith("https:") or piece in ("2*3*4", "__init__.py", "src/**/*.py"):
            assert piece in shown
    for piece in pieces:  # emphasis around a word alone between spaces always goes (not round __add__)
        if gap == " " and re.fullmatch(r"(\*{1,2}|_{1,2})[a-j]+\1", piece) and piece.strip("_") not in _DUNDERS:
            assert f" {piece} " not in f" {shown} "


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=200))
def test_markdown_inline_markup_never_breaks_on_any_text(text):
    doc = read_markdown(("# T\n\n" + text).encode(), "p.md")
    assert doc.title and all(isinstance(block.text, str) for block in doc.blocks)


_GUIDE_RST = """\
==========
User Guide
==========

.. |project| replace:: *fastgrep*
.. |tm| unicode:: U+2122
.. |logo| image:: logo.png

Welcome to |project|\\ |tm| |logo|. It is **fast** and *simple*, not \\*bold\\*; 2*3*4 and a * b stay.
Call :func:`~fastgrep.search`, keep :file:`~/.fastgreprc`, read :pep:`8`, :rfc:`2616` and :pep:`the style <8>`.
Use ``--jobs N`` to set ``worker_count``; ``*.py`` is a glob; see https://example.com/a_*b*_c and [#f1]_.

.. note::
   Weeks start on **Monday**.

.. deprecated:: 3.1
   Use ``new_api()`` instead.

.. image:: picture.png
   :alt: A picture
   picture-continued.png

.. list-table:: Frozen Delights!
   :header-rows: 1

   * - Treat
     - Quantity
   * - *Albatross*
     - 2.99

===========  =======
Option       Meaning
===========  =======
``-j``       **jobs**
===========  =======

.. [#f1] The footnote.
"""


def test_rst_passages_read_as_the_rendered_page():
    assert _passages(_GUIDE_RST, "guide.rst") == [
        "Welcome to fastgrep™ . It is fast and simple, not *bold*; 2*3*4 and a * b stay.\n"
        "Call search, keep ~/.fastgreprc, read PEP 8, RFC 2616 and the style.\n"
        "Use `--jobs N` to set `worker_count`; `*.py` is a glob; see https://example.com/a_*b*_c and [f1].\n\n"
        "Note: Weeks start on Monday.\n\n"
        "Deprecated since version 3.1: Use `new_api()` instead.\n\n"
        "Frozen Delights!\n\n"
        "Treat | Quantity\n"
        "Albatross | 2.99\n\n"
        "Option | Meaning\n"
        "`-j` | jobs\n\n"
        "[f1] The footnote.",
    ]


def test_rst_headings_read_without_inline_markup():
    assert _doc("The *fast* ``grep``\n=================\n\nText.\n", "g.rst").title == "The fast `grep`"


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECE, min_size=1, max_size=14))
def test_rst_inline_markup_never_loses_a_word_or_changes_a_literal(pieces):
    pieces = [p.replace("`", "``") if p.startswith("`") else p for p in pieces]
    text = "x " + " ".join(pieces)
    [(kind, shown)] = _blocks(text, "p.rst")
    assert _letters(shown) == _letters(text)
    for piece in pieces:
        if piece.startswith("``"):
            assert piece[1:-1] in shown


_MANUAL_ADOC = """\
= Fastgrep Manual
:author: Jane Doe
:version: 1.2
:toc: left

// the manual's source; comments show nothing
[[intro]]
== Introduction

Fastgrep is *fast* and _simple_. Version {version} by {author}; refs end in {caret}{} and --x{litdd}.
See link:https://example.com/guide.html[the website], https://example.com/docs[docs], <<opts,the options>>
and <<intro>>. Use `--jobs` and `*.py`; linkgit:git-grep[1] does it too. Press kbd:[Ctrl+C] to stop.

NOTE: This is an admonition.

[source,bash]
----
fastgrep *bold* _here_ {version}
----

////
A block comment.
////

[[opts]]
== Options

.Options by name
[cols="1,2"]
|===
|Option |Meaning

|`-j`
|Number of *jobs*

|`-i`
|Ignore case
|===

include::footer.txt[]
"""


def test_asciidoc_passages_read_as_the_rendered_page():
    doc = _doc(_MANUAL_ADOC, "manual.txt")
    assert doc.title == "Fastgrep Manual"
    assert [c.text for c in chunk_document(doc)] == [
        "Fastgrep is fast and simple. Version 1.2 by Jane Doe; refs end in ^{} and --x--.\n"
        "See the website, docs, the options\nand Introduction. Use `--jobs` and `*.py`; git-grep(1) does it too. "
        "Press Ctrl+C to stop.\n\n"
        "Note: This is an admonition.\n\n"
        "fastgrep *bold* _here_ {version}",
        "Options by name\n\n"
        "Option | Meaning\n"
        "`-j` | Number of jobs\n"
        "`-i` | Ignore case",
    ]
    assert [link.href for link in doc.links] == ["https://example.com/guide.html", "https://example.com/docs",
                                                 "git-grep.txt"]


def test_plain_text_that_is_not_asciidoc_keeps_its_marks():
    text = "Notes\n=====\n\nRemember: *always* back up {home} and _tmp_ first.\n\n----\nnot a listing\n"
    assert _blocks(text, "notes.txt") == [
        ("heading", "Notes"), ("text", "Remember: *always* back up {home} and _tmp_ first."),
        ("text", "----\nnot a listing")]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab _*`\\|[]()<>&{}#:;+-=./\n", max_size=150))
def test_markup_of_any_shape_never_breaks_a_reader(text):
    # the same text as Markdown, reStructuredText and AsciiDoc (plain text with its signs): read, or refused
    # in words, never a crash
    for name, data in (("p.md", text), ("p.rst", text), ("p.txt", "= T\n:a: b\n\n" + text)):
        try:
            doc = _doc(data, name)
        except ReadError:
            continue
        assert not any(re.search("[\U000F0000-\U000FFFFD]", block.text) for block in doc.blocks)


def test_rst_literals_of_marks_stay_whole():
    # "``_``" was read as an empty link ("`" then "`_"), losing its underscore
    assert _blocks("Write ``<`` ``_``, ``[1]_`` and ``*`` as `Spam`_ does [1]_.\n\n.. _Spam: https://spam.example\n",
                   "p.rst") == [("text", "Write `<` `_`, `[1]_` and `*` as Spam does [1].")]


def test_a_table_longer_than_a_passage_repeats_its_header_in_each():
    rows = [f"| `--option-{n}` | {n} | What option {n} does, in a few words |" for n in range(60)]
    text = "# Options\n\n| Option | Default | Meaning |\n|---|---|---|\n" + "\n".join(rows) + "\n"
    passages = [c.text for c in chunk_document(_doc(text, "opts.md"), 400)]
    assert len(passages) > 3
    assert all(p.startswith("Option | Default | Meaning\n`--option-") for p in passages)
    body = [line for p in passages for line in p.splitlines()[1:]]
    assert body == [f"`--option-{n}` | {n} | What option {n} does, in a few words" for n in range(60)]


@pytest.mark.parametrize("head, first_row", [
    ("<thead><tr><th>Day</th><th>Opens</th></tr></thead>", "Day | Opens"),
    ("<tr><th>Day</th><th>Opens</th></tr>", "Day | Opens"),
    ("<thead><tr><td>Day</td><td>Opens</td></tr></thead>", "Day | Opens"),
    ("<tr><td></td></tr><tr><th>Day</th><td>Opens</td></tr>", "Day | Opens"),
])
def test_a_long_html_table_repeats_its_header_row_in_each_passage(head, first_row):
    rows = "".join(f"<tr><td>day {n}</td><td>{n}:00 in the morning, every week</td></tr>" for n in range(40))
    page = f"<html><body><h1>Hours</h1><table>{head}{rows}</table></body></html>"
    passages = [c.text for c in chunk_document(_doc(page, "hours.html"), 400)]
    assert len(passages) > 3 and all(p.startswith(first_row + "\nday ") for p in passages)


def test_a_long_html_table_whose_first_row_is_data_repeats_no_row():
    rows = "".join(f"<tr><td>day {n}</td><td>{n}:00 in the morning, every week</td></tr>" for n in range(40))
    page = f"<html><body><h1>Hours</h1><table>{rows}</table></body></html>"
    passages = [c.text for c in chunk_document(_doc(page, "hours.html"), 400)]
    lines = [line for p in passages for line in p.splitlines()]
    assert len(passages) > 3
    assert lines == [f"day {n} | {n}:00 in the morning, every week" for n in range(40)]  # each row once


def test_an_adoc_file_is_read_as_asciidoc(data_dir, tmp_path):
    (tmp_path / "guide.adoc").write_text("= Guide\n\nRun *fastgrep* with `--jobs`.\n", encoding="utf-8")
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(tmp_path / "guide.adoc")])
    assert report.added == [str(tmp_path / "guide.adoc")] and not report.failed
    hit = search(data_dir, "fastgrep jobs", 1)[0]
    assert (hit.title, hit.text) == ("Guide", "Run fastgrep with `--jobs`.")


def test_indented_text_reads_flush_with_the_text_around():
    text = "Guide\n=====\n\n.. note::\n\n   If you have difficulty migrating\n   you can open an issue.\n"
    assert _blocks(text, "g.rst") == [("heading", "Guide"), ("text", "Note:"),
                                      ("text", "If you have difficulty migrating\nyou can open an issue.")]
    manual = "NAME\n       ls - list directory contents\n\nDESCRIPTION\n       List information about\n       the FILEs.\n"
    assert _blocks(manual, "ls.txt")[-1] == ("text", "List information about\nthe FILEs.")


def test_asciidoc_blocks_close_without_making_titles():
    text = "= T\n:a: b\n\n.git/objects/\n.git/refs\n\n.An example\n====\nHi.\n====\n\nNext\n====\n\nBody.\n"
    assert _blocks(text, "t.adoc") == [("heading", "T"), ("text", ".git/objects/\n.git/refs"), ("text", "An example"),
                                       ("text", "Hi."), ("heading", "Next"), ("text", "Body.")]


def test_an_asciidoc_description_list_reads_as_terms_and_their_text():
    # git's manuals: "term::" lines, then the text indented beneath them. Read as reStructuredText's
    # "Paragraph::", the text was a literal block: code, with its tabs, and the terms kept their colons.
    text = ("= git-commit(1)\n:a: b\n\n== OPTIONS\n\n--pathspec-file-nul::\n\tOnly meaningful with\n"
            "\t`--pathspec-from-file`.\n\n-u[<mode>]::\n--untracked-files[=<mode>]::\n\tShow untracked files.\n"
            "+\n--\nThe mode parameter is optional.\n--\n\nCtrl+C;;\n\tStops.\n")
    assert _blocks(text, "git-commit.txt") == [
        ("heading", "git-commit(1)"), ("heading", "OPTIONS"),
        ("term", "--pathspec-file-nul"), ("text", "Only meaningful with\n`--pathspec-from-file`."),
        ("term", "-u[<mode>]"), ("term", "--untracked-files[=<mode>]"), ("text", "Show untracked files."),
        ("text", "The mode parameter is optional."),
        ("term", "Ctrl+C"), ("text", "Stops.")]
    # reStructuredText's literal block after "::" is as it was
    assert _blocks("Run this::\n\n    make test\n", "r.rst") == [("text", "Run this:"), ("code", "    make test")]


_README_WITH_AN_HTML_TABLE = """\
# tool

## Options

<table>
  <tr><th>Option</th><th>Meaning</th></tr>
  <tr><td><code>--port</code></td><td>where it listens; see <a href="docs/network.md">the network page</a> for how
  to open it to other machines on your network</td></tr>
  <tr><td><code>--quiet</code></td><td>no output but errors</td></tr>
</table>

<p align="center"><table><tr><td>left</td><td><b>right</b> side</td></tr></table></p>

<table></table>

Then text.
"""


def test_an_html_table_in_markdown_reads_as_rows_of_cells():
    doc = _doc(_README_WITH_AN_HTML_TABLE, "README.md")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "tool"),
        ("heading", "Options"),
        ("table", "Option | Meaning\n"
                  "--port | where it listens; see the network page for how to open it to other machines on your network\n"
                  "--quiet | no output but errors"),
        ("table", "left | right side"),
        ("text", "Then text."),
    ]
    (link,) = doc.links  # the row is the link's sentence, under the section it is in
    assert link.href == "docs/network.md" and link.text.startswith("Options: --port where it listens")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("name", ["notes.md", "notes.adoc"])
def test_a_long_run_of_backticks_is_read_at_once(name):
    # A code span was found by a regular expression that took time cubic in a run of backticks: 19 s for
    # 8,000 of them, about 6 minutes for these 20,000. Now one pass: a run with no run as long after it is
    # backticks as written, and the emphasis and link after it are still read.
    ticks = "`" * 20_000
    link = "[the guide](guide.md)" if name.endswith(".md") else "link:guide.html[the guide]"
    doc = _doc(f"See {ticks} and *this* in {link}, and `--force`.\n", name)
    (block,) = doc.blocks
    assert block.text == f"See {ticks} and this in the guide, and `--force`."
    assert [link.href for link in doc.links] == ["guide.md" if name.endswith(".md") else "guide.html"]
