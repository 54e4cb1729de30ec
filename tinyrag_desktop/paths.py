"""Where the app keeps its data: settings, knowledge base and chats live in one folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .files import make_private_folder

APP_NAME = "tinyrag-desktop"


def command() -> str:
    """How a user starts this program in a terminal, for messages that tell them to: the bundle's own
    executable, the installed ``tinyrag-desktop`` script, or the module."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).name
    if Path(sys.argv[0] if sys.argv else "").name == APP_NAME:
        return APP_NAME
    return "python -m tinyrag_desktop"


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
        return Path(env).expanduser()
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
    path = Path(arg).expanduser().absolute() if arg is not None else default_data_dir()
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
