"""Add ▸ Files… and Folder… open where the user is likely to look, and then where they last chose."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog


def test_the_file_and_folder_dialogs_open_in_the_documents_folder_then_where_the_last_choice_was(
        qtbot, panel, tmp_path, monkeypatch):
    opened, started = [], []
    chosen = tmp_path / "notes" / "a.md"
    chosen.parent.mkdir()
    chosen.write_text("# A\n\nSome words.\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda parent, title, folder, filters: (opened.append(folder),
                                                                            ([str(chosen)], ""))[1]))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda parent, title, folder: (opened.append(folder), str(tmp_path))[1]))
    monkeypatch.setattr(panel, "import_items", lambda items, force=False: started.append(items) or True)
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    first = documents if documents and Path(documents).is_dir() else str(Path.home())
    panel.choose_files()
    # It opened in the folder the app was started from ("" is the working folder: "/" from a launcher).
    assert opened[0] == first
    panel.choose_folder()
    assert opened[1] == str(chosen.parent)  # where the files were chosen
    panel.choose_files()
    assert opened[2] == str(tmp_path)  # the folder chosen last
    assert started == [[str(chosen)], [str(tmp_path)], [str(chosen)]]
