"""Go's types as the checker and the runtime see them (the same objects serve as runtime type descriptors)."""

from __future__ import annotations


class Type:
    """Base of all types; ``u`` is the underlying type (itself for all but Named)."""

    comparable = True

    @property
    def u(self) -> "Type":
        return self

    def go(self, qualify: bool = True) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.go(False)

    def __repr__(self) -> str:
        return f"<{self.go(True)}>"


class Basic(Type):
    __slots__ = ("name", "kind", "size", "signed", "untyped", "alias_of")

    def __init__(self, name: str, kind: str, size: int = 0, signed: bool = True, untyped: bool = False,
                 alias_of: "Basic | None" = None):
        self.name, self.kind, self.size, self.signed, self.untyped = name, kind, size, signed, untyped
        self.alias_of = alias_of  # byte and rune: the same type as uint8 and int32, under another name

    def go(self, qualify: bool = True) -> str:
        # the runtime (%T) says uint8 and int32; the compiler's messages keep byte and rune
        if qualify and self.alias_of is not None:
            return self.alias_of.name
        return self.name

    def __eq__(self, o):
        if not isinstance(o, Basic):
            return False
        return (self.alias_of or self) is (o.alias_of or o)

    def __hash__(self):
        return hash((self.alias_of or self).name)

    @property
    def is_int(self) -> bool:
        return self.kind == "int"


INT = Basic("int", "int", 64)
INT8 = Basic("int8", "int", 8)
INT16 = Basic("int16", "int", 16)
INT32 = Basic("int32", "int", 32)
INT64 = Basic("int64", "int", 64)
UINT = Basic("uint", "int", 64, False)
UINT8 = Basic("uint8", "int", 8, False)
UINT16 = Basic("uint16", "int", 16, False)
UINT32 = Basic("uint32", "int", 32, False)
UINT64 = Basic("uint64", "int", 64, False)
UINTPTR = Basic("uintptr", "int", 64, False)
FLOAT32 = Basic("float32", "float", 32)
FLOAT64 = Basic("float64", "float", 64)
COMPLEX128 = Basic("complex128", "complex", 128)
COMPLEX64 = Basic("complex64", "complex", 64)
STRING = Basic("string", "string")
BOOL = Basic("bool", "bool")
U_INT = Basic("untyped int", "int", 0, True, True)
U_RUNE = Basic("untyped rune", "int", 0, True, True)
U_FLOAT = Basic("untyped float", "float", 0, True, True)
U_STRING = Basic("untyped string", "string", 0, True, True)
U_BOOL = Basic("untyped bool", "bool", 0, True, True)
U_NIL = Basic("untyped nil", "nil", 0, True, True)
BYTE = Basic("byte", "int", 8, False, alias_of=UINT8)
RUNE = Basic("rune", "int", 32, True, alias_of=INT32)

BASICS = {t.name: t for t in (INT, INT8, INT16, INT32, INT64, UINT, UINT8, UINT16, UINT32, UINT64, UINTPTR,
                              FLOAT32, FLOAT64, COMPLEX128, COMPLEX64, STRING, BOOL)}
BASICS["byte"], BASICS["rune"] = BYTE, RUNE


def default_type(t: Type) -> Type:
    """The type an untyped constant gets when nothing else decides."""
    return {U_INT: INT, U_RUNE: RUNE, U_FLOAT: FLOAT64, U_STRING: STRING, U_BOOL: BOOL}.get(t, t)


class Slice(Type):
    __slots__ = ("elem",)
    comparable = False

    def __init__(self, elem: Type):
        self.elem = elem

    def go(self, qualify: bool = True) -> str:
        return "[]" + self.elem.go(qualify)

    def __eq__(self, o):  # structural identity
        return isinstance(o, Slice) and self.elem == o.elem

    def __hash__(self):
        return hash(("s", self.elem))


class Array(Type):
    __slots__ = ("n", "elem")

    def __init__(self, n: int, elem: Type):
        self.n, self.elem = n, elem

    @property
    def comparable(self):
        return self.elem.comparable

    def go(self, qualify: bool = True) -> str:
        return f"[{self.n}]" + self.elem.go(qualify)

    def __eq__(self, o):
        return isinstance(o, Array) and self.n == o.n and self.elem == o.elem

    def __hash__(self):
        return hash(("a", self.n, self.elem))


class Map(Type):
    __slots__ = ("key", "elem")
    comparable = False

    def __init__(self, key: Type, elem: Type):
        self.key, self.elem = key, elem

    def go(self, qualify: bool = True) -> str:
        return f"map[{self.key.go(qualify)}]{self.elem.go(qualify)}"

    def __eq__(self, o):
        return isinstance(o, Map) and self.key == o.key and self.elem == o.elem

    def __hash__(self):
        return hash(("m", self.key, self.elem))


class Pointer(Type):
    __slots__ = ("elem", "mtab")

    def __init__(self, elem: Type):
        self.elem = elem

    def go(self, qualify: bool = True) -> str:
        return "*" + self.elem.go(qualify)

    def __eq__(self, o):
        return isinstance(o, Pointer) and self.elem == o.elem

    def __hash__(self):
        return hash(("p", self.elem))


class Chan(Type):
    __slots__ = ("elem", "dir")

    def __init__(self, elem: Type, dir: str = "both"):
        self.elem, self.dir = elem, dir

    def go(self, qualify: bool = True) -> str:
        pre = {"both": "chan ", "send": "chan<- ", "recv": "<-chan "}[self.dir]
        return pre + self.elem.go(qualify)

    def __eq__(self, o):
        return isinstance(o, Chan) and self.elem == o.elem and self.dir == o.dir

    def __hash__(self):
        return hash(("c", self.elem, self.dir))


class Tuple(Type):
    __slots__ = ("types",)

    def __init__(self, types):
        self.types = tuple(types)

    def go(self, qualify: bool = True) -> str:
        return "(" + ", ".join(t.go(qualify) for t in self.types) + ")"

    def __eq__(self, o):
        return isinstance(o, Tuple) and self.types == o.types

    def __hash__(self):
        return hash(self.types)


class Func(Type):
    __slots__ = ("params", "results", "variadic")
    comparable = False

    def __init__(self, params, results, variadic: bool = False):
        self.params, self.results, self.variadic = tuple(params), tuple(results), variadic

    def go(self, qualify: bool = True) -> str:
        ps = [p.go(qualify) for p in self.params]
        if self.variadic:
            ps[-1] = "..." + self.params[-1].elem.go(qualify)
        s = "func(" + ", ".join(ps) + ")"
        if len(self.results) == 1:
            s += " " + self.results[0].go(qualify)
        elif self.results:
            s += " (" + ", ".join(r.go(qualify) for r in self.results) + ")"
        return s

    def __eq__(self, o):
        return (isinstance(o, Func) and self.params == o.params and self.results == o.results
                and self.variadic == o.variadic)

    def __hash__(self):
        return hash(("f", self.params, self.results))


class Field:
    __slots__ = ("name", "type", "embedded", "tag")

    def __init__(self, name: str, type: Type, embedded: bool = False, tag: str = ""):
        self.name, self.type, self.embedded, self.tag = name, type, embedded, tag


class Struct(Type):
    __slots__ = ("fields", "cls", "index")

    def __init__(self, fields):
        self.fields = list(fields)
        self.index = {f.name: i for i, f in enumerate(self.fields)}
        self.cls = None  # the generated Python class (set by the compiler)

    @property
    def comparable(self):
        return all(f.type.comparable for f in self.fields)

    def go(self, qualify: bool = True) -> str:
        if not self.fields:
            return "struct {}"
        parts = []
        for f in self.fields:
            parts.append(f.type.go(qualify) if f.embedded else f"{f.name} {f.type.go(qualify)}")
        return "struct { " + "; ".join(parts) + " }"

    def __eq__(self, o):
        return isinstance(o, Struct) and len(self.fields) == len(o.fields) and all(
            a.name == b.name and a.type == b.type and a.embedded == b.embedded
            for a, b in zip(self.fields, o.fields))

    def __hash__(self):
        return hash(("st", tuple(f.name for f in self.fields)))


class Interface(Type):
    __slots__ = ("methods", "embeds", "union")

    def __init__(self, methods=None, embeds=(), union=None):
        self.methods = dict(methods or {})  # name -> Func
        self.embeds = list(embeds)
        self.union = union  # type-set constraint terms (for generics): list of (tilde, Type) or None

    def all_methods(self) -> dict:
        out = {}
        for e in self.embeds:
            if isinstance(e.u, Interface):
                out.update(e.u.all_methods())
        out.update(self.methods)
        return out

    def go(self, qualify: bool = True) -> str:
        # the runtime (%T, panics) writes "interface {}", the compiler's messages "interface{}"
        ms = self.all_methods()
        if not ms:
            return "interface {}" if qualify else "interface{}"
        inner = "; ".join(n + f.go(qualify)[4:] for n, f in sorted(ms.items()))
        return "interface { " + inner + " }" if qualify else "interface{" + inner + "}"

    def __eq__(self, o):
        return isinstance(o, Interface) and self.all_methods() == o.all_methods() and self.union == o.union

    def __hash__(self):
        return hash(("i", tuple(sorted(self.all_methods()))))


class Method:
    """A declared method: its signature, whether its receiver is a pointer, and its Python name."""

    __slots__ = ("name", "sig", "ptr", "pyname")

    def __init__(self, name: str, sig: Func, ptr: bool, pyname: str):
        self.name, self.sig, self.ptr, self.pyname = name, sig, ptr, pyname


class Named(Type):
    __slots__ = ("name", "pkg", "_u", "methods", "mtab", "ptr", "targs")

    def __init__(self, name: str, pkg: str = "main", underlying: Type | None = None):
        self.name, self.pkg, self._u = name, pkg, underlying
        self.methods: dict[str, Method] = {}
        self.mtab = {}
        self.ptr = None
        self.targs = ()

    @property
    def u(self) -> Type:
        u = self._u
        while isinstance(u, Named):
            u = u._u
        return u

    @property
    def comparable(self):
        return self.u.comparable

    def go(self, qualify: bool = True) -> str:
        if self.pkg and qualify:
            return f"{self.pkg}.{self.name}"
        return self.name


class TypeParam(Type):
    __slots__ = ("name", "constraint")

    def __init__(self, name: str, constraint: Type):
        self.name, self.constraint = name, constraint

    def go(self, qualify: bool = True) -> str:
        return self.name


ERROR = Named("error", "", Interface({"Error": Func((), (STRING,))}))
ANY = Interface()


def pointer_to(t: Type) -> Pointer:
    """Pointer types to a Named type are shared, so their method tables can be attached once."""
    if isinstance(t, Named):
        if t.ptr is None:
            t.ptr = Pointer(t)
            t.ptr.mtab = {}
        return t.ptr
    p = Pointer(t)
    p.mtab = {}
    return p


def is_interface(t: Type) -> bool:
    return isinstance(t.u, Interface)


def is_numeric(t: Type) -> bool:
    u = t.u
    return isinstance(u, Basic) and u.kind in ("int", "float", "complex")


def is_integer(t: Type) -> bool:
    u = t.u
    return isinstance(u, Basic) and u.kind == "int"


def is_float(t: Type) -> bool:
    u = t.u
    return isinstance(u, Basic) and u.kind == "float"


def is_string(t: Type) -> bool:
    u = t.u
    return isinstance(u, Basic) and u.kind == "string"


def is_bool(t: Type) -> bool:
    u = t.u
    return isinstance(u, Basic) and u.kind == "bool"


def is_untyped(t: Type) -> bool:
    return isinstance(t, Basic) and t.untyped


def identical(a: Type, b: Type) -> bool:
    if a is b:
        return True
    if isinstance(a, Named) or isinstance(b, Named):
        return False
    return a == b
