"""Parsing Go with tree-sitter: snippet wrapping, syntax errors with Go's positions, allowed imports."""

from __future__ import annotations

import os
import re
import sys

from .errors import CompileError
from .goapi import forbidden_import

ALLOWED = {"fmt": "fmt", "strings": "strings", "strconv": "strconv", "math": "math", "sort": "sort",
           "errors": "errors", "unicode": "unicode", "utf8": "unicode/utf8", "sync": "sync"}
ALLOWED_PATHS = frozenset(ALLOWED.values())

_KEYWORDS = {"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for",
             "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
             "struct", "switch", "type", "var"}
_TOP = {"function_declaration", "method_declaration", "type_declaration"}
_parser = None


def ts_parser():
    global _parser
    if _parser is None:
        ts, go = _binding("tree_sitter"), _binding("tree_sitter_go")
        _parser = ts.Parser(ts.Language(go.language()))
    return _parser


def _binding(package: str):
    """``package``'s compiled part, its ``_binding`` extension module, which holds all nanoGo uses of it.

    It is loaded from its file without running the package's ``__init__``: tree_sitter's imports typing,
    tree_sitter_go's importlib.resources, and the two took 45 of the sandbox's 110 ms start-up. Where the
    file is not beside the package (a frozen build may keep it elsewhere), the package is imported."""
    import importlib.machinery
    import importlib.util

    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    try:
        spec = importlib.util.find_spec(package)  # finds the package without running it
        for folder in (spec.submodule_search_locations or []) if spec else []:
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                path = os.path.join(folder, "_binding" + suffix)
                found = importlib.util.spec_from_file_location(name, path) if os.path.isfile(path) else None
                if found is not None:
                    module = importlib.util.module_from_spec(found)
                    sys.modules[name] = module  # so a later import of the package uses this one
                    try:
                        found.loader.exec_module(module)
                    except BaseException:
                        del sys.modules[name]
                        raise
                    return module
    except Exception:  # whatever went wrong, the package's own import says it, or works
        pass
    return importlib.import_module(name)


class Source:
    """The program to compile, its tree, and how its lines map back to what the user wrote. (A plain
    class: importing dataclasses, and inspect with it, was a tenth of the sandbox's start-up.)"""

    __slots__ = ("text", "data", "tree", "line_map", "snippet")

    def __init__(self, text: str, data: bytes, tree: object, line_map: dict | None = None,
                 snippet: bool = False) -> None:
        self.text, self.data, self.tree, self.snippet = text, data, tree, snippet
        self.line_map = {} if line_map is None else line_map  # program line -> user line (snippets)

    def pos(self, node) -> tuple[int, int]:
        row, col_b = node.start_point
        line = self.data.split(b"\n")[row]
        col = len(line[:col_b].decode("utf-8", "replace")) + 1
        return self.user_row(row + 1), col

    def user_row(self, row: int) -> int:
        """A line of the program compiled as the line of what the user wrote (a snippet is wrapped)."""
        if not self.snippet:
            return row
        return self.line_map.get(row, max(self.line_map.values(), default=1))

    def text_of(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")


def _used_packages(node, src: bytes, found: set) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "selector_expression":
            op = n.child_by_field_name("operand")
            if op is not None and op.type == "identifier":
                found.add(src[op.start_byte:op.end_byte].decode())
        elif n.type == "qualified_type":
            p = n.child_by_field_name("package")
            if p is not None:
                found.add(src[p.start_byte:p.end_byte].decode())
        stack.extend(n.children)


def wrap_snippet(text: str) -> tuple[str, dict]:
    """The snippet as a Go file: ``package main`` and the imports of the packages it uses but does not import
    come first. Code that declares ``func main`` is a file already, kept as it is; otherwise its imports and
    func/type declarations stay top-level and every other line goes into a generated ``func main``. Lines
    are copied whole (columns unchanged) and every line of the result, the generated ones too, is mapped to
    a line the user wrote, so that no error points at a line they cannot see."""
    data = text.encode("utf-8", "surrogateescape")
    tree = ts_parser().parse(data)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    whole = _declares_main(data, tree.root_node)
    kind = ["decl"] * len(lines) if whole else _line_kinds(tree.root_node, len(lines))
    used: set = set()
    _used_packages(tree.root_node, data, used)
    imported = _imported_names(tree.root_node, data)
    imports = sorted(ALLOWED[p] for p in used if p in ALLOWED and p not in imported)
    out = ["package main", ""]
    line_map: dict = {}
    if imports:
        out.append("import (")
        out.extend(f'\t"{imp}"' for imp in imports)
        out.extend([")", ""])
    for which in ("import", "decl", "stmt"):
        if which == "stmt" and not whole:
            out.append("func main() {")
        for row, line in enumerate(lines):
            if kind[row] == which:
                out.append(line)
                line_map[len(out)] = row + 1
    if not whole:
        out.append("}")
    _map_generated(line_map, len(out) + 1, max(1, len(lines)))
    return "\n".join(out) + "\n", line_map


def _line_kinds(root, count: int) -> list[str]:
    """Each line of a snippet of statements: "import", "decl" (a func, method or type declaration, kept
    top-level) or "stmt" (the body of main). A line belongs to the first node that starts or covers it."""
    kind = ["stmt"] * count
    claimed = [False] * count
    for node in root.children:
        first, last = node.start_point[0], min(node.end_point[0], count - 1)
        which = "import" if node.type == "import_declaration" else "decl" if node.type in _TOP else None
        for row in range(first, last + 1):
            if which and not claimed[row]:
                kind[row] = which
            claimed[row] = True
    return kind


# ``func main`` at the start of a line: read from the text, as a file whose braces do not balance yet
# (``func main() {`` left open) has no function node in tree-sitter's tree; one inside a comment or a
# string (a raw string's lines) is no declaration, which the tree does tell.
_FUNC_MAIN = re.compile(rb"^func[ \t]+main[ \t]*\(", re.M)
_NOT_CODE = {"comment", "raw_string_literal", "interpreted_string_literal"}


def _declares_main(data: bytes, root) -> bool:
    """Whether the code declares ``func main`` at top level: a Go file without its package clause."""
    for match in _FUNC_MAIN.finditer(data):
        node = root.descendant_for_byte_range(match.start(), match.start() + 4)
        while node is not None and node.type not in _NOT_CODE:
            node = node.parent
        if node is None:
            return True
    return False


def _imported_names(root, data: bytes) -> set:
    """The package names the code's own import declarations bring in (an alias, else the path's last part)."""
    names = set()
    for node in root.children:
        if node.type != "import_declaration":
            continue
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type != "import_spec":
                stack.extend(n.named_children)
                continue
            alias, path = n.child_by_field_name("name"), n.child_by_field_name("path")
            if alias is not None:
                names.add(data[alias.start_byte:alias.end_byte].decode("utf-8", "replace"))
            elif path is not None:
                names.add(data[path.start_byte:path.end_byte].decode("utf-8", "replace").strip('"`').rsplit("/", 1)[-1])
    return names


def _map_generated(line_map: dict, total: int, last: int) -> None:
    """Map each line the wrapper wrote (and the end of the file, ``total``) to the user's line after it, or
    to their last line: an unclosed brace's "unexpected EOF" is said at the end of what they wrote."""
    following = last
    for row in range(total, 0, -1):
        if row in line_map:
            following = line_map[row]
        else:
            line_map[row] = following


def _is_snippet(text: str) -> bool:
    tree = ts_parser().parse(text.encode())
    for node in tree.root_node.children:
        if node.type == "package_clause":
            return False
        if node.type == "comment":
            continue
        return True
    return True


def _first_error(node):
    if node.type == "ERROR" or node.is_missing:
        return node
    if not node.has_error:
        return None
    for c in node.children:
        e = _first_error(c)
        if e is not None:
            return e
    return node


def _forbidden_imports(text: str) -> None:
    """A snippet's import lines are not Go, but a forbidden package must still be refused by name."""
    data = text.encode("utf-8", "surrogateescape")
    tree = ts_parser().parse(data)
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "import_spec":
            p = n.child_by_field_name("path")
            path = data[p.start_byte:p.end_byte].decode("utf-8", "replace").strip('"`')
            if path not in ALLOWED_PATHS:
                src = Source(text, data, tree)
                row, col = src.pos(p)
                raise CompileError(row, col, forbidden_import(path, ALLOWED_PATHS))
        stack.extend(reversed(n.children))


# A byte order mark that starts the file (Notepad writes one) is not part of the code: Go skips it too.
BOM = "\ufeff"
_NOT_UTF8 = re.compile("[\ud800-\udfff]")  # bytes a UTF-8 decode with surrogateescape could not read


def _check_utf8(text: str) -> None:
    """Go source is UTF-8: a file saved in another encoding is gc's compile error, at the bad byte."""
    bad = _NOT_UTF8.search(text)
    if bad is not None:
        start = text.rfind("\n", 0, bad.start()) + 1
        col = len(text[start:bad.start()].encode("utf-8", "surrogateescape")) + 1
        raise CompileError(text.count("\n", 0, bad.start()) + 1, col, "invalid UTF-8 encoding")


def parse(text: str) -> Source:
    text = text.removeprefix(BOM)
    _check_utf8(text)  # before the snippet test, whose parse would fail on it; lines are the snippet's own
    snippet = _is_snippet(text)
    line_map: dict = {}
    prog = text
    if snippet:
        _forbidden_imports(text)
        prog, line_map = wrap_snippet(text)
    data = prog.encode("utf-8", "surrogateescape")
    tree = ts_parser().parse(data)
    src = Source(prog, data, tree, line_map, snippet)
    # tree-sitter may flag the root alone (a file ending without a newline): only real error nodes count
    if (tree.root_node.has_error or _has_missing(tree.root_node)) and _first_bad(tree.root_node) is not None:
        raise _syntax_error(src, tree)
    _check_layout(src, tree)
    return src


_INVALID = set("?$@#\\")


def _invalid_char(src: Source):
    """The first character Go's scanner rejects (outside literals and comments), as (row0, col0, char)."""
    text = src.text
    i, n, row, line_start = 0, len(text), 0, 0
    while i < n:
        ch = text[i]
        if ch == "\n":
            row, line_start = row + 1, i + 1
        elif ch in "\"'`":
            j = i + 1
            while j < n and text[j] != ch and not (ch != "`" and text[j] == "\n"):
                j += 2 if text[j] == "\\" and ch != "`" else 1
            for k in range(i, min(j, n)):
                if text[k] == "\n":
                    row, line_start = row + 1, k + 1
            i = j + 1
            continue
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif text.startswith("/*", i):
            j = text.find("*/", i)
            j = n if j < 0 else j + 2
            row += text.count("\n", i, j)
            if "\n" in text[i:j]:
                line_start = text.rfind("\n", i, j) + 1
            i = j
            continue
        elif ch in _INVALID or (ord(ch) > 127 and not ch.isalpha()):
            return row, i - line_start, ch
        i += 1
    return None


def _leaf(node):
    while node.children:
        node = node.children[0]
    return node


def _has_missing(node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.is_missing:
            return True
        stack.extend(n.children)
    return False


def _first_bad(node):
    """The first ERROR or MISSING node in source order."""
    found = _first_bad_and_above(node)
    return found[0] if found is not None else None


def _first_bad_and_above(node):
    """The first ERROR or MISSING node in source order and its parent and grandparent (or None), found on
    the way down: tree-sitter's Node.parent searches from the root, in time quadratic in the tree's depth
    (6,000 nested operators, an expression left open, took past nanoGo's 10 s limit to say so)."""
    stack = [(node, None)]  # each node with the (parent, its own link) above it
    while stack:
        n, above = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            parent = above[0] if above is not None else None
            grandparent = above[1][0] if above is not None and above[1] is not None else None
            return n, parent, grandparent
        link = (n, above)
        stack.extend((c, link) for c in reversed(n.children))
    return None


def _innermost_error(bad):
    """Inside an ERROR, the first nested ERROR on the same line: the token the grammar could not place."""
    stack = list(reversed(bad.children))
    while stack:
        n = stack.pop()
        if n.type == "ERROR" and n.start_point[0] == bad.start_point[0]:
            return _innermost_error(n)
        stack.extend(reversed(n.children))
    return bad


def _check_layout(src: Source, tree) -> None:
    """What tree-sitter forgives but Go does not: statements outside functions, missing trailing commas."""
    root = tree.root_node
    # (in a wrapped snippet, a statement at top level can only come from unbalanced braces)
    for n in root.named_children:
        if n.type not in ("package_clause", "import_declaration", "function_declaration", "method_declaration",
                          "type_declaration", "var_declaration", "const_declaration", "comment"):
            row, col = src.pos(n)
            raise CompileError(row, col, "syntax error: non-declaration statement outside function body")
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "unary_expression":
            op = n.child_by_field_name("operator")
            two = src.data[op.start_byte:op.start_byte + 2].decode("utf-8", "replace")
            if two in ("++", "--"):
                row, col = src.pos(op)
                raise CompileError(row, col, f"syntax error: unexpected {two}, expecting expression")
        if n.type == "binary_expression":
            op = n.child_by_field_name("operator")
            two = src.data[op.start_byte:op.start_byte + 2].decode("utf-8", "replace")
            if two in ("++", "--"):
                row, col = src.pos(op)
                raise CompileError(row, col, f"syntax error: unexpected {two} at end of statement")
        if n.type in ("literal_value", "argument_list") and n.start_point[0] != n.end_point[0]:
            kids = [c for c in n.children if c.type != "comment"]
            if len(kids) >= 3 and kids[-2].type != "," and kids[-1].start_point[0] > kids[-2].end_point[0]:
                last = kids[-2]
                row, col = src.pos(last)
                end_col = col + len(src.text_of(last).split("\n")[-1]) if last.start_point[0] == last.end_point[0] \
                    else last.end_point[1] + 1
                what = "composite literal; possibly missing comma or }" if n.type == "literal_value" \
                    else "argument list; possibly missing comma or )"
                row = src.user_row(last.end_point[0] + 1)
                raise CompileError(row, end_col, f"syntax error: unexpected newline in {what}")
        stack.extend(n.children)


def _syntax_error(src: Source, tree) -> CompileError:
    bad, parent, bin_ = _first_bad_and_above(tree.root_node) or (_first_error(tree.root_node), None, None)
    if bad.type == "ERROR":
        bad = _innermost_error(bad)
    if bad.is_missing and parent is not None and parent.type == "unary_expression":
        if bin_ is not None and bin_.type == "binary_expression":
            op = bin_.child_by_field_name("operator")
            two = src.data[op.start_byte:op.start_byte + 2].decode()
            if two in ("++", "--"):
                row, col = src.pos(op)
                return CompileError(row, col, f"syntax error: unexpected {two} at end of statement")
    row, col = src.pos(bad)
    inv = _invalid_char(src)
    if inv is not None and (inv[0], inv[1]) <= (bad.start_point[0], bad.start_point[1] + 64) and \
            inv[0] <= bad.start_point[0]:
        line = src.data.split(b"\n")[inv[0]].decode("utf-8", "replace")
        r, c = src.user_row(inv[0] + 1), len(line[:inv[1]].encode()) + 1
        ch = inv[2]
        return CompileError(r, c, f"invalid character U+{ord(ch):04X} '{ch}'")
    lines = src.data.split(b"\n")
    if bad.is_missing:
        line = lines[bad.start_point[0]]
        if bad.type == ")" and not line[bad.start_point[1]:].strip():
            return CompileError(row, col, "syntax error: unexpected newline in argument list; possibly missing comma or )")
        if bad.start_byte >= len(src.data.rstrip()):
            return CompileError(row, col, f"syntax error: unexpected EOF, expecting {bad.type}")
        return CompileError(row, col, f"syntax error: unexpected newline, expecting {bad.type}")
    leaf = _leaf(bad)
    tok = src.text_of(leaf).strip() or src.text_of(bad).strip().split()[0:1] and src.text_of(bad).strip().split()[0]
    tok = tok or "EOF"
    row, col = src.pos(leaf)
    before = lines[leaf.start_point[0]][:leaf.start_point[1]].decode("utf-8", "replace").strip()
    if tok in ("else", "import", "package"):
        return CompileError(row, col, f"syntax error: unexpected {tok}, expecting }}")
    if before and (before[-1].isalnum() or before[-1] in "_)]}\"'`") and not before.endswith(("else", "return")):
        return CompileError(row, col, f"syntax error: unexpected {tok} at end of statement")
    return CompileError(row, col, f"syntax error: unexpected {tok}")
