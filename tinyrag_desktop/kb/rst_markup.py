"""reStructuredText's markup as Sphinx shows it: inline marks, links and roles, substitutions, and directives."""

from __future__ import annotations

import re
from typing import Iterator

from .inline import STAR_EMPHASIS, Found, emphasis_off, outside, spliced

# `text <href>`_ (or __), `name`_ (a named target), :role:`text <target>` and :role:`target`.
_RST_LINK = re.compile(
    r"(?::(?P<role>[\w.+-]+(?::[\w.+-]+)?):)?`(?P<text>[^`<]*?)\s*(?:<(?P<target>[^<>`]+)>)?`(?P<under>__?)?(?!\w)"
)


# What reStructuredText shows as written: a literal (``x``, shown as `x`), interpreted text and roles
# (read by _unlink_roles), an address.
_RST_VERBATIM = re.compile(r"``.+?``(?!`)|(?::[\w.+-]+(?::[\w.+-]+)?:)?`[^`]+`(?:__?)?|"
                           r"\b[A-Za-z][\w+.-]*://[^\s<>`*]+", re.S)
_RST_EMPHASIS = re.compile(STAR_EMPHASIS, re.S)
# A backslash escape of a mark ("\\*"), or an escaped space, which joins markup to a word ("*x*\\ s").
_RST_ESCAPE = re.compile(r"\\([^\w\s])|\\ ")
# A substitution, "|name|" (with ".. |name| replace:: text"), and its definition.
_RST_SUBSTITUTION = re.compile(r"\|([^|\s](?:[^|]*[^|\s])?)\|(?:__?)?")
_RST_SUBSTITUTION_DEF = re.compile(r"^\.\.\s+\|([^|]+)\|\s+([\w-]+)::\s*(.*?)\s*$")
# A footnote's or a citation's reference, "[1]_", "[#note]_", "[CIT2002]_", shown as "[1]", "[note]".
_RST_NOTE_REF = re.compile(r"\[#?([\w.-]*|\*)\]_")


def shown_rst(text: str, substitutions: dict[str, str]) -> str:
    """reStructuredText's inline markup as the rendered page shows it, links and roles aside (see
    unlink_rst): substitutions replaced, footnote references, emphasis and escapes without their marks;
    literals and roles as written."""
    if "*" in text or "\\" in text or "]_" in text or (substitutions and "|" in text):
        text = outside(_RST_VERBATIM, text, lambda plain: _rst_marks_off(plain, substitutions))
    return text


def _rst_marks_off(text: str, substitutions: dict[str, str]) -> str:
    if substitutions and "|" in text:
        text = _RST_SUBSTITUTION.sub(lambda m: substitutions.get(m.group(1).casefold(), m.group(0)), text)
    if "]_" in text:
        text = _RST_NOTE_REF.sub(lambda m: f"[{m.group(1) or '#'}]", text)
    if "*" in text:
        text = emphasis_off(_RST_EMPHASIS, text)
    return _RST_ESCAPE.sub(lambda m: m.group(1) or "", text) if "\\" in text else text


def rst_substitutions(lines: list[str]) -> dict[str, str]:
    """What each "|name|" of a document stands for: a replacement text, or a character by its code; a
    picture (".. |logo| image:: logo.png") shows no words."""
    found = {}
    for line in lines:
        if line.startswith("..") and (m := _RST_SUBSTITUTION_DEF.match(line)) is not None:
            kind, value = m.group(2).lower(), m.group(3)
            if kind == "unicode":
                value = "".join(_code_char(code) for code in value.split())
            found[" ".join(m.group(1).split()).casefold()] = value if kind in ("replace", "unicode") else ""
    return found


def _code_char(code: str) -> str:
    """A character by its code as reStructuredText's "unicode" writes it: "U+2122", "0x2122", "x2122",
    "&#x2122;" (hexadecimal) or "8482" (decimal); anything else is text."""
    digits = re.fullmatch(r"(?:0x|x|\\x|U\+|u|\\u|&#x)([0-9A-Fa-f]{1,6});?|([0-9]{1,7})", code, re.I)
    value = -1 if digits is None else int(digits.group(1), 16) if digits.group(1) else int(digits.group(2))
    return chr(value) if 0 <= value < 0x110000 and not 0xD800 <= value < 0xE000 else code


# A reference by a single word to a named target: "Jansson_ is a C library" (with ".. _Jansson: url").
_RST_WORD_LINK = re.compile(r"(?<![\w`])([A-Za-z0-9][\w.+-]*?)__?(?![\w`])")


def unlink_rst(text: str, targets: dict[str, str]) -> tuple[str, list[Found]]:
    """``text`` with its references by a single word ("Jansson_") read as the word, then as _unlink_roles."""
    if "_" in text and targets:
        text = _RST_WORD_LINK.sub(
            lambda m: m.group(1) if m.group(1).casefold() in targets else m.group(0), text)
    return _unlink_roles(text, targets)


def _unlink_roles(text: str, targets: dict[str, str]) -> tuple[str, list[Found]]:
    """``text`` with its hyperlinks and roles replaced by their text, and each link's (position in the new
    text, anchor text, href). A Sphinx ``:doc:`` names a document without its extension: ``.rst``."""
    return spliced(text, _rst_links(text, targets))


def _rst_links(text: str, targets: dict[str, str]) -> Iterator[tuple[re.Match[str], str, str]]:
    for match in _RST_LINK.finditer(text):
        role, anchor, target, under = match.group("role", "text", "target", "under")
        if (role is None and under is None) or not (anchor or target):
            continue  # `interpreted text` without a role or link, or the "``" of a ``literal``: as written
        anchor = anchor or (target or "")
        name = (role or "").rpartition(":")[2]
        if name in ("pep", "rfc") and target is None:
            anchor = f"{name.upper()} {anchor}"  # :pep:`8` shows "PEP 8"
        elif role is not None and anchor[:1] in ("!", "~") and name not in _RST_LITERAL_ROLES:
            # Sphinx: "!name" is not linked, "~mod.Class.method" shows its last part, "method"
            anchor = anchor[1:] if anchor[0] == "!" else anchor[1:].rpartition(".")[2]
        href = ""
        if role is None:
            href = target or targets.get(" ".join(anchor.split()).casefold(), "")
        elif name == "doc" and not (target or anchor).startswith("/"):
            href = (target or anchor).strip()
            href += "" if "." in href.rsplit("/", 1)[-1] else ".rst"
        yield match, anchor, href


# Roles whose text is shown as written, a leading "~" or "!" included (:file:`~/.bashrc`).
_RST_LITERAL_ROLES = frozenset({"file", "samp", "kbd", "command", "program", "code", "literal", "math", "regexp",
                                "mimetype", "makevar", "guilabel", "menuselection", "dfn", "abbr", "manpage"})


# An explicit markup line: ".. name:: arguments" (a directive), ".. [1] text" (a footnote), or anything
# else after ".." (a comment, a hyperlink target, a substitution), which is not shown.
RST_EXPLICIT = re.compile(r"^\s*\.\.(?:\s|$)")
RST_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:[\w-]+:)?([\w-]+)::(?:\s+(.*?))?\s*$")
RST_FOOTNOTE = re.compile(r"^\s*\.\.\s+(\[[^\]\s]+\])\s+(.*)$")
# Directives that show nothing of their own, with the lines indented beneath them: tables of contents,
# index entries, page metadata, pictures, text included from elsewhere.
RST_HIDDEN = frozenset({"toctree", "index", "meta", "raw", "contents", "image", "include", "literalinclude",
                         "highlight", "highlightlang", "tabularcolumns", "sectionauthor", "moduleauthor",
                         "codeauthor", "currentmodule", "program", "sectnum", "default-role", "role",
                         "autosummary", "kernel-doc", "kernel-abi", "kernel-feat", "kernel-include"})
# Directives whose indented lines are code.
RST_CODE = frozenset({"code", "code-block", "sourcecode", "doctest", "testcode", "testoutput", "parsed-literal"})
# What a directive shows before its content, as Sphinx renders it.
_RST_SHOWN = {"versionadded": "New in version {}.", "versionchanged": "Changed in version {}:",
              "deprecated": "Deprecated since version {}:", "seealso": "See also: {}"}
# Directives that show their arguments as a term or a title (".. function:: open(file)" shows
# "open(file)", ".. tab:: Windows" shows "Windows"); any other's arguments are for the program that
# builds the page (a module's name, a picture's file, an extension's parameters), not for the reader.
RST_SHOWS_ARGUMENTS = frozenset({
    "function", "method", "class", "attribute", "data", "exception", "option", "cmdoption", "envvar",
    "describe", "object", "decorator", "decoratormethod", "classmethod", "staticmethod", "property",
    "abstractmethod", "coroutinefunction", "coroutinemethod", "opcode", "pdbcommand", "confval", "macro",
    "member", "type", "var", "enum", "enumerator", "struct", "union", "tab", "tab-item", "rubric", "topic",
    "sidebar", "admonition", "glossary", "table", "csv-table", "list-table", "figure", "math",
})
# Fields of a whole document (":orphan:", ":tocdepth: 2"), not shown.
RST_DOC_FIELD = re.compile(r"^:(orphan|nocomments|nosearch|tocdepth|og:[\w:-]+)(:.*)?$")


def rst_shown(para: list[str]) -> list[str]:
    """The lines of a paragraph as a reader of the rendered page sees them: a directive line as what it
    shows, a footnote without its "..", the options beneath a directive left out, and a paragraph's
    "::" (which announces a code block) as Sphinx shows it: "Example::" is "Example:"."""
    out: list[str] = []
    below = None  # the indent of the directive above: the lines beneath it are its options, then its content
    hidden = False  # whether those lines are for the program that builds the page (a picture's file name)
    option = None  # the indent of the option above, whose value may run on over the lines beneath it
    joins = False  # whether the next line of content completes the directive's line ("Note:", "Note: text")
    for line in para:
        indent = len(line) - len(line.lstrip())
        if below is not None and indent > below:
            if option is not None and indent > option:
                continue
            option = indent if _RST_OPTION.match(line) else None
            if option is None and not hidden:  # a note's text, a function's second signature
                if joins:
                    out[-1] += " " + line.strip()
                else:
                    out.append(line.strip())
                joins = False
            continue
        below = option = None
        if (directive := RST_DIRECTIVE.match(line)) is not None:
            below = indent
            name, args = directive.group(1).lower(), directive.group(2) or ""
            hidden = not (name in _ADMONITIONS_RST or name in _RST_SHOWN or name in RST_SHOWS_ARGUMENTS) or \
                name in ("figure", "math")
            if name in _ADMONITIONS_RST:
                shown = f"{name.capitalize()}: {args}".rstrip()
            elif name in _RST_SHOWN:
                shown = _RST_SHOWN[name].format(args) if args else ""
            else:
                shown = args if name in RST_SHOWS_ARGUMENTS and name not in ("figure", "math") else ""
            if shown:
                out.append(shown)
            joins = shown.endswith(":")
        elif (footnote := RST_FOOTNOTE.match(line)) is not None:
            out.append(f"{footnote.group(1).replace('[#', '[')} {footnote.group(2)}")  # "[#note]" shows "[note]"
        else:
            out.append(line)
    if out and out[-1].rstrip().endswith("::"):
        last = out[-1].rstrip()[:-2]
        out[-1] = last.rstrip() if not last.strip() or last[-1:].isspace() else last + ":"
    return out


# A directive's option beneath it: ":maxdepth: 2", ":noindex:".
_RST_OPTION = re.compile(r"^\s*:[\w-]+:(?:\s|$)")



_ADMONITIONS_RST = frozenset({"note", "tip", "warning", "caution", "important", "hint", "danger", "attention",
                              "error", "admonition", "todo"})
