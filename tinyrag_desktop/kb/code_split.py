"""Source code cut where its structure is: top-level definitions, and the members of a class too large to keep whole.

A file is cut into :class:`Section`\\ s of whole lines, each with its path of names under the file
(``("Parser", "feed")``: the method ``feed`` of the class ``Parser``); joined again, the sections are the
file exactly, whatever it holds. Python is read with the ``ast`` module; other languages by their brackets
(C, C++, Objective-C, C#, Go, Rust, Java, Kotlin, Swift, Scala, Dart, Groovy, Zig, PHP, JavaScript, TypeScript,
shell, PowerShell, Perl, R, nginx-style configuration), by indentation (Ruby, Lua, Julia, Elixir, Erlang,
Nim, Haskell, OCaml, F#, Clojure, Visual Basic, YAML, Makefiles, and Python that does not parse, or is over
a megabyte), by headers or labels (INI, TOML, Dockerfile stages, MATLAB functions, batch files' labels) or by
statements (SQL, sql_split.py), with a pattern per language that says where a definition starts and names
it; ``extern "C" {`` blocks and namespaces are looked through, their definitions named under the namespace
("std::vector"). A guess gone wrong mislabels or merges sections; it never loses a line. Comments, decorators
and attributes just above a definition go with it; blank lines between definitions, and lines of only closing
brackets, go with the one above.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .sql_split import statements


@dataclass(frozen=True, slots=True)
class Section:
    path: tuple[str, ...]  # names under the file: () for code outside any definition
    text: str  # whole lines, each with its "\n" (the file's last may lack it)


@dataclass(slots=True)
class _Span:
    start: int  # first line (0-based)
    end: int  # one past the last line
    name: str
    members: list["_Span"] = field(default_factory=list)


def split_code(text: str, language: str) -> list[Section]:
    """``text`` cut into sections by ``language`` (see LANGUAGES' values); never raises, never loses a line."""
    lines = text.split("\n")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    try:
        spans = _FINDERS.get(language, _no_spans)(lines)
    except RecursionError:  # brackets nested thousands deep: read as one piece
        spans = []
    return _sections(lines, spans)


def _no_spans(lines: list[str]) -> list[_Span]:
    return []


def _sections(lines: list[str], spans: Sequence[_Span]) -> list[Section]:
    cut: list[tuple[tuple[str, ...], int, int]] = []

    def put(path: tuple[str, ...], start: int, end: int) -> None:
        if end > start:
            cut.append((path, start, end))

    pos = 0
    for span in spans:
        start, end = max(span.start, pos), min(span.end, len(lines))
        if end <= start:
            continue
        put((), pos, start)
        inner = start
        for member in span.members:
            m_start, m_end = max(member.start, inner), min(member.end, end)
            if m_end <= m_start:
                continue
            put((span.name,), inner, m_start)
            put((span.name, member.name), m_start, m_end)
            inner = m_end
        put((span.name,), inner, end)
        pos = end
    put((), pos, len(lines))
    # (path, its pieces, whether any holds more than blank lines): pieces joined once at the end, as twenty
    # thousand "CREATE TABLE t" of one name in a row joined one by one took seconds
    merged: list[tuple[tuple[str, ...], list[str], bool]] = []
    for path, start, end in cut:
        chunk = "".join(lines[start:end])
        solid = bool(chunk.strip())
        if merged and (not solid or merged[-1][0] == path or not merged[-1][2] or _CLOSING.fullmatch(chunk)):
            # blank lines and closing brackets ("};") join the section above; a section of only blank lines
            # takes the next one's name
            prev_path, pieces, prev_solid = merged[-1]
            pieces.append(chunk)
            merged[-1] = (path if solid and not prev_solid else prev_path, pieces, prev_solid or solid)
        else:
            merged.append((path, [chunk], solid))
    return [Section(path, "".join(pieces)) for path, pieces, _ in merged]


# Lines of only closing brackets, as a class's "};" after its last method.
_CLOSING = re.compile(r"(?:[ \t]*+[)\]}][)\]};, \t]*+(?://[^\n]*)?\n?|[ \t]*+\n)++")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _attached_above(lines: list[str], start: int, floor: int, marks: tuple[str, ...]) -> int:
    """Where a definition starting at ``start`` really starts: with the comment, decorator or attribute
    lines right above it (none above ``floor``)."""
    while start > floor:
        above = lines[start - 1].strip()
        if not above or not above.startswith(marks):
            break
        start -= 1
    return start


# --- Python ---------------------------------------------------------------------------------------------

_PY_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


# Above this many characters a Python file is read by its indentation: ast's tree of a generated 38 MB table
# took 24 s and 4.7 GB.
_AST_MOST = 1_000_000


def _python_spans(lines: list[str]) -> list[_Span]:
    source = "".join(lines)
    if "\r" in source or len(source) > _AST_MOST:  # ast would count lines otherwise; or take gigabytes
        return _indent_spans(lines, _PY_START, _PY_GOES_ON, ("#", "@"))
    try:
        with warnings.catch_warnings():  # "invalid escape sequence" and the like: not ours to say
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):  # RecursionError: "1+" * 200000
        return _indent_spans(lines, _PY_START, _PY_GOES_ON, ("#", "@"))
    return _python_defs(lines, tree.body, 0, members=True)


def _python_defs(lines: list[str], body: list[ast.stmt], floor: int, members: bool) -> list[_Span]:
    spans = []
    for node in body:
        if not isinstance(node, _PY_DEFS) or node.end_lineno is None:
            continue
        first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        start = _attached_above(lines, first, max(floor, spans[-1].end if spans else 0), ("#",))
        span = _Span(start, node.end_lineno, node.name)
        if members and isinstance(node, ast.ClassDef):
            span.members = _python_defs(lines, node.body, first, members=False)
        spans.append(span)
    return spans


_PY_START = re.compile(r"(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")
_PY_GOES_ON = re.compile(r"[)\]}]")


# --- By indentation -------------------------------------------------------------------------------------

def _indent_spans(lines: list[str], start: re.Pattern[str], goes_on: re.Pattern[str], marks: tuple[str, ...],
                  lo: int = 0, hi: int | None = None, level: int = 0, members: bool = True,
                  one_line: bool = True) -> list[_Span]:
    """Definitions at indentation ``level``: a line there that ``start`` matches (its group 1 the name),
    with the deeper lines after it, blank ones, and those ``goes_on`` matches ("end", a closing bracket).
    Not ``one_line``: a definition of one line is none (a YAML key and its value: "port: 8080")."""
    hi = len(lines) if hi is None else hi
    spans: list[_Span] = []
    i = lo
    while i < hi:
        line = lines[i]
        found = start.match(line, level) if _indent(line) == level and line.strip() else None
        if found is None:
            i += 1
            continue
        j = i + 1
        while j < hi and (not lines[j].strip() or _indent(lines[j]) > level
                          or (_indent(lines[j]) == level and goes_on.match(lines[j], level))):
            j += 1
        end = j
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1
        if end == i + 1 and not one_line:
            i = j
            continue
        first = _attached_above(lines, i, spans[-1].end if spans else lo, marks)
        span = _Span(first, end, next((g for g in found.groups() if g), found.group(0).strip()))
        if members:
            inner = next((_indent(lines[k]) for k in range(i + 1, end) if lines[k].strip()), level)
            if inner > level:
                span.members = _indent_spans(lines, start, goes_on, marks, i + 1, end, inner, False, one_line)
        spans.append(span)
        i = j
    return spans


_RUBY_START = re.compile(r"(?:def|class|module)[ \t]+([\w.:?!=<>\[\]+\-*/%~]+)")
_RUBY_GOES_ON = re.compile(r"(?:end|rescue|ensure|else|elsif|when|in)\b|[)\]}]")
_YAML_KEY = re.compile(r"""(?!-[ \t]|#|---|\.\.\.)(["']?[^\s:#'"](?:[^:# \t]++|[ \t]++(?=[^ \t:#]))*+)"""
                       r"[ \t]*+:(?:[ \t]|$)")
_YAML_GOES_ON = re.compile(r"-[ \t]|-$")  # a list written at its key's own indentation
_MAKE_RULE = re.compile(r"(?!\.PHONY)([^\s:#=](?:[^:#= \t]++|[ \t]++(?=[^ \t:#=]))*+)[ \t]*+::?(?!=)")
_MAKE_GOES_ON = re.compile(r"\t")


# Languages whose definitions end in "end" or at the next line as little indented: a definition's start
# (group 1 its name), what goes on at its own indentation, and the marks of the comments and attributes above.
_INDENTED = {
    "lua": (re.compile(r"(?:local[ \t]+)?function[ \t]+([\w.:]+)|(?:local[ \t]+)?([\w.:]+)[ \t]*=[ \t]*function\b"),
            re.compile(r"end\b|[)\]}]"), ("--",)),
    "julia": (re.compile(r"(?:(?:mutable|abstract|primitive)[ \t]+)?(?:function|macro|struct|module|baremodule|type)"
                         r"[ \t]+([^\s({]+)"), re.compile(r"end\b|[)\]}]"), ("#", "@", '"""')),
    "elixir": (re.compile(r"(?:defmodule|defprotocol|defimpl|defp?|defmacrop?|defguardp?|defdelegate|defstruct"
                          r"|defexception|test|describe)[ \t]+([\w.?!]+|\"[^\"\n]*\")"),
               re.compile(r"end\b|[)\]}]"), ("#", "@")),
    "erlang": (re.compile(r"([a-z][\w@]*)[ \t]*\("), re.compile(r"[)\]}]|end\b"), ("%",)),
    "nim": (re.compile(r"(?:proc|func|method|iterator|template|macro|converter)[ \t]+`?([\w]+)"
                       r"|(type|const|let|var)[ \t]*$"),
            re.compile(r"[)\]}]"), ("#",)),
    "haskell": (re.compile(r"(?:data|newtype|type(?:[ \t]+family)?|class|instance)[ \t]+(?:[^=\n]*?=>[ \t]*)?"
                           r"([A-Z][\w']*)|(?!(?:import|module|where|infix[lr]?|deriving)\b)([a-z_][\w']*)"
                           r"(?=[^\n=]*?(?:::|(?<![=<>/])=(?!=)))"),
                re.compile(r"[)\]}]|(?:where|deriving)\b"), ("--", "{-")),
    # (F#'s "module Harbour" of a whole file names nothing: "module Harbour =" does)
    "ml": (re.compile(r"(?:let(?:[ \t]+rec)?|and|type|module(?:[ \t]+(?:type|rec))?(?=[^=\n]*=)|class|exception|val"
                      r"|external)"
                      r"[ \t]+(?:(?:inline|private|internal|public|mutable)[ \t]+)*([A-Za-z_][\w']*)"
                      r"|(?:static[ \t]+)?(?:member|override|abstract|default)[ \t]+(?:\w+\.)?([A-Za-z_][\w']*)"),
           re.compile(r"[)\]}]|(?:in|with|end|done|and)\b|\|"), ("//", "(*", "[<", "*")),
    "clojure": (re.compile(r"\((?:[\w.\-]+/)?(?:defn-?|defmacro|defmulti|defmethod|def|defonce|defprotocol|defrecord"
                           r"|deftype|definterface|defstruct|ns|deftest)[ \t]+(?:\^\S+[ \t]+)?([^\s()\[\]{}]+)"),
                re.compile(r"[)\]}]"), (";", "#_")),
    "vb": (re.compile(r"(?:(?:public|private|protected|friend|shared|overrides|overridable|mustoverride|notoverridable"
                      r"|partial|static|async|iterator|readonly|writeonly|default|shadows|overloads|mustinherit"
                      r"|notinheritable|widening|narrowing)[ \t]+)*"
                      r"(?:class|module|structure|interface|enum|sub|function|property|namespace|operator)"
                      r"[ \t]+(\w+)", re.I), re.compile(r"end\b", re.I), ("'", "<")),
}


def _ruby_spans(lines: list[str]) -> list[_Span]:
    return _indent_spans(lines, _RUBY_START, _RUBY_GOES_ON, ("#",))


def _yaml_spans(lines: list[str]) -> list[_Span]:
    return _indent_spans(lines, _YAML_KEY, _YAML_GOES_ON, ("#",), one_line=False)


def _make_spans(lines: list[str]) -> list[_Span]:
    # A recipe's lines start with a tab, which _indent counts as deeper than the rule's column 0.
    return _indent_spans(lines, _MAKE_RULE, _MAKE_GOES_ON, ("#",), members=False)


# --- Sections under headers (INI, TOML, Dockerfile stages) ------------------------------------------------

_INI_HEADER = re.compile(r"[ \t]*\[+[ \t]*([^\]\n]+?)[ \t]*\]+[ \t]*(?:[#;].*)?$")
_DOCKER_STAGE = re.compile(r"[ \t]*FROM[ \t]+(?:--\S+[ \t]+)*(\S+)(?:[ \t]+AS[ \t]+(\S+))?", re.I)


def _header_spans(lines: list[str], header: Callable[[str], str | None],
                  marks: tuple[str, ...] = ("#", ";")) -> list[_Span]:
    spans: list[_Span] = []
    for i, line in enumerate(lines):
        name = header(line)
        if name is None:
            continue
        start = _attached_above(lines, i, spans[-1].start + 1 if spans else 0, marks)
        if spans:
            spans[-1].end = start
        spans.append(_Span(start, len(lines), name))
    return spans


def _ini_spans(lines: list[str]) -> list[_Span]:
    return _header_spans(lines, lambda line: (m := _INI_HEADER.match(line)) and m.group(1))


def _docker_spans(lines: list[str]) -> list[_Span]:
    return _header_spans(lines, lambda line: (m := _DOCKER_STAGE.match(line)) and (m.group(2) or m.group(1)))


# A MATLAB function runs to the next (its "end" is optional); a batch file's label (":build") to the next.
_MATLAB_START = re.compile(r"[ \t]*(?:function[ \t]+(?:\[[^\]\n]*\][ \t]*=[ \t]*|\w+[ \t]*=[ \t]*)?([\w.]+)"
                           r"|classdef\b(?:[ \t]*\([^)\n]*\))?[ \t]+(\w+))")
_BATCH_LABEL = re.compile(r"[ \t]*:(?!:)([\w.\-]+)")


def _matlab_spans(lines: list[str]) -> list[_Span]:
    return _header_spans(lines, lambda line: (m := _MATLAB_START.match(line)) and (m.group(1) or m.group(2)), ("%",))


def _batch_spans(lines: list[str]) -> list[_Span]:
    return _header_spans(lines, lambda line: (m := _BATCH_LABEL.match(line)) and m.group(1),
                         ("rem", "REM", "::", "@rem"))


def _conf_spans(lines: list[str]) -> list[_Span]:
    """A .conf file in INI's sections when it has any ([program:web]), else in its blocks (nginx's "server {")."""
    return _ini_spans(lines) or _bracket_spans(lines, "conf", "sh")


# --- By statements (SQL) ----------------------------------------------------------------------------------

def _sql_spans(lines: list[str]) -> list[_Span]:
    """What a CREATE statement makes, from its first line to the line of its end (see sql_split)."""
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line)
    spans: list[_Span] = []
    for start, end, name in statements("".join(lines)):
        first = bisect.bisect_right(starts, start) - 1
        floor = spans[-1].end if spans else 0
        if not name or first < floor:
            continue
        first = _attached_above(lines, first, floor, ("--", "/*", "*", "#"))
        spans.append(_Span(first, bisect.bisect_left(starts, end), name))
    return spans


# --- By brackets ------------------------------------------------------------------------------------------

# What brackets inside do not count in: comments, strings, character literals (Rust's lifetimes 'a are no
# literal: a quote counts only with its closing one two to ten characters on); in JavaScript and TypeScript
# strings in single quotes ('https://…' holds no comment), template literals, and regular expressions after
# what cannot end a value ("= /[{(]/"). Shell counts braces only: a case arm's ")" opens nothing.
_COMMENT_OR_STRING = r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:\\.|[^\"\\\n])*(?:\"|$)"
_C_SKIP = _COMMENT_OR_STRING + r"|'(?:\\.[^'\n]{0,8}|[^\\'\n])'|`[^`]*(?:`|\Z)"
_JS_SKIP = (_COMMENT_OR_STRING + r"|'(?:\\.|[^'\\\n])*(?:'|$)|`(?:\\.|[^`\\])*(?:`|\Z)"
            r"|(?:(?<=[(,=:\[!&|?{};])|(?<=\breturn)|(?<=\btypeof)|^)[ \t]*"
            r"/(?![/*])(?:\\.|\[(?:\\.|[^\]\\\n]){0,300}\]|[^/\\\n\[]){1,300}/")
_SH_SKIP = r"(?<![\w${])#[^\n]*|\"(?:\\.|[^\"\\])*(?:\"|\Z)|'[^']*(?:'|\Z)|\\."
# C#, Kotlin, Swift, Scala, Dart, Groovy: strings in three quotes over lines (""" or '''), C#'s verbatim
# @"C:\dir\" (where "" is a quote), and single quotes as strings ('a', Dart's and Groovy's 'text').
_C3_SKIP = (r'"""[\s\S]*?(?:"""|\Z)|' + r"'''[\s\S]*?(?:'''|\Z)|" + r'@\$?"(?:[^"]|"")*(?:"|\Z)|'
            + _COMMENT_OR_STRING + r"|'(?:\\.|[^'\\\n])*(?:'|$)")
# PHP: # comments (not #[attributes]), heredocs and nowdocs (<<<EOT … EOT), strings over lines.
_PHP_SKIP = (r"#(?!\[)[^\n]*|<<<[ \t]*([\"']?)([A-Za-z_]\w*)\1[\s\S]*?(?:^[ \t]*\2\b|\Z)|//[^\n]*|/\*.*?(?:\*/|\Z)"
             r"|\"(?:\\.|[^\"\\])*(?:\"|\Z)|'(?:\\.|[^'\\])*(?:'|\Z)")
# Perl: its documentation (=pod … =cut) and the data after __END__, then as shell.
_PERL_SKIP = r"^=[a-zA-Z][\s\S]*?(?:^=cut\b[^\n]*|\Z)|^__(?:END|DATA)__\b[\s\S]*|" + _SH_SKIP
# PowerShell: <# … #> comments, and strings whose escape is the backtick ("C:\dir\" ends at its quote).
_PS_SKIP = r"<#[\s\S]*?(?:#>|\Z)|(?<![\w${])#[^\n]*|\"(?:`.|\"\"|[^\"`])*(?:\"|\Z)|'(?:''|[^'])*(?:'|\Z)"
_BRACKETS = {family: re.compile(f"{skip}|{counted}", re.S | re.M)
             for family, skip, counted in (("c", _C_SKIP, r"[{}()\[\]]"), ("js", _JS_SKIP, r"[{}()\[\]]"),
                                           ("sh", _SH_SKIP, "[{}]"), ("c3", _C3_SKIP, r"[{}()\[\]]"),
                                           ("php", _PHP_SKIP, r"[{}()\[\]]"), ("perl", _PERL_SKIP, "[{}]"),
                                           ("ps", _PS_SKIP, "[{}]"))}
_OPEN = frozenset("{([")

_CONTROL = frozenset("""if for while switch return else case catch do new throw sizeof delete try using typedef
    match loop until elif fi then esac when unless defer go select foreach synchronized with await yield
    assert super this print echo local export lock fixed checked unchecked nameof typeof guard elseif
    finally""".split())

_NAMED = {
    "go": re.compile(r"func[ \t]*(?:\([^)]*?(\w+)[ \t]*(?:\[[^\]]*\])?\)[ \t]*)?(\w+)|type[ \t]+(\w+)"),
    "rust": re.compile(r"(?:pub(?:\([^)]*\))?[ \t]+)?(?:(?:async|const|unsafe|default|extern[ \t]+\"[^\"]*\")[ \t]+)*"
                       r"(?:fn|struct|enum|trait|union|mod|type|macro_rules!)[ \t]*(\w+)"
                       r"|impl\b(?:<[^{]*?>)?[ \t]*([^{]+?)[ \t]*(?:where\b|\{|$)"),
    "js": re.compile(r"(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?"
                     r"(?:function[ \t]*\*?|class|interface|enum|namespace|module|type)[ \t]*([\w$]+)"
                     r"|(?:export[ \t]+)?(?:const|let|var)[ \t]+([\w$]+)[ \t]*(?::[^=]*)?=[ \t]*(?:async[ \t]*)?"
                     r"(?:function\b|\([^)]*\)[ \t]*(?::[^=]*)?=>|[\w$]+[ \t]*=>)"),
    "java": re.compile(r"(?:@?\w+(?:<[^>]*>)?[ \t]+)*(?:class|interface|enum|record)[ \t]+(\w+)"),
    "c": re.compile(r"(?:template[ \t]*<[^>]*>[ \t]*)?(?:typedef[ \t]+)?(?:class|struct|union|enum(?:[ \t]+class)?|namespace)"
                    r"[ \t]++(?:\w++[ \t]++)*?(\w+)[ \t]*+(?:final[ \t]*+)?(?::[^{;]*+)?\{?[ \t]*+$"),
    "sh": re.compile(r"(?:function[ \t]+)([\w.:-]+)|([\w.:-]+)[ \t]*\([ \t]*\)"),
    "cs": re.compile(r"(?:\[[^\]]*\][ \t]*)*(?:(?:public|private|protected|internal|static|sealed|abstract|partial"
                     r"|readonly|unsafe|file|ref|new)[ \t]+)*"
                     r"(?:class|struct|interface|enum|record(?:[ \t]+(?:class|struct))?)[ \t]+(\w+)"),
    "kotlin": re.compile(r"(?:(?:public|private|protected|internal|open|abstract|final|sealed|data|enum"
                         r"|annotation|inner|inline|value|override|suspend|tailrec|operator|infix|external|expect"
                         r"|actual|const)[ \t]+)*"
                         r"(?:(?:class|interface|object)[ \t]+(\w+)|fun[ \t]+(?:<[^>]*>[ \t]*)?(?:[\w.<>?]+\.)?(\w+)"
                         r"|(companion[ \t]+object))"),
    "swift": re.compile(r"(?:@\w+(?:\([^)]*\))?[ \t]+)*(?:(?:public|private|fileprivate|internal|open|final|static"
                        r"|class|override|mutating|nonmutating|convenience|required|indirect|nonisolated"
                        r"|dynamic)[ \t]+)*"
                        r"(?:(?:class|struct|enum|protocol|actor|extension)[ \t]+([\w.]+)|func[ \t]+([^\s(<]+)"
                        r"|(init|deinit|subscript)\b)"),
    "scala": re.compile(r"(?:(?:private|protected|final|sealed|abstract|implicit|lazy|override|case|inline|transparent"
                        r"|open)(?:\[[^\]]*\])?[ \t]+)*(?:(?:class|trait|object|enum)[ \t]+(\w+)|def[ \t]+([^\s(\[:=]+)"
                        r"|given[ \t]+(\w+))"),
    "dart": re.compile(r"(?:(?:abstract|base|final|sealed|interface|mixin)[ \t]+)*(?:class|mixin|enum"
                       r"|extension(?:[ \t]+type)?)[ \t]+(\w+)|typedef[ \t]+(\w+)"),
    # Gradle's blocks too: "dependencies {", "tasks.register('dist') {"
    "groovy": re.compile(r"(?:(?:public|private|protected|static|final|abstract)[ \t]+)*(?:class|interface|enum|trait)"
                         r"[ \t]+(\w+)|def[ \t]+(\w+)[ \t]*\(|(?!(?:if|for|while|switch|catch|else|try|do|finally"
                         r"|synchronized)\b)([\w.]+)[ \t]*(?:\([^()\n]*\)[ \t]*)?\{[ \t]*$"),
    "zig": re.compile(r"(?:pub[ \t]+)?(?:(?:export|extern|inline|noinline)[ \t]+)*fn[ \t]+(\w+)"
                      r"|(?:pub[ \t]+)?const[ \t]+(\w+)[ \t]*=[ \t]*(?:packed[ \t]+|extern[ \t]+)?"
                      r"(?:struct|enum|union|opaque)\b|test[ \t]+\"([^\"]*)\""),
    "php": re.compile(r"(?:(?:abstract|final|public|private|protected|static|readonly)[ \t]+)*"
                      r"(?:function[ \t]*&?[ \t]*(\w+)|(?:class|interface|trait|enum)[ \t]+(\w+))"),
    "objc": re.compile(r"[-+][ \t]*\([^)]*\)[ \t]*(\w+)"),
    "perl": re.compile(r"sub[ \t]+([\w:']+)"),
    "r": re.compile(r"([\w.]+|`[^`]+`)[ \t]*(?:<<?-|=)[ \t]*function\b"),
    "ps": re.compile(r"(?:function|filter|workflow)[ \t]+([\w\-]+(?::[\w\-]+)?)|(?:class|enum)[ \t]+(\w+)", re.I),
    "conf": re.compile(r"([\w.\-]+(?:[ \t]+[^\s{;#]+)*)[ \t]*\{"),  # nginx's "server {", "location /api {"
}
# The languages whose functions and methods have no keyword (see _CALLABLE).
_KEYWORDLESS = frozenset({"c", "java", "js", "cs", "dart", "groovy", "objc"})
# The languages where a definition's "{" is optional: one without ends with the lines indented below it.
_NO_BRACES_NEEDED = frozenset({"kotlin", "swift", "scala", "dart", "groovy"})
# A function or method where the language has no keyword for one ("static int parse(…)", "public void
# run() {", "async load(url) {"): words, then a name and its opening parenthesis. Each word taken whole
# (atomic groups): "a * b * c * …" has no ways of splitting to try one by one. A pointer to a function
# ("int (*xOpen)(…") is no definition.
_CALLABLE = re.compile(r"(?>[\w$<>\[\],.?*&:~@]++[ \t*&]++)*?"
                       r"(?:async[ \t]+|static[ \t]+|get[ \t]+|set[ \t]+|\*[ \t]*)*"
                       r"([A-Za-z_$~#][\w$:~]*)[ \t]*+(?:<[^(){};=]*>)?[ \t]*+\((?![ \t]*\*)")
_CONTAINER = re.compile(r"(?:^|[ \t])(?:class|struct|interface|enum|impl|trait|namespace|module|mod|object|record|union"
                        r"|extension|protocol|actor|mixin)\b")


def _name_at(line: str, lang: str) -> str | None:
    stripped = line.strip()
    if not stripped or stripped[0] in "#/*}{)]" and not (lang == "sh" and stripped.startswith("function")):
        return None
    found = _NAMED[lang].match(stripped)
    if found is not None:
        groups = [g for g in found.groups() if g]
        if lang == "go" and found.group(2):
            return f"{found.group(1)}.{found.group(2)}" if found.group(1) else found.group(2)
        if lang == "rust" and found.group(2):
            return "impl " + " ".join(found.group(2).split())[:80]
        if groups:
            return groups[-1] if lang != "sh" else groups[0]
    if lang in _KEYWORDLESS:
        called = _CALLABLE.match(stripped)
        if called is not None and called.group(1).split("::")[-1] not in _CONTROL and not stripped.endswith(";"):
            return called.group(1)
    return None


def _bracket_spans(lines: list[str], lang: str, family: str) -> list[_Span]:
    depths, inside = _depths(lines, _BRACKETS[family])
    return _bracket_defs(_Brackets(lines, depths, inside, lang), 0, len(lines), 0, members=True)


def _depths(lines: list[str], pattern: re.Pattern[str]) -> tuple[list[int], list[bool]]:
    """The bracket depth at the start of each line, and at the end (one more entry); and whether each line
    starts inside a comment or string (the prose of a licence is no definition)."""
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line)
    depths = [0] * (len(lines) + 1)
    inside = [False] * len(lines)
    depth, line_no = 0, 0
    for found in pattern.finditer("".join(lines)):
        token = found.group()
        if len(token) != 1:
            if "\n" in token:
                n = bisect.bisect_right(starts, found.start())
                while n < len(lines) and starts[n] < found.end():
                    inside[n] = True
                    n += 1
            continue
        while line_no + 1 < len(lines) and starts[line_no + 1] <= found.start():
            line_no += 1
            depths[line_no] = depth
        depth = depth + 1 if token in _OPEN else max(0, depth - 1)
    for n in range(line_no + 1, len(lines) + 1):
        depths[n] = depth
    return depths, inside


@dataclass(frozen=True, slots=True)
class _Brackets:
    lines: list[str]
    depths: list[int]  # see _depths
    inside: list[bool]
    lang: str


def _bracket_defs(code: _Brackets, lo: int, hi: int, base: int, members: bool, outer: str = "") -> list[_Span]:
    """Definitions at bracket depth ``base`` between lines ``lo`` and ``hi``, named under ``outer`` (the
    namespaces they are in: "std::")."""
    lines, lang = code.lines, code.lang
    spans: list[_Span] = []
    i = lo
    while i < hi:
        at_base = code.depths[i] == base and not code.inside[i]
        through = _LOOKED_THROUGH.get(lang) if at_base else None
        container = through.match(lines[i].strip()) if through else None
        if container is not None:  # extern "C" { or a namespace: its definitions are the file's own
            end = _end_of(code, i, hi, base)
            inner = f"{outer}{container.group(1)}{_SEPARATOR[lang]}" if container.group(1) else outer
            spans += _bracket_defs(code, i + 1, end, base + 1, members, inner)
            i = end
            continue
        name = _name_at(lines[i], lang) if at_base else None
        if name is None:
            i += 1
            continue
        end = _end_of(code, i, hi, base)
        floor = spans[-1].end if spans else lo
        first = i
        while first > max(floor, i - 2) and lang in ("c", "java") and _TYPE_ABOVE.match(lines[first - 1]):
            first -= 1  # "template <typename T>" over "static T" over "parse(…)"
        first = _attached_above(lines, first, floor, _MARKS.get(lang, _C_MARKS))
        span = _Span(first, end, outer + name)
        if members and end - i > 2 and (_CONTAINER.search(lines[i]) or lang == "conf"):  # nginx's http { server {
            span.members = _bracket_defs(code, i + 1, end, base + 1, members=False)
        spans.append(span)
        i = end
    return spans


def _end_of(code: _Brackets, i: int, hi: int, base: int) -> int:
    """One past the last line of what starts at line ``i``: where its brackets close, or its ";". A body's
    "{" on the line after its parameters' ")" goes with them."""
    lines = code.lines
    if code.lang in _NO_BRACES_NEEDED and code.depths[i + 1] <= base and "{" not in lines[i] and not (
            i + 1 < hi and lines[i + 1].lstrip().startswith("{")):  # "fun twice(x: Int) = x * 2", a protocol's "func"
        j = i + 1
        while j < hi and (not lines[j].strip() or _indent(lines[j]) > _indent(lines[i])):
            j += 1
        while j > i + 1 and not lines[j - 1].strip():
            j -= 1
        return j
    j, opened, braced = i, False, False
    while j < hi:
        braced = braced or "{" in lines[j]
        opened = opened or braced or code.depths[j + 1] > base
        said = lines[j].rstrip().endswith(";")
        if code.depths[j + 1] <= base and (opened or said):
            body_below = not braced and not said and j + 1 < hi and lines[j + 1].lstrip().startswith("{")
            if not body_below:
                break
        j += 1
    return min(j + 1, hi)


# Brackets looked through to the definitions inside, which are named under the namespace's name.
_LOOKED_THROUGH = {
    "c": re.compile(r"(?:extern[ \t]*+\"C(?:\+\+)?\"[ \t]*+\{?[ \t]*+|(?:inline[ \t]+)?namespace\b[ \t]*+([\w:]*+)"
                    r"[^;=]*?)(?://.*|/\*.*)?$"),
    "js": re.compile(r"(?:export[ \t]+)?(?:declare[ \t]+)?(?:namespace|module)[ \t]+([\w$.]+)[ \t]*\{?[ \t]*$"),
    "rust": re.compile(r"(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*\{[ \t]*$"),
    "cs": re.compile(r"namespace[ \t]+[\w.]+()[ \t]*\{?[ \t]*$"),  # C#'s classes are named without it
}
_SEPARATOR = {"c": "::", "js": ".", "rust": "::"}


_C_MARKS = ("//", "/*", "*", "#[", "@", "#!")
_MARKS = {"sh": ("#",), "perl": ("#",), "r": ("#",), "ps": ("#", "<#", "["), "conf": ("#",), "cs": (*_C_MARKS, "["),
          "php": (*_C_MARKS, "#")}
# A definition's type or template on the line above its name ("static int" over "parse(char *s)").
_TYPE_ABOVE = re.compile(r"[A-Za-z_][\w:<>,*& \t]*$")

# The bracket family (of _BRACKETS) each language's brackets are counted in.
_FAMILIES = {"c": "c", "go": "c", "rust": "c", "java": "c", "zig": "c", "objc": "c", "js": "js", "sh": "sh",
             "r": "sh", "cs": "c3", "kotlin": "c3", "swift": "c3", "scala": "c3", "dart": "c3", "groovy": "c3",
             "php": "php", "perl": "perl", "ps": "ps"}

_FINDERS: dict[str, Callable[[list[str]], list[_Span]]] = {
    "python": _python_spans, "ruby": _ruby_spans, "yaml": _yaml_spans, "make": _make_spans,
    "ini": _ini_spans, "properties": _ini_spans, "docker": _docker_spans, "matlab": _matlab_spans,
    "batch": _batch_spans, "conf": _conf_spans, "sql": _sql_spans,
    **{lang: (lambda lines, lang=lang, family=family: _bracket_spans(lines, lang, family))
       for lang, family in _FAMILIES.items()},
    **{lang: (lambda lines, rules=rules: _indent_spans(lines, *rules)) for lang, rules in _INDENTED.items()},
}
