"""Newer Go than 1.19, or a real Go function nanoGo lacks, is refused with the reason, not as if Go lacked it."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.nanogo.compiler import compile_source
from tinyrag_desktop.tools.nanogo.errors import CompileError
from tinyrag_desktop.tools.nanogo_tool import TOOLS

CASES = [
    ("x := max(3, 7, 1)\n_ = x",
     "1:6: undefined: max (nanoGo follows Go 1.19; the min and max built-ins came in Go 1.21)"),
    ("m := map[int]int{}\nclear(m)", "2:1: undefined: clear (nanoGo follows Go 1.19; the clear built-in came in Go 1.21)"),
    ("for i := range 3 {\n\tfmt.Println(i)\n}",
     "1:16: cannot range over 3 (untyped int constant) (nanoGo follows Go 1.19; ranging over an integer came in "
     "Go 1.22)"),
    ("f := func(yield func(int) bool) {}\nfor x := range f {\n\t_ = x\n}",
     "(nanoGo follows Go 1.19; ranging over a function came in Go 1.23)"),
    ("fmt.Println(math.Gamma(5))",
     "1:18: math.Gamma is not available in nanoGo (Go 1.19 has it; nanoGo's math package does not)"),
    ('r := strings.NewReader("a")\n_ = r', "1:14: strings.NewReader is not available in nanoGo"),
    ("var r strings.Reader\n_ = r", "1:7: strings.Reader is not available in nanoGo"),
    ("fmt.Println(errors.Join(nil))", "1:20: undefined: errors.Join (nanoGo follows Go 1.19; errors.Join came in Go 1.20)"),
    ('import "slices"\nfmt.Println(slices.Max([]int{1}))',
     "1:8: package slices is not allowed in nanoGo (allowed: errors, fmt, math, sort, strconv, strings, sync, "
     "unicode, unicode/utf8; nanoGo follows Go 1.19, and slices came in Go 1.21)"),
]


@pytest.mark.parametrize("source,message", CASES)
def test_the_message_says_why(source, message):
    with pytest.raises(CompileError) as info:
        compile_source(source)
    assert message in str(info.value)


@pytest.mark.parametrize("source,message", [
    ('fmt.Println(strings.Reverse("a"))', "1:21: undefined: strings.Reverse"),  # not in any Go: Go's words
    ("x := mx(3, 7)\n_ = x", "1:6: undefined: mx"),
    ('package main\n\nimport "os"\n\nfunc main() { os.Exit(1) }\n',
     "3:8: package os is not allowed in nanoGo (allowed: errors, fmt, math, sort, strconv, strings, sync, "
     "unicode, unicode/utf8)"),
])
def test_a_name_go_never_had_keeps_gos_message(source, message):
    with pytest.raises(CompileError) as info:
        compile_source(source)
    assert str(info.value) == message


def test_the_tool_description_says_go_1_19_and_the_packages():
    (spec,) = [t for t in TOOLS if t.name == "nanogo"]
    assert "Go 1.19" in spec.description
    for pkg in ("fmt", "strings", "strconv", "math", "sort", "errors", "unicode/utf8", "sync"):
        assert pkg in spec.description
