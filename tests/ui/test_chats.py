"""ChatStore: persistence, ordering, rename, delete with undo, search, personas, export (no Qt)."""

from __future__ import annotations

import html
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tinyrag_desktop.chat_export import answer_markdown, export_html
from tinyrag_desktop.chats import LOCK_WAIT, ChatInfo, ChatStore, ChatStoreError, StoredMessage, StoredTool, title_from


@pytest.fixture
def store(tmp_path):
    s = ChatStore(tmp_path)
    yield s
    s.close()


def _answer(store, chat_id, text="The answer is 42.", **kw):
    tools = [StoredTool("t1", "calculate", "6 * 7", "done", source="calculator", result="42", position=0)]
    return store.add_assistant_message(chat_id, text, transcript="<tool>…</tool>" + text, tools=tools, **kw)


def test_database_is_in_wal_mode(store):
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_messages_and_tool_calls_survive_reopening(tmp_path):
    s = ChatStore(tmp_path)
    chat = s.new_chat(persona="Teacher")
    s.add_user_message(chat.id, "What is 6 * 7?")
    _answer(s, chat.id, route={"mode": "tools", "reason": "math", "hints": ["calculate"]},
            stats={"rounds": 2, "tools_run": 1, "elapsed_ms": 900})
    s.close()
    again = ChatStore(tmp_path)
    [user, answer] = again.messages(chat.id)
    assert (user.role, user.content) == ("user", "What is 6 * 7?")
    assert answer.tools[0].tool == "calculate" and answer.tools[0].result == "42"
    assert answer.route["hints"] == ["calculate"] and answer.stats["rounds"] == 2
    assert again.get_chat(chat.id).persona == "Teacher"
    assert again.history(chat.id) == [{"role": "user", "content": "What is 6 * 7?"},
                                      {"role": "assistant", "content": "<tool>…</tool>The answer is 42."}]
    again.close()


def test_first_question_names_the_chat_and_chats_are_newest_first(store):
    a = store.new_chat()
    b = store.new_chat()
    store.add_user_message(a.id, "First   question\nwith two lines")
    assert [c.id for c in store.list_chats()] == [a.id, b.id]
    assert store.get_chat(a.id).title == "First question with two lines"
    store.add_user_message(b.id, "Later")
    assert [c.id for c in store.list_chats()] == [b.id, a.id]


def test_rename_refuses_empty_titles(store):
    chat = store.new_chat()
    store.rename(chat.id, "  My   chat ")
    assert store.get_chat(chat.id).title == "My chat"
    with pytest.raises(ChatStoreError, match="title"):
        store.rename(chat.id, "   ")


def test_delete_can_be_undone_until_purged(store):
    chat = store.new_chat()
    store.add_user_message(chat.id, "keep me")
    store.delete(chat.id)
    assert store.list_chats() == [] and store.get_chat(chat.id) is None
    store.undelete(chat.id)
    assert [c.id for c in store.list_chats()] == [chat.id]
    store.delete(chat.id)
    assert store.purge_deleted() == 1
    store.undelete(chat.id)
    assert store.list_chats() == [] and store.messages(chat.id) == []


def test_purging_under_another_programs_lock_waits_only_as_long_as_asked(store, tmp_path):
    # Closing the window with the history locked elsewhere waited SQLite's usual 5 s for the purge
    import sqlite3

    chat = store.new_chat()
    store.delete(chat.id)
    other = sqlite3.connect(tmp_path / "chats.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    said: list[str] = []
    store._db.set_trace_callback(said.append)
    try:
        with pytest.raises(ChatStoreError):
            store.purge_deleted(wait=0.2)
    finally:
        store._db.set_trace_callback(None)
        other.rollback()
        other.close()
    assert said[0] == "PRAGMA busy_timeout = 200" and said[-1] == f"PRAGMA busy_timeout = {int(LOCK_WAIT * 1000)}"
    assert store.purge_deleted() == 1  # the next time, with the lock gone


def test_search_matches_titles_and_messages_literally(store):
    a = store.new_chat()
    store.add_user_message(a.id, "How do I bake bread?")
    _answer(store, a.id, "Use 100% flour and water.")
    b = store.new_chat()
    store.add_user_message(b.id, "Go generics")
    assert [c.id for c in store.search("BREAD")] == [a.id]
    assert [c.id for c in store.search("100%")] == [a.id]
    assert store.search("1_0") == []  # _ and % are literal, not wildcards
    assert "100% flour" in store.search("100%")[0].snippet
    assert {c.id for c in store.search("")} == {a.id, b.id}


def test_an_answer_is_stored_whole_or_not_at_all(store):
    chat = store.new_chat()
    bad = StoredTool("t1", None, "q", "done")  # type: ignore[arg-type]  # NOT NULL violation on the tool row
    with pytest.raises(ChatStoreError):
        store.add_assistant_message(chat.id, "partial", tools=[bad])
    assert store.messages(chat.id) == []


def test_segments_put_cards_where_they_streamed():
    tools = (StoredTool("a", "calculate", "1+1", "done", position=6),
             StoredTool("b", "websearch", "x", "error", error="offline", position=12))
    m = StoredMessage(1, "assistant", "Hello world, bye", tools=tools)
    assert m.segments() == ["Hello ", tools[0], "world,", tools[1], " bye"]
    md = answer_markdown(m)
    assert "✓ **Calculator** `1+1` (done)" in md and "✗ **Web search** `x` (failed)" in md and "> Offline" in md


@pytest.mark.parametrize(("content", "expected"), [
    ("For the exact value, see. Then multiply, which gives 84.",
     ["For the exact value, see.", "Then multiply,", "which gives 84."]),
    ("Result:. Next", ["Result:", "Next"]),  # a colon already ends it: the stray mark goes
])
def test_marks_after_a_call_end_the_text_before_it_in_copies_and_exports(content, expected):
    # as the window shows them: "see <tool …>…</tool>. Then" reads "see." ⟨card⟩ "Then"
    cut = content.index(". Then") if ". Then" in content else content.index(". Next")
    second = content.index(", which") if ", which" in content else None
    tools = [StoredTool("a", "calculate", "1+1", "done", position=cut)]
    if second is not None:
        tools.append(StoredTool("b", "calculate", "2*2", "done", position=second))
    message = StoredMessage(1, "assistant", content, tools=tuple(tools))
    texts = [p for p in answer_markdown(message).split("\n\n") if p.strip() and not p.startswith(">")]
    assert [t.strip() for t in texts] == expected


def test_export_markdown_and_standalone_html(store):
    chat = store.new_chat(persona="Concise")
    store.add_user_message(chat.id, "Show <b>code</b>")
    _answer(store, chat.id, "```python\nprint('hi')\n```\n", error=None)
    md = store.to_markdown(chat.id)
    assert md.startswith("# Show <b>code</b>") and "## You" in md and "```python" in md
    assert "*Persona: Concise*" in md
    page = store.to_html(chat.id)
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert "&lt;b&gt;code&lt;/b&gt;" in page  # the question is text, not markup
    assert "<script" not in page and "http" not in page.split("<body>")[1].split("calculator")[0]
    with pytest.raises(ChatStoreError):
        store.to_html("missing")


def test_each_exported_message_is_converted_on_its_own_though_one_converter_serves_them_all(store):
    # one Markdown converter for the whole export (a new one per message cost 1.2 ms each): nothing of one
    # message may carry into the next, as a link reference defined in the first
    chat = store.new_chat()
    store.add_user_message(chat.id, "Where is the guide?")
    _answer(store, chat.id, "See [the guide][g].\n\n[g]: https://example.org/guide", error=None)
    store.add_user_message(chat.id, "Where again?")
    _answer(store, chat.id, "And [the guide][g] again?", error=None)
    page = store.to_html(chat.id)
    assert page.count('href="https://example.org/guide"') == 1 and "[the guide][g] again?" in page


def test_exported_html_shows_task_lists_with_their_boxes_as_the_window_does(store):
    chat = store.new_chat()
    store.add_user_message(chat.id, "A plan?")
    _answer(store, chat.id, "Plan:\n\n- [ ] pack\n- [x] book the train\n\n`- [ ] as code`", error=None)
    page = store.to_html(chat.id)
    assert "☐ pack" in page and "☑ book the train" in page and "- [ ] as code" in page
    assert "- [ ] pack" in store.to_markdown(chat.id)  # Markdown keeps what was written


@pytest.mark.parametrize("question", [
    "   leading spaces and\nmultiple\nlines in question",
    "# not a heading\n- nor a list\n1. nor this\n\n\n2*3*4 = 24, <b>as typed</b> &amp; [a](b) `x`\n    indented\t",
    "\n\nends in a backslash \\\nthen <script>alert(1)</script>\r\nand > that\n---\n\n",
])
def test_an_exported_question_keeps_its_lines_and_shows_as_typed(store, question):
    # "leading spaces and\nmultiple\nlines" was exported as one paragraph, its lines run together, in both
    # formats. A question is plain text in the window (not Markdown), and so in the exports.
    import markdown

    chat = store.new_chat()
    store.add_user_message(chat.id, question)
    typed = question.replace("\r\n", "\n").strip("\n").rstrip()
    page = store.to_html(chat.id)
    asked = page.split('<p class="asked">', 1)[1].split("</p>", 1)[0]
    assert html.unescape(asked) == typed and "<script" not in page  # escaped, lines and spaces as typed
    assert ".asked{white-space:pre-wrap" in page  # and shown so
    md = store.to_markdown(chat.id).split("## You\n\n", 1)[1].rstrip("\n")
    lines = md.split("\n")
    typed_lines = [line for n, line in enumerate(typed.split("\n")) if line.strip() or
                   (n and typed.split("\n")[n - 1].strip())]  # blank lines: one between paragraphs
    assert len(lines) == len(typed_lines)
    # each line ends in CommonMark's hard break (an odd number of backslashes: two are one that was typed) where
    # another line of its paragraph follows
    breaks = [(len(line) - len(line.rstrip("\\"))) % 2 == 1 for line in lines]
    assert breaks == [bool(typed_lines[n].strip()) and n + 1 < len(typed_lines) and bool(typed_lines[n + 1].strip())
                      for n in range(len(lines))]
    # read as Markdown, no line makes a heading, list, quote or code block, no emphasis, no tag
    rendered = markdown.markdown(md.replace("\\\n", "  \n"))
    assert not any(tag in rendered for tag in ("<h1", "<h2", "<ul", "<ol", "<blockquote", "<pre", "<em",
                                                "<b>", "<script", "<hr"))


def test_an_exported_questions_lines_and_indentation_in_markdown():
    from tinyrag_desktop.chat_export import plain_markdown

    assert plain_markdown("   leading spaces and\nmultiple\nlines in question") == (
        "\u00a0\u00a0\u00a0leading spaces and\\\nmultiple\\\nlines in question")
    assert plain_markdown("# a\n1. b\n\n\n\tc *d* <e>") == (
        "\\# a\\\n1\\. b\n\n\u00a0\u00a0\u00a0\u00a0c \\*d\\* \\<e\\>")


def test_exported_html_shows_lists_and_tables_written_under_a_line_as_the_window_does(store):
    chat = store.new_chat()
    store.add_user_message(chat.id, "How do I install it?")
    answer = ("To install it:\n1. Download\n2. Run\n   - as admin\n\n"
              "Sizes:\n| Model | Size |\n|---|---|\n| llama3.2 | 3B |\n")
    _answer(store, chat.id, answer, error=None)
    page = store.to_html(chat.id)
    assert "<p>To install it:</p>" in page and "<li>Download</li>" in page  # not "To install it: 1. Download"
    assert "<li>as admin</li>" in page.split("<li>Run")[1]  # nested under its item, by 3 spaces as written
    assert "<td>llama3.2</td>" in page  # a table, not a line of pipes


def test_an_exported_tool_error_keeps_the_xml_it_quotes_and_leaves_out_the_models_advice(store):
    # a wrong element's error quotes tags: in the exported Markdown they are code spans, which a Markdown
    # renderer shows, not HTML it drops; the example block written for the model is not the reader's
    import markdown

    chat = store.new_chat()
    store.add_user_message(chat.id, "hi")
    error = ('fetch takes <url>, not <query>. Write: <tool name="fetch"><url>https://example.org</url></tool>')
    store.add_assistant_message(chat.id, "Sorry.", transcript="Sorry.",
                                tools=[StoredTool("t1", "fetch", "q", "error", error=error, position=0)])
    md = store.to_markdown(chat.id)
    assert "> fetch takes `<url>`, not `<query>`." in md and "Write:" not in md
    assert "&lt;url&gt;" in markdown.markdown(md)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_title_is_one_short_line(text):
    title = title_from(text)
    assert "\n" not in title and 0 < len(title) <= 61


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_search_finds_any_stored_text(tmp_path_factory, needle):
    s = ChatStore(tmp_path_factory.mktemp("chats"))
    chat = s.new_chat()
    s.add_user_message(chat.id, f"before {needle} after")
    other = s.new_chat()
    s.add_user_message(other.id, "zzz")
    found = [c.id for c in s.search(needle)]
    s.close()
    if needle.strip():
        assert chat.id in found


def test_exported_html_keeps_model_markup_as_text_and_drops_unsafe_links(store):
    chat = store.new_chat()
    store.add_user_message(chat.id, "<script>alert('q')</script>")
    store.add_assistant_message(chat.id, "Look <img src=x onerror=alert(1)> [click](javascript:alert(2)) "
                                         "[ok](https://example.org) ![pic](file:///etc/passwd)")
    page = store.to_html(chat.id)
    body = page.split("<body>")[1]
    assert "<script" not in body and "<img src=x" not in body and "&lt;img src=x" in body
    assert "javascript:" not in body and "file:" not in body and 'href="https://example.org"' in body


def _pages_of(messages: list, size: int) -> list[list[int]]:
    """A chat's pages as a list of all its messages gives them: the last ``size``, moved back to a question
    (none before it: from the start), then the page before that, and so on."""
    pages, rest = [], list(messages)
    while rest:
        start = max(0, len(rest) - size)
        while start > 0 and rest[start].role != "user":
            start -= 1
        pages.append([m.id for m in rest[start:]])
        rest = rest[:start]
    return pages


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(roles=st.lists(st.sampled_from(["user", "assistant"]), max_size=25), size=st.integers(1, 7))
def test_a_chat_is_read_a_page_at_a_time_as_the_whole_list_would_be_cut(tmp_path_factory, roles, size):
    store = ChatStore(tmp_path_factory.mktemp("pages"))
    other = store.new_chat()
    chat = store.new_chat()
    for n, role in enumerate(roles):  # another chat's messages in between: pages are the chat's own
        store.add_user_message(other.id, "elsewhere")
        if role == "user":
            store.add_user_message(chat.id, f"question {n}")
        else:
            _answer(store, chat.id, f"answer {n}")
    everything = store.messages(chat.id)
    pages, before = [], None
    while True:
        start, earlier = store.page_start(chat.id, size, before)
        page = store.messages(chat.id, first=start, before=before)
        pages.append(page)
        if not earlier:
            break
        assert page and start == page[0].id
        before = start
    assert [[m.id for m in page] for page in pages] == (_pages_of(everything, size) or [[]])
    assert [m for page in reversed(pages) for m in page] == everything  # the same messages, tool calls and all
    store.close()


def test_history_gives_the_engine_questions_and_answers_transcripts(store):
    chat = store.new_chat()
    store.add_user_message(chat.id, "What is 6 * 7?")
    _answer(store, chat.id)
    store.add_assistant_message(chat.id, "", status="error", error="the server went away")
    store.add_user_message(chat.id, "And 6 * 8?")
    assert store.history(chat.id) == [
        {"role": "user", "content": "What is 6 * 7?"},
        {"role": "assistant", "content": "<tool>…</tool>The answer is 42."},
        {"role": "user", "content": "And 6 * 8?"},
    ]
    assert store.history(chat.id) == [{"role": m.role, "content": m.history_content()}
                                      for m in store.messages(chat.id) if m.role == "user" or m.history_content()]


def test_a_question_that_got_no_answer_keeps_the_turns_in_turn(store):
    # After one failed answer, every later request had two user turns in a row: servers whose chat template
    # wants user and assistant in turn (llama.cpp's, vLLM's Jinja templates) refused the rest of the chat.
    from tinyrag_desktop.chat_history import UNANSWERED

    chat = store.new_chat()
    store.add_user_message(chat.id, "What is the capital of France?")
    store.add_assistant_message(chat.id, "", status="error", error="The model server failed (500).")
    store.add_user_message(chat.id, "What is the capital of  france?")  # typed again
    assert store.history(chat.id) == [{"role": "user", "content": "What is the capital of  france?"}]
    _answer(store, chat.id, "Paris.")
    store.add_user_message(chat.id, "And of Spain?")
    store.add_assistant_message(chat.id, "", status="stopped")  # stopped before a word
    store.add_user_message(chat.id, "And of Italy?")
    assert [m["role"] for m in store.history(chat.id)] == ["user", "assistant", "user", "assistant", "user"]
    assert store.history(chat.id)[2:] == [{"role": "user", "content": "And of Spain?"},
                                          {"role": "assistant", "content": UNANSWERED},
                                          {"role": "user", "content": "And of Italy?"}]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["user", "answered", "failed"]), st.sampled_from(["a", "A ", "b"])),
                min_size=1, max_size=12))
def test_history_always_takes_turns_and_ends_with_the_last_question(store, steps):
    chat = store.new_chat()
    for kind, text in steps:
        if kind == "user":
            store.add_user_message(chat.id, text)
        else:
            store.add_assistant_message(chat.id, "yes" if kind == "answered" else "", status="done" if
                                        kind == "answered" else "error")
    roles = [m["role"] for m in store.history(chat.id)]
    assert all(a != b or a == "assistant" for a, b in zip(roles, roles[1:]))  # never two questions in a row
    questions = [text for kind, text in steps if kind == "user"]
    if questions and steps[-1][0] == "user":
        assert store.history(chat.id)[-1] == {"role": "user", "content": questions[-1]}


def test_search_finds_each_word_anywhere_in_the_chat(store):
    # "capital France" found nothing in a chat saying "the capital of France": the words were one phrase.
    paris = store.new_chat()
    store.add_user_message(paris.id, "What is the capital of France?")
    store.add_assistant_message(paris.id, "Paris, on the Seine.")
    cafe = store.new_chat()
    store.add_user_message(cafe.id, "Über Café")
    store.add_assistant_message(cafe.id, "A café in the capital: Zürich is not one.")
    assert [c.id for c in store.search("capital France")] == [paris.id]
    assert [c.id for c in store.search("FRANCE  capital")] == [paris.id]
    assert [c.id for c in store.search("seine france")] == [paris.id]  # in two messages of one chat
    assert [c.id for c in store.search("cafe zurich")] == [cafe.id]  # accents aside, word by word
    assert [c.id for c in store.search("capital")] == [paris.id, cafe.id]  # its title holds the word: first
    assert store.search("capital Madrid") == []  # every word, not any
    assert [c.id for c in store.search("capital capital")] == [paris.id, cafe.id]
    # the snippet: at the words as typed where a message holds them so, else at the longest word
    assert store.search("capital of France")[0].snippet == "What is the capital of France?"
    assert store.search("seine france")[0].snippet == "What is the capital of France?"  # "france", the longer
    # (a short message is shown whole)
    cafe_hit = store.search("Zürich café")[0].snippet
    assert "Zürich" in cafe_hit


def test_search_words_are_the_texts_own_once_each():
    from tinyrag_desktop.chat_find import search_words

    assert search_words("capital  of France") == ["capital", "of", "France"]
    assert search_words("Café cafe CAFÉ") == ["Café"]
    assert search_words("a b c d e f g h") == ["a", "b", "c", "d", "e", "f"]


def test_a_search_hit_shows_the_words_found_near_its_start(store):
    chat = store.new_chat()
    store.add_user_message(chat.id, "Tax return deadlines 2026")
    _answer(store, chat.id, "Answer about Tax return deadlines 2026. Sourdough is mentioned here, and much more "
                            "is said after it about other things entirely.")
    snippet = store.search("sourdough")[0].snippet
    # The list shows about 30 characters: the words found come within them, after a word or two.
    assert snippet.startswith("…2026. Sourdough is mentioned") and snippet.endswith("…")
    assert snippet.index("Sourdough") <= 12
    assert store.search("answer about")[0].snippet.startswith("Answer about Tax return")  # at the start: no "…"


def test_a_search_hit_shows_the_words_found_as_the_answer_reads_not_their_markdown(store):
    # Snippets showed "Some **markdown** text", the marks an answer's reader never sees.
    chat = store.new_chat()
    store.add_user_message(chat.id, "Bread")
    _answer(store, chat.id, "## Sourdough\n\n> Feed the **sourdough** starter with `flour`, see "
                            "[the guide](https://example.org/guide), and keep __init__ and a*b as written.")
    assert store.search("starter")[0].snippet == ("…sourdough starter with flour, see the guide, and keep __init__ "
                                                  "and a*b as wri…")
    assert store.search("a*b")[0].snippet == "…and a*b as written."  # a lone * is no mark
    # words found only in a link's address: the snippet shows it as written, with them
    assert "example.org/guide" in store.search("example.org/guide")[0].snippet


def test_calls_skipped_one_after_another_for_one_reason_are_one_line_in_copies_and_exports():
    # Eight calculations with a limit of three: the window shows one card for the five skipped, and the copy
    # and the exports listed five identical lines.
    limit = "Limit reached: at most 3 tool calls per round."
    content = "Let me add them.\n\nThe first three are 2, 4 and 6."
    at = content.index("The first")
    tools = tuple(StoredTool(f"t{n}", "calculate", f"{n}+{n}", "done", position=at) for n in range(1, 4)) + tuple(
        StoredTool(f"t{n}", "calculate", f"{n}+{n}", "skipped", error=limit, position=at) for n in range(4, 9))
    message = StoredMessage(1, "assistant", content, tools=tools)
    copied = answer_markdown(message)
    assert copied.count(limit) == 1 and "`4+4` · `5+5` · `6+6` · `7+7` · `8+8` (5 skipped)" in copied
    assert copied.count("(done)") == 3
    page = export_html(ChatInfo("c", "Sums", "", 0.0, 0.0), [message])
    assert page.count(limit) == 1 and "(5 skipped)" in page
    # another reason, or text between them, is another line
    other = StoredTool("t9", "calculate", "9+9", "skipped", error="Repeated call: the same tool with the same input.",
                       position=at)
    assert answer_markdown(StoredMessage(1, "assistant", content, tools=tools + (other,))).count("skipped") == 2


def test_a_searchs_anchors_come_back_with_its_call(store):
    chat = store.new_chat()
    store.add_user_message(chat.id, "where?")
    call = StoredTool("t1", "rag_knowledge", "work_mem", "ok", source="/docs/a.html\n/docs/b.md",
                      result="[1] …", anchors=('say "hi" there', None))
    store.add_assistant_message(chat.id, "There.", tools=[call])
    (answer,) = [m for m in store.messages(chat.id) if m.role == "assistant"]
    assert answer.tools[0].anchors == ('say "hi" there', None)


def test_a_change_under_another_programs_lock_waits_a_second_not_five(store, tmp_path):
    # the window's thread waits meanwhile: Send and Delete froze the window for 5 s before saying so
    import sqlite3

    chat = store.new_chat()
    other = sqlite3.connect(tmp_path / "chats.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert store._db.execute("PRAGMA busy_timeout").fetchone()[0] == 1000 == LOCK_WAIT * 1000
        with pytest.raises(ChatStoreError, match="another program is using it"):
            store.delete(chat.id)
    finally:
        other.rollback()
        other.close()
