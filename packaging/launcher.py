"""The bundle's entry script: PyInstaller freezes this file; it hands over to the package's own main."""

import sys

from tinyrag_desktop.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
