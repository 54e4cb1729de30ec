"""Goroutines, channels, select and sync: one thread per goroutine, but only one runs at a time.

A goroutine runs until it blocks (a channel operation, a lock, a WaitGroup) or ends; then it hands the baton
to the next runnable goroutine. The order is therefore deterministic, and when nothing can run while some
goroutine waits, that is Go's deadlock.
"""

from __future__ import annotations

import random
import threading
from collections import deque

from .runtime import GoFatal, GoPanic, Iface
from . import types as T

MAX_GOROUTINES = 100000  # live goroutines; one that never blocked costs no thread
GOROUTINE_STACK = 4 * 1024 * 1024


class G:
    __slots__ = ("fn", "args", "sem", "thread", "id", "panic", "defer_depth", "wait_reason", "done")

    def __init__(self, fn, args, gid):
        self.fn, self.args, self.id = fn, args, gid
        self.sem = threading.Semaphore(0)
        self.thread = None
        self.panic = None  # the panic whose deferred calls are running (recover() reads it)
        self.wait_reason = ""
        self.done = False


class Scheduler:
    def __init__(self):
        self.runq: deque[G] = deque()
        self.runnext: G | None = None  # as Go's P.runnext: the goroutine made ready last runs first
        self.main = G(None, (), 1)
        self.main.thread = True  # the thread that runs main() already exists
        self.current = self.main
        self.live = 1
        self.next_id = 2
        self.on_fatal = None  # callable(kind, text) -> never returns; set by the worker
        self.rng = random.Random(1)

    # --- switching ---
    def go(self, fn, args) -> None:
        if self.live >= MAX_GOROUTINES:
            raise GoFatal(f"nanoGo: too many goroutines (limit {MAX_GOROUTINES})")
        g = G(fn, args, self.next_id)
        self.next_id += 1
        self.live += 1
        self.ready(g)

    def _next(self) -> G | None:
        g = self.runnext
        if g is not None:
            self.runnext = None
            return g
        return self.runq.popleft() if self.runq else None

    def _switch_to(self, g: G) -> None:
        self.current = g
        if g.thread is None:
            threading.stack_size(GOROUTINE_STACK)
            g.thread = threading.Thread(target=self._run_g, args=(g,), daemon=True)
            try:
                g.thread.start()
            except RuntimeError:  # the system will not give us another thread
                raise GoFatal("nanoGo: too many goroutines blocked at once") from None
        else:
            g.sem.release()

    def _run_g(self, g: G) -> None:
        try:
            g.fn(*g.args)
        except GoPanic as exc:
            self.on_fatal("panic", exc)
            return
        except GoFatal as exc:
            self.on_fatal("fatal", exc)
            return
        except BaseException as exc:  # an interpreter fault or a Python error that maps to a Go panic
            self.on_fatal("error", exc)
            return
        g.done = True
        self.live -= 1
        nxt = self._next()
        if nxt is not None:
            try:
                self._switch_to(nxt)
            except GoFatal as exc:
                self.on_fatal("fatal", exc)
        else:
            self.on_fatal("fatal", GoFatal("all goroutines are asleep - deadlock!"))

    def park(self, reason: str) -> None:
        """Block the current goroutine until someone calls ready() on it."""
        me = self.current
        me.wait_reason = reason
        nxt = self._next()
        if nxt is None:
            raise GoFatal("all goroutines are asleep - deadlock!")
        self._switch_to(nxt)
        me.sem.acquire()
        self.current = me

    def ready(self, g: G) -> None:
        if self.runnext is not None:
            self.runq.append(self.runnext)
        self.runnext = g

    def yield_(self) -> None:
        if self.runq or self.runnext:
            me = self.current
            self.runq.append(me)
            self._switch_to(self._next())
            me.sem.acquire()
            self.current = me


SCHED = Scheduler()


def send_closed():
    from .runtime import RUNTIME_ERROR
    return GoPanic(Iface(RUNTIME_ERROR, "send on closed channel"), True)


def _rte():
    from .runtime import RUNTIME_ERROR
    return RUNTIME_ERROR


class _Waiter:
    __slots__ = ("g", "val", "ok", "sel", "case", "closed")

    def __init__(self, g, val=None, sel=None, case=0):
        self.g, self.val, self.ok, self.sel, self.case, self.closed = g, val, False, sel, case, False


class _Select:
    __slots__ = ("fired",)

    def __init__(self):
        self.fired = -1


def _take(q: deque):
    """The first waiter still interested (select waiters that already fired are dropped)."""
    while q:
        w = q.popleft()
        if w.sel is None:
            return w
        if w.sel.fired < 0:
            w.sel.fired = w.case
            return w
    return None


class Channel:
    __slots__ = ("cap", "buf", "closed", "recvq", "sendq", "zero")

    def __init__(self, cap: int, zero):
        if cap < 0:
            raise GoPanic(Iface(T.STRING, "makechan: size out of range"), True)
        self.cap, self.buf, self.closed = cap, deque(), False
        self.recvq: deque = deque()
        self.sendq: deque = deque()
        self.zero = zero

    def _zero(self):
        z = self.zero
        return z() if callable(z) else z

    def send(self, v) -> None:
        if self.closed:
            raise send_closed()
        w = _take(self.recvq)
        if w is not None:
            w.val, w.ok = v, True
            SCHED.ready(w.g)
            return
        if len(self.buf) < self.cap:
            self.buf.append(v)
            return
        me = _Waiter(SCHED.current, v)
        self.sendq.append(me)
        SCHED.park("chan send")
        if me.closed:
            raise send_closed()

    def recv2(self):
        if self.buf:
            v = self.buf.popleft()
            w = _take(self.sendq)
            if w is not None:
                self.buf.append(w.val)
                SCHED.ready(w.g)
            return v, True
        w = _take(self.sendq)
        if w is not None:
            SCHED.ready(w.g)
            return w.val, True
        if self.closed:
            return self._zero(), False
        me = _Waiter(SCHED.current)
        self.recvq.append(me)
        SCHED.park("chan receive")
        if not me.ok:
            return self._zero(), False
        return me.val, True

    def recv(self):
        return self.recv2()[0]

    def close(self) -> None:
        if self.closed:
            raise GoPanic(Iface(_rte(), "close of closed channel"), True)
        self.closed = True
        while True:
            w = _take(self.recvq)
            if w is None:
                break
            w.ok = False
            SCHED.ready(w.g)
        while True:
            w = _take(self.sendq)
            if w is None:
                break
            w.closed = True
            SCHED.ready(w.g)

    def __len__(self):
        return len(self.buf)


def chan_send(c, v):
    if c is None:
        SCHED.park("chan send (nil chan)")
        return
    c.send(v)


def chan_recv(c):
    if c is None:
        SCHED.park("chan receive (nil chan)")
    return c.recv()


def chan_recv2(c):
    if c is None:
        SCHED.park("chan receive (nil chan)")
    return c.recv2()


def chan_close(c):
    if c is None:
        raise GoPanic(Iface(_rte(), "close of nil channel"), True)
    c.close()


def select(cases, has_default: bool):
    """cases: list of (is_send, chan, value). Returns (index, value, ok); index -1 is the default case."""
    ready = []
    for i, (is_send, c, v) in enumerate(cases):
        if c is None:
            continue
        if is_send:
            if c.closed or c.recvq and any(w.sel is None or w.sel.fired < 0 for w in c.recvq) or len(c.buf) < c.cap:
                ready.append(i)
        elif c.buf or c.closed or any(w.sel is None or w.sel.fired < 0 for w in c.sendq):
            ready.append(i)
    if ready:
        i = ready[0] if len(ready) == 1 else SCHED.rng.choice(ready)
        is_send, c, v = cases[i]
        if is_send:
            c.send(v)
            return i, None, False
        val, ok = c.recv2()
        return i, val, ok
    if has_default:
        return -1, None, False
    sel = _Select()
    waiters = []
    for i, (is_send, c, v) in enumerate(cases):
        if c is None:
            continue
        w = _Waiter(SCHED.current, v, sel, i)
        waiters.append(w)
        (c.sendq if is_send else c.recvq).append(w)
    SCHED.park("select" if cases else "select (no cases)")
    i = sel.fired
    w = next(w for w in waiters if w.case == i)
    is_send, c, _ = cases[i]
    if is_send:
        if w.closed:
            raise send_closed()
        return i, None, False
    if not w.ok:
        return i, c._zero(), False
    return i, w.val, True


# ---- sync -------------------------------------------------------------------------------------------------

class Mutex:
    @staticmethod
    def _z():
        return Mutex()

    def _set(self, o):
        for k in self.__slots__:
            setattr(self, k, getattr(o, k))
        return self

    __slots__ = ("locked", "waiters", "readers")

    def __init__(self):
        self.locked, self.waiters, self.readers = False, deque(), 0

    def _cp(self):
        m = Mutex()
        m.locked, m.readers = self.locked, self.readers
        return m

    def Lock(self):
        if not self.locked and not self.readers:
            self.locked = True
            return
        self.waiters.append(("w", SCHED.current))
        SCHED.park("sync.Mutex.Lock")

    def TryLock(self):
        if self.locked or self.readers:
            return False
        self.locked = True
        return True

    def Unlock(self):
        if not self.locked:
            raise GoFatal("sync: unlock of unlocked mutex")
        self.locked = False
        self._wake()

    def _wake(self):
        while self.waiters and not self.locked:
            kind, g = self.waiters[0]
            if kind == "w":
                if self.readers:
                    return
                self.waiters.popleft()
                self.locked = True
                SCHED.ready(g)
                return
            self.waiters.popleft()
            self.readers += 1
            SCHED.ready(g)

    def RLock(self):
        if not self.locked and not any(k == "w" for k, _ in self.waiters):
            self.readers += 1
            return
        self.waiters.append(("r", SCHED.current))
        SCHED.park("sync.RWMutex.RLock")

    def RUnlock(self):
        if self.readers <= 0:
            raise GoFatal("sync: RUnlock of unlocked RWMutex")
        self.readers -= 1
        if not self.readers:
            self._wake()


class WaitGroup:
    @staticmethod
    def _z():
        return WaitGroup()

    def _set(self, o):
        for k in self.__slots__:
            setattr(self, k, getattr(o, k))
        return self

    __slots__ = ("n", "waiters")

    def __init__(self):
        self.n, self.waiters = 0, []

    def _cp(self):
        w = WaitGroup()
        w.n = self.n
        return w

    def Add(self, d):
        self.n += d
        if self.n < 0:
            raise GoPanic(Iface(T.STRING, "sync: negative WaitGroup counter"))
        if self.n == 0:
            for g in self.waiters:
                SCHED.ready(g)
            self.waiters = []

    def Done(self):
        self.Add(-1)

    def Wait(self):
        if self.n == 0:
            return
        self.waiters.append(SCHED.current)
        SCHED.park("semacquire")


class Once:
    @staticmethod
    def _z():
        return Once()

    def _set(self, o):
        for k in self.__slots__:
            setattr(self, k, getattr(o, k))
        return self

    __slots__ = ("done",)

    def __init__(self):
        self.done = False

    def _cp(self):
        o = Once()
        o.done = self.done
        return o

    def Do(self, f):
        if not self.done:
            self.done = True
            f()
