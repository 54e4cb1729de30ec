"""Where code_split cuts real code: JavaScript's strings and regular expressions, C headers in extern "C",
namespaces, licence prose, shell's case arms, large and deeply nested Python, lines of closing brackets."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.backtracking import nested_repeats
from tinyrag_desktop.kb import code_split
from tinyrag_desktop.kb.code_split import split_code


def _paths(text: str, language: str) -> list[tuple[str, ...]]:
    sections = split_code(text, language)
    assert "".join(s.text for s in sections) == text
    return [s.path for s in sections]


# npm's lib/commands/config.js, shortened: a URL in single quotes, a template literal and a regular expression
# holding brackets.
CONFIG_JS = """const isProtected = (k) => {
  if (k.startsWith('https://') || k.startsWith('//')) {
    return true
  }
  return false
}

const keyValues = (args) => {
  const kv = {}
  for (const arg of args) {
    const [key, ...rest] = arg.split('=')
    kv[key] = `${rest.join('=')} {`
  }
  return kv
}

const quote = (s) => {
  return s.replace(/[{(\\[]/g, '\\\\$&').replace(/^'|'$/g, '')
}

class Config {
  constructor () {
    this.registry = 'https://registry.npmjs.org/'
  }

  async get (keys) {
    return keys.map(k => this.npm.config.get(k))
  }
}

function parseConfig (text) {
  return JSON.parse(text)
}
"""


def test_javascript_strings_and_regular_expressions_hold_no_comment_or_bracket() -> None:
    assert _paths(CONFIG_JS, "js") == [("isProtected",), ("keyValues",), ("quote",), ("Config",),
                                       ("Config", "constructor"), ("Config", "get"), ("parseConfig",)]


# The shape of sqlite3.h and most of /usr/include: the declarations wrapped for C++.
SQLITE_H = '#ifdef __cplusplus\nextern "C" {\n#endif\n\n' + "".join(
    f"/*\n** Open database {n}.\n*/\nint sqlite3_open_{n}(\n  const char *filename,\n  sqlite3 **ppDb\n)\n{{\n"
    + "  step();\n" * 4 + "  return 0;\n}\n\n" for n in range(3)) + (
    "#ifdef __cplusplus\n}  /* end of the 'extern \"C\"' block */\n#endif\n")


def test_a_header_in_extern_c_is_cut_at_its_definitions() -> None:
    assert _paths(SQLITE_H, "c") == [(), ("sqlite3_open_0",), ("sqlite3_open_1",), ("sqlite3_open_2",), ()]
    vfs = ("struct sqlite3_vfs {\n  int iVersion;\n  int (*xOpen)(sqlite3_vfs*, sqlite3_filename zName,\n"
           "               int flags, int *pOutFlags);\n  int mxPathname;\n};\n")
    assert _paths(vfs, "c") == [("sqlite3_vfs",)]


LICENSED_C = """/* Parse the configuration.
   Copyright (C) 1991-2022 Free Software Foundation, Inc.
   Returns the number of characters read (not including the
   null terminator).  */

#include <stdio.h>

int parse_config(const char *path)
{
    return 0;
}
"""


def test_prose_in_a_block_comment_names_no_definition() -> None:
    assert _paths(LICENSED_C, "c") == [(), ("parse_config",)]
    template = "const help = `\n  usage (run it)\n  run() {\n`\n\nfunction main () {\n  return help\n}\n"
    assert _paths(template, "js") == [(), ("main",)]


GNU_C = """static int
parse_args (int argc,
            char **argv)
{
  return argc;
}

int
main (void)
{
  return 0;
}
"""


def test_a_c_function_s_body_below_parameters_over_lines_goes_with_them() -> None:
    assert _paths(GNU_C, "c") == [("parse_args",), ("main",)]


# libstdc++'s headers: a namespace named beside a macro, holding a class too large for one passage.
METHODS = "".join(f"    int method_{n}(int x)\n    {{\n" + "        x += 1;\n" * 3 + "        return x;\n    }\n\n"
                  for n in range(2))
VECTOR_H = ("namespace std _GLIBCXX_VISIBILITY(default)\n{\n  class vector\n  {\n  public:\n" + METHODS
            + "  };\n} // namespace std\n")


def test_a_class_in_a_namespace_is_cut_at_its_methods_and_named_under_the_namespace() -> None:
    assert _paths(VECTOR_H, "c") == [(), ("std::vector",), ("std::vector", "method_0"), ("std::vector", "method_1")]
    ts = "export namespace Shapes {\n  export class Circle {\n    area () {\n      return 1\n    }\n  }\n}\n"
    assert _paths(ts, "js") == [(), ("Shapes.Circle",), ("Shapes.Circle", "area")]


def test_a_class_s_closing_bracket_goes_with_its_last_method() -> None:
    sections = split_code("class vector\n{\npublic:\n" + METHODS + "};\n", "c")
    assert [s.path for s in sections] == [("vector",), ("vector", "method_0"), ("vector", "method_1")]
    assert sections[-1].text.endswith("        return x;\n    }\n\n};\n")


INSTALL_SH = """#!/bin/sh
usage() {
    case "$1" in
        start) echo starting ;;
        *) echo "unknown: ${#1} letters" ;;
    esac
    echo done
}

install_files() {
    cp -r lib "$prefix"
}
"""


def test_a_shell_case_arm_closes_no_function() -> None:
    assert _paths(INSTALL_SH, "sh") == [("usage",), ("install_files",)]


def test_a_python_file_over_a_megabyte_is_read_without_its_syntax_tree() -> None:
    # a generated table, as in unicode or locale modules: ast's tree of it takes ~100 times its size
    row = "    (%d, 'name_%d', 3.14159, None, b'\\x00\\x01'),\n"
    table = ("TABLE = [\n" + "".join(row % (n, n) for n in range(30_000))
             + "]\n\n\ndef lookup(n):\n    return TABLE[n]\n")
    assert len(table) > 1_000_000
    tracemalloc.start()
    try:
        paths = _paths(table, "python")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert paths == [(), ("lookup",)]
    assert peak < 40 * len(table), f"{peak / 2**20:.0f} MB for a {len(table) / 2**20:.1f} MB file"


def test_python_nested_too_deep_for_its_syntax_tree_is_read_by_its_indentation() -> None:
    text = "x = " + "1+" * 200_000 + "1\n\n\ndef after():\n    return x\n"
    assert _paths(text, "python") == [(), ("after",)]


def test_a_form_feed_between_definitions_keeps_python_read_by_its_syntax_tree() -> None:
    # as in the standard library's email and tarfile modules; the string at column 0 fools the indentation
    text = ('\f\nclass Message:\n    def as_string(self):\n        return """\nFrom: a\n"""\n\n'
            "    def get(self):\n        return 1\n")
    assert [s.path for s in split_code(text, "python")] == [("Message",), ("Message", "as_string"),
                                                            ("Message", "get")]


def test_a_long_product_without_a_call_is_read_at_once() -> None:
    # "a * b * c * …" was split between the words and the "*"s every possible way, twice as long for each
    # factor more, before the line was found no definition (benchmarks/bench_hostile_inputs.py times it)
    text = "static const long size =\n    total " + "* factor " * 21 + ";\n"
    assert _paths(text, "c") == [()]
    assert nested_repeats(code_split._CALLABLE) == []


# What the cuts above look at, to go wrong on: containers looked through, quotes, regular expressions,
# comments over lines, closing brackets.
_PIECES = st.sampled_from(['extern "C" {', "namespace std _M(x)", "namespace a {", "export namespace N {",
                           "mod tests {", "{", "}", "};", "} // namespace", "'https://a'", "x = /[{(]/g", "`${a {`",
                           "/* Copyright (C)", "prose (here)", "*/", "int f(int a,", "  char *b)", "class C {",
                           "  m() {", "f() {", "  a) x ;;", "esac", "return x", "", "'", "`", "/"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(_PIECES, max_size=40).map("\n".join), language=st.sampled_from(["c", "js", "rust", "sh"]))
def test_no_line_is_lost_or_repeated_in_containers_strings_and_comments(text: str, language: str) -> None:
    sections = split_code(text, language)
    assert "".join(s.text for s in sections) == text
    assert all(s.text for s in sections)


# Long hostile lines each pattern once took exponential or quadratic time on (40 "}" then "x" ran for minutes;
# "namespace a" and 1,000 spaces, 27 s). Cut in a child process, so that old code fails here instead of hanging.
_HOSTILE = {
    "closing brackets": ("int f() {\n}\n" + "}" * 40 + "x\n", "c"),
    "namespace and spaces": ("namespace a" + " " * 50_000 + ";\n", "c"),
    "extern C and spaces": ('extern "C"' + " " * 50_000 + "x\n", "c"),
    "unclosed regular expressions": ("=/[" * 17_000 + "\n", "js"),
    "regular expression classes": ("[(/]" * 12_500 + "\n", "js"),
    "a name and spaces": ("token" + " " * 200_000 + "=\n", "java"),
    "a YAML key and spaces": ("token" + " " * 200_000 + "=\n", "yaml"),
    "a Makefile rule and spaces": ("rule" + " " * 200_000 + "=\n", "make"),
    # joined one by one, 200,000 sections of one name took 30 s; a heredoc never closed, 20,000 times
    "definitions of one name in a row": ("class t {\n}\n" * 200_000, "java"),
    "heredocs never closed": ("<<<A\n" * 20_000, "php"),
    "statements of one name in a row": ("CREATE TABLE t (a int);\n" * 40_000, "sql"),
    "modifiers and no definition": ("public " * 30_000 + "x\n", "kotlin"),
}


@pytest.mark.parametrize("case", sorted(_HOSTILE))
def test_a_long_hostile_line_is_cut_at_once(case: str) -> None:
    text, language = _HOSTILE[case]
    script = ("import sys\nfrom tinyrag_desktop.kb.code_split import split_code\n"
              "text, language = sys.stdin.read().split('\\0')\n"
              "assert ''.join(s.text for s in split_code(text, language)) == text\n")
    done = subprocess.run([sys.executable, "-c", script], input=f"{text}\0{language}", text=True,
                          capture_output=True, timeout=10,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert done.returncode == 0, done.stderr
