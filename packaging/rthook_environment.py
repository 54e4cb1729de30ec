"""The bundle's first runtime hook: notes the variables PySide6's runtime hook is about to change, as they
were, so that programs the app starts get them back (tinyrag_desktop.lifeline.outside_environment).

PyInstaller runs the spec's own runtime hooks before those of the packages. The bootloader's change, to
LD_LIBRARY_PATH, is kept by the bootloader itself in LD_LIBRARY_PATH_ORIG.
"""

import json
import os

os.environ["TINYRAG_ENV_BEFORE_BUNDLE"] = json.dumps(
    {name: os.environ.get(name) for name in ("QT_PLUGIN_PATH", "QML2_IMPORT_PATH", "DYLD_LIBRARY_PATH", "PATH")})
