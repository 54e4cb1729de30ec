"""Parsing Go with tree-sitter: snippet wrapping, syntax errors with Go's positions, allowed imports."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import CompileError

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
        import tree_sitter_go
        from tree_sitter import Language, Parser
        _parser = Parser(Language(tree_sitter_go.language()))
    return _parser


@dataclass
class Source:
    """The program to compile, its tree, and how its lines map back to what the user wrote."""

    text: str
    data: bytes
    tree: object
    line_map: dict = field(default_factory=dict)  # program line -> user line (snippets)
    snippet: bool = False

    def pos(self, node) -> tuple[int, int]:
        row, col_b = node.start_point
        line = self.data.split(b"\n")[row]
        col = len(line[:col_b].decode("utf-8", "replace")) + 1
        row += 1
        if self.snippet:
            row = self.line_map.get(row, row)
        return row, col

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
    """Top-level func/type declarations stay top-level, other lines go into func main (columns unchanged)."""
    src = text.encode()
    tree = ts_parser().parse(src)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    kind = ["stmt"] * len(lines)
    claimed = [False] * len(lines)
    for node in tree.root_node.children:
        first, last = node.start_point[0], node.end_point[0]
        if node.type in _TOP:
            for row in range(first, min(last, len(lines) - 1) + 1):
                if not claimed[row]:
                    kind[row] = "decl"
        for row in range(first, min(last, len(lines) - 1) + 1):
            claimed[row] = True
    used: set = set()
    _used_packages(tree.root_node, src, used)
    imports = sorted(ALLOWED[p] for p in used if p in ALLOWED)
    out = ["package main", ""]
    line_map: dict = {}
    if imports:
        out.append("import (")
        out.extend(f'\t"{imp}"' for imp in imports)
        out.extend([")", ""])
    for which in ("decl", "stmt"):
        if which == "stmt":
            out.append("func main() {")
        for row, line in enumerate(lines):
            if kind[row] == which:
                out.append(line)
                line_map[len(out)] = row + 1
    out.append("}")
    return "\n".join(out) + "\n", line_map


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
                raise CompileError(row, col, f"package {path} is not allowed in nanoGo "
                                   f"(allowed: {', '.join(sorted(ALLOWED_PATHS))})")
        stack.extend(reversed(n.children))


def parse(text: str) -> Source:
    snippet = _is_snippet(text)
    line_map: dict = {}
    prog = text
    if snippet:
        _forbidden_imports(text)
        prog, line_map = wrap_snippet(text)
    data = prog.encode("utf-8", "surrogateescape")
    tree = ts_parser().parse(data)
    src = Source(prog, data, tree, line_map, snippet)
    if tree.root_node.has_error:
        bad = _first_error(tree.root_node)
        row, col = src.pos(bad)
        if bad.is_missing:
            if bad.start_byte >= len(data.rstrip()):
                msg = f"syntax error: unexpected EOF, expecting {bad.type}"
            else:
                msg = f"syntax error: missing {bad.type}"
        else:
            tok = src.text_of(bad).strip().split()
            near = tok[0] if tok else "EOF"
            if near in ("else",):
                msg = "syntax error: unexpected else, expecting }"
            elif near and (near[0].isalpha() or near[0] == "_") and near not in _KEYWORDS:
                msg = f"syntax error: unexpected name {near}"
            else:
                msg = f"syntax error: unexpected {near}"
        raise CompileError(row, col, msg)
    return src
