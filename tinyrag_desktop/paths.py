"""Where the app keeps its data: settings, knowledge base and chats live in one folder."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "tinyrag-desktop"


def default_data_dir() -> Path:
    """The platform's user data folder, or ``$TINYRAG_DATA_DIR`` when set."""
    env = os.environ.get("TINYRAG_DATA_DIR")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def resolve_data_dir(arg: str | os.PathLike[str] | None) -> Path:
    path = Path(arg).expanduser() if arg else default_data_dir()
    path.mkdir(parents=True, exist_ok=True)
    return path
