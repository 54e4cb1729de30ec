"""The chats search looks for each word at the start of a word, and lists the best matches first.

"topic C" found all 25 chats "question number N about topic X" ("c" inside "topic"), newest first, and the
chat titled "… about topic C" came near the bottom.
"""

from __future__ import annotations

import pytest

from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.search_text import find


@pytest.fixture
def store(tmp_path):
    s = ChatStore(tmp_path)
    yield s
    s.close()


def _chat(store: ChatStore, question: str, answer: str = "", title: str | None = None) -> str:
    chat = store.new_chat(title=title or question)
    store.add_user_message(chat.id, question)
    if answer:
        store.add_assistant_message(chat.id, answer)
    return chat.id


def _topics(store: ChatStore) -> dict[str, str]:
    ids = {}
    for n in range(25):
        question = f"question number {n} about topic {chr(65 + n % 26)}"
        ids[question] = _chat(store, question, f"You asked: {question}. Answer number {n} from llama3.2:latest.")
    return ids


def test_a_one_letter_word_is_not_found_inside_words(store):
    ids = _topics(store)
    assert [c.id for c in store.search("topic C")] == [ids["question number 2 about topic C"]]
    assert [c.id for c in store.search("C topic")] == [ids["question number 2 about topic C"]]
    assert [c.id for c in store.search("c")] == [ids["question number 2 about topic C"]]


@pytest.mark.parametrize("stored, typed", [
    ("C++ templates", "c"),
    ("the (C) language", "c"),
    ("x-ray results", "ray"),  # a hyphen starts a word
    ("snake_case names", "case"),  # and so does an underscore
    ("breadcrumbs", "bread"),  # the start of a word is enough
    ("Un café crème", "CREME"),  # accents and case aside, as ever
    ("東京タワーの高さ", "タワー"),  # no spaces between the words: found anywhere
    ("東京Tokyo", "tokyo"),
    ("see #tags", "tags"),
    ("file.py", ".py"),  # words that begin with a mark: found anywhere
    ("costs 100% more", "100%"),
])
def test_words_are_found_at_the_start_of_words(store, stored, typed):
    wanted = _chat(store, stored, title="Note")
    assert [c.id for c in store.search(typed)] == [wanted]


@pytest.mark.parametrize("stored, typed", [("topic", "c"), ("shortbread", "bread"), ("Straße", "asse"),
                                           ("a12", "2")])
def test_words_are_not_found_inside_words(store, stored, typed):
    _chat(store, stored, title="Note")
    assert store.search(typed) == []


def test_the_best_matches_come_first_and_the_newest_first_among_equals(store):
    spread = _chat(store, "Tell me about France", "Its capital is Paris.", title="Geography")
    phrase_in_message = _chat(store, "the capital France has, is it Paris?", title="Old question")
    each_in_title = _chat(store, "hello", title="France: its capital")
    phrase_in_title_start = _chat(store, "hello", title="The capital Franceville")
    phrase_in_title = _chat(store, "hello", title="The capital France")
    newer_spread = _chat(store, "France?", "The capital is Paris.", title="More geography")
    assert [c.id for c in store.search("capital France")] == [
        phrase_in_title, phrase_in_title_start, each_in_title, phrase_in_message, newer_spread, spread]


def test_a_title_holding_the_word_comes_before_newer_chats_whose_messages_hold_it(store):
    titled = _chat(store, "hello", title="Pumpkin soup")
    newer = [_chat(store, f"a pumpkin recipe {n}", title=f"Recipe {n}") for n in range(3)]
    assert [c.id for c in store.search("pumpkin")] == [titled, *reversed(newer)]


def test_number_2_puts_the_chat_numbered_2_before_those_numbered_20_to_24(store):
    ids = _topics(store)
    found = [c.id for c in store.search("number 2")]
    assert found[0] == ids["question number 2 about topic C"]
    assert found[1:6] == [ids[f"question number {n} about topic {chr(65 + n)}"] for n in (24, 23, 22, 21, 20)]


def test_the_snippet_shows_the_word_where_it_starts_one():
    # the first "c" at a word's start, not the one inside "topic"
    text = "topic one, then C itself"
    assert find(text, "c", word_start=True) == (text.index("C"), text.index("C") + 1)
    assert find(text, "c") == (text.index("c"), text.index("c") + 1)


def test_a_snippet_reads_a_table_and_a_code_block_as_the_answer_shows_them():
    # "…| A long code line: js const x =…": the bars of a table and the fence's language read as words
    from tinyrag_desktop.chat_find import _snippet

    answer = "Sizes:\n\n| Part | Size |\n|:---|---:|\n| wheel | 20 |\n\nA long code line:\n\n```js\nconst x = 1\n```\n"
    assert _snippet(answer, "wheel") == "Sizes: Part Size wheel 20 A long code line: const x = 1"
    assert _snippet("either a | b, as written", "either") == "either a | b, as written"  # no table: as written


def test_a_snippet_after_a_long_line_of_dashes_is_made_at_once():
    # The table rule's pattern split a run of dashes every way it could: 40 dashes and a letter took 0.2 s,
    # 60 would take minutes (run in a child process, so the old pattern fails by its timeout, not hang here)
    import subprocess
    import sys

    code = ("from tinyrag_desktop.chat_find import _snippet\n"
            "print(_snippet('| --- ' * 20 + 'y\\n' + '-' * 60 + 'x\\nmore', 'more'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    assert done.stdout.strip().endswith("more")
