"""A malformed program is a Go compile error with a position, never a Python exception from nanoGo."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.nanogo.compiler import Compiler, compile_source
from tinyrag_desktop.tools.nanogo.errors import CompileError
from tinyrag_desktop.tools.nanogo.interp import run_inprocess

_PROGRAM = 'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc main() {\n\tx := 3\n\tfmt.Println(x, strings.ToUpper("a"))\n%s\n}\n'

# (source, the error nanoGo must give): each of these was a Python exception before (TypeError at run
# time, AttributeError, ValueError), found by the reviewer or by mutating the reviewer's programs.
CASES = [
    ("var wg sync.WaitGroup\nwg.Add(1)\ngo func(n int) {\n\tdefer wg.Done()\n\tfmt.Println(n)\n}()\nwg.Wait()",
     "6:3: not enough arguments in call to func(n int) {…}\n\thave ()\n\twant (int)"),
    ('fmt.Println("work")\ndefer func(msg string) { fmt.Println("cleanup", msg) }()',
     "2:56: not enough arguments in call to func(msg string) {…}\n\thave ()\n\twant (string)"),
    ("done := make(chan bool)\ngo func() {\n\tfmt.Println(\"hi\")\n\tdone <- true\n}(42)\n<-done",
     "5:3: too many arguments in call to func() {…}\n\thave (number)\n\twant ()"),
    ("func parse(lines []string) (sum int, error) {\n\treturn len(lines), nil\n}\nfmt.Println(parse(nil))",
     "1:38: syntax error: mixed named and unnamed parameters"),
    ("func f(a int, string) {}\nf(1, \"\")", "1:15: syntax error: mixed named and unnamed parameters"),
    (_PROGRAM % "\tfmt.(x)", "11:2: use of package fmt not in selector"),
    # The package is used nowhere else: Go's first error would be `"fmt" imported and not used`.
    ('package main\n\nimport "fmt"\n\nfunc main() {\n\tx := 3\n\tfmt.(x)\n}\n', "7:2: use of package fmt not in selector"),
    (_PROGRAM % '\tfmt.Println(strings[1:].ToUpper("a"))', "11:14: use of package strings not in selector"),
    ("x := len\n_ = x", "1:6: len (built-in function len) must be called"),
    ("s := []int{1}\nfmt.Println(len[0], s)", "2:13: len (built-in function len) must be called"),
    ("func Map[T any](x T) T { return x }\nf := Map\n_ = f", "2:6: cannot use generic function Map without instantiation"),
    ("func f() {}\nx := -f()\n_ = x", "2:7: f() (no value) used as value"),
    ("x := panic(1)[1:]\n_ = x", "1:6: panic(1) (no value) used as value"),
    ("var s []int\nfmt.Println(s[int])", "2:15: int (type) is not an expression"),
    ('fmt.Println("a\\,b")', "1:16: unknown escape"),
    ('fmt.Println("\\uD800")', "1:20: escape is invalid Unicode code point U+D800"),
    ('fmt.Println("\\400")', "1:18: octal escape value 256 > 255"),
    ("ch := make(chan int)\nselect {\ncase ch() < 1:\n}", "3:6: select case must be receive, send or assign recv"),
    ('jag := [][]string{{"a"}, {"b": "c"}}\n_ = jag',
     '1:27: invalid argument: index "b" (untyped string constant) must be integer'),
    ("i := 1\nx := []int{i: 2}\n_ = x", "2:12: index i must be integer constant"),
    ("x := []int{1: 2, 1: 3}\n_ = x", "1:18: duplicate index 1 in array or slice literal"),
    ("func f() (int, error) { return 1, nil }\nx, ok := <-f()\n_, _ = x, ok",
     "2:10: invalid operation: cannot receive from non-channel f() (value of type (int, error))"),
    ("var f float64 = 1e400\n_ = f", "as float64 value in variable declaration (overflows)"),
    ('fmt.Printf("%v\\n", 11e21005)', "as float64 value in argument to fmt.Printf (overflows)"),
    # These hung the compiler (A's underlying type was B's, B's A's) or ran until the stack overflowed.
    ("type A B\ntype B A\nvar a A\n_ = a",
     "1:6: invalid recursive type A\n\tprog.go:1:6: A refers to\n\tprog.go:2:6: B refers to\n\tprog.go:1:6: A"),
    ("type T struct{ x T }\nvar t T\n_ = t", "1:6: invalid recursive type T\n\tprog.go:1:6: T refers to\n\tprog.go:1:6: T"),
    ("func f() {\n\ttype L [2]L\n\tvar l L\n\t_ = l\n}\nf()", "2:7: invalid recursive type L"),
]


def test_a_type_may_refer_to_itself_through_pointers_slices_maps_and_funcs():
    src = "type N struct {\n\tv    int\n\tnext *N\n\tkids []N\n\tm    map[string]N\n\tf    func(N) N\n}\n" \
          "n := N{v: 1, kids: []N{{v: 2}}}\nfmt.Println(n.v, n.kids[0].v, n.next == nil)"
    out, status, err = run_inprocess(src)
    assert (out, status, err) == ("1 2 true\n", "ok", "")


@pytest.mark.parametrize("source,message", CASES)
def test_a_malformed_program_gets_gos_compile_error(source, message):
    with pytest.raises(CompileError) as info:
        compile_source(source)
    assert message in str(info.value)
    assert info.value.__cause__ is None, "a compile error of nanoGo's own, not a Python exception turned into one"


def test_a_missing_argument_to_a_go_func_literal_stops_the_program_before_it_runs():
    out, status, err = run_inprocess('fmt.Println("work")\ngo func(n int) { fmt.Println(n) }()')
    assert (out, status) == ("", "compile_error")
    assert "not enough arguments in call to func(n int) {…}" in err


def test_a_fault_in_the_compiler_is_still_a_compile_error_at_its_statement(monkeypatch):
    """Whatever nanoGo's compiler trips on becomes a positioned compile error, not a Python message."""
    def broken(self, node, *args):
        raise AttributeError("'NoneType' object has no attribute 'u'")

    monkeypatch.setattr(Compiler, "s_inc_statement", broken)
    with pytest.raises(CompileError) as info:
        compile_source("x := 1\nfor i := 0; i < 3; i = i + 1 {\n\tx++\n}\nfmt.Println(x)")
    assert (info.value.line, info.value.col) == (3, 2)
    assert "nanoGo could not check this code" in info.value.message
    assert "NoneType" not in str(info.value)


@pytest.mark.timeout(30)
def test_an_expression_of_thousands_of_operators_left_open_is_a_syntax_error_at_once():
    # Finding the error's parent node took tree-sitter time quadratic in the tree's depth: 6,000 operators
    # took 21 s (past nanoGo's time limit, which was said in place of the error), these 15,000 minutes.
    source = "package main\n\nfunc main() {\n\tr := f(1" + "&^" * 15_000 + "\n}\n"
    with pytest.raises(CompileError) as info:
        compile_source(source)
    assert str(info.value) == "4:30010: syntax error: unexpected newline, expecting identifier"
