"""The sources list sorted by Title: section numbers as a book orders them, and an order that holds for any
titles (a sort key that is not a total order leaves a list in no order at all)."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from tests.kb.test_panel import _count, _text
from tests.kb.test_panel_scale import _fill, _listed
from tinyrag_desktop.ui.kb_sources_view import natural_key

SHOTS = Path("/tmp/kb44")
SECTIONS = ["1. What Is PostgreSQL?", "1.1. Getting Started", "1.4. Accessing a Database", "2. The SQL Language",
            "2.9. Deletions", "10. Appendix"]

# Titles made of the pieces that matter: digits (ASCII and other scripts'), dots, letters, spaces, zeros
_TITLES = st.text(alphabet=st.sampled_from(list("0123456789..  aAbZ-_٣٠é")), max_size=12) | st.text(max_size=12)


def test_numbered_sections_sort_as_a_reader_expects():
    # "1. What Is PostgreSQL?" came after "1.4. Accessing a Database": its text ". what is" came after "."
    for seed in range(20):
        shuffled = SECTIONS[:]
        random.Random(seed).shuffle(shuffled)
        assert sorted(shuffled, key=natural_key) == SECTIONS


def test_numbers_keep_their_order_within_titles():
    titles = ["chapter 2", "chapter 19", "version 11.2", "version 11.10", "x" + "7" * 5000, "x" + "1" * 5001]
    assert sorted(titles[::-1], key=natural_key) == titles  # a number of 5,000 digits stopped the sort


def test_names_equal_but_for_case_keep_one_order_whatever_order_they_were_listed_in():
    # "Notes.md" and "notes.md" tied, so a folder's files came in os.walk's order, which differs between machines
    for names in (["Notes.md", "notes.md", "NOTES.md"], ["Straße", "STRASSE", "strasse"]):
        orders = {tuple(sorted(listed, key=natural_key)) for listed in (names, names[::-1], names[1:] + names[:1])}
        assert len(orders) == 1


@settings(max_examples=300, deadline=None)
@given(st.lists(_TITLES, min_size=3, max_size=3))
def test_the_order_is_total_antisymmetric_and_transitive(titles):
    a, b, c = (natural_key(title) for title in titles)
    assert (a <= b) or (b <= a)  # any two compare, without a TypeError
    if a <= b and b <= a:
        assert a == b
    if a <= b and b <= c:
        assert a <= c


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 30), min_size=1, max_size=4), min_size=1, max_size=8),
       st.text("ab ", max_size=3))
def test_section_numbers_sort_as_tuples_of_numbers(sections, text):
    titles = [".".join(map(str, numbers)) + ". " + text for numbers in sections]
    by_numbers = sorted(titles, key=lambda title: [int(n) for n in title.split(". ")[0].split(".")])
    assert [t.split(". ")[0] for t in sorted(titles, key=natural_key)] == [t.split(". ")[0] for t in by_numbers]


def test_the_panel_lists_sections_in_order(qtbot, panel, data_dir):
    _fill(data_dir, SECTIONS[::-1])
    view = _listed(qtbot, panel)
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert [_text(view, row) for row in range(_count(view))] == SECTIONS
    if SHOTS.is_dir():
        panel.grab().save(str(SHOTS / "title_order.png"))
    view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    assert [_text(view, row) for row in range(_count(view))] == SECTIONS[::-1]


def test_a_folder_of_numbered_files_lists_in_number_order_newest_first(data_dir, tmp_path, qapp):
    # The folder was walked in plain text order (Topic 1, Topic 10, Topic 11, …, Topic 2), so the sources of
    # one import, sharing their minute, listed as 9, 8, 7, 6, 5, 4, 30, 3, 29, …
    from tinyrag_desktop.kb import Importer, open_store
    from tinyrag_desktop.ui.kb_sources_view import SourcesModel

    folder = tmp_path / "topics"
    (folder / "part 10").mkdir(parents=True)
    (folder / "Part 2").mkdir()
    for n in range(1, 31):
        (folder / f"Topic {n}.md").write_text(f"# Topic {n}\n\nNotes on topic number {n}.\n", encoding="utf-8")
    (folder / "Part 2" / "Extra.md").write_text("# Part 2 extra\n\nMore.\n", encoding="utf-8")
    (folder / "part 10" / "Extra.md").write_text("# Part 10 extra\n\nMore.\n", encoding="utf-8")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(folder)])
        sources = kb.sources()
    model = SourcesModel()
    model.set_sources(sources)
    listed = [model.index(row, 0).data() for row in range(model.rowCount())]
    assert listed == ["Part 10 extra", "Part 2 extra"] + [f"Topic {n}" for n in range(30, 0, -1)]
