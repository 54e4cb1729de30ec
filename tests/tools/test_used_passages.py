"""Which of the passages offered to the model an answer drew on: the cited ones, else those it repeats."""

from __future__ import annotations

from hypothesis import given, strategies as st

from tinyrag_desktop.kb import Hit
from tinyrag_desktop.tools.rag import used_passages


def _hit(n: int, text: str, heading: str = "") -> Hit:
    return Hit(n, n, f"Note {n}", f"/notes/{n}.md", heading or f"Note {n}", text, 1.0)


PASSAGES = [
    _hit(1, "Backups run every night at two and are kept for thirty days on the NAS."),
    _hit(2, "The printer on the second floor needs a badge; toner is in the supply room."),
    _hit(3, "Restoring a backup: open the console, pick the snapshot, press Restore."),
    _hit(4, "Lunch is served from noon in the canteen."),
]


def _numbers(hits: list[Hit]) -> list[int]:
    return [h.chunk_id for h in hits]


def test_cited_passages_are_the_ones_used_in_any_citation_form():
    question = "How do backups work?"
    assert _numbers(used_passages(question, "They run nightly [1].", PASSAGES)) == [1]
    assert _numbers(used_passages(question, "Nightly [1, 3]; see also [4].", PASSAGES)) == [1, 3, 4]
    assert _numbers(used_passages(question, "Nightly [1][3].", PASSAGES)) == [1, 3]
    assert _numbers(used_passages(question, "See [2-4].", PASSAGES)) == [2, 3, 4]
    assert _numbers(used_passages(question, "See [2–3].", PASSAGES)) == [2, 3]  # an en dash, as models write


def test_numbers_that_name_no_passage_are_no_citation():
    question = "How do backups work?"
    # [7] is past the passages, [2024] a year, [1-99] no range of these: nothing cited, so the words decide
    answer = "Since [2024] backups are kept thirty days on the NAS [7] [1-99]."
    assert _numbers(used_passages(question, answer, PASSAGES)) == [1]


def test_uncited_passages_count_by_the_words_the_answer_repeats_beyond_the_question():
    question = "How do I restore a backup?"
    answer = "Open the console, choose the snapshot and press Restore."
    assert _numbers(used_passages(question, answer, PASSAGES)) == [3]
    # the question's own words are in every offered passage: repeating them proves nothing
    assert used_passages(question, "To restore a backup, restore the backup.", PASSAGES) == []
    assert used_passages("Where is lunch?", "I don't know where lunch is.", PASSAGES) == []


def test_tags_in_the_answer_are_not_its_words():
    # a block the engine did not run (an unknown tool) is shown as written; its markup says nothing
    passages = [_hit(1, "Each tool has a name; the console lists them.")]
    assert used_passages("Cat names?", '<tool name="rats_fun">Rats</tool>', passages) == []
    assert _numbers(used_passages("Cat names?", "<b>The console</b> lists them.", passages)) == [1]


def test_forms_of_a_word_count_as_the_word():
    answer = "Snapshots are restored from the consoles."
    assert _numbers(used_passages("How?", answer, PASSAGES)) == [3]


def test_a_long_answer_needs_three_shared_words_from_a_passage():
    question = "Tell me about the office."
    long_answer = ("The office has a canteen, meeting rooms, a quiet area, a gym, showers, a bike shed, lockers, "
                   "plants, coffee machines and a terrace with a view over the river and the old harbour.")
    assert _numbers(used_passages(question, long_answer, PASSAGES)) == []  # only "canteen" from [4]
    richer = long_answer + " Lunch is served in the canteen from noon."
    assert _numbers(used_passages(question, richer, PASSAGES)) == [4]


def test_chinese_answers_are_compared_by_character_pairs():
    passages = [_hit(1, "数据库每天晚上自动备份，保留三十天。"), _hit(2, "打印机在二楼。")]
    assert _numbers(used_passages("备份怎么做？", "每天晚上自动备份。", passages)) == [1]


@given(st.text(max_size=300), st.text(max_size=300), st.lists(st.text(max_size=200), max_size=6))
def test_any_text_gives_a_subset_of_the_passages_in_order(question, answer, texts):
    hits = [_hit(n, text) for n, text in enumerate(texts, start=1)]
    used = used_passages(question, answer, hits)
    assert _numbers(used) == sorted(_numbers(used))
    assert set(_numbers(used)) <= set(_numbers(hits))


def test_an_index_in_code_is_no_citation():
    # "sys.argv[1]" in code is Python, not passage [1]: taken for a citation it listed the wrong passage and
    # hid the one the answer drew on
    passages = [_hit(1, "Deploys run from the release branch; tag the commit first."),
                _hit(2, "The script reads its target host from the second command-line argument, then "
                        "connects over SSH.")]
    question = "How does the deploy script pick the host?"
    for answer in ("It reads `sys.argv[1]`, the second command-line argument, and connects over SSH.",
                   "```python\nhost = sys.argv[1]\n```\nIt reads the command-line argument and connects over SSH."):
        assert _numbers(used_passages(question, answer, passages)) == [2], answer
    assert _numbers(used_passages(question, "Over SSH [2]; the code says `argv[1]`.", passages)) == [2]


def test_a_number_the_answer_repeats_is_a_word_it_took():
    # the figure is what a short answer takes from a passage: "27 days" drew on the note that says 27
    passages = [_hit(1, "Every employee gets 27 vacation days per year."), _hit(2, "Parking is in garage B.")]
    question = "How many vacation days do employees get per year?"
    assert _numbers(used_passages(question, "You get 27 days.", passages)) == [1]
    assert _numbers(used_passages(question, "27.", passages)) == [1]
    assert used_passages("How many days is 2 weeks?", "14 days.", passages) == []


def test_japanese_endings_shared_by_every_passage_do_not_make_them_used():
    # "…てください" is in nearly every Japanese instruction: its pairs ("くだ", "ださ", "さい") made every
    # offered passage look used, as they made every passage match before the search left them out
    passages = [_hit(1, "フォントは、fonts-noto-cjk を入れると画面の表示が整います。"),
                _hit(2, "ネットワークが切れたら、ルーターを再起動してください。"),
                _hit(3, "バックアップは毎晩とります。必要なときは管理者に連絡してください。")]
    answer = "fonts-noto-cjk を入れてください。画面の表示が整います。"
    assert _numbers(used_passages("日本語のフォントをきれいに表示したい", answer, passages)) == [1]


def test_one_everyday_word_shared_is_no_sign_of_a_passage():
    # "The result is 33." after a calculation listed the user guide's tools page (it says "result").
    guide = [_hit(1, "Each tool's result appears in its card, and the model reads the result."),
             _hit(2, "Backups are kept 30 days; the final copy is written at midnight.")]
    question = "Use a tool to compute (17 + 5) * 3 / 2\n(17 + 5) * 3 / 2 = 33"  # and what the tool said
    assert used_passages(question, "The result is 33.", guide) == []
    assert used_passages("What is 2 + 3?", "The final answer is 5.", guide) == []
    # a figure or a word of the passage's own is a sign, even alone, as are two everyday words
    assert _numbers(used_passages("How long are backups kept?", "For 30 days.", guide)) == [2]
    assert _numbers(used_passages("Who looks at it?", "The model reads it.", guide)) == [1]  # "reads"
    assert _numbers(used_passages("When is it done?", "The final copy is written then.", guide)) == [2]
