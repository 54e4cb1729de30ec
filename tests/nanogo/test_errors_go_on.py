"""After an error nanoGo checks on, as Go's type checker does: independent errors in one function (an
undefined name, a variable declared but not used, a missing return, an unused import) are all listed, in
source order, at most ten and then "too many errors". nanoGo stopped a function at its first error, so
`x := 1; fmt.Println(y)` said only `undefined: y` and the model fixed one error a run.

The expected lines are Go 1.19's (the Go nanoGo follows; its corpus was recorded with Go 1.19's go build),
less the "./" before the file name. Go 1.19 words an unused variable `x declared but not used` and an unused
import `imported and not used: "strings"`; Go 1.20 rewords them `declared and not used: x` and
`"strings" imported and not used`. Follow-on errors are not reported: a variable whose initialization
failed counts as used (types2's initVar: `lhs.used = true // avoid follow-on "declared but not used"
errors`; golang/go#42937), and each use of an undefined name is its own `undefined:` error."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.nanogo.interp import run_inprocess


def _main(body: str, imports: str = '"fmt"') -> str:
    return f"package main\n\nimport {imports}\n\nfunc main() {{\n{body}}}\n"


CASES = [
    # The reviewer's program: the unused x and the undefined y.
    (_main("\tx := 1\n\tfmt.Println(y)\n"),
     ["prog.go:6:2: x declared but not used", "prog.go:7:14: undefined: y"]),
    # Each use of an undefined name is reported.
    (_main("\tfmt.Println(y)\n\tfmt.Println(y)\n"),
     ["prog.go:6:14: undefined: y", "prog.go:7:14: undefined: y"]),
    # A variable mentioned in a statement with an error is used (Go checks the rest of the call).
    (_main("\tx := 1\n\tfmt.Println(y, x)\n\tfmt.Println(z)\n"),
     ["prog.go:7:14: undefined: y", "prog.go:8:14: undefined: z"]),
    # A failed declaration: n is neither unused nor an error where it is used.
    (_main("\tn := undefinedF()\n\tfmt.Println(n + 1)\n\tfmt.Println(z)\n"),
     ["prog.go:6:7: undefined: undefinedF", "prog.go:8:14: undefined: z"]),
    # Errors inside an if's body and after it.
    (_main("\tif true {\n\t\tfmt.Println(a)\n\t}\n\tfmt.Println(b)\n"),
     ["prog.go:7:15: undefined: a", "prog.go:9:14: undefined: b"]),
    # Inside a func literal and after it.
    (_main("\tf := func() { fmt.Println(a) }\n\tf()\n\tfmt.Println(b)\n"),
     ["prog.go:6:28: undefined: a", "prog.go:8:14: undefined: b"]),
    # Inside switch cases.
    (_main("\tswitch 1 {\n\tcase 1:\n\t\tfmt.Println(a)\n\t\tfmt.Println(b)\n\t}\n"),
     ["prog.go:8:15: undefined: a", "prog.go:9:15: undefined: b"]),
    # An unused import, an unused variable and an undefined name.
    (_main("\tx := 1\n\tfmt.Println(y)\n", '(\n\t"fmt"\n\t"strings"\n)'),
     ['prog.go:5:2: imported and not used: "strings"', "prog.go:9:2: x declared but not used",
      "prog.go:10:14: undefined: y"]),
    # A missing return and an unused variable in the same function, an error in another.
    ('package main\n\nimport "fmt"\n\nfunc f() int {\n\tx := 1\n}\n\nfunc main() {\n\tfmt.Println(f(), q)\n}\n',
     ["prog.go:6:2: x declared but not used", "prog.go:7:1: missing return", "prog.go:10:19: undefined: q"]),
    # Every argument of a call is checked (types2's call: an invalid function still gets
    # `check.use(call.ArgList...)`), also in a nested call.
    (_main("\tfmt.Println(a, fmt.Sprint(b, c))\n\tundefinedF(1, z)\n"),
     ["prog.go:6:14: undefined: a", "prog.go:6:28: undefined: b", "prog.go:6:31: undefined: c",
      "prog.go:7:2: undefined: undefinedF", "prog.go:7:16: undefined: z"]),
    # Both sides of a binary operator are checked (types2's binary checks lhs and rhs, then returns
    # if either is invalid).
    (_main("\tfmt.Println(a+b*c, 1)\n"),
     ["prog.go:6:14: undefined: a", "prog.go:6:16: undefined: b", "prog.go:6:18: undefined: c"]),
    # Twelve errors in one function: ten, then "too many errors".
    (_main("".join(f"\tfmt.Println(u{i})\n" for i in range(12))),
     [f"prog.go:{6 + i}:14: undefined: u{i}" for i in range(10)] + ["prog.go:15:14: too many errors"]),
]


@pytest.mark.parametrize("source,expected", CASES)
def test_every_error_is_listed_as_go_lists_it(source: str, expected: list[str]) -> None:
    out, status, err = run_inprocess(source)
    assert (out, status) == ("", "compile_error")
    assert err.splitlines() == expected


def test_a_program_without_errors_still_runs() -> None:
    out, status, _ = run_inprocess(_main('\tx := 1\n\tif x > 0 {\n\t\tfmt.Println("ok", x)\n\t}\n'))
    assert (out, status) == ("ok 1\n", "ok")
