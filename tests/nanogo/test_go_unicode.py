"""strings and unicode follow Go's rune-by-rune case mappings and Go's white space (unicode.IsSpace)."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.nanogo.interp import run_inprocess

# (snippet, what Go 1.19 prints); written by hand from Go's unicode tables (CaseRanges, White_Space).
CASES = {
    "simple_case_mappings": (
        'fmt.Println(strings.ToLower("İstanbul"), len(strings.ToLower("İstanbul")), strings.ToUpper("straße"))\n'
        'fmt.Println(strings.ToUpper("ﬁne"), strings.ToUpper("ᾳ"), string(unicode.ToUpper(\'ᾀ\')), '
        'string(unicode.ToLower(\'İ\')))\n',
        "istanbul 8 STRAßE\nﬁNE ᾼ ᾈ i\n",
    ),
    "title_case_is_not_upper_case": (
        'fmt.Println(strings.Title("ǆemal ǆ"), strings.ToTitle("ǆ"), string(unicode.ToTitle(\'ǆ\')), '
        'string(unicode.ToUpper(\'ǆ\')))\n',
        "ǅemal ǅ ǅ ǅ Ǆ\n",
    ),
    "white_space": (
        'fmt.Printf("%q %q\\n", strings.TrimSpace("\\u3000東京\\u3000"), strings.TrimSpace("\\u2003a\\u2009\\u0085"))\n'
        'fmt.Println(len(strings.Fields("a\\u3000b\\u00a0c")), len(strings.Fields("a\\x1fb\\x1cc")), '
        'unicode.IsSpace(0x1f), unicode.IsSpace(0x2028))\n'
        'var a, b string\nn, _ := fmt.Sscan("x\\u2003y", &a, &b)\nfmt.Println(n, a, b)\n',
        '"東京" "a"\n3 1 false true\n2 x y\n',
    ),
    "rune_classes": (
        "fmt.Println(unicode.IsUpper('Ⓐ'), unicode.IsUpper('A'), unicode.IsLower('ǅ'), unicode.IsNumber('一'), "
        "unicode.IsNumber('½'), unicode.IsDigit('²'))\n",
        "false true false false true false\n",
    ),
    "invalid_utf8_becomes_the_replacement_rune": (
        'fmt.Println(len(strings.ToUpper("é\\xff")), len(strings.ToUpper("a\\xff")))\n',
        "5 4\n",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_go(name):
    source, want = CASES[name]
    out, status, err = run_inprocess(source)
    assert (status, err) == ("ok", ""), err
    assert out == want


def test_runes_new_in_unicode_14_are_unassigned_as_in_go_1_19():
    """Go 1.19 has Unicode 13.0's tables; the runes 14.0 added (assigned in Python's tables) are not letters,
    not printable and have no case for nanoGo. The list was taken against Python's Unicode 14.0.0: a Python
    with newer tables needs it extended (run every rune through Go and nanoGo)."""
    import unicodedata

    from tinyrag_desktop.tools.nanogo import gounicode as U

    assert unicodedata.unidata_version == "14.0.0"
    assert len(U.NEW_IN_14) == 836
    assert all(unicodedata.category(ch) != "Cn" for ch in U.NEW_IN_14)
    assert all(U.category(ch) == "Cn" and U.to_upper(ch) == ch and not U.is_letter(ch) for ch in U.NEW_IN_14)
