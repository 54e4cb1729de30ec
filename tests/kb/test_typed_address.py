"""A web address typed without its scheme, as the Knowledge panel's URL box and ``kb add`` take it."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tinyrag_desktop.kb.web import normalize_url, typed_address


@pytest.mark.parametrize("typed, meant", [
    ("example.org/guide.html", "https://example.org/guide.html"),
    ("www.example.org", "https://www.example.org"),
    ("8.8.8.8/x", "https://8.8.8.8/x"),
    ("docs.example.org:8443/a?b=1", "https://docs.example.org:8443/a?b=1"),
    # servers of this machine or its network speak plain http
    ("localhost", "http://localhost"),
    ("localhost:8000/notes.html", "http://localhost:8000/notes.html"),
    ("127.0.0.1:18501/index.html", "http://127.0.0.1:18501/index.html"),
    ("192.168.1.5/wiki", "http://192.168.1.5/wiki"),
    ("10.0.0.1", "http://10.0.0.1"),
    ("[::1]:8000/a", "http://[::1]:8000/a"),
    ("nas:8080/x", "http://nas:8080/x"),
    ("printer.local/", "http://printer.local/"),
    ("wiki.home.arpa/start", "http://wiki.home.arpa/start"),
    # an address with its scheme is as typed
    ("https://x.org", "https://x.org"),
    ("http://example.org", "http://example.org"),
    # no server named
    ("guide", None),
    ("a b.org", None),
    ("", None),
    ("/home/me/notes", None),
    (":8000", None),
])
def test_what_a_typed_address_means(typed, meant):
    assert typed_address(typed) == meant


@given(st.text(max_size=60))
def test_any_text_is_an_address_with_a_scheme_or_none(text):
    meant = typed_address(text)
    assert meant is None or "://" in meant
    if meant is not None and "://" not in text:
        assert meant.split("://", 1)[0] in ("http", "https") and meant.endswith(text.strip())
        try:
            normalize_url(meant)
        except Exception as exc:  # only the words it says of a bad address, never a crash
            assert type(exc).__name__ == "FetchError"
