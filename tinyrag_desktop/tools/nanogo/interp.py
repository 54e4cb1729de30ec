"""Running compiled Go: the namespace generated code sees, panics and recover, and Go's crash messages."""

from __future__ import annotations

import functools
import sys

from . import runtime as R
from . import runtime_basic as RB
from . import sched, stdlib
from . import types as T
from .runtime import GoExit, GoFatal, GoPanic, Iface, Slice

RECURSION_LIMIT = 60000
_DEBUG = bool(__import__("os").environ.get("NANOGO_DEBUG"))


class _Flow(Exception):
    """Base of the exceptions that carry break/continue out of nested constructs."""


class ProgramExit(Exception):
    """How a run ended: status ok/panic/limit/compile_error, and the text for stderr."""

    def __init__(self, status: str, message: str = ""):
        super().__init__(message)
        self.status, self.message = status, message


def to_panic(e: BaseException) -> GoPanic:
    """Python errors raised by compiled code, as the Go panics they stand for."""
    if isinstance(e, GoPanic):
        return e
    if isinstance(e, (GoFatal, GoExit, _Flow, KeyboardInterrupt, SystemExit)):
        raise e
    if isinstance(e, RecursionError):
        raise GoFatal("stack overflow", "runtime: goroutine stack exceeds 1000000000-byte limit")
    if isinstance(e, MemoryError):
        raise GoFatal("runtime: out of memory")
    if isinstance(e, ZeroDivisionError):
        return R.rt_panic("integer divide by zero")
    if _DEBUG:
        import traceback
        traceback.print_exception(e)
    if isinstance(e, (AttributeError, TypeError)) and "NoneType" in str(e):
        return R.nil_deref()
    if isinstance(e, OverflowError):
        return R.rt_panic("floating point overflow")
    raise GoFatal(f"nanoGo internal error: {type(e).__name__}: {e}")


def run_defers(df, exc):
    g = sched.SCHED.current
    p = to_panic(exc) if exc is not None else None
    while df:
        f, args = df.pop()
        if p is not None:
            saved = g.panic
            g.panic = p
            try:
                f(*args)
            except BaseException as e2:  # a deferred call panicked: that panic replaces the first
                np = to_panic(e2)
                if np is not p:
                    if np.prev is None:
                        np.prev = p
                    p = np
            finally:
                g.panic = saved
            if p is not None and p.recovered:
                p = None
        else:
            try:
                f(*args)
            except BaseException as e2:
                p = to_panic(e2)
    if p is not None:
        raise p


def recover():
    g = sched.SCHED.current
    p = g.panic
    if p is None or p.recovered:
        return None
    p.recovered = True
    return p.value


def _panic(v):
    raise GoPanic(v)  # Go 1.19: panic(nil) is "panic: nil", and recover() then returns nil


def _oob(i, n):
    raise R.idx_panic(i, n)


def _nn(x):
    if x is None:
        raise R.nil_deref()
    return x


def _mget(m, k, zero):
    v = m.get(k, _MISSING)
    if v is _MISSING:
        return zero() if callable(zero) else zero
    return v


def _mget2(m, k, zero):
    v = m.get(k, _MISSING)
    if v is _MISSING:
        return (zero() if callable(zero) else zero), False
    return v, True


_MISSING = object()


def _assert_type2(x, t, zero, cp=False):
    if x is not None and (x.t is t or T.identical(x.t, t)):
        v = x.v
        if cp:
            v = v._cp() if hasattr(v, "_cp") else list(v)
        return v, True
    return (zero() if callable(zero) else zero), False


def _assert_iface2(x, methods):
    if x is not None and R.implements(x.t, methods):
        return x, True
    return None, False


def _type_is(x, t):
    return x is not None and (x.t is t or T.identical(x.t, t))


def _implements_v(x, methods):
    return x is not None and R.implements(x.t, methods)


def _hk(v):
    return tuple(v) if isinstance(v, list) else v


def _tuple_key(v):
    return tuple(_hk(e) for e in v)


def _elem_ptr_s(s, i):
    if not 0 <= i < s.n:
        raise R.idx_panic(i, s.n)
    e = s.a[s.o + i]
    if hasattr(e, "__slots__") and hasattr(e, "_cp"):
        return e
    return R.ElemPtr(s.a, s.o + i)


def _len(x):
    return len(x) if x is not None else 0


def _chan_cap(c):
    return c.cap if c is not None else 0


def _cdiv(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        return complex(float("nan"), float("nan"))


def _tp_convert(t, v):
    return v


def _builtin_print(vals, ln):
    from .gofmt import to_string
    parts = []
    for v in vals:
        parts.append("<nil>" if v is None else to_string(v.v, v.t))
    ERR.append((" " if ln else "").join(parts) + ("\n" if ln else ""))


ERR: list = []


def build_namespace(ns: dict) -> dict:
    from .goftoa import f32 as _f32
    env = {
        "__builtins__": {"len": len, "range": range, "list": list, "float": float, "complex": complex,
                         "enumerate": enumerate, "type": type, "hash": hash, "tuple": tuple, "getattr": getattr,
                         "BaseException": BaseException, "Exception": Exception, "staticmethod": staticmethod,
                         "__build_class__": __builtins__["__build_class__"] if isinstance(__builtins__, dict)
                         else __builtins__.__build_class__, "__name__": "nanogo", "isinstance": isinstance,
                         "True": True, "False": False, "None": None},
        "__name__": "nanogo_program",
        "_Iface": Iface, "_Slice": Slice, "_NilMap": R.NilMap, "_Box": R.Box, "_ElemPtr": R.ElemPtr,
        "_FieldPtr": R.FieldPtr, "_Ref": R.Ref, "_slice_of": R.slice_of, "_sget": R.sget, "_sset": R.sset,
        "_aget": R.aget, "_aset": R.aset, "_oob": _oob, "_idx_panic": R.idx_panic, "_append": R.append,
        "_append1": R.append1, "_reslice": R.reslice, "_slice_array": R.slice_array,
        "_make_slice": R.make_slice, "_copy": R.copy, "_sitems": R.sitems, "_wrap": RB.wrap, "_w64": RB.w64,
        "_idiv": RB.idiv, "_imod": RB.imod, "_fdiv": RB.fdiv, "_shl": RB.shl, "_shr": RB.shr, "_f2i": RB.f2i,
        "_f32": _f32, "_gbytes": RB.gbytes, "_scmp": RB.scmp, "_slen": RB.slen, "_sidx": RB.sidx, "_ssub": RB.ssub,
        "_srange": RB.srange, "_rune_str": RB.rune_str, "_runes_to_str": RB.runes_to_str,
        "_bytes_to_str": RB.bytes_to_str, "_str_to_bytes": RB.str_to_bytes, "_str_to_runes": RB.str_to_runes,
        "_mget": _mget, "_mget2": _mget2, "_tuple_key": _tuple_key, "_assert_type": R.assert_type,
        "_assert_type2": _assert_type2, "_assert_iface": R.assert_iface, "_assert_iface2": _assert_iface2,
        "_implements_v": _implements_v, "_type_is": _type_is, "_method": R.method, "_icall": R.icall,
        "_partial": functools.partial, "_nn": _nn, "_elem_ptr_s": _elem_ptr_s, "_len": _len,
        "_chan_cap": _chan_cap, "_panic": _panic, "_recover": recover, "_builtin_print": _builtin_print,
        "_chan_send": sched.chan_send, "_chan_recv": sched.chan_recv, "_chan_recv2": sched.chan_recv2,
        "_chan_close": sched.chan_close, "_Channel": sched.Channel, "_select": sched.select,
        "_go": sched.SCHED.go, "_run_defers": run_defers, "_Flow": _Flow, "_hk": _hk,
        "_tp_convert": _tp_convert, "_cdiv": _cdiv,
    }
    for p in stdlib.PACKAGES.values():
        env.update(p.impl)
    for name, cls in stdlib.OPAQUE.items():
        env[name] = cls
    env.update(ns)
    return env


# ---- crash messages ----

def panic_text(p: GoPanic) -> str:
    v = p.value
    if v is None:
        return "panic: nil"
    t = v.t
    mt = getattr(t, "mtab", None) or {}
    if isinstance(t, R.RuntimeErrorType):
        msg = v.v
        if p.runtime and msg.startswith("runtime error: invalid memory address"):
            return f"panic: {msg}\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x0]"
        return f"panic: {msg}"
    if "Error" in mt:
        try:
            return "panic: " + mt["Error"](v.v)
        except BaseException:
            pass
    if "String" in mt:
        try:
            return "panic: " + mt["String"](v.v)
        except BaseException:
            pass
    u = t.u
    if isinstance(u, T.Basic):
        if u.kind == "string":
            s = v.v
            if p.runtime and t is T.STRING:
                return f"panic: {s}"
            s = s if not isinstance(t, T.Named) else f'{t.go()}("{s}")'
            return f"panic: {s}"
        if u.kind == "float":
            x = v.v
            s = ("%+e" % x).replace("e+", "e+0").replace("e-", "e-0") if x == x else "NaN"
            return f"panic: {s if not isinstance(t, T.Named) else t.go() + '(' + s + ')'}"
        if u.kind == "bool":
            s = "true" if v.v else "false"
        else:
            s = str(v.v)
        if isinstance(t, T.Named):
            return f"panic: {t.go()}({s})"
        return f"panic: {s}"
    from .gofmt import to_string
    return f"panic: ({t.go()}) {to_string(v.v, v.t)}"


def _panic_chain(p: GoPanic) -> str:
    chain = []
    while p is not None:
        chain.append(p)
        p = p.prev
    lines = []
    for i, q in enumerate(reversed(chain)):
        text = panic_text(q) + (" [recovered]" if q.recovered and i < len(chain) - 1 else "")
        lines.append(("\t" if i else "") + text)
    return "\n".join(lines)


def crash_text(kind: str, exc: BaseException) -> str:
    if kind == "panic":
        return _panic_chain(exc) + "\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/nanogo/prog.go\nexit status 2\n"
    if isinstance(exc, GoFatal):
        first = (exc.first + "\n") if exc.first else ""
        if exc.message.startswith("nanoGo"):
            return exc.message + "\n"
        return f"{first}fatal error: {exc.message}\n\ngoroutine 1 [running]:\nmain.main()\nexit status 2\n"
    return f"fatal error: nanoGo internal error: {type(exc).__name__}: {exc}\n"


def execute(code: str, ns: dict, write, on_fatal) -> None:
    """Run the compiled program; raises ProgramExit when it does not end normally.

    ``on_fatal(status, text)`` ends the process when a goroutine other than main crashes the program."""
    stdlib.OUT["write"] = write
    env = build_namespace(ns)
    sys.setrecursionlimit(RECURSION_LIMIT)

    def fatal(kind, exc):
        if kind == "error":
            try:
                exc = to_panic(exc)
                kind = "panic"
            except BaseException as e2:
                exc, kind = e2, "fatal"
        if kind == "panic":
            on_fatal("panic", crash_text("panic", exc))
        else:
            msg = getattr(exc, "message", "")
            on_fatal("limit" if msg.startswith("nanoGo") else "panic", crash_text("fatal", exc))

    sched.SCHED.on_fatal = fatal
    try:
        exec(compile(code, "<nanogo>", "exec"), env)
        env["_package_init"]()
        env["F_main"]()
    except GoPanic as p:
        raise ProgramExit("panic", crash_text("panic", p)) from None
    except GoFatal as f:
        status = "limit" if f.message.startswith("nanoGo") else "panic"
        raise ProgramExit(status, crash_text("fatal", f)) from None
    except BaseException as e:
        try:
            p = to_panic(e)
        except GoFatal as f:
            status = "limit" if f.message.startswith("nanoGo") else "panic"
            raise ProgramExit(status, crash_text("fatal", f)) from None
        except BaseException as e2:
            raise ProgramExit("panic", crash_text("fatal", e2)) from None
        raise ProgramExit("panic", crash_text("panic", p)) from None


def run_inprocess(source: str, stack_mb: int = 255):
    """Compile and run in this process (tests, benchmarks): returns (stdout, status, stderr text).

    Runs on a fresh thread with a large stack, under 256 MiB: CPython on Windows refuses that much with
    ValueError (as the worker's MAIN_STACK); the program must not block forever (no wall clock here)."""
    import threading

    from .compiler import compile_source
    from .errors import CompileError

    out: list[str] = []
    result = {}

    def on_fatal(status, text):  # a goroutine crashed the program: end the run from its thread
        result["r"] = ("".join(out), status, text)
        sched.SCHED.main.sem.release()
        raise SystemExit

    def body():
        try:
            code, ns = compile_source(source)
        except CompileError as e:
            result["r"] = ("", "compile_error", e.report("prog.go"))
            return
        sched.SCHED.__init__()
        old = sys.getrecursionlimit()
        try:
            execute(code, ns, out.append, on_fatal)
            result.setdefault("r", ("".join(out), "ok", "".join(ERR)))
        except ProgramExit as e:
            result.setdefault("r", ("".join(out), e.status, e.message))
        finally:
            sys.setrecursionlimit(old)
            ERR.clear()

    saved = threading.stack_size(stack_mb * 1024 * 1024)
    try:
        t = threading.Thread(target=body, daemon=True)
        t.start()
    finally:
        threading.stack_size(saved)
    t.join()
    return result.get("r", ("".join(out), "panic", "no result"))
