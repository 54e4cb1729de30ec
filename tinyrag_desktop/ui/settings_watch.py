"""settings.json changed by another program while the window is open (edited by hand, written by another
tinyRAG program) is followed: the window uses the settings changed there from then on, without a restart.

The window read its settings once, as it opened: a server address, a model or a theme changed in the file
meanwhile went unused until the next start (its own saves already kept them in the file, settings_changes.py).
Now it looks at the file's size, time and identity every CATCH_UP_EVERY_MS (one stat, as the chats list and the
knowledge panel look at their databases, catch_up.py); when they changed, it reads the file, and each setting
whose value the file changed since it last read it is used as if saved in Settings (a setting the file lacks
means its default). Only those: what this run was started with (--base-url, TINYRAG_API_KEY) stays until the
file changes that setting itself. The window's own save is taken as seen for the settings it changed only. A
value this version refuses, or a file that is damaged, half written or gone, leaves the window's settings as they
are.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, QTimer

from ..settings import OPTIONS, SETTINGS_FILE, Settings, SettingsError, decoded
from ..sentences import listed
from ..settings_changes import edits
from .catch_up import CATCH_UP_EVERY_MS

log = logging.getLogger(__name__)

_GONE = object()  # a key the file does not hold


class SettingsWatch(QObject):
    """Calls ``follow({setting: value})`` with the settings another program changed in settings.json."""

    def __init__(self, data_dir: Path, follow: Callable[[dict[str, Any]], None], parent: QObject) -> None:
        super().__init__(parent)
        self._path = Path(data_dir) / SETTINGS_FILE
        self._follow = follow
        self._stamp = _stamp(self._path)
        self._seen = _read(self._path) or {}  # the file as last read: what differs from it was changed since
        self.timer = QTimer(self)
        self.timer.setInterval(CATCH_UP_EVERY_MS)
        self.timer.timeout.connect(self.look)
        self.timer.start()

    def wrote(self, before: Settings, after: Settings) -> None:
        """The window wrote the settings it changed from ``before`` to ``after``: those are no change made
        elsewhere. Only those: taking the whole file as read lost what another program changed since the last
        look (or while the window wrote), which the window then never used. The next look reads the file."""
        self._seen.update(edits(before, after, self._seen))

    def look(self) -> bool:
        """Read the file again if it changed since it was read, and follow what it changed; whether it did."""
        stamp = _stamp(self._path)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        raw = _read(self._path)
        if raw is None:  # gone, damaged or half written: the next change is looked at
            return False
        keys = [key for key in {**self._seen, **raw} if _meant(raw, key) != _meant(self._seen, key)]
        self._seen = raw
        changes = {}
        for key in keys:
            opt = OPTIONS.get(key)
            if opt is None:  # not a setting the window uses as such
                continue
            try:
                changes[key] = opt.check(raw[key]) if key in raw else opt.default
            except SettingsError as exc:  # said at the next start, as any value refused; the window's stays
                log.info("a setting changed elsewhere is not used: %s", exc)
        if changes:
            self._follow(changes)
        return bool(changes)


def _meant(file: dict[str, Any], key: str) -> Any:
    """``key``'s value in ``file``; a setting it lacks means its default, which a save writes in (the window's
    own over a file without it is no change of that setting made elsewhere)."""
    opt = OPTIONS.get(key)
    return file.get(key, opt.default if opt else _GONE)


def _stamp(path: Path) -> tuple[int, ...] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        return decoded(path.read_bytes())[0]
    except (OSError, ValueError, RecursionError):
        return None


def followed_words(names: list[str]) -> str:
    """The status bar's words for the settings (their labels) another program changed, now used: "Theme was
    changed in another program and is now used." ("Settings changed in another program are used now: Theme."
    read as a heading and a list)."""
    many = len(names) > 1
    return f"{listed(names)} {'were' if many else 'was'} changed in another program and {'are' if many else 'is'} now used."
