"""A folder's import leaves out what programs filled (installed packages, virtual environments, build and
cache folders), saying why, as it does hidden folders; folders people name alike are still read."""

from __future__ import annotations

from pathlib import Path

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.import_items import ImportItem, expand
from tinyrag_desktop.kb.import_report import ImportReport


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _project(root: Path) -> Path:
    proj = root / "proj"
    _write(proj / "NOTES.md", "# My project\n\nOur deploy steps run on Fridays.\n")
    _write(proj / "node_modules" / "leftpad" / "LICENSE", "MIT License\n\nPermission is hereby granted\n")
    _write(proj / "node_modules" / "leftpad" / "README.md", "# leftpad\n\nPads a string on the left.\n")
    _write(proj / "src" / "__pycache__" / "notes.txt", "compiled leftovers\n")
    _write(proj / "env" / "pyvenv.cfg", "home = /usr/bin\n")
    _write(proj / "env" / "lib" / "python3.11" / "site-packages" / "pkg" / "README.md", "# pkg\n\nA package.\n")
    _write(proj / "rust" / "Cargo.toml", "[package]\nname = \"x\"\n")
    _write(proj / "rust" / "target" / "doc" / "index.html", "<html><body><p>Generated docs.</p></body></html>")
    _write(proj / "cache" / "CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n# a cache\n")
    _write(proj / "cache" / "entry.txt", "cached entry\n")
    # named alike, but a person's: no tool's mark
    _write(proj / "target" / "goals.md", "# Goals\n\nSell forty hives of honey by autumn.\n")
    _write(proj / "venv" / "trip.txt", "Venv is where the trip starts: the lake house.\n")
    return proj


def test_tool_folders_are_skipped_with_a_reason(tmp_path):
    proj = _project(tmp_path)
    report = ImportReport()
    found = sorted(Path(item.value).relative_to(proj.resolve()).as_posix()
                   for item in expand([ImportItem("path", str(proj))], report))
    assert found == ["NOTES.md", "rust/Cargo.toml", "target/goals.md", "venv/trip.txt"]
    skipped = {Path(f.location).relative_to(proj).as_posix(): f.reason for f in report.skipped
               if "not a supported type" not in f.reason}
    assert skipped == {
        "node_modules": "installed JavaScript packages (node_modules): a program's files, not documents",
        "src/__pycache__": "Python's compiled files (__pycache__): a program's files, not documents",
        "env": "a Python virtual environment (pyvenv.cfg): a program's files, not documents",
        "rust/target": "a build folder (target, beside Cargo.toml or pom.xml): a program's files, not documents",
        "cache": "a cache folder (CACHEDIR.TAG): a program's files, not documents",
    }


def test_a_tool_folder_named_itself_is_imported(tmp_path, data_dir):
    proj = _project(tmp_path)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(proj), str(proj / "node_modules")])
    assert any(Path(p).name == "LICENSE" for p in report.added)
    assert search(data_dir, "deploy steps Fridays", 1)[0].location.endswith("NOTES.md")
    assert any("node_modules" in f.location and "JavaScript packages" in f.reason for f in report.skipped)


def test_on_windows_folders_and_files_marked_hidden_are_left_out_as_dot_names_are(tmp_path, monkeypatch):
    # Windows hides by an attribute, not a dot: a home folder's AppData (programs' settings and tokens, what
    # ~/.config holds elsewhere) was imported with it. Here the attribute is read from a stand-in.
    import stat

    from tinyrag_desktop.kb import import_items

    home = tmp_path / "me"
    _write(home / "Documents" / "notes.md", "# Notes\n\nThe plan for Friday.\n")
    _write(home / "AppData" / "Roaming" / "chat" / "settings.json", '{"token": "secret"}')
    _write(home / "Documents" / "desktop.txt", "a file the system keeps hidden\n")
    marked = {home / "AppData", home / "Documents" / "desktop.txt"}
    monkeypatch.setattr(import_items, "_MARKED_HIDDEN_TOO", True)
    monkeypatch.setattr(import_items, "_attributes",
                        lambda entry: stat.FILE_ATTRIBUTE_HIDDEN if Path(entry.path) in marked else 0)
    report = ImportReport()
    items = expand([ImportItem("path", str(home))], report)
    assert [Path(item.value).name for item in items] == ["notes.md"]
    assert {(Path(f.location).name, f.reason) for f in report.skipped} == {
        ("AppData", "hidden folder"), ("desktop.txt", "hidden file")}
