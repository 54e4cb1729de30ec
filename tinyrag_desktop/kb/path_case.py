"""One file, one source, however the letters of its path were cased.

On a case-insensitive disk (macOS's APFS and HFS+, Windows' NTFS, a Linux folder with casefold on) "~/Docs"
and "~/docs" are one folder, but Python's ``realpath`` keeps the letters as typed on macOS: importing
~/Docs and then ~/docs stored each of its files twice, and the second import did not remove what had been
deleted from the first. Now a path that differs from a known one only in letter case is looked at on the
disk: when both names are the same file (``os.path.samefile``: the disk itself says it ignores case), the
path is spelled as the known one, the source stored under it or the file met earlier in the same import.
On a case-sensitive disk two such names are two files, and nothing changes. (Two hard links whose names
differ only in case are one file there too, and are taken as one source: they hold the same text.) There the
stored sources are not read for their spellings at all (:func:`ignores_case`): it took 34 ms per 10,000
sources on every import, of one file dropped on the panel too.
"""

from __future__ import annotations

import bisect
import os
from typing import Iterable

from ..paths import expand_home


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file on the disk; False when either cannot be looked at."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # gone, unreadable, or a name the system cannot take (a NUL in it)
        return False


def ignores_case(path: str) -> bool:
    """Whether the disk ``path`` is on ignores letter case: the path with the letters of its last name that
    has any swapped ("~/Docs/2024" as "~/dOCS/2024") is the same file. On a case-sensitive disk that name is
    another file or none; False too when ``path`` cannot be looked at."""
    head, tail = os.path.split(os.path.abspath(expand_home(path, keep_unknown=True)))
    rest: list[str] = []
    while tail and (tail.swapcase() == tail or tail.swapcase().swapcase() != tail):  # "2024", or "ß" → "SS"
        rest.insert(0, tail)
        head, tail = os.path.split(head)
    return bool(tail) and same_file(os.path.join(head, tail, *rest), os.path.join(head, tail.swapcase(), *rest))


class Spellings:
    """The spellings of the paths known to an import: the sources stored, then the files it meets."""

    def __init__(self, stored: Iterable[str]) -> None:
        self._known: dict[str, list[str]] = {}  # casefolded path → its spellings
        for location in stored:
            self._add(location)

    def _add(self, path: str) -> None:
        spellings = self._known.setdefault(path.casefold(), [])
        if path not in spellings:
            spellings.append(path)

    def spelled(self, path: str) -> str:
        """``path`` as it is known already, when it is the same file in other letters; else ``path``, now
        known (a later path of the same import, in other letters, takes its spelling)."""
        for known in self._known.get(path.casefold(), ()):
            if known == path or same_file(known, path):
                return known
        self._add(path)
        return path

    def folders(self, folders: Iterable[str]) -> list[str]:
        """``folders`` (each ending in a separator), each followed by the other spellings of it that known
        paths are filed under, when they are the same folder: the sources stored under "~/Docs/" are the
        folder "~/docs/" imported again."""
        keys = sorted(self._known)
        out: list[str] = []
        for folder in folders:
            out.append(folder)
            key, others = folder.casefold(), set()
            for at in range(bisect.bisect_left(keys, key), len(keys)):
                if not keys[at].startswith(key):
                    break
                for known in self._known[keys[at]]:
                    spelled = known[:len(folder)]
                    if spelled != folder and spelled.casefold() == key:
                        others.add(spelled)
            out += sorted(other for other in others if same_file(other, folder))
        return out
