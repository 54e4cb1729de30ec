"""A JavaScript app's empty page and a sign-in form are not imported as sources: by URL (``kb add``, the
panel) each fails, saying why and what to do; in a folder each is skipped with that reason. Real manual
pages with a <noscript> note, a search box or a sign-in link in their header still import.

Never the internet: every address is 127.0.0.1.
"""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.kb.test_panel import _import
from tests.loopback import serving
from tinyrag_desktop.cli import main
from tinyrag_desktop.kb import ImportItem, Importer, open_store, search
from tinyrag_desktop.kb.walls import SCRIPT_ONLY, SIGN_IN, wall

# What create-react-app builds: the whole page, before its script runs.
REACT_APP = b"""<!doctype html><html lang="en"><head><meta charset="utf-8"/><link rel="icon" href="/favicon.ico"/>
<meta name="viewport" content="width=device-width,initial-scale=1"/><meta name="theme-color" content="#000000"/>
<title>Fleet Dashboard</title><script defer="defer" src="/static/js/main.8b2c1a4e.js"></script>
<link href="/static/css/main.f855e6bc.css" rel="stylesheet"></head><body>
<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>"""
# Angular's: a custom element and a spinner's "Loading…", no <noscript>.
ANGULAR_APP = b"""<!DOCTYPE html><html><head><title>Tide tables</title><base href="/">
<link rel="stylesheet" href="styles.3ff695c00d717f2d.css"></head><body>
<app-root><div class="spinner">Loading\xe2\x80\xa6</div></app-root>
<script src="runtime.1b6c7b9e.js" type="module"></script><script src="main.5c2a.js" type="module"></script>
</body></html>"""
# Vue's, with its inline state and nothing else.
VUE_APP = b"""<!DOCTYPE html><html><head><title>Harbour</title></head><body><div id="app"></div>
<script>window.__INITIAL_STATE__={"user":null,"route":"/docs/moorings"}</script>
<script src="/js/app.3a1f.js"></script></body></html>"""
# A site's sign-in page, as GitHub's or a wiki's: header, a form, a line beside it, a footer of links.
SIGN_IN_PAGE = b"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign in \xc2\xb7 Acme Wiki</title>
<script src="/assets/app.js"></script></head><body><a href="#start" class="skip">Skip to content</a>
<header><a href="/"><img src="/logo.svg" alt="Acme"></a></header>
<main id="start"><div class="auth"><h1>Sign in to Acme Wiki</h1>
<form action="/session" method="post"><input type="hidden" name="token" value="a8f3e9">
<label for="login">Username or email address</label><input type="text" name="login" id="login" autocomplete="username">
<label for="password">Password</label><input type="password" name="password" id="password">
<a href="/password_reset">Forgot password?</a><input type="submit" name="commit" value="Sign in"></form>
<p>New to Acme Wiki? <a href="/signup">Create an account</a>.</p></div></main>
<footer><ul><li><a href="/terms">Terms</a></li><li><a href="/privacy">Privacy</a></li>
<li><a href="/security">Security</a></li><li><a href="/contact">Contact Acme</a></li></ul></footer></body></html>"""
# A first step that asks for the account's address only (the password comes on the next page).
EMAIL_STEP = b"""<html><head><title>Anmelden - Konto</title></head><body><div class="card"><h1>Anmelden</h1>
<p>Mit Ihrem Konto fortfahren</p><form method="post"><input type="email" name="identifier" autocomplete="username">
<button type="submit">Weiter</button></form><p><a href="/help">Hilfe</a></p></div></body></html>"""

_PARAGRAPH = ("The harbour master assigns each visiting boat a mooring by its length and draught. Boats over "
              "twelve metres moor at the outer pontoon, where the water stays deep at the lowest spring tides. ")
# An AsciiDoc page (git's manuals): a <noscript> note asking for JavaScript beside the table of contents.
ASCIIDOC_PAGE = f"""<!DOCTYPE html><html><head><title>Moorings</title>
<script type="text/javascript">var asciidoc = {{ toc: function (toclevels) {{ return 1; }} }};</script></head>
<body class="article" onload="asciidoc.toc(2);"><div id="header"><h1>Moorings</h1>
<div id="toc"><div id="toctitle">Table of Contents</div>
<noscript><p><b>JavaScript must be enabled in your browser to display the table of contents.</b></p></noscript>
</div></div><div id="content"><div class="sect1"><h2 id="_assigning">Assigning moorings</h2>
<div class="sectionbody"><div class="paragraph"><p>{_PARAGRAPH * 2}</p></div></div></div></div>
<div id="footer"><div id="footer-text">Last updated 2024-01-04</div></div></body></html>""".encode()
# A manual's page with a search box and a small sign-in form in its header (a forum's, a wiki's).
HEADER_FORM_PAGE = f"""<html><head><title>Mooring fees</title><script src="/site.js"></script></head><body>
<header><form action="/search"><input type="search" name="q" placeholder="Search the docs"></form>
<form action="/login" method="post"><input name="user"><input type="password" name="pass"><button>Log in</button>
</form></header><main><h1>Mooring fees</h1><p>{_PARAGRAPH}</p><p>{_PARAGRAPH}</p></main></body></html>""".encode()
# A short note with a visitor-counting script, and a page a browser shows fully without its scripts.
SHORT_NOTE = (b"<html><head><title>Gate code</title><script async src='https://stats.example/count.js'></script>"
              b"</head><body><p>The harbour gate code is 4172 until March.</p></body></html>")
SERVER_RENDERED = f"""<html><head><title>Tides</title><script src="/_next/static/chunks/main.js"></script></head>
<body><div id="__next"><h1>Tides</h1><p>{_PARAGRAPH}</p></div>
<script id="__NEXT_DATA__" type="application/json">{{"props":{{}}}}</script></body></html>""".encode()


@pytest.mark.parametrize("page", [REACT_APP, ANGULAR_APP, VUE_APP], ids=["react", "angular", "vue"])
def test_a_javascript_apps_empty_page_is_told(page):
    assert wall(page) == SCRIPT_ONLY


@pytest.mark.parametrize("page", [SIGN_IN_PAGE, EMAIL_STEP], ids=["password", "email-first"])
def test_a_sign_in_page_is_told(page):
    assert wall(page) == SIGN_IN


@pytest.mark.parametrize("page", [ASCIIDOC_PAGE, HEADER_FORM_PAGE, SHORT_NOTE, SERVER_RENDERED],
                         ids=["noscript-note", "header-forms", "short-note", "server-rendered"])
def test_pages_with_their_own_text_are_not_walls(page):
    assert wall(page) is None


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=400), st.binary(max_size=400)))
def test_any_text_or_bytes_is_judged_without_error(data):
    assert wall(data) in (None, SCRIPT_ONLY, SIGN_IN)


_TAGS = ["html", "head", "body", "script", "noscript", "div", "form", "input", "main", "header", "template",
         "svg", "p", "title", "h1", "button", "app-root"]
_ATTRS = ['', ' id="root"', ' type="password"', ' src="a.js"', ' hidden', ' type="application/json"',
          ' name="login"', ' value="Sign in"', ' id=app', ' type="email"']
_piece = st.one_of(
    st.builds(lambda tag, attr: f"<{tag}{attr}>", st.sampled_from(_TAGS), st.sampled_from(_ATTRS)),
    st.builds(lambda tag: f"</{tag}>", st.sampled_from(_TAGS)),
    st.sampled_from(["You need to enable JavaScript", "Sign in", "Password", "<!--", "-->", "&amp;", "&#0;",
                     "\x00", "<![CDATA[", "<?xml version='1.0' encoding='utf-16'?>", '<meta charset="koi8-r">']),
    st.text(max_size=20))


@settings(max_examples=300, deadline=None)
@given(st.lists(_piece, max_size=40).map("".join))
def test_any_tag_soup_is_judged_without_error(html):
    assert wall(html) in (None, SCRIPT_ONLY, SIGN_IN)
    assert wall(html.encode("utf-8", "surrogatepass")) in (None, SCRIPT_ONLY, SIGN_IN)


class _Site(BaseHTTPRequestHandler):
    pages = {"/dashboard": REACT_APP, "/login": SIGN_IN_PAGE, "/moorings": ASCIIDOC_PAGE}

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = self.pages.get(self.path, b"<h1>Not found</h1>")
        self.send_response(200 if self.path in self.pages else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def site():
    with serving(_Site) as url:
        yield url


def test_kb_add_refuses_an_app_page_and_a_sign_in_page_by_url(site, tmp_path, capsys):
    data = tmp_path / "data"
    code = main(["kb", "add", f"{site}/dashboard", f"{site}/login", "--data-dir", str(data)])
    out, err = capsys.readouterr()
    assert code == 1 and out.startswith("0 added"), (out, err)
    failed = [line for line in err.splitlines() if line.startswith("failed: ")]
    assert failed == [
        f"failed: {site}/dashboard: {SCRIPT_ONLY}; open it in your browser, save it there as a complete web page "
        "(Save Page As) and import the saved file",
        f"failed: {site}/login: {SIGN_IN}; open it in your browser, sign in, save the page there as a complete "
        "web page (Save Page As) and import the saved file"]
    with open_store(data) as kb:
        assert kb.sources() == []
    assert search(data, "enable JavaScript run this app", 5) == []


def test_a_manual_page_with_a_noscript_note_imports_by_url(site, tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["kb", "add", f"{site}/moorings", "--data-dir", str(data)]) == 0
    assert capsys.readouterr().out.startswith("1 added")
    assert search(data, "outer pontoon draught", 5)[0].location == f"{site}/moorings"


def test_in_a_folder_such_pages_are_skipped_with_the_reason(tmp_path):
    folder = tmp_path / "saved"
    folder.mkdir()
    for name, page in [("dashboard.html", REACT_APP), ("login.html", SIGN_IN_PAGE), ("moorings.html", ASCIIDOC_PAGE),
                       ("fees.html", HEADER_FORM_PAGE), ("gate.html", SHORT_NOTE)]:
        (folder / name).write_bytes(page)
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb).run([str(folder)])
        stored = sorted(Path(s.location).name for s in kb.sources())
    assert stored == ["fees.html", "gate.html", "moorings.html"]
    assert not report.failed
    reasons = {Path(f.location).name: f.reason for f in report.skipped}
    assert reasons == {"dashboard.html": f"{SCRIPT_ONLY}; it was saved before its text was shown: open its address "
                                         "in your browser and save it again as a complete web page",
                       "login.html": f"{SIGN_IN}; it was saved before signing in: sign in in your browser and "
                                     "save the page again"}


def test_a_saved_app_page_named_by_itself_fails(tmp_path):
    page = tmp_path / "dashboard.html"
    page.write_bytes(REACT_APP)
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb).run([str(page)])
    assert [(f.location, f.reason.split(";")[0]) for f in report.failed] == [(str(page), SCRIPT_ONLY)]


def test_the_panel_says_why_a_sign_in_page_was_not_imported(qtbot, panel, site):
    report = _import(qtbot, panel, [ImportItem("url", f"{site}/login"), ImportItem("url", f"{site}/moorings")])
    assert len(report.added) == 1 and len(report.failed) == 1
    host = site.removeprefix("http://")
    lines = panel.status_label.text().split("\n")
    assert any(line.startswith(f"✗ {host}/login: this page asks you to sign in first") for line in lines), lines
    assert panel.source_count() == 1
