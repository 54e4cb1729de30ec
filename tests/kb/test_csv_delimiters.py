"""A CSV file whose delimiter csv.Sniffer cannot tell (a quote inside a field) is still read in columns,
and a field a quote inside it split is joined again."""

from __future__ import annotations

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
