"""Saving the window's settings over a settings.json that may have changed since the window read it.

The window reads the settings once, as it opens, and saving used to write all of them back as it held them:
a key edited by hand meanwhile (``wikipedia_api_url``, which only a hand edit sets, or the temperature) was
silently put back, by a pick in the model menu as much as by the Settings window, and so was a setting of
this run's command line or environment (``--base-url``, ``TINYRAG_API_KEY``), which is meant for that run
only. Now only the settings changed in the window are written, over the file as it is at that moment.
"""

from __future__ import annotations

import logging
from pathlib import Path

from .settings import SETTINGS_FILE, Settings, SettingsError, decoded, from_mapping, try_save_settings

log = logging.getLogger(__name__)


def with_file(data_dir: Path, before: Settings, after: Settings) -> Settings:
    """``after`` as it is to be written: the settings in which it differs from ``before`` (what the window
    used until now) put over settings.json as it is now. A file that is gone, cannot be read or is damaged
    (by another program's edit) is no base: ``after`` is written whole then, as before."""
    changed = {key: after[key] for key in after if after[key] != before[key]}
    try:
        raw, _notes = decoded((Path(data_dir) / SETTINGS_FILE).read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        log.info("settings saved whole: %s could not be read as it is now (%s)", SETTINGS_FILE, exc)
        return after
    on_disk, _warnings = from_mapping(raw)  # said at the next start, as any hand edit's are
    try:
        return on_disk.replace(**changed)
    except SettingsError:  # (checked already: after holds them)
        return after


def save_changes(data_dir: Path, before: Settings, after: Settings) -> str | None:
    """Write the settings changed from ``before`` to ``after`` into settings.json, keeping what else it holds
    now (see with_file): None when written, else why not, in words (try_save_settings)."""
    return try_save_settings(data_dir, with_file(data_dir, before, after))
