"""Compile errors in several functions are all listed, as go build lists them (at most ten, then "too many
errors"): nanoGo showed only the first, so a model fixed one error a run. The expected lines are what Go
1.19's go build printed for each program here (Debian's golang-go), less its "./" before the file name."""

from __future__ import annotations

from tinyrag_desktop.tools.nanogo.interp import run_inprocess

THREE_FUNCTIONS = """package main

import "fmt"

func a() int {
	return "no"
}

func b() {
	y := undefinedThing
	fmt.Println(y)
}

func main() {
	fmt.Println(a(), q)
}
"""

GO_SAID_FOR_THREE = """prog.go:6:9: cannot use "no" (untyped string constant) as int value in return statement
prog.go:10:7: undefined: undefinedThing
prog.go:15:19: undefined: q
"""


def _twelve_functions() -> str:
    funcs = "".join(f"func f{i}() {{\n\tfmt.Println(u{i})\n}}\n\n" for i in range(12))
    return f'package main\n\nimport "fmt"\n\n{funcs}func main() {{\n\tf0()\n}}\n'


def test_errors_in_three_functions_are_listed_as_go_lists_them() -> None:
    out, status, err = run_inprocess(THREE_FUNCTIONS)
    assert (out, status, err) == ("", "compile_error", GO_SAID_FOR_THREE)


def test_past_ten_errors_go_says_too_many() -> None:
    out, status, err = run_inprocess(_twelve_functions())
    assert status == "compile_error"
    expected = [f"prog.go:{6 + 4 * i}:14: undefined: u{i}" for i in range(10)] + ["prog.go:42:14: too many errors"]
    assert err.splitlines() == expected


def test_an_unused_import_and_an_error_below_it_are_both_listed() -> None:
    source = 'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc main() {\n\tfmt.Println(x)\n}\n'
    # go build: ./prog.go:5:2: imported and not used: "strings" / ./prog.go:9:14: undefined: x
    _, status, err = run_inprocess(source)
    assert status == "compile_error"
    assert err.splitlines() == ['prog.go:5:2: imported and not used: "strings"', "prog.go:9:14: undefined: x"]
