"""Programs and configuration files as sources: which names they have, how they read, and their identifiers
as words.

A code file becomes a document whose headings are its definitions (``Parser`` at level 1, its method
``feed`` at level 2), each followed by its lines as written (code_split.py), so that a passage says where it
belongs: "parser.py > Parser > feed". :func:`code_blocks` keeps a class whole when it fits one passage.
Identifiers are searchable by their words: ``parse_config`` is "parse" and "config" to the index already
(it splits words at "_"); ``parseConfig`` and ``ParseConfig`` are given those words too (textform.index_form).
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import Iterable, Iterator

from .code_split import split_code
from .decoding import decode_text, without_nul
from .models import Block, Document

# Extension → language (a key of code_split's finders). A program's source is type "code", a
# configuration file's "config".
CODE_LANGUAGES = {
    ".py": "python", ".pyw": "python", ".pyi": "python",
    ".c": "c", ".h": "c", ".cpp": "c", ".cc": "c", ".cxx": "c", ".hpp": "c", ".hh": "c",
    ".go": "go", ".rs": "rust", ".java": "java",
    ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "js", ".ts": "js", ".tsx": "js", ".mts": "js",
    ".sh": "sh", ".bash": "sh", ".rb": "ruby",
    ".cs": "cs", ".kt": "kotlin", ".kts": "kotlin", ".swift": "swift", ".scala": "scala",
    ".dart": "dart", ".groovy": "groovy", ".gradle": "groovy", ".zig": "zig", ".php": "php", ".mm": "objc",
    ".pl": "perl", ".pm": "perl", ".r": "r", ".ps1": "ps", ".psm1": "ps", ".bat": "batch", ".cmd": "batch",
    ".lua": "lua", ".jl": "julia", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hrl": "erlang",
    ".nim": "nim", ".hs": "haskell", ".ml": "ml", ".mli": "ml", ".fs": "ml", ".fsi": "ml", ".fsx": "ml",
    ".clj": "clojure", ".cljs": "clojure", ".cljc": "clojure", ".vb": "vb", ".sql": "sql",
    ".m": "matlab",  # or Objective-C: see source_language
}
CONFIG_LANGUAGES = {".toml": "ini", ".ini": "ini", ".cfg": "ini", ".yaml": "yaml", ".yml": "yaml", ".env": "ini",
                    ".properties": "properties", ".conf": "conf",
                    # .NET's web.config, App.config: XML whose settings are attributes, which the XML reader
                    # (data_formats) does not read, so read as written
                    ".config": "xml"}
CODE_TYPES = ("code", "config")
# Files named for what they are, without an extension (also "Dockerfile.dev", "Makefile.am").
_NAMED_FILES = {"makefile": "make", "gnumakefile": "make", "dockerfile": "docker", "containerfile": "docker"}

# Files a package manager writes, pinning versions: thousands of lines of hashes nobody reads.
LOCK_FILES = frozenset({"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "cargo.lock",
                        "poetry.lock", "pipfile.lock", "composer.lock", "gemfile.lock", "go.sum", "uv.lock",
                        "pdm.lock", "bun.lock", "flake.lock", "packages.lock.json"})


def code_kind(name: str) -> str | None:
    """"code" or "config" for a file named ``name`` that is one, else None."""
    language = code_language(name)
    return None if language is None else _kind(language)


def _kind(language: str) -> str:
    return "config" if language in CONFIG_LANGUAGES.values() else "code"


def code_language(name: str) -> str | None:
    """The language (a key of code_split's finders) of the program or configuration file ``name``, or None."""
    suffix = Path(name).suffix.lower()
    if name.lower() == ".env" or name.lower().startswith(".env."):  # the variables (and keys) a program is given
        return "ini"
    base = name.lower().split(".")[0]
    if base in _NAMED_FILES and (not suffix or suffix not in CODE_LANGUAGES):
        return _NAMED_FILES[base]
    return CODE_LANGUAGES.get(suffix) or CONFIG_LANGUAGES.get(suffix)


# A script's first line naming its interpreter: "#!/bin/sh", "#!/usr/bin/env -S python3 -u".
_SHEBANG = re.compile(rb"#![ \t]*(?:/\S*/)?(?:env[ \t]+(?:-\S+[ \t]+)*)?([A-Za-z]+)")
# How much of a ".m" file is looked at for Objective-C's words (its imports are at the top).
_OBJECTIVE_C_SAMPLE = 8192
_INTERPRETERS = {"sh": "sh", "bash": "sh", "dash": "sh", "ksh": "sh", "zsh": "sh", "ash": "sh",
                 "python": "python", "pypy": "python", "ruby": "ruby", "node": "js", "deno": "js", "bun": "js"}


def script_language(data: bytes) -> str | None:
    """The language of a script named without an extension (bin/deploy) by its first line, "#!/bin/bash" or
    "#!/usr/bin/env python3"; None when it has no such line or names an interpreter of no language here."""
    found = _SHEBANG.match(data[:200].lstrip(b"\xef\xbb\xbf"))
    return _INTERPRETERS.get(found.group(1).decode().lower()) if found else None


# Objective-C's own words, which MATLAB has none of: both name their files ".m".
_OBJECTIVE_C = re.compile(rb"^[ \t]*(?:#import\b|#include\b|@(?:interface|implementation|protocol)\b)", re.M)


def source_language(data: bytes, name: str) -> str | None:
    """The language of a program or configuration file, by its name or else its first line (script_language);
    a ".m" file is Objective-C when it imports or declares as Objective-C does, else MATLAB."""
    language = code_language(name) or script_language(data)
    if language == "matlab" and _OBJECTIVE_C.search(data[:_OBJECTIVE_C_SAMPLE]):
        return "objc"
    return language


# PEP 263: a Python file names an encoding other than UTF-8 in a comment on its first or second line,
# "# -*- coding: latin-1 -*-" (the second only below a comment or a blank line, as Python reads it).
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def python_encoding(data: bytes) -> str | None:
    """The encoding a Python file's PEP 263 comment names ("iso8859-15"), when it names one Python knows and it
    has no byte order mark; else None (UTF-8, or a guess: see decoding.decode_text)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return None
    for line in data.split(b"\n", 2)[:2]:
        if found := _CODING.match(line):
            try:
                codec = codecs.lookup(found.group(1).decode("ascii")).name
            except LookupError:
                return None
            return None if codec.startswith(("utf-8", "utf-16", "utf-32")) else codec  # UTF-16: no "#" as such
        if line.strip() and not line.lstrip().startswith(b"#"):
            return None
    return None


def read_code(data: bytes, name: str) -> Document:
    """A program, a script or a configuration file as headings (its definitions, or sections) and code blocks."""
    language = source_language(data, name) or "text"
    declared = python_encoding(data) if language == "python" else None
    # as declared, not guessed: "its encoding was guessed, read as Windows-1252" of a file that said latin-1
    text = without_nul(data.decode(declared, errors="replace")) if declared else decode_text(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[Block] = []
    shown: tuple[str, ...] = ()
    for section in split_code(text, language):
        path = section.path
        if path != shown:
            common = 0
            while common < min(len(path), len(shown)) and path[common] == shown[common]:
                common += 1
            if not path:
                blocks.append(Block("heading", "", 1))  # back to the file's own level: see chunking
            else:
                blocks.extend(Block("heading", path[level], level + 1)
                              for level in range(min(common, len(path) - 1), len(path)))
            shown = path
        if section.text.strip():
            blocks.append(Block("code", section.text))
    return Document(name, _kind(language), tuple(blocks))


# A definition (or the file's own code between two) smaller than this share of a passage shares one with the
# small ones beside it: a file of twenty one-line functions made twenty passages of a line, a class of twenty
# getters twenty passages.
_SMALL_SHARE = 0.25
# Small pieces under this share that no other small one is beside (a constant, a one-line function between
# two large definitions) are the first lines of the definition after them: alone, a passage of a line
# outranked the definition a question was about ("shared memory" found `_encoding = "utf8"`).
_LONE_SHARE = 0.125
# The names of the definitions sharing a passage make its heading ("util.py > clamp, lerp") up to this long.
_NAMES_SAID = 60
# How the file's own code (imports, constants, a TOML file's keys before its first [section]) is named in the
# heading of a passage it shares with definitions: "settings.toml > (its own), overrides". Stop words only
# (query_words.STOP_WORDS), which no question is searched by: "(top level)" made every such passage an
# answer to "log level".
TOP_LEVEL = "(its own)"


def code_blocks(blocks: Iterable[Block], size: int) -> list[Block]:
    """``blocks`` of a code document with each definition that fits in ``size`` characters as one block under
    its own heading (a small class is one passage, not one per method), and small definitions side by side
    as one block, under a heading that names them (see _SMALL_SHARE), at each level: the small methods of a
    large class share passages too. A small piece alone before a large one goes with it (see _LONE_SHARE)."""
    return _arranged(list(blocks), size, 1)


def _arranged(blocks: list[Block], size: int, level: int) -> list[Block]:
    """code_blocks for the definitions at ``level`` in ``blocks`` (and the code before the first of them)."""
    out: list[Block] = []
    small: list[tuple[str, str]] = []  # (name, text) of the small definitions waiting to share a passage
    large = ""  # the name of the large definition just put in ``out``, if it is the last

    def put_small() -> None:
        if small:
            out.append(Block("heading", _names([name for name, _ in small], level), level))
            out.append(Block("code", "".join(text for _, text in small)))
            small.clear()

    for group in _definitions(blocks, level):
        text = "".join(b.text for b in group if b.kind == "code")
        name = group[0].text if group[0].kind == "heading" else ""
        if name and name == large and len(text) < size * _LONE_SHARE:  # a large class's closing lines
            at = max(n for n, b in enumerate(out) if b.kind == "code")
            out[at] = Block("code", out[at].text + text)
            continue
        large = ""
        if len(text) < size * _SMALL_SHARE:
            if sum(len(t) for _, t in small) + len(text) > size:
                put_small()
            small.append((name, text))
            continue
        waiting = "".join(text for _, text in small)
        if small and len(waiting) < size * _LONE_SHARE:  # alone before a large one: its first lines
            group = _with_first(group, waiting)
            text = waiting + text
            small.clear()
        put_small()
        inner = [b for b in group[1:] if b.kind == "heading" and b.level > level]
        if len(text) <= size and inner:
            out += [group[0], Block("code", text)]
        elif inner and group[0].kind == "heading":
            out += [group[0], *_arranged(group[1:], size, level + 1)]
        else:
            out += group
        large = name
    put_small()
    return out


def _definitions(blocks: Iterable[Block], level: int) -> Iterator[list[Block]]:
    """``blocks`` in groups, each a definition's at ``level`` (its heading first) or the code between two."""
    group: list[Block] = []
    for block in blocks:
        if block.kind == "heading" and block.level == level and group:
            yield group
            group = []
        group.append(block)
    if group:
        yield group


def _with_first(group: list[Block], text: str) -> list[Block]:
    """``group`` with ``text`` before its first code."""
    at = next((n for n, b in enumerate(group) if b.kind == "code"), len(group))
    first = group[at].text if at < len(group) else ""
    return [*group[:at], Block("code", text + first), *group[at + 1:]]


def _names(names: list[str], level: int) -> str:
    """The heading of definitions sharing a passage at ``level``: their names, as many as _NAMES_SAID leaves
    room for ("clamp, lerp, …"), the file's own code among them as TOP_LEVEL; "" (the level above's own code)
    for that code alone."""
    if not any(names):
        return ""
    names = list(dict.fromkeys(name or (TOP_LEVEL if level == 1 else "") for name in names))  # a class's
    names = [name for name in names if name]  # closing lines name it again; a class's own lines go unnamed
    said = ""
    for n, name in enumerate(names):
        joined = f"{said}, {name}" if said else name
        if n and len(joined) > _NAMES_SAID:
            return f"{said}, …"
        said = joined
    return said
