"""The chats search sets letter case and accents aside beyond ASCII, as a person reads.

SQLite's LIKE folds ASCII letters only: "cafe" did not find "café", "ÉTÉ" did not find "été", "strasse" did not
find "Straße", and the snippet under a hit started at the wrong place or at the message's start.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.chat_find import ChatSearcher
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop import search_text
from tinyrag_desktop.search_text import find, fold


@pytest.fixture
def store(tmp_path):
    s = ChatStore(tmp_path)
    yield s
    s.close()


def _chat(store: ChatStore, text: str, title: str | None = None) -> str:
    chat = store.new_chat()
    store.add_user_message(chat.id, text)
    if title is not None:
        store.rename(chat.id, title)
    return chat.id


@pytest.mark.parametrize("stored, typed", [
    ("Un café crème, s'il vous plaît", "cafe"),
    ("Un cafe creme", "CAFÉ"),
    ("Un café", "CAFÉ"),
    ("Les vacances d'été à Nice", "ÉTÉ"),
    ("Les vacances d'ÉTÉ", "été"),
    ("Die Straße ist lang", "strasse"),
    ("Die STRASSE ist lang", "straße"),
    ("naïve coöperation", "naive cooperation"),
    ("Ångström", "angstrom"),
    ("ΣΟΦΙΑ", "σοφία"),  # Greek: case and the tonos
    ("Der Fluß", "FLUSS"),
    ("the ﬁrst ﬂoor", "first floor"),  # ligatures, as NFKD spells them
    ("cafe\u0301 (an accent written as its own mark)", "café"),
    ("İstanbul", "istanbul"),
    ("ПРИВЕТ мир", "привет"),
])
def test_a_message_is_found_whatever_its_case_and_accents(store, stored, typed):
    wanted = _chat(store, stored)
    _chat(store, "nothing of the kind")
    assert [c.id for c in store.search(typed)] == [wanted]


def test_a_title_is_found_so_too(store):
    wanted = _chat(store, "plans", title="Été à Montréal")
    _chat(store, "other")
    assert [c.id for c in store.search("ete a montreal")] == [wanted]


def test_different_letters_stay_different(store):
    _chat(store, "Un café")
    assert store.search("cafa") == [] and store.search("caff") == []
    assert store.search("100%") == [] and store.search("c_fe") == []  # still no wildcards


def test_the_search_in_the_worker_thread_folds_too(store):
    wanted = _chat(store, "Crème brûlée")
    searcher = ChatSearcher(store.path)
    try:
        assert [c.id for c in searcher.search("creme brulee")] == [wanted]
    finally:
        searcher.close()


def test_the_snippet_shows_the_words_found_with_their_accents(store):
    _chat(store, "Words words words words words words words before the Café de Flore and after it, words words")
    snippet = store.search("cafe de flore")[0].snippet
    assert snippet.startswith("…before the Café de Flore and after")


def test_the_snippet_starts_at_the_words_after_letters_that_fold_longer(store):
    # "ß" folds to two letters and "ﬁ" to two: places counted in the folded text fell short of the words
    _chat(store, "Straße " * 30 + "ﬁnd the needle here")
    snippet = store.search("NEEDLE")[0].snippet
    assert snippet.startswith("…the needle here") or snippet.startswith("…ﬁnd the needle here")


@pytest.mark.parametrize("text, typed, found", [
    ("Un café crème", "cafe", "café"),
    ("Un CAFÉ", "café", "CAFÉ"),
    ("Die Straße", "strasse", "Straße"),
    ("Die Straße", "ss", "ß"),
    ("cafe\u0301 noir", "cafe", "cafe\u0301"),  # the mark goes with its letter
    ("the ﬁrst", "first", "ﬁrst"),
    ("Ωmega 𝔄𝔅 é", "ab", "𝔄𝔅"),  # letters outside the BMP
    ("nothing", "zebra", None),
])
def test_find_gives_the_place_of_the_words_in_the_text_as_written(text, typed, found):
    span = find(text, typed)
    assert (text[span[0]:span[1]] if span else None) == found


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.text(max_size=40), st.text(max_size=12), st.text(max_size=40))
def test_any_words_are_searched_without_error_and_found_where_they_are(tmp_path_factory, before, needle, after):
    s = ChatStore(tmp_path_factory.mktemp("chats"))
    try:
        chat = s.new_chat()
        s.add_user_message(chat.id, f"{before} {needle}{after}")  # at a word's start, where words are looked for
        hits = s.search(needle)  # never raises, whatever the words
        if needle.strip():
            assert chat.id in [c.id for c in hits]
    finally:
        s.close()


@given(st.text(max_size=60), st.text(min_size=1, max_size=10))
def test_find_marks_a_part_of_the_text_that_folds_to_hold_the_words(text, needle):
    span = find(text, needle)
    if span is None:
        return
    start, end = span
    assert 0 <= start < end <= len(text)
    if fold(needle):
        assert fold(needle) in fold(text[start:end])
    else:
        assert text[start:end] == needle


@given(st.text(max_size=60))
def test_fold_is_the_same_a_character_at_a_time(text):
    assert fold(text) == "".join(fold(ch) for ch in text)


def test_folds_are_kept_for_the_next_search_up_to_a_bound(store, monkeypatch):
    folds = search_text._Folds(most=12)
    monkeypatch.setattr(search_text, "_folds", folds)
    wanted = _chat(store, "Crème")  # 5 characters folded: kept
    _chat(store, "Ça coûte très cher")  # 18: more than the bound, folded again each time
    for _ in range(2):  # the second search reads the kept fold
        assert [c.id for c in store.search("CREME")] == [wanted]
        assert [c.id for c in store.search("cout")] != []
    assert sorted(folds._kept.values()) == ["creme"]
