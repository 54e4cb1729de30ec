"""A chat's title from its first question: the question's words, without the Markdown that marks them up."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tinyrag_desktop.chats import ChatStore, title_from
from tinyrag_desktop.titles import plain_title

REVIEW = "Please review this function:\n\n```python\ndef f(x):\n    return x * 2\n```\n\nIs it right?"


@pytest.mark.parametrize(("question", "title"), [
    # The chat was called "Please review this function: ```python def f(x): return x *…" in the sidebar, the
    # header and the window's title.
    (REVIEW, "Please review this function: Is it right?"),
    ("Please review this function:\n```python\ndef f(x):\n    return x * 2\n```", "Please review this function"),
    ("Please review this function: ```python\ndef f(x):\n    return x * 2\n```", "Please review this function"),
    ("Fix this:\n\n```\nprint('never closed')", "Fix this"),
    ("What does `asyncio.gather` do with ``a ` b``?", "What does asyncio.gather do with a ` b?"),
    ("# How do I *really* use __slots__? #", "How do I really use __slots__?"),
    ("- first **bold** item\n- second _quiet_ item\n1. a numbered one\n- [ ] a task",
     "first bold item second quiet item a numbered one a task"),
    ("> Quoted: see [the guide](https://example.org/guide \"Guide\") and <https://example.org/x>",
     "Quoted: see the guide and https://example.org/x"),
    ("~~Old~~ new ***plan*** for 2 * 3 * 4 and snake_case_names", "Old new plan for 2 * 3 * 4 and snake_case_names"),
    ("\\*not emphasis\\* and C# or issue #42", "*not emphasis* and C# or issue #42"),
    ("| Name | Age |\n|---|---|\n| Ann | 31 |", "Name | Age Ann | 31"),
], ids=["fenced-then-prose", "fenced-last", "fence-after-words", "unclosed", "inline-code", "heading",
        "lists", "quote-and-links", "emphasis", "escapes", "table"])
def test_a_title_is_the_questions_prose_without_its_marks(question, title):
    assert title_from(question) == title


@pytest.mark.parametrize(("question", "title"), [
    ("```python\ndef f(x):\n    return x * 2\n```", "def f(x): return x * 2"),
    ("~~~\nSELECT name FROM users WHERE id = 1;\n~~~", "SELECT name FROM users WHERE id = 1;"),
    ("```sql SELECT 1```", "sql SELECT 1"),  # one line: inline code, as Markdown reads it
])
def test_a_question_that_is_only_code_is_named_by_the_codes_words(question, title):
    assert title_from(question) == title


def test_a_long_question_is_cut_at_a_word_and_plain_words_stay_as_typed():
    assert title_from("Tell me about\ntomatoes") == "Tell me about tomatoes"
    long = title_from("**Why** " + "word " * 40)
    assert long.startswith("Why word word") and long.endswith("word…") and len(long) <= 61
    assert title_from("") == title_from(" \n ") == "New chat"
    assert title_from("***") == "***"  # a rule, and nothing else: as typed, not "New chat"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)) | st.sampled_from(list("`~*_#>-|[]()!\\\n ")),
               max_size=300))
def test_any_question_gives_one_short_line(text):
    title = title_from(text)
    assert "\n" not in title and 0 < len(title) <= 61 and title == title.strip()


def test_a_stored_title_stays_as_it_was_named_and_an_edited_first_question_still_renames_it(tmp_path):
    store = ChatStore(tmp_path)
    try:
        chat = store.new_chat()
        store.add_user_message(chat.id, REVIEW)
        assert store.get_chat(chat.id).title == "Please review this function: Is it right?"
        # a chat an earlier version named keeps its name...
        old = store.new_chat()
        first = store.add_user_message(old.id, REVIEW)
        store.rename(old.id, plain_title(REVIEW))
        store.add_user_message(old.id, "And now?")
        assert store.get_chat(old.id).title.startswith("Please review this function: ```python def f(x)")
        # ...until its first question is edited: the new question names it, as before
        store.delete_from(old.id, first.id)
        store.add_user_message(old.id, "Is `f` pure?")
        assert store.get_chat(old.id).title == "Is f pure?"
    finally:
        store.close()
