"""Layers (STYLE 1): only ui/ and the app bootstrap import Qt; protocol imports the stdlib only."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "tinyrag_desktop"
QT_ALLOWED = {"app.py", "__main__.py"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_qt_outside_ui() -> None:
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "ui" or str(rel) in QT_ALLOWED:
            continue
        if imports(path) & {"PySide6", "qasync", "shiboken6"}:
            offenders.append(str(rel))
    assert offenders == []


def test_protocol_is_stdlib_only() -> None:
    stdlib = set(sys.stdlib_module_names)
    for path in (PKG / "protocol").rglob("*.py"):
        assert imports(path) <= stdlib, path


def test_headless_verbs_do_not_load_qt() -> None:
    code = (
        "import sys; from tinyrag_desktop import cli; cli.build_parser(); "
        "import tinyrag_desktop.engine, tinyrag_desktop.tools; tinyrag_desktop.tools.default_registry(); "
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'qasync'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
