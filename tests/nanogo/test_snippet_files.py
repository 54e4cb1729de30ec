"""Code without a package clause: a file's declarations (``func main`` given) or statements (wrapped in
main); either way every error is said at a line the user wrote, and a leading byte order mark is skipped."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.tools.nanogo.compiler import compile_source
from tinyrag_desktop.tools.nanogo.errors import CompileError
from tinyrag_desktop.tools.nanogo.interp import run_inprocess

RUNS = [
    # a model's hello world without its package clause: was "10:6: main redeclared in this block"
    ('func main() {\n\tfmt.Println("hello")\n}', "hello\n"),
    # with its import: was "1:1: syntax error: unexpected import, expecting }"
    ('import "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n', "hello\n"),
    ('import (\n\t"fmt"\n\t"strings"\n)\n\nfunc main() {\n\tfmt.Println(strings.ToUpper("a"))\n}\n', "A\n"),
    # top-level var, const and type beside func main stay top-level (an unused var is no error there)
    ("type T struct{ N int }\n\nvar unused = 1\nconst k = 2\n\nfunc main() {\n\tfmt.Println(T{k})\n}\n",
     "{2}\n"),
    ("func twice(n int) int { return 2 * n }\n\nfunc main() {\n\tfmt.Println(twice(21))\n}\n", "42\n"),
    # statements with an import line: the import is kept at the top, the statements go into main
    ('import "fmt"\n\nfmt.Println("hi")\n', "hi\n"),
    # and without one, as before
    ("func f() int { return 2 }\nfmt.Println(f())\n", "2\n"),
    # "func main(" at a line's start inside a raw string or a comment declares nothing: statements still
    ("s := `\nfunc main() {\n`\nfmt.Println(len(s))\n", "15\n"),
    ("x := 1\n/*\nfunc main() {\n*/\nfmt.Println(x)\n", "1\n"),
]


@pytest.mark.parametrize("source,output", RUNS)
def test_code_without_a_package_clause_runs(source, output):
    assert run_inprocess(source) == (output, "ok", "")


ERRORS = [
    ('func main() {\n\tfmt.Println(y)\n}', "prog.go:2:14: undefined: y"),
    ('import "fmt"\nfunc main() {\n}\n', 'prog.go:1:8: imported and not used: "fmt"'),
    # statements beside func main: Go's own words, at the statement's line
    ("x := 1\n\nfunc main() {\n\tfmt.Println(x)\n}\n",
     "prog.go:1:1: syntax error: non-declaration statement outside function body"),
    ('func main() {\n\tfmt.Println("a")\n}\nfmt.Println("b")\n',
     "prog.go:4:1: syntax error: non-declaration statement outside function body"),
    ("func main() {\n\tx := 1\n}\n", "prog.go:2:2: x declared but not used"),
]


@pytest.mark.parametrize("source,first_line", ERRORS)
def test_errors_are_at_the_users_lines(source, first_line):
    out, status, err = run_inprocess(source)
    assert (out, status) == ("", "compile_error")
    assert err.splitlines()[0] == first_line


@pytest.mark.parametrize("source", ['\ufefffmt.Println("bom")', '\ufefffmt.Println("bom")\n',
                                    '\ufeff// Notepad\nfunc main() {\n\tfmt.Println("bom")\n}\n'])
def test_a_leading_byte_order_mark_is_skipped(source):
    assert run_inprocess(source) == ("bom\n", "ok", "")


_LINES = ["func main() {", "}", "{", ")", "(", 'import "fmt"', 'import "os"', "import (", '\t"strings"',
          "fmt.Println(1)", "\tfmt.Println(x)", "x := 1", "for {", "if x > 0 {", "func f() int {", "\treturn 1",
          "type T struct {", "\tN int", "var v = 2", "const c = 3", "// a comment", "/*", "*/", '"', "", "go f()",
          "y = ", "func (t T) M() {}", "package", "\ufeff", "?", "return"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_LINES), min_size=1, max_size=12), st.booleans())
def test_every_error_is_at_a_line_of_the_source(lines, newline_at_end):
    source = "\n".join(lines) + ("\n" if newline_at_end else "")
    try:
        compile_source(source)
    except CompileError as e:
        count = max(1, len(source.rstrip("\n").split("\n")))
        for error in (e, *e.more):
            assert 1 <= error.line <= count, (source, e.report("prog.go"))
