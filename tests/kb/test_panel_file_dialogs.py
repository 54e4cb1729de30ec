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


def test_the_files_dialog_shows_text_files_without_an_extension_at_first(qtbot, panel, tmp_path, monkeypatch):
    # Its default filter, "Documents", listed extensions only: README, COPYING, NEWS.Debian and Apache-2.0,
    # which the import reads as text, were hidden; no wildcard matches a name without an extension.
    from PySide6.QtWidgets import QFileSystemModel, QListView

    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda parent, title, folder, filters: (asked.append(filters), ([], ""))[1]))
    panel.choose_files()
    names = ["README", "COPYING", "NEWS.Debian", "Apache-2.0", "notes.md"]
    folder = tmp_path / "doc"
    folder.mkdir()
    for name in names:
        (folder / name).write_text("Some words.\n", encoding="utf-8")
    dialog = QFileDialog(panel, "Add files", "", asked[0])
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # the dialog itself, whose list can be read
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    qtbot.add_widget(dialog)
    files = dialog.findChild(QFileSystemModel)
    with qtbot.waitSignal(files.directoryLoaded, timeout=10_000):
        dialog.setDirectory(str(folder))
    dialog.show()
    view = dialog.findChild(QListView, "listView")
    root = view.rootIndex()
    qtbot.waitUntil(lambda: view.model().rowCount(root) > 0)
    listed = {view.model().index(row, 0, root).data() for row in range(view.model().rowCount(root))}
    assert listed == set(names)  # what the dialog shows at first
    if Path("/tmp/kb44").is_dir():
        dialog.grab().save("/tmp/kb44/files_dialog.png")
    assert dialog.nameFilters()[1].startswith("Documents (")  # the supported types, a choice away
