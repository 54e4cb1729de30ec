"""An empty file is skipped with its reason, as a folder's other files that hold nothing to import are:
by the import, ``kb add`` and the panel alike."""

from __future__ import annotations

from tests.kb.cli_run import run_main
from tinyrag_desktop.kb import Importer, open_store


def _folder(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "empty.md").write_bytes(b"")
    (folder / "blank.txt").write_text("  \n\n\t\n", encoding="utf-8")
    (folder / "herons.md").write_text("# Herons\n\nHerons stand still in shallow water.\n", encoding="utf-8")
    return folder


def test_an_empty_file_in_a_folder_is_skipped_not_failed(tmp_path, data_dir):
    folder = _folder(tmp_path)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    # It was counted as failed ("1 added, …, 1 failed"), beside the pictures and such listed as skipped.
    assert report.failed == []
    assert {(s.location, s.reason) for s in report.skipped} == {
        (str(folder / "empty.md"), "the file is empty"),
        (str(folder / "blank.txt"), "the file is empty (only spaces and blank lines)"),
    }
    assert report.summary().startswith("1 added, 0 updated, 0 unchanged, 2 skipped")


def test_kb_add_says_an_empty_file_is_skipped(tmp_path, data_dir, capsys):
    folder = _folder(tmp_path)
    code, out, err = run_main(capsys, "add", str(folder), "--data-dir", str(data_dir))
    assert code == 0
    assert out.startswith("1 added, 0 updated, 0 unchanged, 2 skipped")
    assert f"skipped: {folder / 'empty.md'}: the file is empty\n" in err
    assert "failed:" not in err
    # named alone, it is still not imported: a script must not take it for done
    code, out, err = run_main(capsys, "add", str(folder / "empty.md"), "--data-dir", str(data_dir))
    assert code == 1 and err.endswith(f"skipped: {folder / 'empty.md'}: the file is empty\n")


def test_the_panel_says_an_empty_file_is_skipped(qtbot, panel, tmp_path):
    folder = _folder(tmp_path)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        panel.import_items([str(folder)])
    lines = panel.status_label.text().split("\n")
    assert lines[0] == "1 added (1 passage), 2 skipped"
    assert "– empty.md: the file is empty" in lines
    assert "– blank.txt: the file is empty (only spaces and blank lines)" in lines
    assert not any(line.startswith("✗") for line in lines)
    assert f"{folder / 'empty.md'}: the file is empty" in panel.status_label.toolTip()
