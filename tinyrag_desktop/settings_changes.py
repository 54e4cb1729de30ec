"""Saving the window's settings over a settings.json that may have changed since the window read it.

The window reads the settings once, as it opens, and saving used to write all of them back as it held them:
a key edited by hand meanwhile (``wikipedia_api_url``, which only a hand edit sets, or the temperature) was
silently put back, by a pick in the model menu as much as by the Settings window, and so was a setting of
this run's command line or environment (``--base-url``, ``TINYRAG_API_KEY``), which is meant for that run
only. Now only the settings changed in the window are written, over the file as it is at that moment, which
is read and written back under its lock (file_lock.py): another window's save at the same moment is kept too.
The personas are one setting but many entries: only those changed in the window are written, by name.
A change another program makes while the window is open is followed by the window (ui/settings_watch.py).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Mapping

from .file_lock import GUI_WAIT_S, locked
from .settings import SETTINGS_FILE, Settings, decoded, from_mapping, savable, try_save_settings

log = logging.getLogger(__name__)


def with_file(data_dir: Path, before: Settings, after: Settings) -> Settings | dict[str, Any]:
    """``after`` as it is to be written: the settings in which it differs from ``before`` (what the window
    used until now) put over settings.json as it is now, each other key as the file has it, a value this
    version refuses too (a number written as "ten"): it is said again at the next start, not replaced by its
    default unseen. No file yet: over the defaults, so this run's --base-url or TINYRAG_API_KEY is not
    written. A file that cannot be read or is damaged (by another program's edit) is no base: ``after`` is
    written whole then, as before."""
    try:
        raw, _notes = decoded((Path(data_dir) / SETTINGS_FILE).read_bytes())
    except FileNotFoundError:
        raw = {}
    except (OSError, ValueError, RecursionError) as exc:
        log.info("settings saved whole: %s could not be read as it is now (%s)", SETTINGS_FILE, exc)
        return after
    on_disk, _warnings = from_mapping(raw)  # what it holds beside the keys: the defaults of those it lacks
    kept = {key: value for key, value in raw.items() if savable({key: value})}  # (from_mapping said the rest)
    return {**on_disk.to_json(), **kept, **edits(before, after, kept)}


def edits(before: Settings, after: Settings, now: Mapping[str, Any]) -> dict[str, Any]:
    """The settings changed from ``before`` to ``after``, to put over ``now`` (the file's settings, or the
    window's, as they are now): the personas merged by name (personas_merged)."""
    changed = {key: after[key] for key in after if after[key] != before[key]}
    if "personas" in changed and isinstance(now.get("personas"), dict):
        changed["personas"] = personas_merged(now["personas"], before["personas"], after["personas"])
    return changed


def edited_over(now: Settings, before: Settings, after: Settings) -> Settings:
    """``now`` with the edits from ``before`` to ``after``: a Settings window opened before another program
    changed a setting (followed since, see ui/settings_watch.py) puts none of its old values back."""
    return now.replace(**edits(before, after, now))


def personas_merged(now: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The personas of the file as it is ``now`` with those the window added, changed or removed (``after``
    against ``before``, what it loaded): a persona another window added meanwhile was lost with the whole
    list this one wrote over it. A rename is a removal and an addition."""
    merged = {name: text for name, text in now.items() if name not in before or name in after}
    merged.update({name: text for name, text in after.items() if before.get(name) != text})
    return merged


def save_changes(data_dir: Path, before: Settings, after: Settings) -> str | None:
    """Write the settings changed from ``before`` to ``after`` into settings.json, keeping what else it holds
    now (see with_file): None when written, else why not, in words (try_save_settings)."""
    with locked(Path(data_dir) / SETTINGS_FILE, GUI_WAIT_S):  # on the GUI thread: a short wait
        return try_save_settings(data_dir, with_file(data_dir, before, after))
