"""Pages that stand in front of their text: a JavaScript app's empty shell, a sign-in form.

Imported by URL, a web app's page (React's "You need to enable JavaScript to run this app." above an
empty ``<div id="root">``) or a page behind a sign-in (a password field and "Sign in") was stored as a
source of that one sentence, with no word said, and found by every question about JavaScript or
passwords. Such a page is refused with :class:`~.errors.BlockedPage`, saying what to do instead; in a
folder, skipped with the same reason.

Only a page whose own text, what a browser shows before any script runs, is a few sentences at most is
looked at (a manual's page that says "JavaScript must be enabled to display the table of contents" in a
``<noscript>``, or has a search box or a small sign-in form in its header, holds much more), and the
signs must be plain: scripts and an empty mount point or a note asking for JavaScript; a password field
(or an address field under a "Sign in" heading) with next to nothing beside the form.
"""

from __future__ import annotations

import logging
import re
from typing import Callable

import lxml.etree

from .errors import BlockedPage, NoText, ReadError
from .models import Document

log = logging.getLogger(__name__)

# Why a page is refused (what wall() tells), and what to do instead: for a web page, and for a saved file.
SCRIPT_ONLY = "this page shows its text only with JavaScript, which tinyRAG does not run"
SIGN_IN = "this page asks you to sign in first: it holds a sign-in form, not the text you want"
_WEB_ADVICE = {SCRIPT_ONLY: "open it in your browser, save it there as a complete web page (Save Page As) and "
                            "import the saved file",
               SIGN_IN: "open it in your browser, sign in, save the page there as a complete web page (Save "
                        "Page As) and import the saved file"}
_FILE_ADVICE = {SCRIPT_ONLY: "it was saved before its text was shown: open its address in your browser and save "
                             "it again as a complete web page",
                SIGN_IN: "it was saved before signing in: sign in in your browser and save the page again"}

# A page whose read text is this long is not looked at (its text is its own); a wall's is a line or two.
CHECKED_CHARS = 2_000
# The most text (letters and digits, no spaces) a JavaScript app's page shows before its scripts run, and
# a sign-in page beside its form (outside its header, menus and footer): "Welcome back. New here? Create an
# account." A manual's shortest page has more.
SCRIPT_PAGE_CHARS = 200
SIGN_IN_PAGE_CHARS = 400
# A <noscript> holding more than this is the page's text for browsers without scripts, not a note.
_NOTE_CHARS = 500

# Elements whose text a browser does not show, or shows around a page's content, not as it.
_UNSHOWN = frozenset({"script", "style", "noscript", "template", "svg", "head", "title", "iframe", "object"})
_AROUND = frozenset({"header", "nav", "footer", "aside", "form", "button", "select", "label", "dialog"})
_FRAME = frozenset({"header", "nav", "footer", "aside", "dialog"})
# Where web app frameworks mount the page their scripts build: React, Vue, Next.js, Nuxt, Gatsby, Svelte …
_MOUNT_IDS = frozenset({"root", "app", "__next", "__nuxt", "___gatsby", "svelte", "main", "application",
                        "app-root", "react-root", "mount", "q-app", "ember-application"})
# Scripts that are data, not code: a page's structured data, a template.
_DATA_TYPES = re.compile(r"json|template|html|x-tmpl|text/plain", re.I)
_SIGN_IN_WORDS = re.compile(r"\b(?:sign(?:ing)?[\s-]?in|log(?:ging)?[\s-]?in|login|log on|anmelden|connexion|"
                            r"se connecter|iniciar sesi[oó]n|accedi|entrar|inloggen|войти|вход)\b|"
                            r"登录|登入|ログイン|サインイン|로그인", re.I)
_ACCOUNT_FIELD = re.compile(r"user|login|e-?mail|account|identifier", re.I)
# Cheap signs in a page's bytes, looked for before it is parsed: a wall has one of them.
_SIGNS = re.compile(rb"<script|type\s*=\s*[\"']?password|sign|log[\s-]?in|anmeld|connex|sesi", re.I)
_SPACE = re.compile(r"\s+")


def reason(kind: str, web: bool) -> str:
    """What an import says of a page refused as ``kind`` (SCRIPT_ONLY or SIGN_IN), and what to do: for a
    web page (``web``), how to save it from the browser; for a file, that it was saved too early."""
    return f"{kind}; {_WEB_ADVICE[kind] if web else _FILE_ADVICE[kind]}"


def refuse_walls(data: bytes | str, read: Callable[[], Document], web: bool) -> Document:
    """``read()``'s document of the HTML page ``data``; BlockedPage, saying why, when the page is a wall
    (see wall): checked only when its text is short, or when it held none at all (NoText)."""
    try:
        doc = read()
    except NoText:
        kind = wall(data)
        if kind:
            raise BlockedPage(reason(kind, web)) from None
        raise
    if sum(len(block.text) for block in doc.blocks) < CHECKED_CHARS:
        kind = wall(data)
        if kind:
            raise BlockedPage(reason(kind, web))
    return doc


def wall(data: bytes | str) -> str | None:
    """SIGN_IN when the HTML page ``data`` is a sign-in form and little else, SCRIPT_ONLY when it shows
    next to nothing until its scripts run, None for any other page (and for what is not HTML). Never
    raises: ``data`` is anyone's page."""
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    if not _SIGNS.search(raw, 0, 4_000_000):
        return None
    try:
        root = _tree(data)
        if root is None:
            return None
        body = next(root.iter("body"), None)
        body = root if body is None else body
        if _is_sign_in(root, body):
            return SIGN_IN
        if _is_script_shell(root, body):
            return SCRIPT_ONLY
    except ReadError:  # no document to lxml (only comments): no wall either
        return None
    except Exception as exc:  # noqa: BLE001 - a page that cannot be judged is read as it reads, not refused
        log.debug("a page could not be judged for a JavaScript or sign-in wall: %r", exc)
    return None


def _tree(data: bytes | str):  # -> lxml element or None
    from .html_encoding import page_encoding
    from .html_parsing import parse_within_limits

    page, encoding = page_encoding(data)
    return parse_within_limits(page, encoding, parser=lxml.etree.HTMLParser)


def _tag(el) -> str:  # noqa: ANN001 (an lxml element)
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _shown_chars(el, leave_out: frozenset[str]) -> int:  # noqa: ANN001
    """The letters, digits and signs (no spaces) a browser shows of ``el``, less what the elements in
    ``leave_out``, comments and hidden elements hold."""
    count = 0
    stack = [el]
    while stack:
        node = stack.pop()
        count += len(_SPACE.sub("", node.text or ""))
        for child in node:
            count += len(_SPACE.sub("", child.tail or ""))
            tag = _tag(child)
            if tag and tag not in leave_out and child.get("hidden") is None:
                stack.append(child)
    return count


def _text(el) -> str:  # noqa: ANN001
    return " ".join("".join(el.itertext()).split())


def _is_script_shell(root, body) -> bool:  # noqa: ANN001
    """Scripts, and next to nothing shown without them: an empty mount point, a note asking for
    JavaScript, or nothing at all."""
    scripts = [s for s in root.iter("script") if s.get("src") or (s.text or "").strip()]
    if not any(not _DATA_TYPES.search(s.get("type") or "") for s in scripts):
        return False
    if _shown_chars(body, _UNSHOWN) >= SCRIPT_PAGE_CHARS:
        return False
    notes = " ".join(_text(n) for n in root.iter("noscript"))
    if len(notes) > _NOTE_CHARS:  # the page's text, given to browsers without scripts
        return False
    if "javascript" in notes.lower() or "javascript" in _text(body).lower():
        return True
    if _shown_chars(body, _UNSHOWN) == 0:
        return True
    return any(_is_mount(el) for el in body.iter() if isinstance(el.tag, str))


def _is_mount(el) -> bool:  # noqa: ANN001
    """An element a framework fills: ``<div id="root">``, ``<app-root>``, nearly empty."""
    tag = _tag(el)
    named = (el.get("id") or "").lower() in _MOUNT_IDS or "-" in tag and tag not in ("font-face",)
    return named and _shown_chars(el, _UNSHOWN) < 40


def _is_sign_in(root, body) -> bool:  # noqa: ANN001
    """A form asking for a password (or for an account's address under a "Sign in" heading or button)
    with next to nothing beside it: the page's text outside forms, menus, header and footer is short."""
    # the page's own fields: a sign-in form in its header or menu is the site's, beside the page's text
    inputs = [i for i in body.iter("input") if not any(_tag(up) in _FRAME for up in i.iterancestors())]
    password = any((i.get("type") or "").lower() == "password" for i in inputs)
    if not password:
        account = any((i.get("type") or "").lower() in ("email", "text", "") and _ACCOUNT_FIELD.search(
            f"{i.get('name') or ''} {i.get('id') or ''} {i.get('autocomplete') or ''}") for i in inputs)
        if not account or not _says_sign_in(root, body):
            return False
    return _shown_chars(body, _UNSHOWN | _AROUND) < SIGN_IN_PAGE_CHARS


def _says_sign_in(root, body) -> bool:  # noqa: ANN001
    """Whether the page's title, a heading or a button says "Sign in" (or "Log in", "Anmelden" …)."""
    for el in root.iter("title", "h1", "h2", "button", "legend", "input"):
        words = (el.get("value") or "") if _tag(el) == "input" else _text(el)
        if _SIGN_IN_WORDS.search(words[:200]):
            return True
    return False
