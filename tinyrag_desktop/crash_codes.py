"""Windows' crash codes in words.

A Windows program that crashes does not end by a signal, as on Unix: it ends with an NTSTATUS code as its
exit status, a number such as 3221225477 (0xC0000005, an access violation). Shown as a number, "exit
status 3221225477" tells a person nothing; the commonest ones are named here, and any other in that range
is at least said to be a crash. Such numbers cannot be a Unix exit status (0 to 255), so they are read the
same on every system.
"""

from __future__ import annotations

# NTSTATUS values of severity "error" (0xC0000000 and up) a program ends with when it fails, in words
# ending in what happened. 0xC0000135 and 0xC000007B are what a program built for another runtime or
# missing a DLL gives as it starts (a llama.cpp server without the Visual C++ runtime).
_NAMED = {
    0xC0000005: "it crashed: an access violation",
    0xC000001D: "it crashed: an illegal instruction (built for a newer processor?)",
    0xC0000017: "it ran out of memory",
    0xC0000094: "it crashed: a division by zero",
    0xC00000FD: "it crashed: a stack overflow",
    0xC000013A: "it was interrupted (Ctrl+C, or the console was closed)",
    0xC0000135: "it could not start: a DLL it needs is missing",
    0xC0000139: "it could not start: a DLL it needs is of another version",
    0xC0000142: "it could not start: a DLL it needs failed to start",
    0xC000007B: "it could not start: it or a DLL it needs is built for another kind of Windows (32/64-bit)",
    0xC0000374: "it crashed: its memory was corrupted",
    0xC0000409: "it stopped itself: a fatal error it detected (a failed check, or abort)",
}
_ERROR_RANGE = 0xC0000000
# From here up, a program's own small negative exit status (exit /b -1, sys.exit(-2): 0xFFFFFFFF, 0xFFFFFFFE),
# as Windows keeps it, unsigned: no crash.
_SMALL_NEGATIVE = 0xFFFF0000


def crash_words(code: int | None) -> str | None:
    """What a Windows crash code as exit status means ("0xC0000005: it crashed: an access violation"); None
    for an ordinary exit status. The code may come as Windows gives it (3221225477) or read as a signed
    32-bit number (-1073741819, as some shells print it); a small negative one is a Unix signal (-11), not
    this."""
    if code is None:
        return None
    if -(1 << 31) <= code <= -(1 << 16):
        code += 1 << 32
    if not _ERROR_RANGE <= code < _SMALL_NEGATIVE:
        return None
    return f"0x{code:08X}: {_NAMED.get(code, 'it crashed')}"


def exit_words(code: int | None) -> str:
    """An exit status for a sentence: "3", "-1" (Windows' 4294967295: a program's own ``exit -1``), or
    "3221225477 (0xC0000005: it crashed: an access violation)"."""
    if code is not None and _SMALL_NEGATIVE <= code <= 0xFFFFFFFF:
        return str(code - (1 << 32))
    words = crash_words(code)
    return f"{code} ({words})" if words else str(code)
