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
    assert {"deploy > (its own), deploy", "deploy > rollback"} <= {h.heading for h in search(tmp_path / "data",
                                                                                           "release", 10)}
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


def test_a_brand_in_mixed_case_is_searched_as_written(tmp_path) -> None:
    # "iPhone" is a name, not an identifier to read as "i phone": the passage naming it comes first.
    _write(tmp_path / "notes" / "phone.txt", "Phone notes\n\nThe iPhone battery drains fast when the screen is "
           "bright; on an iPhone, lower the brightness.\n")
    _write(tmp_path / "notes" / "battery.txt", "Battery care\n\nA battery lasts longer when the battery is kept "
           "cool. I phone the shop when a battery swells. Battery, battery.\n")
    with open_store(tmp_path / "data") as kb:
        Importer(kb, chunk_size=1200).run([str(tmp_path / "notes")])
    assert "The iPhone battery" in search(tmp_path / "data", "iPhone battery", 3)[0].text


def _body(name: str, lines: int) -> str:
    return "".join(f"    {name}_step_{n} = compute_{name}({n}, shared, memory)\n" for n in range(lines))


def test_a_small_piece_alone_between_two_large_definitions_goes_with_the_next(tmp_path) -> None:
    source = (f"def attach(shared, memory):\n{_body('attach', 8)}\n\n_encoding = \"utf8\"\n\n\n"
              f"def detach(shared, memory):\n{_body('detach', 8)}")
    chunks = chunk_document(read_bytes(source.encode(), "code", "shm.py"), 1200)
    assert [c.heading for c in chunks] == ["shm.py > attach", "shm.py > detach"]
    assert chunks[1].text.startswith('_encoding = "utf8"\n\n\ndef detach(shared, memory):')


NPM_JS = "class Npm {\n  constructor(config) {\n    this.config = config\n  }\n\n" + "".join(
    f"  get setting{n}() {{\n    return this.config.get('setting{n}')\n  }}\n\n" for n in range(20)) + (
    "  async exec(command, args) {\n" + "".join(f"    await this.step{n}(command, args)\n" for n in range(30))
    + "  }\n}\n")


def test_the_small_methods_of_a_large_class_share_passages() -> None:
    chunks = chunk_document(read_bytes(NPM_JS.encode(), "code", "npm.js"), 1200)
    headings = [c.heading for c in chunks]
    assert len(headings) <= 4, headings
    assert headings[0].startswith("npm.js > Npm > constructor, setting0, setting1")
    assert headings[-1] == "npm.js > Npm > exec" and chunks[-1].text.endswith("\n  }\n}")  # the class's close too
    text = "\n".join(c.text for c in chunks)
    assert all(text.count(f"get setting{n}()") == 1 for n in range(20))


def test_the_file_s_own_lines_are_named_in_the_heading_of_the_passage_they_share(tmp_path) -> None:
    settings = 'version = "1.4"\nedition = "2021"\n\n[overrides]\nstrict = true\n'
    chunks = chunk_document(read_bytes(settings.encode(), "config", "settings.toml"), 1200)
    assert [(c.heading, c.text) for c in chunks] == [("settings.toml > (its own), overrides", settings.strip())]
