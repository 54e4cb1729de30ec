"""Programs and configuration files as sources: which names they have, how they read, and their identifiers
as words.

A code file becomes a document whose headings are its definitions (``Parser`` at level 1, its method
``feed`` at level 2), each followed by its lines as written (code_split.py), so that a passage says where it
belongs: "parser.py > Parser > feed". :func:`code_blocks` keeps a class whole when it fits one passage.
Identifiers are searchable by their words: ``parse_config`` is "parse" and "config" to the index already
(it splits words at "_"); ``parseConfig`` and ``ParseConfig`` are given those words too (textform.index_form).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from .code_split import split_code
from .decoding import decode_text
from .models import Block, Document

# Extension → language (a key of code_split's finders). A program's source is type "code", a
# configuration file's "config".
CODE_LANGUAGES = {
    ".py": "python", ".pyw": "python", ".pyi": "python",
    ".c": "c", ".h": "c", ".cpp": "c", ".cc": "c", ".cxx": "c", ".hpp": "c", ".hh": "c",
    ".go": "go", ".rs": "rust", ".java": "java",
    ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "js", ".ts": "js", ".tsx": "js", ".mts": "js",
    ".sh": "sh", ".bash": "sh", ".rb": "ruby",
}
CONFIG_LANGUAGES = {".toml": "ini", ".ini": "ini", ".cfg": "ini", ".yaml": "yaml", ".yml": "yaml", ".env": "ini"}
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
    if language is None:
        return None
    return "config" if language in ("ini", "yaml") else "code"


def code_language(name: str) -> str | None:
    """The language (a key of code_split's finders) of the program or configuration file ``name``, or None."""
    suffix = Path(name).suffix.lower()
    if name.lower() == ".env" or name.lower().startswith(".env."):  # the variables (and keys) a program is given
        return "ini"
    base = name.lower().split(".")[0]
    if base in _NAMED_FILES and (not suffix or suffix not in CODE_LANGUAGES):
        return _NAMED_FILES[base]
    return CODE_LANGUAGES.get(suffix) or CONFIG_LANGUAGES.get(suffix)


def read_code(data: bytes, name: str) -> Document:
    """A program or configuration file as headings (its definitions, or sections) and code blocks."""
    text = decode_text(data).replace("\r\n", "\n").replace("\r", "\n")
    language = code_language(name) or "text"
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
    return Document(name, "config" if language in ("ini", "yaml") else "code", tuple(blocks))


def code_blocks(blocks: Iterable[Block], size: int) -> list[Block]:
    """``blocks`` of a code document with each top-level definition that fits in ``size`` characters as
    one block under its own heading: a small class is one passage, not one per method."""
    out: list[Block] = []
    group: list[Block] = []

    def close() -> None:
        text = "".join(b.text for b in group if b.kind == "code")
        if group and len(text) <= size and any(b.kind == "heading" and b.level > 1 for b in group):
            out.append(group[0])
            out.append(Block("code", text))
        else:
            out.extend(group)
        group.clear()

    for block in blocks:
        if block.kind == "heading" and block.level == 1:
            close()
        group.append(block)
    close()
    return out
