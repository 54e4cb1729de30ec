"""The runtime that compiled Go code calls: panics, interface values, pointers, slices, maps and type assertions."""

from __future__ import annotations

from . import types as T


class GoPanic(Exception):
    """A Go panic in flight; ``value`` is the panic value as an interface value (Iface or None)."""

    def __init__(self, value, runtime: bool = False):
        super().__init__(value)
        self.value = value
        self.runtime = runtime
        self.recovered = False
        self.prev = None  # the panic this one replaced while its deferred calls ran


class GoFatal(BaseException):
    """A fatal error (deadlock, stack overflow, a sandbox limit): never recoverable, no defers run."""

    def __init__(self, message: str, first: str = ""):
        super().__init__(message)
        self.message = message
        self.first = first  # a line printed before "fatal error: ..." (the stack-overflow note)


class GoExit(BaseException):
    """The program finished (main returned); unwinds other goroutines."""


class Iface:
    """A non-nil interface value: its dynamic type and the value."""

    __slots__ = ("t", "v")

    def __init__(self, t, v):
        self.t, self.v = t, v

    def __eq__(self, o):
        if not isinstance(o, Iface):
            return False
        if not (self.t is o.t or T.identical(self.t, o.t)):
            return False
        if not self.t.comparable:
            raise rt_panic(f"comparing uncomparable type {self.t.go()}")
        if isinstance(self.t, T.Pointer) or isinstance(self.t.u, (T.Chan, T.Pointer)):
            return self.v is o.v
        return self.v == o.v

    def __ne__(self, o):
        return not self.__eq__(o)

    def __hash__(self):
        if not self.t.comparable:
            raise rt_panic(f"hash of unhashable type {self.t.go()}")
        if isinstance(self.t.u, T.Pointer):
            return id(self.v)
        v = self.v
        return hash(tuple(v) if isinstance(v, list) else v)

    def __repr__(self):
        return f"Iface({self.t!r}, {self.v!r})"


class RuntimeErrorType(T.Named):
    pass


class _PtrRuntimeErrorType(RuntimeErrorType):
    def go(self, qualify: bool = True) -> str:
        return "*" + super().go(qualify)


# Go's concrete runtime error types, so %T and type switches on recovered values see what Go shows.
RUNTIME_ERROR = RuntimeErrorType("plainError", "runtime", T.Interface())  # nil map, closed channels
ERROR_STRING = RuntimeErrorType("errorString", "runtime", T.Interface())  # divide by zero, nil deref
BOUNDS_ERROR = RuntimeErrorType("boundsError", "runtime", T.Interface())  # index and slice bounds
TYPE_ASSERTION_ERROR = _PtrRuntimeErrorType("TypeAssertionError", "runtime", T.Interface())
for _t in (RUNTIME_ERROR, ERROR_STRING, BOUNDS_ERROR, TYPE_ASSERTION_ERROR):
    _t.mtab = {"Error": lambda v: v, "RuntimeError": lambda v: None}


def rt_panic(msg: str) -> GoPanic:
    kind = BOUNDS_ERROR if ("out of range [" in msg and ("index" in msg or "slice bounds" in msg)) else ERROR_STRING
    return GoPanic(Iface(kind, "runtime error: " + msg), True)


def nil_deref() -> GoPanic:
    return rt_panic("invalid memory address or nil pointer dereference")


class Box:
    """A variable whose address is taken or that a closure captures: ``&x`` is the box."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


class ElemPtr:
    """&a[i]: a pointer into a list."""

    __slots__ = ("a", "i")

    def __init__(self, a, i):
        self.a, self.i = a, i

    @property
    def v(self):
        return self.a[self.i]

    @v.setter
    def v(self, x):
        self.a[self.i] = x

    def __eq__(self, o):
        return isinstance(o, ElemPtr) and self.a is o.a and self.i == o.i

    def __hash__(self):
        return hash((id(self.a), self.i))


class FieldPtr:
    """&s.f for a non-struct field: a pointer into an object's attribute."""

    __slots__ = ("o", "f")

    def __init__(self, o, f):
        self.o, self.f = o, f

    @property
    def v(self):
        return getattr(self.o, self.f)

    @v.setter
    def v(self, x):
        setattr(self.o, self.f, x)

    def __eq__(self, o):
        return isinstance(o, FieldPtr) and self.o is o.o and self.f == o.f

    def __hash__(self):
        return hash((id(self.o), self.f))


class Ref:
    """A map key of pointer-to-struct type: compares by identity, not by the struct's fields."""

    __slots__ = ("o",)

    def __init__(self, o):
        self.o = o

    def __eq__(self, other):
        return isinstance(other, Ref) and self.o is other.o

    def __hash__(self):
        return id(self.o)


class NilMap(dict):
    """The nil map: reads see an empty map, writes panic."""

    def __setitem__(self, k, v):
        raise GoPanic(Iface(RUNTIME_ERROR, "assignment to entry in nil map"), True)


class Slice:
    """A Go slice: backing list ``a`` (None for a nil slice), offset, length and capacity."""

    __slots__ = ("a", "o", "n", "c")

    def __init__(self, a, o, n, c):
        self.a, self.o, self.n, self.c = a, o, n, c

    def items(self) -> list:
        return self.a[self.o:self.o + self.n] if self.a is not None else []


def slice_of(items: list) -> Slice:
    return Slice(items, 0, len(items), len(items))


def nil_slice() -> Slice:
    return Slice(None, 0, 0, 0)


def idx_panic(i, n):
    if i < 0:
        return rt_panic(f"index out of range [{i}]")
    return rt_panic(f"index out of range [{i}] with length {n}")


def sget(s: Slice, i):
    if 0 <= i < s.n:
        return s.a[s.o + i]
    raise idx_panic(i, s.n)


def sset(s: Slice, i, v):
    if 0 <= i < s.n:
        s.a[s.o + i] = v
        return
    raise idx_panic(i, s.n)


def aget(a: list, i):
    if 0 <= i < len(a):
        return a[i]
    raise idx_panic(i, len(a))


def aset(a: list, i, v):
    if 0 <= i < len(a):
        a[i] = v
        return
    raise idx_panic(i, len(a))


_SIZE_CLASSES = (0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320,
                 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
                 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240,
                 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768)


def _roundupsize(size: int) -> int:
    if size <= 32768:
        lo, hi = 0, len(_SIZE_CLASSES) - 1
        while lo < hi:  # first class >= size
            mid = (lo + hi) // 2
            if _SIZE_CLASSES[mid] >= size:
                hi = mid
            else:
                lo = mid + 1
        return _SIZE_CLASSES[lo]
    return -(-size // 8192) * 8192


def grow_cap(old_cap: int, need: int, esize: int) -> int:
    """Go 1.19's growslice capacity rule, size classes included, so cap() prints what Go prints."""
    newcap = old_cap
    double = newcap + newcap
    if need > double:
        newcap = need
    elif old_cap < 256:
        newcap = double
    else:
        while 0 < newcap < need:
            newcap += (newcap + 768) // 4
        if newcap <= 0:
            newcap = need
    if esize == 0:
        return newcap
    return _roundupsize(newcap * esize) // esize


def _copied(a: list) -> list:
    """Elements of a new backing array, for element types with value semantics (structs, arrays)."""
    return [e._cp() if hasattr(e, "_cp") else list(e) if type(e) is list else e for e in a]


def append(s: Slice, vals: list, esize: int, cp: bool = False) -> Slice:
    n = s.n
    k = len(vals)
    if k == 0:
        return s
    if n + k <= s.c:
        a, o = s.a, s.o
        end = o + n
        if end == len(a):
            a.extend(vals)
        else:
            a[end:end + k] = vals
        return Slice(a, o, n + k, s.c)
    newcap = grow_cap(s.c, n + k, esize)
    check_alloc(newcap, esize)
    a = s.a[s.o:s.o + n] if s.a is not None else []
    if cp:
        a = _copied(a)
    a.extend(vals)
    return Slice(a, 0, n + k, newcap)


def append1(s: Slice, v, esize: int, cp: bool = False) -> Slice:
    n = s.n
    if n < s.c:
        a, o = s.a, s.o
        if o + n == len(a):
            a.append(v)
        else:
            a[o + n] = v
        return Slice(a, o, n + 1, s.c)
    newcap = grow_cap(s.c, n + 1, esize)
    a = s.a[s.o:s.o + n] if s.a is not None else []
    if cp:
        a = _copied(a)
    a.append(v)
    return Slice(a, 0, n + 1, newcap)


# Backing lists only hold the elements up to the slice's length; growing beyond that happens lazily, so a
# list may be shorter than the capacity. Reslicing up to cap pads it with zero values.
def _pad(s: Slice, upto: int, zero) -> None:
    a = s.a
    need = s.o + upto
    if len(a) < need:
        if callable(zero):
            a.extend(zero() for _ in range(need - len(a)))
        else:
            a.extend([zero] * (need - len(a)))


def reslice(s: Slice, lo, hi, mx, zero) -> Slice:
    cap = s.c
    if hi is None:
        hi = s.n
    if mx is not None:
        if not 0 <= mx <= cap:
            raise rt_panic(f"slice bounds out of range [::{mx}] with capacity {cap}")
        if not 0 <= hi <= mx:
            raise rt_panic(f"slice bounds out of range [:{hi}:{mx}]")
        cap = mx
    elif not 0 <= hi <= cap:
        raise rt_panic(f"slice bounds out of range [:{hi}] with capacity {cap}")
    if not 0 <= lo <= hi:
        raise rt_panic(f"slice bounds out of range [{lo}:{hi}]")
    if s.a is None:
        return Slice(None, 0, 0, 0) if hi == 0 else Slice([], 0, 0, 0)
    if hi > s.n:
        _pad(s, hi, zero)
    return Slice(s.a, s.o + lo, hi - lo, cap - lo)


def slice_array(a: list, lo, hi, mx) -> Slice:
    n = len(a)
    if hi is None:
        hi = n
    cap = n if mx is None else mx
    if not 0 <= cap <= n:
        raise rt_panic(f"slice bounds out of range [::{cap}] with length {n}")
    if not 0 <= hi <= cap:
        raise rt_panic(f"slice bounds out of range [:{hi}] with capacity {cap}")
    if not 0 <= lo <= hi:
        raise rt_panic(f"slice bounds out of range [{lo}:{hi}]")
    return Slice(a, lo, hi - lo, cap - lo)


MAX_ALLOC = 1 << 31  # elements*size bytes beyond which make() reports out of memory


def check_alloc(n: int, esize: int) -> None:
    if n * max(esize, 1) > MAX_ALLOC:
        raise GoFatal("runtime: out of memory")


def make_slice(n, c, esize: int, zero) -> Slice:
    if c is None:
        c = n
    limit = (1 << 48) // max(esize, 1)  # Go's maxAlloc on 64-bit systems
    if n < 0 or n > limit:
        raise rt_panic("makeslice: len out of range")
    if c < n or c > limit:
        raise rt_panic("makeslice: cap out of range")
    check_alloc(c, esize)
    if callable(zero):
        a = [zero() for _ in range(n)]
    else:
        a = [zero] * n
    return Slice(a, 0, n, c)


def copy(dst: Slice, src) -> int:
    if isinstance(src, str):
        src = slice_of(list(src.encode("utf-8", "surrogateescape")))
    n = min(dst.n, src.n)
    if n:
        _pad(dst, n, 0)
        dst.a[dst.o:dst.o + n] = src.a[src.o:src.o + n]
    return n


def sitems(s: Slice) -> list:
    if s.a is None:
        return []
    return s.a[s.o:s.o + s.n]


# ---- maps -------------------------------------------------------------------------------------------------

def map_delete(m: dict, k) -> None:
    m.pop(k, None)


def check_map_len(n) -> None:
    if n is not None and n < 0:
        raise rt_panic("makemap: size out of range")


# ---- type assertions --------------------------------------------------------------------------------------

def assert_type(x, t, iface_name: str):
    if x is None:
        raise GoPanic(Iface(TYPE_ASSERTION_ERROR, f"interface conversion: {iface_name} is nil, not {t.go()}"), True)
    if x.t is t or T.identical(x.t, t):
        return x.v
    raise GoPanic(Iface(TYPE_ASSERTION_ERROR, f"interface conversion: {iface_name} is {x.t.go()}, not {t.go()}"), True)


def implements(t, methods) -> bool:
    mt = getattr(t, "mtab", None)
    if mt is None:
        return not methods
    return all(m in mt for m in methods)


def assert_iface(x, methods, target_name: str, iface_name: str):
    if x is None:
        raise GoPanic(Iface(TYPE_ASSERTION_ERROR, f"interface conversion: interface is nil, not {target_name}"), True)
    if implements(x.t, methods):
        return x
    missing = next(m for m in methods if m not in (getattr(x.t, "mtab", None) or {}))
    raise GoPanic(Iface(TYPE_ASSERTION_ERROR, f"interface conversion: {x.t.go()} is not {target_name}: "
                        f"missing method {missing}"), True)


def method(x, name: str):
    """The bound method `name` of interface value x (panics on a nil interface)."""
    if x is None:
        raise nil_deref()
    f = x.t.mtab[name]
    v = x.v
    return lambda *a: f(v, *a)


def icall(x, name: str, *args):
    if x is None:
        raise nil_deref()
    return x.t.mtab[name](x.v, *args)
