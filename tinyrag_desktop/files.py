"""Writing a file whole or not at all: settings, drafts, exports and marks are written to a file beside
theirs, flushed to the disk, and renamed over it. A crash, a full disk or a pulled-out USB stick leaves the
old file or the new one, never half of one (an export written in place left an earlier one cut short)."""

from __future__ import annotations

import os
import time
import unicodedata
from pathlib import Path
from typing import TextIO


def write_whole(path: Path, text: str | bytes, *, private: bool = False) -> None:
    """Write ``text`` (UTF-8; bytes as they are) to ``path``; raises OSError, with no file left beside it.

    ``private``: readable by the user alone (settings hold an API key; drafts are the user's own words).
    Otherwise the file keeps the permissions it had, or a new one gets those any new file gets: the umask's,
    on every system (the temporary file's own, for the user alone, made exports unreadable to a sync server or
    another account; and on macOS, which has no /proc to read the umask from, they were 0644 whatever it was)."""
    path = Path(path)
    fd, tmp = _new_beside(path, 0o600 if private else 0o666)
    try:
        if not private and hasattr(os, "fchmod"):
            try:
                os.fchmod(fd, path.stat().st_mode & 0o777)
            except OSError:
                pass  # a new file keeps the mode the system made it with (so does one on a disk without modes)
        # newline="": the text as given. Text mode writes each "\n" as os.linesep, "\r\n" on Windows, where
        # a "\r\n" already in it (an answer's, a pasted text's) became "\r\r\n", a line more in an editor
        with (os.fdopen(fd, "wb") if isinstance(text, bytes)
              else os.fdopen(fd, "w", encoding="utf-8", newline="")) as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# The flags tempfile.mkstemp opens with: a new file (never one already there, nor a link), and on Windows in
# binary mode (no "\r\n" for "\n") and not inherited by programs the app starts.
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL
for _flag in ("O_NOFOLLOW", "O_NOINHERIT", "O_BINARY", "O_CLOEXEC"):
    _NEW_FILE |= getattr(os, _flag, 0)


def _new_beside(path: Path, mode: int, flags: int = 0) -> tuple[int, str]:
    """A new temporary file in ``path``'s folder, opened for writing (with ``flags`` too), made with ``mode``
    as ``open`` makes a file: the system takes the umask (and a folder's default ACL) from it, which Python
    cannot read on macOS. ``tempfile.mkstemp`` always makes it 0600."""
    import secrets  # here: the command line's verbs start faster without it

    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, _NEW_FILE | flags, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"No free name for a temporary file beside {path}")


# Whether folder_writable makes a file to know: on Windows os.access answers yes for every folder (it looks
# only at the read-only attribute, which Windows ignores on folders), whatever its permissions say. Tests set
# it to try the probe elsewhere.
_PROBE_FOLDERS = os.name == "nt"


def folder_writable(folder: str | os.PathLike[str]) -> bool:
    """Whether a file can be made in ``folder`` (False for one that is missing or no folder).

    Elsewhere than on Windows the folder's permissions say, through os.access. On Windows a file is made
    there and removed: a folder on a read-only share, or one whose permissions let this user only read, was
    taken for writable, and the write then failed far from where it could be said."""
    if not _PROBE_FOLDERS:
        return os.access(folder, os.W_OK)
    key, now = os.path.abspath(folder), time.monotonic()
    known = _PROBED.get(key)
    if known is not None and now - known[0] < PROBE_KEPT_S:
        return known[1]
    answer = _probe(folder)
    _PROBED[key] = (now, answer)
    return answer


# Each probe's answer, kept a little: the knowledge base's folder is looked at as each search and each list
# of its sources opens it, and on Windows a virus scanner looks at every file made.
PROBE_KEPT_S = 30.0
_PROBED: dict[str, tuple[float, bool]] = {}


def _probe(folder: str | os.PathLike[str]) -> bool:
    try:
        # O_TEMPORARY: Windows removes the file as it is closed, so none is left even if removing fails
        fd, probe = _new_beside(Path(folder) / "write-test", 0o600, getattr(os, "O_TEMPORARY", 0))
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return False
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:  # removed as it closed (O_TEMPORARY)
        pass
    return True


def write_failure(exc: BaseException) -> str:
    """Why a file could not be written where the user chose, in words ending in what to do."""
    import errno

    code = getattr(exc, "errno", None)
    if code in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full. Free some space, or choose another place."
    if code in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "that folder cannot be written. Choose another place."
    if isinstance(exc, OSError):
        return f"{(exc.strerror or str(exc)).rstrip('.')}."
    return str(exc)


def make_private_folder(path: Path) -> None:
    """Create the folder ``path``, and the folders on its way that are missing, for the user alone (0700 on
    POSIX, whatever the umask: the data folder holds the chat history and the log, the user's own words).
    A folder that exists is left as it is: one the user chose keeps the permissions they gave it. Raises
    OSError as ``Path.mkdir`` does (FileExistsError when ``path`` is a file)."""
    path = Path(path)
    if path.is_dir():
        return
    missing = []
    for part in (path, *path.parents):
        if part.is_dir():
            break
        missing.append(part)
    for part in reversed(missing):
        try:
            os.mkdir(part, 0o700)
        except FileExistsError:
            if part.is_dir():  # made meanwhile, by another process of the app
                continue
            raise
        if os.name == "posix":
            os.chmod(part, 0o700)  # the umask (000) cannot have widened it, nor narrowed it for the user


def keep_private(path: Path, *, existed: bool) -> None:
    """Make the file ``path`` the app has just created (``existed`` False) readable by the user alone (0600
    on POSIX, whatever the umask); one that existed before keeps its permissions. SQLite gives the files it
    puts beside a database (-wal, -shm) the database's own permissions."""
    if existed or os.name != "posix":
        return
    try:
        os.chmod(path, 0o600)
    except OSError:  # gone meanwhile, or not ours: the app goes on
        pass


def open_private_append(path: Path, **text: str | None) -> TextIO:
    """``open(path, "a", **text)``, a file it creates readable by the user alone (0600 on POSIX, whatever
    the umask); one that exists keeps its permissions."""
    if os.name != "posix":
        return open(path, "a", **text)  # noqa: SIM115 (the caller closes it)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            os.fchmod(fd, 0o600)
        except OSError:
            pass
    except FileExistsError:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
    return open(fd, "a", **text)  # noqa: SIM115


# Names Windows keeps for devices, with any extension ("CON.md" is the console, "nul.tar.md" nothing at all).
_DEVICE_NAMES = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
                           *(f"{port}{n}" for port in ("COM", "LPT") for n in (*"0123456789", "¹", "²", "³"))})
FILE_NAME_CHARS = 100  # the most of a title a suggested file name takes: the folder's path needs room too
FILE_NAME_BYTES = 200  # and in UTF-8 bytes: Linux and macOS take 255 at most, its extension included
# What a file name cannot hold on one of Windows, macOS and Linux: "/" anywhere, the rest on Windows (macOS's
# Finder shows ":" as "/"). And what hides or reorders what follows in a name shown: control characters, line
# and paragraph separators, bidi controls (a right-to-left override made "txt.exe" read "exe.txt"), and lone
# surrogates, which UTF-8 cannot write.
NOT_IN_FILE_NAMES = frozenset('/\\:*?"<>|\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069')
_HIDDEN_KINDS = frozenset({"Cc", "Cs", "Zl", "Zp"})


def name_part_allowed(c: str) -> bool:
    """Whether every system takes ``c`` in a file name, and shows it as itself."""
    return c not in NOT_IN_FILE_NAMES and unicodedata.category(c) not in _HIDDEN_KINDS


def reserved_name(name: str) -> bool:
    """Whether Windows takes ``name`` for a device (CON, nul.txt, "COM1 .md")."""
    return name.split(".")[0].rstrip(" ").upper() in _DEVICE_NAMES


def file_name_from(title: str, fallback: str = "chat") -> str:
    """A file name (without its extension) made of ``title`` that every system can write: each character
    one of them forbids (see NOT_IN_FILE_NAMES) as ``_``, the rest as in the title ("Notes, (v2) + 3.5"
    as it reads: commas, brackets and "+" came out as "_"); no leading dot (a hidden file) or space, no
    trailing dot or space (Windows drops them); an ``_`` after a name Windows keeps for a device; at most
    FILE_NAME_CHARS, and FILE_NAME_BYTES in UTF-8 (cut between characters); ``fallback`` when nothing is left.
    A chat titled "CON" suggested CON.md, which Windows refuses to create; 100 Japanese characters made a
    name too long to create on Linux and macOS."""
    name = "".join(c if name_part_allowed(c) else "_" for c in title).strip(" .")
    if reserved_name(name):
        device = name.split(".")[0]
        name = f"{device}_{name[len(device):]}"
    name = name[:FILE_NAME_CHARS].encode("utf-8")[:FILE_NAME_BYTES].decode("utf-8", "ignore").strip(" .")
    return name if name.strip("_ ") else fallback
