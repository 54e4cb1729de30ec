"""A CSV file whose delimiter csv.Sniffer cannot tell (a quote inside a field) is still read in columns,
and a field a quote inside it split is joined again."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb.data_formats import read_csv


def test_a_semicolon_csv_with_a_quoted_semicolon_is_read_in_columns():
    data = 'Name;City;Note\nAnna;Köln;likes "quoted; semicolons"\nBo;Bern;otter keeper\n'.encode()
    assert [b.text for b in read_csv(data, "semi.csv").blocks] == [
        'Name: Anna; City: Köln; Note: likes "quoted; semicolons"',
        "Name: Bo; City: Bern; Note: otter keeper",
    ]


def test_a_row_with_more_cells_than_its_header_keeps_them():
    data = b'a;b\n1;2;3\n4;"x;y";z\n'
    assert [b.text for b in read_csv(data, "wide.csv").blocks] == [
        "a: 1; b: 2; column 3: 3", "a: 4; b: x;y; column 3: z"]


_CELL = st.text(alphabet=st.characters(whitelist_categories=("L", "N"), max_codepoint=0x2FF), min_size=1,
                max_size=8)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([";", "\t", "|", ","]), st.integers(2, 5),
       st.lists(st.lists(_CELL, min_size=5, max_size=5), min_size=2, max_size=6), st.data())
def test_rows_with_a_quote_inside_a_field_are_read_in_their_columns(delimiter, width, rows, data):
    header = [f"h{n}" for n in range(width)]
    rows = [row[:width] for row in rows]
    at = data.draw(st.integers(0, len(rows) - 1))
    rows[at][-1] = f'likes "quoted{delimiter} words"'  # a quote that does not open its field
    text = "\n".join(delimiter.join(row) for row in [header, *rows]) + "\n"
    blocks = read_csv(text.encode(), "t.csv").blocks
    assert [b.text for b in blocks] == ["; ".join(f"{h}: {c}" for h, c in zip(header, row)) for row in rows]


@pytest.mark.timeout(30)
def test_a_field_of_many_quotes_is_read_at_once():
    # csv.Sniffer's regular expressions took time cubic in a run of quotes: 69 s for 2,000 of them in a
    # 2 KB file, about 9 minutes for these 4,000. The delimiter is now found by counting it on each line.
    quotes = '"' * 4000
    data = f'name,age,city\n"Smi{quotes}th, J",42,x\nBo,3,y\n'.encode()
    assert [b.text for b in read_csv(data, "quotes.csv").blocks] == [
        f'name: Smi{quotes[:2000]}th, J; age: 42; city: x', "name: Bo; age: 3; city: y"]


def test_quoted_cells_after_a_space_and_holding_other_delimiters_are_read_in_columns():
    data = 'h0| "h1"| h2\n"a;b"| "New York, NY"| x\n"say ""hi"""| "x|y"| z\n'.encode()
    assert [b.text for b in read_csv(data, "spaced.csv").blocks] == [
        "h0: a;b; h1: New York, NY; h2: x", 'h0: say "hi"; h1: x|y; h2: z']
