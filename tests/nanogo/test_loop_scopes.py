"""A for statement's variables live in the statement's scope; its body is a block of its own (Go 1.19)."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.nanogo.interp import run_inprocess

# name -> (snippet, what Go 1.19 prints); written by hand from the spec's rules on blocks and for statements.
CASES = {
    "copy_for_a_closure": (
        "var fs []func() int\n"
        "for _, n := range []int{1, 10, 100} {\n\tn := n\n\tfs = append(fs, func() int { return n })\n}\n"
        "for _, f := range fs {\n\tfmt.Print(f(), \" \")\n}\nfmt.Println()\n",
        "1 10 100 \n",
    ),
    "without_a_copy_closures_share_the_one_variable": (
        "var fs []func() int\n"
        "for _, n := range []int{1, 10, 100} {\n\tfs = append(fs, func() int { return n })\n}\n"
        "for _, f := range fs {\n\tfmt.Print(f(), \" \")\n}\nfmt.Println()\n",
        "100 100 100 \n",
    ),
    "redeclare_from_the_old_value": (
        'for _, s := range []string{"a", "b"} {\n\ts := s + "!"\n\tfmt.Print(s, " ")\n}\n'
        'for k, v := range map[string]int{"x": 1} {\n\tk, v := k+"y", v+1\n\tfmt.Print(k, v)\n}\n'
        "for i := range []int{7} {\n\ti := i * 10\n\tfmt.Print(\" \", i)\n}\n"
        "fmt.Println()\n",
        "a! b! xy2 0\n",
    ),
    "var_declaration_in_the_body": (
        "total := 0\nfor _, v := range []int{1, 2, 3} {\n\ttotal += v\n\tvar v int = 10\n\ttotal += v\n}\n"
        "fmt.Println(total)\n",
        "36\n",
    ),
    "body_variable_captured_per_iteration_loop_variable_shared": (
        "var fs []func() int\n"
        "for i, n := range []int{5, 6} {\n\tm := n * 2\n\tfs = append(fs, func() int { return m + i })\n}\n"
        "fmt.Println(fs[0](), fs[1]())\n",
        "11 13\n",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_range_body_is_its_own_block(name):
    source, want = CASES[name]
    out, status, err = run_inprocess(source)
    assert (status, err) == ("ok", ""), err
    assert out == want


def test_an_unused_range_variable_hidden_by_the_body_is_still_unused():
    out, status, err = run_inprocess("for _, v := range []int{1} {\n\tv := 2\n\tfmt.Println(v)\n}\n")
    assert status == "compile_error"
    assert "1:8: v declared but not used" in err
