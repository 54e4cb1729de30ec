"""A name that is a file's and a web site's at once ("foo.ml": an OCaml file, or a site in Mali): a file of that
name is imported; with none here, ``kb add`` fails (a mistyped file name must not fetch a web page, nor a
script's missing file pass) and says the web site it may mean (test_cli_kb_edges.py: it said a bare "no such file
or folder")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tinyrag_desktop.kb.import_items import DOMAIN_SUFFIXES
from tinyrag_desktop.kb.readers import SUPPORTED
from tinyrag_desktop.ui.kb_drop import items_from_urls, left_out


def test_a_file_of_that_name_is_imported_as_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "foo.ml").write_text("(* Kettles *)\nlet descale kettle = kettle.scale <- 0\n", encoding="utf-8")
    (tmp_path / "example.pl").mkdir()
    (tmp_path / "example.pl" / "page.md").write_text("# Herons\n\nHerons wade in the shallows.\n",
                                                    encoding="utf-8")
    code, out, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), "foo.ml", "example.pl/page.md")
    assert code == 0, err
    assert out.startswith("2 added") and "web" not in err


def test_the_domain_suffixes_are_the_supported_extensions_that_are_top_level_domains() -> None:
    tld = pytest.importorskip("tld")  # trafilatura's courlan brings it, with the Public Suffix List
    listing = Path(tld.__file__).parent / "res" / "effective_tld_names.dat.txt"
    top = {line.strip().lstrip("*.!") for line in listing.read_text(encoding="utf-8").splitlines()
           if line.strip() and not line.startswith("//")}
    top = {name for name in top if "." not in name}
    assert DOMAIN_SUFFIXES == {suffix for suffix in SUPPORTED if suffix[1:] in top}


def test_a_dropped_name_that_may_be_a_web_site_is_said_so() -> None:
    assert items_from_urls([], "foo.ml") == []
    assert left_out([], "foo.ml") == [
        "“foo.ml” (no such file or folder; if you meant the web site, write https://foo.ml)"]
    assert left_out([], "notes.txt") == ["“notes.txt” (no such file or folder)"]


@pytest.mark.parametrize("name, a_site", [
    # the documents most often named in the wrong folder: "if you meant the web site, write https://README.md"
    ("README.md", False), ("notes.md", False), ("setup.py", False), ("CHANGELOG.md", False), ("install.sh", False),
    ("Main.java", False), ("gradle.properties", False),
    # written as no host name is: in capitals, or with "_"
    ("LICENSE.pl", False), ("Module.pm", False), ("my_parser.ml", False),
    ("foo.ml", True), ("allegro.pl", True), ("rustup.rs", True), ("example.cc", True),
])
def test_only_a_name_written_as_a_web_site_is_hinted_to_be_one_by_kb_add_and_the_panel_alike(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        name: str, a_site: bool) -> None:
    monkeypatch.chdir(tmp_path)
    reason = "no such file or folder" + (f"; if you meant the web site, write https://{name}" if a_site else "")
    code, _, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), name)
    assert code == 1 and f"{name}: {reason}\n" in err, err
    assert left_out([], name) == [f"“{name}” ({reason})"]


def test_a_dropped_file_link_to_nothing_is_said_missing_not_an_address(tmp_path: Path) -> None:
    [said] = left_out([], (tmp_path / "gone.md").as_uri())
    assert said.startswith("“file://") and said.endswith("gone.md” (no such file or folder)")
