"""Source code cut where its structure is: top-level definitions, and the members of a class too large to keep whole.

A file is cut into :class:`Section`\\ s of whole lines, each with its path of names under the file
(``("Parser", "feed")``: the method ``feed`` of the class ``Parser``); joined again, the sections are the
file exactly, whatever it holds. Python is read with the ``ast`` module; other languages by their brackets
(C, C++, Go, Rust, Java, JavaScript, TypeScript, shell) or by indentation (Ruby, YAML, Makefiles, and Python
that does not parse, or is over a megabyte), with a pattern per language that says where a definition
starts and names it; ``extern "C" {`` blocks and namespaces are looked through, their definitions named
under the namespace ("std::vector"). A guess gone wrong mislabels or merges sections; it never loses a
line. Comments, decorators and attributes just above a definition go with it; blank lines between
definitions, and lines of only closing brackets, go with the one above.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence


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
    merged: list[tuple[tuple[str, ...], str]] = []
    for path, start, end in cut:
        chunk = "".join(lines[start:end])
        if merged and (not chunk.strip() or merged[-1][0] == path or not merged[-1][1].strip()
                       or _CLOSING.fullmatch(chunk)):
            # blank lines and closing brackets ("};") join the section above; a section of only blank lines
            # takes the next one's name
            prev_path, prev = merged[-1]
            merged[-1] = (path if chunk.strip() and not prev.strip() else prev_path, prev + chunk)
        else:
            merged.append((path, chunk))
    return [Section(path, chunk) for path, chunk in merged]


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
        span = _Span(first, end, found.group(1) or found.group(0).strip())
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


def _header_spans(lines: list[str], header: Callable[[str], str | None]) -> list[_Span]:
    spans: list[_Span] = []
    for i, line in enumerate(lines):
        name = header(line)
        if name is None:
            continue
        start = _attached_above(lines, i, spans[-1].start + 1 if spans else 0, ("#", ";"))
        if spans:
            spans[-1].end = start
        spans.append(_Span(start, len(lines), name))
    return spans


def _ini_spans(lines: list[str]) -> list[_Span]:
    return _header_spans(lines, lambda line: (m := _INI_HEADER.match(line)) and m.group(1))


def _docker_spans(lines: list[str]) -> list[_Span]:
    return _header_spans(lines, lambda line: (m := _DOCKER_STAGE.match(line)) and (m.group(2) or m.group(1)))


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
_BRACKETS = {family: re.compile(f"{skip}|{counted}", re.S | re.M)
             for family, skip, counted in (("c", _C_SKIP, r"[{}()\[\]]"), ("js", _JS_SKIP, r"[{}()\[\]]"),
                                           ("sh", _SH_SKIP, "[{}]"))}
_OPEN = frozenset("{([")

_CONTROL = frozenset("""if for while switch return else case catch do new throw sizeof delete try using typedef
    match loop until elif fi then esac when unless defer go select foreach synchronized with await yield
    assert super this print echo local export""".split())

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
}
# A function or method where the language has no keyword for one ("static int parse(…)", "public void
# run() {", "async load(url) {"): words, then a name and its opening parenthesis. Each word taken whole
# (atomic groups): "a * b * c * …" has no ways of splitting to try one by one. A pointer to a function
# ("int (*xOpen)(…") is no definition.
_CALLABLE = re.compile(r"(?>[\w$<>\[\],.?*&:~@]++[ \t*&]++)*?"
                       r"(?:async[ \t]+|static[ \t]+|get[ \t]+|set[ \t]+|\*[ \t]*)*"
                       r"([A-Za-z_$~#][\w$:~]*)[ \t]*+(?:<[^(){};=]*>)?[ \t]*+\((?![ \t]*\*)")
_CONTAINER = re.compile(r"(?:^|[ \t])(?:class|struct|interface|enum|impl|trait|namespace|module|mod|object|record|union)\b")


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
    if lang in ("c", "java", "js"):
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
        first = _attached_above(lines, first, floor, ("#",) if lang == "sh" else _C_MARKS)
        span = _Span(first, end, outer + name)
        if members and end - i > 2 and _CONTAINER.search(lines[i]):
            span.members = _bracket_defs(code, i + 1, end, base + 1, members=False)
        spans.append(span)
        i = end
    return spans


def _end_of(code: _Brackets, i: int, hi: int, base: int) -> int:
    """One past the last line of what starts at line ``i``: where its brackets close, or its ";". A body's
    "{" on the line after its parameters' ")" goes with them."""
    lines = code.lines
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
}
_SEPARATOR = {"c": "::", "js": ".", "rust": "::"}


_C_MARKS = ("//", "/*", "*", "#[", "@", "#!")
# A definition's type or template on the line above its name ("static int" over "parse(char *s)").
_TYPE_ABOVE = re.compile(r"[A-Za-z_][\w:<>,*& \t]*$")

_FINDERS: dict[str, Callable[[list[str]], list[_Span]]] = {
    "python": _python_spans, "ruby": _ruby_spans, "yaml": _yaml_spans, "make": _make_spans,
    "ini": _ini_spans, "docker": _docker_spans,
    **{lang: (lambda lines, lang=lang: _bracket_spans(lines, lang, "c")) for lang in ("c", "go", "rust", "java")},
    "js": lambda lines: _bracket_spans(lines, "js", "js"),
    "sh": lambda lines: _bracket_spans(lines, "sh", "sh"),
}
