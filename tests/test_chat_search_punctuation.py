"""The chats search reads typed words as a person does: punctuation around a word is not part of it.

"tax:", "(tax)", "Paris?", "tax-return" and "-budget" found nothing ("No chats match.") where "tax" found
40 chats; and a short message found was shown cut at its start ("…4 about café menu").
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.chat_find import search_words
from tinyrag_desktop.chats import ChatStore


@pytest.fixture
def store(tmp_path):
    s = ChatStore(tmp_path)
    yield s
    s.close()


def _chat(store: ChatStore, question: str, title: str = "Note") -> str:
    chat = store.new_chat(title=title)
    store.add_user_message(chat.id, question)
    return chat.id


@pytest.mark.parametrize("typed", ["tax:", "tax,", "(tax)", '"tax"', "“tax”", "'tax'", "tax.", "tax!", "[tax]",
                                   "tax-return", "return—tax", "tax/return", "Paris?", "residents?", "-budget",
                                   "¿Paris?", "«Paris»", "`budget`", "*tax*", "tax -", "( tax )"])
def test_punctuation_typed_around_or_inside_words_finds_the_words(store, typed):
    wanted = _chat(store, "When is the tax return due, for Paris residents? And the budget.")
    _chat(store, "Something else entirely")
    assert [c.id for c in store.search(typed)] == [wanted]


def test_a_hyphened_word_finds_it_written_either_way_and_the_words_as_typed_rank_first(store):
    spaced = _chat(store, "hello", title="Tax return 2025")
    hyphened = _chat(store, "my tax-return is late")
    apart = _chat(store, "a return of the tax")
    _chat(store, "nothing about either")
    found = [c.id for c in store.search("tax-return")]
    assert found == [spaced, hyphened, apart]
    assert store.search("tax-return")[1].snippet == "my tax-return is late"


@pytest.mark.parametrize("stored, typed", [
    ("東京、大阪の天気", "「大阪」"),  # brackets and commas of Chinese and Japanese part words too
    ("東京、大阪の天気", "東京、大阪"),
    ("Un café crème", "«CRÈME»"),  # accents and case aside, as ever
    ("Été à Montréal", "montreal?"),
    ("learn C++ now", "C++"),  # marks that belong to a word stay in it
    ("C# and F#", "C#,"),
    ("costs 100% more", "(100%)"),
    ("don't panic", "don't"),
    ("snake_case names", "snake_case."),
    ("a*b as written", "a*b"),
])
def test_words_keep_their_own_marks_in_any_script(store, stored, typed):
    wanted = _chat(store, stored)
    _chat(store, "Something else entirely")
    assert [c.id for c in store.search(typed)] == [wanted]


@pytest.mark.parametrize("typed, stored", [(".py", "rename setup.py first"), ("*.py", "rename setup.py first"),
                                           (".NET", "a .NET question"), ("(.NET)", "a .NET question"),
                                           ("'.env'", "copy .env over"), ("<b>", "make <b> bold"),
                                           ("<b>,", "make <b> bold")])
def test_a_dot_that_starts_a_name_and_marks_around_a_tag_are_the_words(store, typed, stored):
    # ".py" looked for "py" and found "I learned Python today" first; ".NET" found "our home network"; "<b>"
    # found any word starting with b. A dash before a word is still punctuation ("-budget" finds "budget").
    wanted = _chat(store, stored)
    for other in ("I learned Python today", "our home network is slow", "b is a letter", "the env is set"):
        _chat(store, other)
    assert [c.id for c in store.search(typed)] == [wanted]


def test_an_ellipsis_before_a_word_is_punctuation(store):
    wanted = _chat(store, "and the budget")
    _chat(store, "Something else entirely")
    assert [c.id for c in store.search("...budget")] == [wanted]
    assert [c.id for c in store.search("…budget")] == [wanted]


def test_words_of_punctuation_alone_are_looked_for_as_typed(store):
    asked = _chat(store, "Is it done? Yes -> next")
    plain = _chat(store, "A plain note")
    assert [c.id for c in store.search("?")] == [asked]
    assert [c.id for c in store.search("->")] == [asked]
    assert store.search("!!") == []
    assert {c.id for c in store.search(" ")} == {asked, plain}  # spaces only: every chat, as before


def test_search_words_are_the_words_a_person_reads():
    assert search_words('"tax" (return), Paris?') == ["tax", "return", "Paris"]
    assert search_words("tax-return TAX") == ["tax", "return"]
    assert search_words("C++ C# 100% don't U.S.") == ["C++", "C#", "100%", "don't", "U.S"]
    assert search_words("?!") == ["?!"]
    assert search_words("'.env' *.py ...so -> <b>") == [".env", ".py", "so", "<b>"]


def test_a_short_message_found_is_shown_whole(store):
    _chat(store, "Question 4 about café menu")
    assert store.search("menu")[0].snippet == "Question 4 about café menu"
    assert store.search("cafe menu")[0].snippet == "Question 4 about café menu"
    long = "A long question that goes on for a while before it says menu, and then some more words after"
    _chat(store, long)
    assert store.search("says menu")[0].snippet.startswith("…before it says menu")  # cut: the words stay in sight


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.text(max_size=30),
       st.text(alphabet=st.characters(categories=("P", "Zs"), exclude_characters="_%#@"), max_size=4))
def test_any_typed_words_search_without_error_and_punctuation_around_them_is_no_matter(tmp_path_factory, typed,
                                                                                       marks):
    # (marks but those that belong to a word: "_init", "C#", "100%", "@name", and a dot just before it: ".NET")
    s = ChatStore(tmp_path_factory.mktemp("chats"))
    try:
        chat = s.new_chat()
        s.add_user_message(chat.id, f"before {typed} after")
        s.search(typed + marks)  # never raises, whatever was typed
        s.search(marks + typed)
        if any(ch.isalnum() for ch in typed) and typed.strip() == typed:
            assert chat.id in [c.id for c in s.search(f"{marks.rstrip('.')}{typed}{marks}")]
    finally:
        s.close()
