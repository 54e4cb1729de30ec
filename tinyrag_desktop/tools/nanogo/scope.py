"""What names denote while compiling: variables, constants, types, functions, packages, builtins."""

from __future__ import annotations

from . import types as T
from .errors import FollowOn


class Op:
    """A compiled expression: Python code, its Go type, its constant value (or None) and whether it is
    addressable (a variable, field or element: its struct/array value must be copied when assigned)."""

    __slots__ = ("code", "type", "const", "addr", "kind", "obj", "node")

    def __init__(self, code, type, const=None, addr=False, kind="value", obj=None, node=None):
        self.code, self.type, self.const, self.addr, self.kind, self.obj, self.node = (
            code, type, const, addr, kind, obj, node)

    @property
    def is_const(self) -> bool:
        return self.const is not None


class Var:
    kind = "var"
    __slots__ = ("name", "type", "py", "boxed", "used", "node", "is_global")

    def __init__(self, name, type, py, boxed=False, node=None, is_global=False):
        self.name, self.type, self.py, self.boxed, self.node, self.is_global = name, type, py, boxed, node, is_global
        self.used = False


class Const:
    kind = "const"
    __slots__ = ("name", "type", "value")

    def __init__(self, name, type, value):
        self.name, self.type, self.value = name, type, value


class TypeName:
    kind = "type"
    __slots__ = ("name", "type", "generic")

    def __init__(self, name, type, generic=None):
        self.name, self.type, self.generic = name, type, generic


class FuncObj:
    kind = "func"
    __slots__ = ("name", "type", "py", "generic")

    def __init__(self, name, type, py, generic=None):
        self.name, self.type, self.py, self.generic = name, type, py, generic


class PkgObj:
    kind = "pkg"
    __slots__ = ("name", "path", "node")

    def __init__(self, name, path, node):
        self.name, self.path, self.node = name, path, node


class Builtin:
    kind = "builtin"
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


class Failed:
    """A name declared by a statement that had an error: using it is a follow-on error, never reported."""
    kind = "failed"


class NilObj:
    kind = "nil"


class Scope:
    __slots__ = ("parent", "names", "func")

    def __init__(self, parent=None, func=False):
        self.parent, self.names, self.func = parent, {}, func

    def lookup(self, name):
        o = self.peek(name)
        if o is not None and o.kind == "failed":
            raise FollowOn()
        return o

    def peek(self, name):
        """What name denotes here, a failed declaration included (lookup stops the statement at one)."""
        s = self
        while s is not None:
            o = s.names.get(name)
            if o is not None:
                return o
            s = s.parent
        return None


def universe() -> Scope:
    u = Scope()
    for name, t in T.BASICS.items():
        u.names[name] = TypeName(name, t)
    u.names["error"] = TypeName("error", T.ERROR)
    u.names["any"] = TypeName("any", T.ANY)
    u.names["comparable"] = TypeName("comparable", T.Interface(union=[("comparable", None)]))
    u.names["true"] = Const("true", T.U_BOOL, True)
    u.names["false"] = Const("false", T.U_BOOL, False)
    u.names["nil"] = NilObj()
    for b in ("len", "cap", "append", "make", "new", "delete", "copy", "panic", "recover", "print", "println",
              "close", "complex", "real", "imag"):
        u.names[b] = Builtin(b)
    return u
