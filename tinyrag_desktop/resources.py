"""The one place that knows where the app's resources (icons, themes, the user guide) live on disk.

The ``resources/`` folder sits beside the package in a source checkout, inside the bundle's own folder in a
PyInstaller build (``sys._MEIPASS``), and under ``<prefix>/share/tinyrag-desktop/resources`` when a wheel
installed it as data files. ``$TINYRAG_RESOURCES`` overrides all three (for packagers and tests). Code
never builds paths from ``__file__`` itself: it asks :func:`resource_path`, which works in all of them.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path

from .paths import expand_home

__all__ = ["ResourceNotFound", "resource_path", "resources_root", "candidate_roots"]

APP_NAME = "tinyrag-desktop"
_MARKER = "icons"  # a folder every real resources root has; an unrelated "resources" dir is skipped


class ResourceNotFound(FileNotFoundError):
    """No resources folder was found; the message lists where the app looked."""


def candidate_roots() -> list[Path]:
    """Every place a resources folder may be, most specific first."""
    roots: list[Path] = []
    env = os.environ.get("TINYRAG_RESOURCES")
    if env:
        roots.append(expand_home(env, keep_unknown=True))
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        roots.append(Path(bundle) / "resources")
        # macOS .app bundles keep data files in Contents/Resources, beside Contents/Frameworks.
        roots.append(Path(sys.executable).resolve().parent.parent / "Resources" / "resources")
    roots.append(Path(__file__).resolve().parent.parent / "resources")  # source checkout, editable install
    for prefix in dict.fromkeys((sys.prefix, sysconfig.get_path("data"), sys.base_prefix)):
        roots.append(Path(prefix) / "share" / APP_NAME / "resources")  # wheel data files
    return roots


@lru_cache(maxsize=1)
def resources_root() -> Path:
    """The first candidate that looks like a resources folder; raises ResourceNotFound when none does."""
    roots = candidate_roots()
    for root in roots:
        if (root / _MARKER).is_dir():
            return root
    tried = "\n  ".join(str(r) for r in roots)
    raise ResourceNotFound(f"The app's resources folder is missing; looked in:\n  {tried}")


def resource_path(*parts: str) -> Path:
    """The path of a resource, e.g. ``resource_path("icons", "app.svg")``; the file itself may not exist.

    When no resources folder exists at all, the path points into the source-checkout location, so callers
    that test ``is_file()`` fall back to their painted defaults instead of failing at import time.
    """
    try:
        root = resources_root()
    except ResourceNotFound:
        root = Path(__file__).resolve().parent.parent / "resources"
    return root.joinpath(*parts)
