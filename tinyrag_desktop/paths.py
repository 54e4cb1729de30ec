"""Where the app keeps its data: settings, knowledge base and chats live in one folder."""

from __future__ import annotations

import logging
import os
import stat
import sys
from pathlib import Path

from .files import make_private_folder, write_whole

log = logging.getLogger(__name__)

APP_NAME = "tinyrag-desktop"


def command() -> str:
    """How a user starts this program in a terminal, for messages that tell them to: the bundle's own
    executable, the installed ``tinyrag-desktop`` script, or the module."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).name
    if Path(sys.argv[0] if sys.argv else "").name == APP_NAME:
        return APP_NAME
    return "python -m tinyrag_desktop"


class UnknownHome(ValueError):
    """A path that starts with ``~name`` for a user this computer does not know (or ``~`` when no home folder
    is known). The message says so, naming the user, without the path (the caller shows it where it fits);
    Python's own RuntimeError ended the program in a traceback."""


def expand_home(path: str | os.PathLike[str], *, keep_unknown: bool = False) -> Path:
    """``path`` with its leading ``~`` or ``~name`` made that user's home folder, as a shell does.

    For a user not known here, raises UnknownHome, or with ``keep_unknown`` gives the path as written (as a
    shell leaves it): where a path is only looked for, "no such file" then says what went wrong."""
    path = Path(path)
    try:
        return path.expanduser()
    except RuntimeError:  # "Could not determine home directory"
        if keep_unknown:
            return path
        first = path.parts[0]
        if first == "~":
            raise UnknownHome("the home folder ~ stands for is not known here; write the folder out in full") from None
        raise UnknownHome(f"there is no user called {first[1:]} on this computer, so {first} names no home "
                          "folder") from None


class DataDirError(ValueError):
    """A data folder that cannot be used (a file, an empty name, no permission); the message says why."""


# The longest data folder name (in bytes) taken: SQLite opens no file whose path is over about 508 bytes,
# and the chat history ("chats.sqlite3" and its "-journal") opened in folders of up to 476 (measured on
# Linux); 6 are spare for the longer names of files kept beside them.
MAX_FOLDER_BYTES = 470


def default_data_dir() -> Path:
    """The platform's user data folder, or ``$TINYRAG_DATA_DIR`` when set."""
    env = os.environ.get("TINYRAG_DATA_DIR")
    if env:
        try:
            return expand_home(env)
        except UnknownHome as exc:
            raise DataDirError(f"cannot use {env} (TINYRAG_DATA_DIR) as the data folder: {exc}") from None
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def resolve_data_dir(arg: str | os.PathLike[str] | None, *, create: bool = True) -> Path:
    """The data folder ``arg`` names (None: the default one), created unless ``create`` is False.

    Raises DataDirError when the name is empty (an unset shell variable must not mean "the default
    folder") or when the folder, or a folder on its way, is a file.
    """
    if arg is not None and not os.fspath(arg).strip():
        raise DataDirError("the data folder's name is empty; name a folder, or leave it out for the default one")
    # absolute: a relative --data-dir made the knowledge panel fail (a relative path has no file: URI) and
    # show an empty knowledge base
    try:
        path = expand_home(arg).absolute() if arg is not None else default_data_dir()
    except UnknownHome as exc:
        raise DataDirError(f"cannot use {arg} as the data folder: {exc}") from None
    _refuse_files_on_the_way(path)
    size = len(os.fsencode(path))
    if size > MAX_FOLDER_BYTES and os.name != "nt":
        # "unable to open database file", and the user was sent to check permissions
        raise DataDirError(f"cannot use {path} as the data folder: its name is {size:,} bytes long, and the "
                           f"databases in it can be opened only when it is at most {MAX_FOLDER_BYTES}; choose "
                           "a folder with a shorter name")
    if create:
        try:
            make_private_folder(path)  # for the user alone when made here; one that exists is left as it is
        except OSError as exc:
            raise DataDirError(f"cannot create the data folder {path}: {exc.strerror or exc}") from None
    return path


def _refuse_files_on_the_way(path: Path) -> None:
    """Raise DataDirError if ``path`` or the nearest part of it that exists is not a folder."""
    for part in (path, *path.parents):
        try:
            if part.is_dir():
                return
            if part.exists():
                where = "it is" if part == path else f"{part} is"
                raise DataDirError(f"cannot use {path} as the data folder: {where} a file, not a folder")
            if part.is_symlink():  # to nothing: mkdir said "File exists"
                where = "it is" if part == path else f"{part} is"
                raise DataDirError(f"cannot use {path} as the data folder: {where} a link to "
                                   f"{os.readlink(part)}, which does not exist")
        except OSError as exc:  # e.g. no permission to look inside a parent
            raise DataDirError(f"cannot use {path} as the data folder: {exc.strerror or exc}") from None


# Written in logs/ (an own folder: kb.own_data.OWN_FILES has it) once the data folder's modes were looked at.
MODES_CHECKED = Path("logs") / "modes-checked"
_OLD_FOLDER, _OLD_FILE = 0o755, 0o644  # what versions before the data folder was private made (umask 022)


def tighten_old_modes(data_dir: Path) -> list[str]:
    """Once per data folder, on POSIX: the app's own files and folders in it that an older version made
    readable by every account (0644 files, 0755 folders: it did not choose, the umask did) made the user's
    alone (0600, 0700), as the app makes them now. Returns what was changed (paths from the data folder),
    and logs them in one line.

    Only exactly those modes change (a user who chose 0750 or 0640 keeps it), only the files the app itself
    writes (kb.own_data.OWN_FILES; not what shell commands left in work/, not the user's own files beside
    them), never through a link. The data folder itself only when something in it was an older version's
    and it holds the app's files alone: a folder the user chose, with their own files in it, keeps its mode.
    """
    data_dir = Path(data_dir)
    marker = data_dir / MODES_CHECKED
    if os.name != "posix" or marker.exists() or not data_dir.is_dir():
        return []
    from .kb.own_data import OWN_FILES  # the list of the app's files; here once per data folder

    changed: list[str] = []
    try:
        entries = list(os.scandir(data_dir))
    except OSError:
        return []
    own = [e for e in entries if OWN_FILES.fullmatch(e.name) or e.name in ("logs", "work")]
    for entry in own:
        if entry.name in ("logs", "work"):
            if _tighten(entry.path, _OLD_FOLDER, 0o700, folder=True):
                changed.append(entry.name)
            if entry.name == "logs" and entry.is_dir(follow_symlinks=False):
                try:
                    logs = list(os.scandir(entry.path))
                except OSError:
                    logs = []
                changed += [f"logs/{e.name}" for e in logs if _tighten(e.path, _OLD_FILE, 0o600)]
        elif _tighten(entry.path, _OLD_FILE, 0o600):
            changed.append(entry.name)
    if changed and len(own) == len(entries) and _tighten(str(data_dir), _OLD_FOLDER, 0o700, folder=True):
        changed.insert(0, ".")
    if changed:
        log.info("made the data folder's own files readable by this user alone (an older version left them "
                 "readable by all): %s", ", ".join("the folder itself" if c == "." else c for c in changed))
    try:
        write_whole(marker, "The modes of the data folder's own files were looked at; not again.\n", private=True)
    except OSError:  # no logs/ folder, or a read-only data folder: looked at again at the next start
        pass
    return changed


def _tighten(path: str, old: int, new: int, *, folder: bool = False) -> bool:
    """chmod ``path`` from exactly ``old`` to ``new``, when it is a folder (``folder``) or a regular file
    (a link is not followed); True when changed."""
    try:
        st = os.lstat(path)
        kind = stat.S_ISDIR(st.st_mode) if folder else stat.S_ISREG(st.st_mode)
        if not kind or stat.S_IMODE(st.st_mode) != old or st.st_uid != os.getuid():
            return False
        os.chmod(path, new)
        return True
    except OSError:  # gone meanwhile, or not ours to change
        return False
