"""Programs and configuration files in the knowledge base: a project folder imported as its code, cut at its
definitions, its junk left out with reasons, and its identifiers found by the words they are made of."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.code_split import split_code
from tinyrag_desktop.kb.readers import file_type, read_bytes

STORE_PY = '''"""Where the settings live between runs."""

import json
from pathlib import Path

DEFAULT_PORT = 8080


def parse_config(text):
    """Settings from the text of a config file: one "key = value" a line."""
    pairs = {}
    for line in text.splitlines():
        key, _, value = line.partition("=")
        pairs[key.strip()] = value.strip()
    return pairs


class SettingsStore:
    """Settings kept in a JSON file in the data folder, written whole on each change."""

    def __init__(self, folder):
        self.path = Path(folder) / "settings.json"
        self.values = {}

    # Read once at start-up; a damaged file is kept aside and the defaults used.
    def load(self):
        try:
            self.values = json.loads(self.path.read_text())
        except ValueError:
            self.path.rename(self.path.with_suffix(".damaged"))
            self.values = {}
        return self.values

    @staticmethod
    def save_atomically(path, values):
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(values, indent=2, sort_keys=True))
        tmp.replace(path)
''' + "".join(f'''
    def option_{n}(self):
        """The value of option {n}, or its default when the file does not set it."""
        return self.values.get("option_{n}", {n})
''' for n in range(12)) + '''

if __name__ == "__main__":
    print(SettingsStore(".").load())
'''

CLIENT_JS = '''// The browser side: asks the server for the settings.
import { fetchJson } from "./http.js";

export async function parseConfig(url) {
  const body = await fetchJson(url);
  if (!body) {
    return {};
  }
  return body.settings;
}

export class Poller {
  constructor(every) {
    this.every = every;
  }

  start() {
    this.timer = setInterval(() => parseConfig("/settings"), this.every);
  }
}
'''

SERVER_GO = '''package server

import "net/http"

// ParseConfig reads the server's settings from the request's form.
func ParseConfig(r *http.Request) map[string]string {
\tout := map[string]string{}
\tfor key, values := range r.Form {
\t\tout[key] = values[0]
\t}
\treturn out
}

type Server struct {
\tport int
}

// Serve answers until the listener closes.
func (s *Server) Serve() error {
\treturn http.ListenAndServe(":8080", nil)
}
'''

PYPROJECT = '''[project]
name = "harbour"
version = "1.2.0"

[tool.pytest.ini_options]
addopts = "-q"
testpaths = ["tests"]
'''

COMPOSE = '''services:
  web:
    image: harbour:latest
    ports:
      - "8080:8080"
volumes:
  data:
    driver: local
'''

MAKEFILE = '''PYTHON ?= python3

test:
\t$(PYTHON) -m pytest

lint:
\truff check .
'''

DOCKERFILE = '''FROM python:3.11 AS build
RUN pip wheel . -w /wheels

FROM python:3.11-slim
COPY --from=build /wheels /wheels
'''


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "harbour"
    _write(root / "harbour" / "store.py", STORE_PY)
    _write(root / "web" / "client.js", CLIENT_JS)
    _write(root / "server" / "server.go", SERVER_GO)
    _write(root / "pyproject.toml", PYPROJECT)
    _write(root / "compose.yaml", COMPOSE)
    _write(root / "Makefile", MAKEFILE)
    _write(root / "Dockerfile", DOCKERFILE)
    _write(root / "README.md", "# Harbour\n\nKeeps the settings of the harbour office.\n")
    # what tools put there
    _write(root / ".git" / "config", "[core]\n\tbare = false\n")
    _write(root / "node_modules" / "left-pad" / "index.js", "module.exports = function leftPad() {}\n")
    _write(root / "harbour" / "__pycache__" / "store.cpython-311.py", "x = 1\n")
    _write(root / "venv" / "pyvenv.cfg", "home = /usr/bin\n")
    _write(root / "venv" / "lib" / "site.py", "def main():\n    pass\n")
    _write(root / "build" / "lib" / "store.py", STORE_PY)
    _write(root / "dist" / "bundle.js", CLIENT_JS)
    _write(root / "package-lock.json", '{"lockfileVersion": 3}\n')
    _write(root / "web" / "vendor.min.js", "var a=1;\n")
    _write(root / "web" / "bundle.js", "var a=1;" * 400 + "\n")
    return root


def test_a_project_is_imported_as_its_code_and_config_with_its_junk_left_out(tmp_path, project) -> None:
    data_dir = tmp_path / "data"
    with open_store(data_dir) as kb:
        report = Importer(kb, chunk_size=1200).run([str(project)])
        types = {Path(s.location).name: s.type for s in kb.sources()}
    assert not report.failed
    assert types == {"store.py": "code", "client.js": "code", "server.go": "code", "pyproject.toml": "config",
                     "compose.yaml": "config", "Makefile": "code", "Dockerfile": "code", "README.md": "markdown"}
    skipped = {Path(f.location).relative_to(project).as_posix(): f.reason for f in report.skipped}
    assert skipped[".git"] == "hidden folder"
    assert "node_modules" in skipped["node_modules"]
    assert "__pycache__" in skipped["harbour/__pycache__"]
    assert "virtual environment" in skipped["venv"]
    assert skipped["build"].startswith("a build folder (build, beside pyproject.toml)")
    assert skipped["dist"].startswith("a build folder (dist, beside pyproject.toml)")
    assert skipped["package-lock.json"].startswith("a lock file")
    assert skipped["web/vendor.min.js"].startswith("a minified file")
    assert skipped["web/bundle.js"].startswith("a generated or minified file")

    # an identifier is found by its words however it is written: snake_case, camelCase, PascalCase; small
    # definitions side by side share a passage, whose heading names them
    found = {(Path(h.location).name, h.heading) for h in search(data_dir, "parse config", 10)}
    assert {("store.py", "store.py > (its own), parse_config"),
            ("client.js", "client.js > (its own), parseConfig, Poller"),
            ("server.go", "server.go > (its own), ParseConfig, Server, Server.Serve")} <= found
    # a method says where it belongs, with the comment above it and its indentation kept
    load = search(data_dir, "damaged file kept aside", 1)[0]
    assert load.heading == "store.py > SettingsStore > load"
    assert load.text.startswith("    # Read once at start-up") and "\n        try:\n" in load.text
    serve = search(data_dir, "listener closes", 1)[0]
    assert serve.heading.endswith(", Server.Serve")
    assert "\n// Serve answers until the listener closes.\nfunc (s *Server) Serve() error {\n" in serve.text
    assert search(data_dir, "testpaths", 1)[0].heading == "pyproject.toml > project, tool.pytest.ini_options"
    assert search(data_dir, "harbour latest image", 1)[0].heading == "compose.yaml > services, volumes"
    assert search(data_dir, "ruff check", 1)[0].heading == "Makefile > (its own), test, lint"
    assert search(data_dir, "wheels", 1)[0].heading.startswith("Dockerfile > build")


def test_a_class_that_fits_one_passage_stays_whole_and_a_long_one_is_cut_at_its_methods() -> None:
    doc = read_bytes(CLIENT_JS.encode(), "code", "client.js")
    chunks = chunk_document(doc, 1200)
    poller = [c for c in chunks if "Poller" in c.heading]
    assert [c.heading for c in poller] == ["client.js > (its own), parseConfig, Poller"]  # small ones side by side
    assert "constructor(every)" in poller[0].text and "start()" in poller[0].text
    # in passages too small for two, each is alone, under its own name
    chunks = chunk_document(doc, 200)
    assert [c.heading for c in chunks if "Poller" in c.heading] == ["client.js > Poller"]
    sections = chunk_document(read_bytes(PYPROJECT.encode(), "config", "pyproject.toml"), 100)
    assert [c.heading for c in sections] == ["pyproject.toml > project", "pyproject.toml > tool.pytest.ini_options"]

    chunks = chunk_document(read_bytes(STORE_PY.encode(), "code", "store.py"), 600)
    headings = [c.heading for c in chunks]
    assert "store.py > SettingsStore > __init__" in headings and "store.py > SettingsStore > option_11" in headings
    assert headings[-1] == "store.py"  # the code after the class is the file's own again
    assert chunks[-1].text.startswith('if __name__ == "__main__":')
    assert all(len(c.text) <= 600 * 1.25 for c in chunks)


def test_file_type_takes_programs_and_configuration_files() -> None:
    for name, kind in (("main.py", "code"), ("lib.rs", "code"), ("app.tsx", "code"), ("install.sh", "code"),
                       ("Makefile", "code"), ("Dockerfile", "code"), ("Dockerfile.dev", "code"),
                       ("setup.cfg", "config"), ("docker-compose.yml", "config"), ("tox.ini", "config"),
                       ("Cargo.toml", "config"), ("main.py.gz", "code")):
        assert file_type(Path(name)) == kind, name


LANGUAGES = ("python", "c", "go", "rust", "js", "java", "sh", "ruby", "yaml", "ini", "make", "docker", "text")
# Text made of what code is made of, so that the guesses have brackets, keywords and indents to go wrong on.
_PIECES = st.sampled_from(["def f(x):", "class A:", "    def m(self):", "        return 1", "@dec", "# note",
                           "func (r *R) Go() {", "fn main() {", "impl A for B {", "}", "{", "(", ")", "[", "]",
                           "int", "static int f(void)", "/* c", "*/", "// x", "\"str {", "'a'", "`tpl {",
                           "end", "module M", "[section]", "key: value", "  child: 1", "- item", "target:",
                           "\tcmd", "FROM x AS y", "", "   ", "\t", "x = {", "};", "\\", "'''", '"""'])
_TEXT = st.one_of(st.lists(_PIECES, max_size=40).map("\n".join), st.text(max_size=300))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, language=st.sampled_from(LANGUAGES))
def test_the_splitter_never_loses_or_repeats_a_line(text: str, language: str) -> None:
    sections = split_code(text, language)
    assert "".join(s.text for s in sections) == text
    assert all(s.text for s in sections)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_splitter_takes_brackets_nested_deep_and_never_closed(language: str) -> None:
    text = "def f():\n" + "(" * 5000 + "\n" + "    x = 1\n" * 3
    assert "".join(s.text for s in split_code(text, language)) == text


UTIL_PY = '"""Small helpers."""\n\n' + "".join(f"def add_{n}(x):\n    return x + {n}\n\n\n" for n in range(20)) + (
    "def report(rows):\n    \"\"\"A long one: alone in its passage.\"\"\"\n"
    + "".join(f"    total_{n} = sum(row[{n}] for row in rows)\n" for n in range(12)) + "    return total_0\n")


def test_small_definitions_side_by_side_share_a_passage_and_a_large_one_stays_alone() -> None:
    chunks = chunk_document(read_bytes(UTIL_PY.encode(), "code", "util.py"), 1200)
    assert [c.heading for c in chunks] == ["util.py > (its own), add_0, add_1, add_2, add_3, add_4, add_5, add_6, …",
                                           "util.py > report"]
    assert chunks[0].text.startswith('"""Small helpers."""\n\ndef add_0(x):\n    return x + 0\n\n\ndef add_1(x):')
    assert all(f"def add_{n}(x):\n    return x + {n}" in chunks[0].text for n in range(20))
    assert chunks[1].text.startswith("def report(rows):") and len(chunks[1].text) > 1200 * 0.25
    # a passage holds no more than its size: twenty functions of ~40 characters in passages of 300
    small = chunk_document(read_bytes(UTIL_PY.encode(), "code", "util.py"), 300)
    assert len([c for c in small if "add_" in c.heading]) == 3
    assert all(len(c.text) <= 300 for c in small if "add_" in c.heading)


def _lines(text: str) -> list[str]:
    return sorted(line.rstrip() for line in text.split("\n") if line.strip())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(_PIECES, max_size=60).map("\n".join), language=st.sampled_from(LANGUAGES),
       size=st.sampled_from([100, 300, 1200]))
def test_passages_of_code_hold_each_line_of_the_file_once(text: str, language: str, size: int) -> None:
    from tinyrag_desktop.kb.code_files import read_code

    name = {"make": "Makefile", "docker": "Dockerfile", "text": "notes.txt"}.get(language) or {
        "python": "a.py", "c": "a.c", "go": "a.go", "rust": "a.rs", "js": "a.js", "java": "A.java", "sh": "a.sh",
        "ruby": "a.rb", "yaml": "a.yaml", "ini": "a.ini"}[language]
    doc = read_code(text.encode(), name)
    chunks = chunk_document(doc, size)
    assert _lines("\n".join(c.text for c in chunks)) == _lines(text)


@pytest.mark.parametrize("declaration, source, meant", [
    # Latin-9's ¤ byte is €: read as guessed (Windows-1252) it was ¤
    (b"# -*- coding: iso-8859-15 -*-\n", b"PRICE = '10 \xa4'  # caf\xe9 prices\n", "PRICE = '10 €'  # café prices"),
    # a few letters: "its encoding was guessed, read as Latin-1", of a file that says so
    (b"# -*- coding: latin-1 -*-\n", b"LETTERS = '\xe6\xf8\xe5'\n", "LETTERS = 'æøå'"),
])
def test_a_python_file_is_read_in_the_encoding_its_coding_comment_names(tmp_path, data_dir, declaration, source,
                                                                        meant):
    # PEP 263: not guessed, and no note "its encoding was guessed, read as Windows-1252" of a file that said it
    (tmp_path / "prices.py").write_bytes(declaration + b"\n" + source)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(tmp_path / "prices.py")])
    text = "\n".join(hit.text for hit in search(data_dir, "prices OR letters", 5))
    assert report.added and not report.notes, report.notes
    assert meant in text


def test_a_coding_comment_below_code_or_naming_no_encoding_is_not_taken():
    from tinyrag_desktop.kb.code_files import python_encoding

    assert python_encoding(b"import os\n# coding: latin-1\n") is None  # Python reads lines 1 and 2 only after #
    assert python_encoding(b"# coding: klingon\nx = 1\n") is None
    assert python_encoding(b"# coding: utf8\n") is None  # UTF-8: read as any file is
    assert python_encoding(b"\n# -*- coding: cp1251 -*-\n") == "cp1251"
    assert python_encoding(b"#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\n") == "iso8859-1"
