"""Code in the knowledge base as a project's real trees have it: scripts named without an extension, videos
named like TypeScript, small pieces between large definitions, questions written as identifiers, and passages
shown as code by their source's type."""

from __future__ import annotations

from pathlib import Path

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.readers import read_bytes

DEPLOY = """#!/usr/bin/env bash
set -e
export DEPLOY_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789

deploy() {
  curl -H "x: $DEPLOY_TOKEN" https://example.org/release
}
""" + "".join(f"# step {n} of the release checklist, written out at length for the operators\n" for n in range(12)) + """
rollback() {
  echo "rolling back the release"
}
"""


def _write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())


def test_a_script_without_an_extension_is_read_as_code_by_its_first_line(tmp_path) -> None:
    _write(tmp_path / "app" / "bin" / "deploy", DEPLOY)
    _write(tmp_path / "app" / "bin" / "migrate", '#!/usr/bin/python3\nPASSWORD = "hunter2hunter2"\n\n\n'
           'def migrate():\n    """Move the tables to the new schema."""\n')
    _write(tmp_path / "app" / "NOTES", "#!notes for the release\nThe token is on the card.\n")
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb, chunk_size=300).run([str(tmp_path / "app")])
        types = {Path(s.location).name: s.type for s in kb.sources()}
    assert types == {"deploy": "code", "migrate": "code", "NOTES": "text"}
    assert report.hidden == 2
    hits = search(tmp_path / "data", "deploy token release", 10)
    assert all("ghp_abcdefghij" not in h.text for h in hits)
    assert {"deploy > deploy", "deploy > rollback"} <= {h.heading for h in search(tmp_path / "data", "release", 10)}
    assert "hunter2hunter2" not in search(tmp_path / "data", "password schema", 1)[0].text


def test_a_video_named_like_typescript_is_left_out_of_a_folder_and_fails_by_itself(tmp_path) -> None:
    video = b"G@\x00\x10\x00\x00\xb0\n\x00\x01\xc1\x00\x00\x00\x01\xf0\x00*\xb1\x04\xb2" * 400  # MPEG-TS packets
    _write(tmp_path / "talk" / "clip.ts", video)
    _write(tmp_path / "talk" / "notes.md", "# Talk\n\nThe slides and the recording.\n")
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb, chunk_size=1200).run([str(tmp_path / "talk")])
        assert not report.failed and len(report.added) == 1
        assert [(Path(f.location).name, f.reason) for f in report.skipped] == [
            ("clip.ts", "looks like binary data, not source code")]
        alone = Importer(kb, chunk_size=1200).run([str(tmp_path / "talk" / "clip.ts")])
    assert [f.reason for f in alone.failed] == ["looks like binary data, not source code"]


def test_a_question_written_as_an_identifier_finds_it_written_in_any_case(tmp_path) -> None:
    _write(tmp_path / "app" / "store.py", 'def load_user_config(path):\n    """Read the user settings."""\n'
           "    return open(path).read()\n")
    _write(tmp_path / "app" / "save.js", "function saveUserConfig(path, text) {\n  fs.writeFileSync(path, text);\n}\n")
    _write(tmp_path / "app" / "notes.md", "# Notes\n\nThe user may load a config of their own.\n")
    with open_store(tmp_path / "data") as kb:
        Importer(kb, chunk_size=1200).run([str(tmp_path / "app")])
    for question, heading in (("loadUserConfig", "store.py > load_user_config"),
                              ("LoadUserConfig", "store.py > load_user_config"),
                              ("saveUserConfig", "save.js > saveUserConfig"),
                              ("where is SaveUserConfig", "save.js > saveUserConfig")):
        hits = search(tmp_path / "data", question, 3)
        assert hits[0].heading == heading, question
        assert not hits.missing, question
    assert not search(tmp_path / "data", "readUserConfig", 3)  # its words are there, but not side by side
