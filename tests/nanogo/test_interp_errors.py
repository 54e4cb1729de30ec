"""nanoGo's compile errors and runtime panics carry Go's positions and messages."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.tools.nanogo.compiler import compile_source
from tinyrag_desktop.tools.nanogo.errors import CompileError
from tinyrag_desktop.tools.nanogo.interp import run_inprocess

COMPILE_ERRORS = [
    ("( 1 )", "1:1: ( 1 ) (untyped int constant) is not used"),  # crashed the compiler (found by hypothesis)
    ("(int(3))", "1:1: (int(3)) (constant 3 of type int) is not used"),  # crashed it too
    ("(int)(3)", "1:1: (int)(3) (constant 3 of type int) is not used"),
    ("s := []int{1}\n(len(s))", "2:1: (len(s)) (value of type int) is not used"),  # ran
    ("x := 1\nfmt.Println(y, x)", "2:13: undefined: y"),
    ("x := 1\nfmt.Println(1)", "1:1: x declared but not used"),
    ('package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() { fmt.Println(1) }\n',
     '5:2: package os is not allowed'),
    ('package main\n\nimport "strings"\n\nfunc main() {}\n', '3:8: imported and not used: "strings"'),
    ("func f() int {\n\tfor {\n\t\tbreak\n\t}\n}\nf()", "5:1: missing return"),
    ('fmt.Println("a" + 1)', '1:13: invalid operation: "a" + 1 (mismatched types untyped string and untyped int)'),
    ("var s string = 5\n_ = s", "1:16: cannot use 5 (untyped int constant) as string value in variable declaration"),
    ("var b int8 = 200\n_ = b", "1:14: cannot use 200 (untyped int constant) as int8 value in variable declaration (overflows)"),
    ("a := 1\na := 2\n_ = a", "2:3: no new variables on left side of :="),
    ("x := 3\nx.(int)", "2:1: invalid operation: x (variable of type int) is not an interface"),
    ('import "net/http"\nfmt.Println(1)', "net/http"),
    ("type S interface{ Area() float64 }\ntype Sq struct{}\nfunc (q *Sq) Area() float64 { return 1 }\n"
     "var s S = Sq{}\nfmt.Println(s)",
     "4:11: cannot use Sq{} (value of type Sq) as type S in variable declaration:\n"
     "\tSq does not implement S (Area method has pointer receiver)"),
    ("func f() (int, string) { return 1, \"a\" }\na, b, c := f()\nfmt.Println(a, b, c)",
     "2:12: assignment mismatch: 3 variables but f returns 2 values"),
    ("for i := range 3 {\n\tfmt.Println(i)\n}", "1:16: cannot range over 3 (untyped int constant)"),
    ("x := min(3, 4)\nfmt.Println(x)", "1:6: undefined: min"),
    ("const x uint8 = 255\nfmt.Println(x + 1)", "2:13: x + 1 (constant 256 of type uint8) overflows uint8"),
    ("a, b := 3, 7\nm := a > b ? a : b\nfmt.Println(m)", "2:12: invalid character U+003F '?'"),
    ("i := 0\nwhile i < 3 {\n\ti++\n}", "2:7: syntax error: unexpected i at end of statement"),
    ('fmt.Println("a",\n\t"b"\n)', "2:5: syntax error: unexpected newline in argument list; possibly missing comma or )"),
    ("outer:\nfor i := 0; i < 2; i++ {\n}", "1:1: label outer defined and not used"),
]


@pytest.mark.parametrize("source,message", COMPILE_ERRORS)
def test_compile_errors(source, message):
    with pytest.raises(CompileError) as info:
        compile_source(source)
    assert message in str(info.value)


PANICS = [
    ("s := []int{1, 2, 3}\ni := 5\nfmt.Println(s[i])", "panic: runtime error: index out of range [5] with length 3"),
    ("var m map[string]int\nm[\"a\"] = 1", "panic: assignment to entry in nil map"),
    ("a, b := 1, 0\nfmt.Println(a / b)", "panic: runtime error: integer divide by zero"),
    ("type T struct{ X int }\nvar p *T\nfmt.Println(p.X)",
     "panic: runtime error: invalid memory address or nil pointer dereference"),
    ("var i interface{} = \"s\"\nn := i.(int)\nfmt.Println(n)",
     "panic: interface conversion: interface {} is string, not int"),
    ('panic("boom")', "panic: boom"),
    ('panic(fmt.Errorf("wrapped: %w", errors.New("inner")))', "panic: wrapped: inner"),
    ("ch := make(chan int)\nch <- 1", "fatal error: all goroutines are asleep - deadlock!"),
    ("s := []int{1}\nfmt.Println(s[1:5])", "panic: runtime error: slice bounds out of range [:5] with capacity 1"),
]


@pytest.mark.parametrize("source,first_line", PANICS)
def test_panics(source, first_line):
    out, status, err = run_inprocess(source)
    assert status == "panic"
    assert err.splitlines()[0] == first_line


def test_output_before_a_panic_is_kept():
    out, status, err = run_inprocess('fmt.Println("before")\nvar m map[int]int\nm[1]++')
    assert (out, status) == ("before\n", "panic")


def test_recover_stops_a_panic_and_defers_run_in_reverse():
    src = """func f() (r string) {
	defer func() {
		if x := recover(); x != nil {
			r = fmt.Sprint("recovered ", x)
		}
	}()
	defer fmt.Println("second defer runs first")
	var s []int
	_ = s[3]
	return "unreachable"
}
fmt.Println(f())
"""
    out, status, err = run_inprocess(src)
    assert status == "ok", err
    assert out == "second defer runs first\nrecovered runtime error: index out of range [3] with length 0\n"


_GO_ISH = st.lists(st.sampled_from(["x", ":=", "1", "+", "(", ")", "{", "}", "fmt.Println", "\n", "for",
                                     "if", "func", "[]int", "\"s\"", ",", ";", "var", "return", "go", "<-",
                                     "chan", "map[string]int", "..."]), max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_GO_ISH.map(" ".join))
def test_any_input_compiles_or_gives_a_compile_error(source):
    """The front end never crashes on outside input: it compiles or raises CompileError."""
    try:
        code, _ = compile_source(source)
    except CompileError as e:
        assert e.line >= 0 and e.message
    else:
        compile(code, "<nanogo>", "exec")


@settings(max_examples=40, deadline=None)
@given(st.integers(-(2**63), 2**63 - 1), st.integers(-(2**63), 2**63 - 1).filter(lambda b: b != 0))
def test_int64_arithmetic_wraps_and_truncates_like_go(a, b):
    src = f"var a, b int64 = {a}, {b}\nfmt.Println(a+b, a-b, a*b, a/b, a%b)"
    out, status, err = run_inprocess(src)
    assert status == "ok", err

    def wrap(v):
        return (v + 2**63) % 2**64 - 2**63

    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    r = a - q * b
    assert out.split() == [str(wrap(a + b)), str(wrap(a - b)), str(wrap(a * b)), str(wrap(q)), str(r)]


def test_a_parenthesized_call_is_a_statement() -> None:
    out, status, _err = run_inprocess('func f() int { fmt.Println("called"); return 1 }\n(f())\nfmt.Println("ok")')
    assert (out, status) == ("called\nok\n", "ok")


def test_a_program_runs_in_process_where_threads_take_windows_stack_sizes(monkeypatch):
    # CPython on Windows (thread_nt.h) takes a thread stack of 32 KiB up to, not including, 256 MiB, and raises
    # ValueError otherwise: run_inprocess's 256 MiB raised before any program ran there.
    import threading

    real = threading.stack_size

    def windows_stack_size(size=0):
        if size and not 0x8000 <= size < 0x10000000:
            raise ValueError("size not valid: %d bytes" % size)
        return real(size)

    monkeypatch.setattr(threading, "stack_size", windows_stack_size)
    assert run_inprocess('fmt.Println("hi")') == ("hi\n", "ok", "")
