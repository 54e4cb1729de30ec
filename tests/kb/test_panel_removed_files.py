"""A folder imported again in the panel names the files it removed because they were deleted from it."""

from __future__ import annotations

from tests.kb.test_panel import _import


def test_the_files_a_folder_s_import_removed_are_named(qtbot, panel, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for name in ("herons.md", "owls.md", "wrens.md"):
        (folder / name).write_text(f"# {name}\n\nBirds of the marsh and the wood.\n", encoding="utf-8")
    _import(qtbot, panel, [str(folder)])
    (folder / "owls.md").unlink()
    (folder / "empty.md").write_bytes(b"")
    _import(qtbot, panel, [str(folder)])
    # "… 1 removed (deleted from their folder)", and no word of which: the CLI names it, the panel did not.
    lines = panel.status_label.text().split("\n")
    assert lines[0] == "2 already up to date, 1 skipped, 1 removed (deleted from its folder)"
    assert lines[1:] == ["– empty.md: the file is empty", "− owls.md: removed, as it was deleted from its folder"]
    assert f"{folder / 'owls.md'}: removed, as it was deleted from its folder" in panel.status_label.toolTip()
