"""Character references decoded as html.unescape does, without its ValueError on a number 4,300 digits long."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from tinyrag_desktop.entities import unescape

REFERENCE_BITS = st.text(alphabet="&#x0123456789;aF ", max_size=40)


@given(REFERENCE_BITS)
def test_it_decodes_as_html_unescape_does(text) -> None:
    assert unescape(text) == html.unescape(text)


@given(st.text(alphabet="0123456789", min_size=1, max_size=7), st.integers(0, 6000), st.sampled_from([";", "", "x"]))
def test_leading_zeros_however_many_leave_the_character(digits, zeros, after) -> None:
    assert unescape("&#" + "0" * zeros + digits + after) == html.unescape("&#" + digits + after)


def test_a_number_past_the_digits_python_reads_is_a_replacement_sign() -> None:
    assert unescape("a &#" + "1" * 5000 + "; b &#" + "9" * 5000 + " c") == "a \ufffd b \ufffd c"
