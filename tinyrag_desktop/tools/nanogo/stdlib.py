"""The packages nanoGo offers: their Go signatures for the checker and Python implementations."""

from __future__ import annotations

from . import types as T
from .runtime import GoPanic, Iface, Slice, sitems
from .runtime_basic import gbytes, slen
from . import sched

S, I, F, B, R, BY = T.STRING, T.INT, T.FLOAT64, T.BOOL, T.RUNE, T.BYTE
I64 = T.INT64


def fn(params, results=(), variadic=False):
    return T.Func(params, results, variadic)


class Package:
    def __init__(self, path):
        self.path = path
        self.funcs: dict = {}  # name -> (Func, python name)
        self.consts: dict = {}  # name -> (type, value)
        self.types: dict = {}
        self.vars: dict = {}
        self.impl: dict = {}  # python name -> callable

    def add(self, name, sig, impl):
        py = f"_std_{self.path.replace('/', '_')}_{name}"
        self.funcs[name] = (sig, py)
        self.impl[py] = impl


PACKAGES: dict[str, Package] = {}


def _pkg(path) -> Package:
    p = Package(path)
    PACKAGES[path] = p
    return p


ANYS = T.Slice(T.ANY)

# ---- errors ---------------------------------------------------------------------------------------------

ERRSTR = T.Named("errorString", "errors", T.Struct([T.Field("s", S)]))
ERRSTR_P = T.pointer_to(ERRSTR)
WRAPERR = T.Named("wrapError", "fmt", T.Struct([T.Field("msg", S), T.Field("err", T.ERROR)]))
WRAPERR_P = T.pointer_to(WRAPERR)


class _ErrS:
    __slots__ = ("s",)

    def __init__(self, s):
        self.s = s


class _WrapE:
    __slots__ = ("msg", "err")

    def __init__(self, msg, err):
        self.msg, self.err = msg, err


ERRSTR_P.mtab = {"Error": lambda e: e.s}
WRAPERR_P.mtab = {"Error": lambda e: e.msg, "Unwrap": lambda e: e.err}


def new_error(s: str):
    return Iface(ERRSTR_P, _ErrS(s))


def error_text(e) -> str:
    return e.t.mtab["Error"](e.v)


def _unwrap(e):
    if e is None:
        return None
    m = getattr(e.t, "mtab", {}).get("Unwrap")
    if m is None:
        return None
    return m(e.v)


def errors_is(err, target):
    if err is None or target is None:
        return err is target
    while err is not None:
        try:
            if err == target:
                return True
        except GoPanic:
            pass
        m = getattr(err.t, "mtab", {}).get("Is")
        if m is not None and m(err.v, target):
            return True
        err = _unwrap(err)
    return False


def errors_as(err, target):
    if target is None or not isinstance(target.t, T.Pointer):
        raise GoPanic(Iface(T.STRING, "errors: target must be a non-nil pointer"))
    want = target.t.elem
    box = target.v
    while err is not None:
        if isinstance(want.u, T.Interface):
            from .runtime import implements
            if implements(err.t, tuple(want.u.all_methods())):
                box.v = err
                return True
        elif err.t is want or T.identical(err.t, want):
            if isinstance(want.u, (T.Struct, T.Array)):
                box._set(err.v) if hasattr(box, "_set") else None
            else:
                box.v = err.v
            return True
        m = getattr(err.t, "mtab", {}).get("As")
        if m is not None and m(err.v, target):
            return True
        err = _unwrap(err)
    return False


P = _pkg("errors")
P.add("New", fn([S], [T.ERROR]), new_error)
P.add("Is", fn([T.ERROR, T.ERROR], [B]), errors_is)
P.add("As", fn([T.ERROR, T.ANY], [B]), errors_as)
P.add("Unwrap", fn([T.ERROR], [T.ERROR]), _unwrap)

# ---- fmt ------------------------------------------------------------------------------------------------

OUT = {"write": None}  # set by the worker: a callable(str)


def _out(s: str) -> None:
    OUT["write"](s)


def _fmt():
    from . import gofmt
    return gofmt


def fmt_println(args: Slice):
    s = _fmt().sprintln(sitems(args))
    _out(s)
    return slen(s), None


def fmt_print(args):
    s = _fmt().sprint(sitems(args))
    _out(s)
    return slen(s), None


def fmt_printf(f, args):
    s = _fmt().sprintf(f, sitems(args))
    _out(s)
    return slen(s), None


def fmt_errorf(f, args):
    items = sitems(args)
    s = _fmt().sprintf(f, items, True)
    wrapped = None
    if "%w" in f:
        # the argument matched by %w (counting verbs in order)
        import re
        verbs = [m.group(1) for m in re.finditer(r"%[-+# 0]*(?:\*|\d+)?(?:\.(?:\*|\d+)?)?([a-zA-Z%])", f)
                 if m.group(1) != "%"]
        for v, a in zip(verbs, items):
            if v == "w":
                wrapped = a
                break
        if wrapped is not None and not (wrapped.t.mtab if hasattr(wrapped.t, "mtab") else {}).get("Error"):
            wrapped = None
        if wrapped is not None:
            return Iface(WRAPERR_P, _WrapE(s, wrapped))
    return Iface(ERRSTR_P, _ErrS(s))


P = _pkg("fmt")
P.add("Println", fn([ANYS], [I, T.ERROR], True), fmt_println)
P.add("Print", fn([ANYS], [I, T.ERROR], True), fmt_print)
P.add("Printf", fn([S, ANYS], [I, T.ERROR], True), fmt_printf)
P.add("Sprintf", fn([S, ANYS], [S], True), lambda f, a: _fmt().sprintf(f, sitems(a)))
P.add("Sprint", fn([ANYS], [S], True), lambda a: _fmt().sprint(sitems(a)))
P.add("Sprintln", fn([ANYS], [S], True), lambda a: _fmt().sprintln(sitems(a)))
P.add("Errorf", fn([S, ANYS], [T.ERROR], True), fmt_errorf)
STRINGER = T.Named("Stringer", "fmt", T.Interface({"String": fn([], [S])}))
P.types["Stringer"] = STRINGER


class OpaqueNamed(T.Named):
    """A library type implemented in Python (sync.Mutex, strings.Builder): methods are Python methods."""

    __slots__ = ("sigs",)


def _opaque(name, pkg, cls, methods):
    st = T.Struct([])
    st.cls = f"_cls_{pkg}_{name}"
    nt = OpaqueNamed(name, pkg, st)
    nt.sigs = dict(methods)
    ptr = T.pointer_to(nt)
    for mname in methods:
        if mname in ("String", "Error"):
            ptr.mtab[mname] = getattr(cls, mname)
    return nt, st.cls, cls


OPAQUE = {}


# ---- sort -----------------------------------------------------------------------------------------------

P = _pkg("sort")


def _sort_slice(s: Slice, key=None, reverse=False):
    if s.n > 1:
        items = s.a[s.o:s.o + s.n]
        if key is _str_key and all(x.isascii() for x in items):
            key = None
        items.sort(key=key, reverse=reverse)
        s.a[s.o:s.o + s.n] = items


def _str_key(x):
    return gbytes(x)  # Go orders strings by bytes


def _float_key(x):
    return (0, 0) if x != x else (1, x)


def sort_slice_func(x, less, stable=False):
    from .gosort import pdqsort_func, stable_func
    s = x.v if x is not None else None
    if s is None or s.n < 2:
        return
    base = s.o
    a = s.a

    def swap(i, j):
        a[base + i], a[base + j] = a[base + j], a[base + i]

    if stable:
        stable_func(less, swap, s.n)
    else:
        pdqsort_func(less, swap, s.n)


def sort_ints(s):
    _sort_slice(s)


def sort_iface(data, stable=False):
    from .gosort import pdqsort_func, stable_func
    from .runtime import icall
    n = icall(data, "Len")

    def less(i, j):
        return icall(data, "Less", i, j)

    def swap(i, j):
        icall(data, "Swap", i, j)

    if stable:
        stable_func(less, swap, n)
    else:
        pdqsort_func(less, swap, n)


def sort_search(n, f):
    lo, hi = 0, n
    while lo < hi:
        h = (lo + hi) // 2
        if not f(h):
            lo = h + 1
        else:
            hi = h
    return lo


def _search_in(s, x):
    import bisect
    return bisect.bisect_left(sitems(s), x)


def _is_sorted(s, key=None):
    items = sitems(s)
    if key:
        items = [key(v) for v in items]
    return all(not items[i] < items[i - 1] for i in range(1, len(items)))


SORT_IFACE = T.Named("Interface", "sort", T.Interface({"Len": fn([], [I]), "Less": fn([I, I], [B]),
                                                       "Swap": fn([I, I], [])}))
P.types["Interface"] = SORT_IFACE
REVERSE_T = T.pointer_to(T.Named("reverse", "sort", T.Struct([T.Field("Interface", SORT_IFACE, True)])))


def _icall(x, name, *a):
    from .runtime import icall
    return icall(x, name, *a)


REVERSE_T.mtab = {"Len": lambda d: _icall(d, "Len"), "Less": lambda d, i, j: _icall(d, "Less", j, i),
                  "Swap": lambda d, i, j: _icall(d, "Swap", i, j)}
P.add("Reverse", fn([SORT_IFACE], [SORT_IFACE]), lambda d: Iface(REVERSE_T, d))


def _slice_type(name, elem, key):
    nt = T.Named(name, "sort", T.Slice(elem))
    sig_len, sig_less, sig_swap = fn([], [I]), fn([I, I], [B]), fn([I, I], [])

    def less(s, i, j):
        from .runtime import sget
        a, b = sget(s, i), sget(s, j)
        return key(a) < key(b)

    def swap(s, i, j):
        from .runtime import sget, sset
        a, b = sget(s, i), sget(s, j)
        sset(s, i, b)
        sset(s, j, a)

    impls = {"Len": (sig_len, lambda s: s.n), "Less": (sig_less, less), "Swap": (sig_swap, swap),
             "Sort": (fn([]), lambda s: _sort_slice(s, key))}
    for mname, (sig, f) in impls.items():
        py = f"_std_sort_{name}_{mname}"
        nt.methods[mname] = T.Method(mname, sig, False, py)
        nt.mtab[mname] = f
        P.impl[py] = f
    T.pointer_to(nt).mtab.update(nt.mtab)
    P.types[name] = nt


_slice_type("IntSlice", I, lambda x: x)
_slice_type("StringSlice", S, lambda x: _str_key(x))
_slice_type("Float64Slice", F, lambda x: _float_key(x))
P.add("Ints", fn([T.Slice(I)]), sort_ints)
P.add("Strings", fn([T.Slice(S)]), lambda s: _sort_slice(s, _str_key))
P.add("Float64s", fn([T.Slice(F)]), lambda s: _sort_slice(s, _float_key))
P.add("Slice", fn([T.ANY, fn([I, I], [B])]), sort_slice_func)
P.add("SliceStable", fn([T.ANY, fn([I, I], [B])]), lambda x, less: sort_slice_func(x, less, True))
P.add("SliceIsSorted", fn([T.ANY, fn([I, I], [B])], [B]),
      lambda x, less: all(not less(i, i - 1) for i in range(1, x.v.n)))
P.add("Sort", fn([SORT_IFACE]), sort_iface)
P.add("Stable", fn([SORT_IFACE]), lambda d: sort_iface(d, True))
P.add("Search", fn([I, fn([I], [B])], [I]), sort_search)
P.add("SearchInts", fn([T.Slice(I), I], [I]), _search_in)
P.add("SearchStrings", fn([T.Slice(S), S], [I]), _search_in)
P.add("IntsAreSorted", fn([T.Slice(I)], [B]), _is_sorted)
P.add("StringsAreSorted", fn([T.Slice(S)], [B]), _is_sorted)
P.add("Float64sAreSorted", fn([T.Slice(F)], [B]), _is_sorted)

# ---- sync -----------------------------------------------------------------------------------------------

P = _pkg("sync")
for _name, _cls, _ms in (
        ("Mutex", sched.Mutex, {"Lock": fn([]), "Unlock": fn([]), "TryLock": fn([], [B])}),
        ("RWMutex", sched.Mutex, {"Lock": fn([]), "Unlock": fn([]), "RLock": fn([]), "RUnlock": fn([]),
                                  "TryLock": fn([], [B])}),
        ("WaitGroup", sched.WaitGroup, {"Add": fn([I]), "Done": fn([]), "Wait": fn([])}),
        ("Once", sched.Once, {"Do": fn([fn([])])})):
    _t, _n, _c = _opaque(_name, "sync", _cls, _ms)
    P.types[_name] = _t
    OPAQUE[_n] = _c


P = PACKAGES["sort"]
P.add("IsSorted", fn([SORT_IFACE], [B]),
      lambda d: all(not _icall(d, "Less", i, i - 1) for i in range(_icall(d, "Len") - 1, 0, -1)))
P.add("SearchFloat64s", fn([T.Slice(F), F], [I]), _search_in)




from . import stdlib_math, stdlib_strings, stdlib_text, stdlib_unicode  # noqa: E402,F401  (they register their packages)
