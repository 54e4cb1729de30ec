"""Chinese, Japanese and Korean text and full-width letters: found by the words inside them, through the
real import, store and search; removed and re-imported without leaving words behind; older databases
re-indexed in place."""

from __future__ import annotations

import sqlite3
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Chunk, Importer, StoreError, open_store, query_terms, search
from tinyrag_desktop.kb.store_file import SCHEMA_VERSION, TOKENIZER
from tinyrag_desktop.kb.query_words import STOP_WORDS
from tinyrag_desktop.kb.textform import index_form

DOCUMENTS = {
    "备份.md": "# 数据库备份指南\n\n## 备份\n\n定期备份数据库可以防止数据丢失。使用 pg_dump 命令可以把整个数据库"
               "导出成一个文件，然后在另一台服务器上恢复。\n\n## 恢复\n\n恢复时先创建一个空的数据库，再用 psql "
               "读入导出的文件。\n",
    "索引.md": "# 数据库索引\n\n索引能让数据库更快地找到需要的行，但是每次写入都要更新索引。\n\n"
               "想在服务器出问题之前做好准备的话，备份的做法见[备份指南](备份.md)。\n",
    # 数, 据 and 库 all appear here, but never side by side in that order.
    "仓库.md": "# 仓库管理\n\n数字化的仓库里，据说每天有三百辆卡车进出。库存每个月盘点一次。\n",
    "お茶.html": "<html><head><meta charset='utf-8'><title>お茶の淹れ方</title></head><body><main><h1>緑茶の淹れ方</h1>"
                 "<p>急須にお湯を注ぎ、一分ほど待ってから湯のみに注ぎます。お湯の温度は七十度くらいが適しています。</p>"
                 "</main></body></html>",
    "도서관.txt": "도서관 이용 안내\n\n도서관은 오전 아홉 시에 문을 엽니다. 책은 이 주 동안 빌릴 수 있으며, "
                  "반납이 늦으면 연체료를 내야 합니다.\n",
    "maintenance.txt": "Ｒｕｎ ｔｈｅ ｖａｃｕｕｍ ｃｏｍｍａｎｄ ｅｖｅｒｙ ｗｅｅｋ ｔｏ ｋｅｅｐ ｔａｂｌｅｓ ｓｍａｌｌ.\n",
    "checkpoints.txt": "PostgreSQL checkpoints flush dirty pages to disk at regular intervals.\n",
}


def _write(folder: Path, documents: dict[str, str]) -> Path:
    folder.mkdir(exist_ok=True)
    for name, text in documents.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _import(data_dir: Path, folder: Path):
    kb = open_store(data_dir)
    try:
        report = Importer(kb).run([str(folder)])
        assert not report.failed, report.failed
        return report
    finally:
        kb.close()


def _found(data_dir: Path, query: str, k: int = 5) -> list[str]:
    return [Path(hit.location).name for hit in search(data_dir, query, k)]


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return _write(tmp_path / "docs", DOCUMENTS)


@pytest.fixture
def imported(docs: Path, data_dir: Path) -> Path:
    _import(data_dir, docs)
    return data_dir


def _index_mismatches(kb) -> list[tuple]:
    """Entries in which the full-text indexes differ from indexes built afresh from the stored text.

    FTS5's 'integrity-check' cannot see this in a contentless index: a row removed with other values
    than it was added with leaves its words behind, and the check still passes.
    """
    conn = kb.conn
    conn.executescript(
        "DROP TABLE IF EXISTS temp.fresh_chunks; DROP TABLE IF EXISTS temp.fresh_links;"
        f"CREATE VIRTUAL TABLE temp.fresh_chunks USING fts5(title, heading, text, tokenize='{TOKENIZER}');"
        f"CREATE VIRTUAL TABLE temp.fresh_links USING fts5(text, tokenize='{TOKENIZER}');"
        "INSERT INTO temp.fresh_chunks(rowid, title, heading, text) SELECT c.id, index_form(s.title),"
        " index_form(c.heading), index_form(c.text) FROM chunks c JOIN sources s ON s.id = c.source_id;"
        "INSERT INTO temp.fresh_links(rowid, text) SELECT id, index_form(text) FROM links;"
    )
    for name, schema, table in [("real_chunks", "main", "chunks_fts"), ("real_links", "main", "links_fts"),
                                ("new_chunks", "temp", "fresh_chunks"), ("new_links", "temp", "fresh_links")]:
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{name} USING fts5vocab({schema}, {table}, 'instance')")
    differences = []
    for one, other in [("real_chunks", "new_chunks"), ("real_links", "new_links"),
                       ("new_chunks", "real_chunks"), ("new_links", "real_links")]:
        differences += conn.execute(
            f"SELECT '{one}', * FROM temp.{one} EXCEPT SELECT '{one}', * FROM temp.{other}").fetchall()
    return differences


def _assert_index_sound(kb) -> None:
    assert kb.check_integrity() == []
    assert _index_mismatches(kb) == []


@pytest.mark.parametrize(("query", "name"), [
    ("数据丢失", "备份.md"),      # Chinese: mid-sentence, in "…可以防止数据丢失。"
    ("温度", "お茶.html"),        # Japanese: in "お湯の温度は七十度…"
    ("湯のみ", "お茶.html"),      # kana and kanji mixed
    ("연체료", "도서관.txt"),      # Korean: the particle 를 is written onto the word
    ("반납", "도서관.txt"),        # ... and 이 onto this one
])
def test_a_word_in_the_middle_of_a_sentence_is_found(imported, query, name):
    assert _found(imported, query)[:1] == [name]


def test_the_stored_and_shown_text_stays_as_imported(imported):
    hit = search(imported, "数据丢失", 1)[0]
    assert "定期备份数据库可以防止数据丢失。" in hit.text  # no spaces put between the characters
    assert hit.title == "数据库备份指南" and hit.heading == "数据库备份指南 > 备份"
    assert search(imported, "vacuum", 1)[0].text == DOCUMENTS["maintenance.txt"].strip()


def test_the_characters_of_a_word_count_only_side_by_side_and_in_order(imported):
    # 仓库.md holds 数, 据 and 库 scattered: it is not found for 数据库, nor is anything for the word reversed.
    assert set(_found(imported, "数据库")) == {"备份.md", "索引.md"}
    assert _found(imported, "库据数") == []
    assert _found(imported, "据数") == []
    assert _found(imported, "仓库") == ["仓库.md"]


def test_a_question_written_without_spaces_finds_the_passage_with_its_words(imported):
    assert _found(imported, "如何恢复数据库？")[:1] == ["备份.md"]
    assert _found(imported, "数据库索引有什么用")[:1] == ["索引.md"]
    assert _found(imported, "お茶のお湯は何度がいいですか")[:1] == ["お茶.html"]
    assert _found(imported, "도서관은 몇 시에 문을 열어요?")[:1] == ["도서관.txt"]


def test_full_width_letters_match_ordinary_ones_both_ways(imported):
    assert _found(imported, "vacuum command")[:1] == ["maintenance.txt"]
    assert _found(imported, "ＰｏｓｔｇｒｅＳＱＬ ｃｈｅｃｋｐｏｉｎｔｓ")[:1] == ["checkpoints.txt"]
    assert _found(imported, "ｖａｃｕｕｍ")[:1] == ["maintenance.txt"]  # full width on both sides
    # Stemming still applies once the letters are ordinary ("checkpoint" finds "checkpoints").
    assert _found(imported, "ｃｈｅｃｋｐｏｉｎｔ")[:1] == ["checkpoints.txt"]


def test_a_question_mixing_english_and_cjk(imported):
    assert query_terms("用pg_dump备份数据库") == ["用", "pg_dump", "备 份 数 据 库", "备 份", "份 数", "数 据", "据 库"]
    assert _found(imported, "用pg_dump备份数据库")[:1] == ["备份.md"]
    assert _found(imported, "psql读入文件")[:1] == ["备份.md"]
    assert set(_found(imported, "ＰｏｓｔｇｒｅＳＱＬの温度")[:2]) == {"checkpoints.txt", "お茶.html"}


def test_japanese_pairs_that_cannot_be_in_a_word_are_not_asked():
    # Particles and endings are hiragana, words kanji or katakana: "トを", "をき", "した", "たい" are
    # not searched; a run's pairs inside words ("日本", "フォ", "表示", and "示し" for 表示する) are.
    assert query_terms("日本語フォントをきれいに表示したい") == [
        "日 本 語 フ ォ ン ト を き れ い に 表 示 し た い",
        "日 本", "本 語", "フ ォ", "ォ ン", "ン ト", "表 示", "示 し"]
    # Chinese and Korean keep every pair.
    assert query_terms("如何备份数据库") == [
        "如 何 备 份 数 据 库", "如 何", "何 备", "备 份", "份 数", "数 据", "据 库"]
    assert query_terms("연체료는얼마") == ["연 체 료 는 얼 마", "연 체", "체 료", "료 는", "는 얼", "얼 마"]


JAPANESE = {
    "自動起動.txt": "ログインしたときにプログラムを自動で起動させるには、自動起動の設定に登録します。\n",
    "パソコン.txt": "パソコンを選ぶときは、電源やメモリの大きさを見て、自分に合ったものを選びます。\n",
    "フォント.txt": "日本語のフォントは、fonts-noto-cjk を入れると画面の表示が整います。\n",
    "片付け.txt": "きれいにしたいときは、部屋をきれいに片付けたいと思います。したいことをしたいだけした。\n",
    "日記.txt": "今日はやりたいことがたくさんあったので、いろいろとしていたら、もう夜になっていた。\n",
}


@pytest.fixture
def japanese(tmp_path: Path, data_dir: Path) -> Path:
    _import(data_dir, _write(tmp_path / "japanese", JAPANESE))
    return data_dir


def test_a_japanese_question_finds_its_words_not_its_endings(japanese):
    # 片付け.txt shares only "…をきれいにしたい" with the question: its endings' pairs no longer put it first.
    assert _found(japanese, "日本語の表示をきれいにしたい") == ["フォント.txt"]


def test_the_words_at_the_end_of_a_long_japanese_question_are_searched(japanese):
    # With every pair asked, this question's terms reach MAX_TERMS before 自動 and 設定, at its end.
    question = ("パソコンの電源を入れるたびにいつも同じアプリを自分で立ち上げているのですが、"
                "これを自動でやってくれるように設定したい")
    assert "自 動" in query_terms(question) and "設 定" in query_terms(question)
    assert "自動起動.txt" in _found(japanese, question)


@pytest.mark.parametrize(("question", "repeats_one", "has_both"), [
    ("数据库 备份", "数据库里的数据库。", "每天备份数据库。"),
    ("vacuum analyze", "vacuum, vacuum, vacuum", "ＶＡＣＵＵＭ ａｎｄ ＡＮＡＬＹＺＥ"),
    ("postgresql 配置", "配置，配置，配置。", "修改PostgreSQL的配置文件。"),  # a word in letters between CJK ones
])
def test_passages_are_compared_with_the_question_in_the_index_form(question, repeats_one, has_both):
    # The coverage re-rank counts the question's words in each passage: a CJK or full-width passage
    # must count as covering them, as the index matched it.
    from tinyrag_desktop.kb.models import Hit
    from tinyrag_desktop.kb.coverage import _concepts, _rerank_by_coverage
    from tinyrag_desktop.kb.query_words import _weighed_terms

    one = Hit(1, 1, "", "/a", "", repeats_one, 2.0)
    both = Hit(2, 2, "", "/b", "", has_both, 1.5)
    weighed = _weighed_terms(question)  # 数据库's pairs count for it, not as two more words
    ranked = _rerank_by_coverage([one, both], _concepts(list(weighed), list(weighed.values())))
    assert [h.chunk_id for h in ranked] == [2, 1]


def test_links_in_cjk_words_count_for_the_page_they_point_to(imported):
    kb = open_store(imported)
    texts = [text for (text,) in kb.conn.execute("SELECT text FROM links")]
    kb.close()
    assert any("备份的做法" in text for text in texts)
    # 备份.md never says 做法 ("the way to do it"): only the link to it from 索引.md does.
    assert _found(imported, "做法") == ["索引.md", "备份.md"]


def test_removing_and_re_importing_cjk_sources_keeps_the_index_sound(imported, docs):
    kb = open_store(imported)
    _assert_index_sound(kb)
    backup = kb.source_by_location(str((docs / "备份.md").resolve()))
    assert kb.remove_source(backup.id)
    _assert_index_sound(kb)
    kb.close()
    assert "备份.md" not in _found(imported, "丢失 恢复")

    _import(imported, docs)  # back again
    assert _found(imported, "数据丢失")[:1] == ["备份.md"]
    (docs / "备份.md").write_text("# 数据库备份指南\n\n每天晚上自动备份到外接硬盘。\n", encoding="utf-8")
    (docs / "お茶.html").write_text("<html><head><meta charset='utf-8'><title>お茶の淹れ方</title></head><body><main>"
                                    "<p>紅茶は熱湯で三分蒸らします。</p></main></body></html>", encoding="utf-8")
    report = _import(imported, docs)
    assert sorted(Path(p).name for p in report.updated) == ["お茶.html", "备份.md"]
    assert _found(imported, "丢失") == [] and _found(imported, "温度") == []  # the old words are gone
    assert _found(imported, "外接硬盘") == ["备份.md"] and _found(imported, "三分蒸らします") == ["お茶.html"]

    kb = open_store(imported)
    _assert_index_sound(kb)
    for source in kb.sources():
        kb.remove_source(source.id)
    _assert_index_sound(kb)
    for table in ("chunks_fts", "links_fts"):
        kb.conn.execute(f"CREATE VIRTUAL TABLE temp.words_{table} USING fts5vocab(main, {table}, 'row')")
        assert kb.conn.execute(f"SELECT count(*) FROM temp.words_{table}").fetchone()[0] == 0
    kb.close()


def _make_version_3(data_dir: Path, docs: Path) -> None:
    """The database as version 3 wrote it: the same tables, with the text given to the indexes as it is."""
    _import(data_dir, docs)
    kb = open_store(data_dir)
    kb.conn.executescript(
        "INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all');"
        "INSERT INTO chunks_fts(rowid, title, heading, text) SELECT c.id, s.title, c.heading, c.text"
        " FROM chunks c JOIN sources s ON s.id = c.source_id;"
        "INSERT INTO links_fts(links_fts) VALUES('delete-all');"
        "INSERT INTO links_fts(rowid, text) SELECT id, text FROM links;"
        "UPDATE meta SET value = '3' WHERE key = 'schema_version';"
        "DELETE FROM meta WHERE key = 'index_unicode';"
    )
    kb.close()


def _contents(data_dir: Path) -> list[list[tuple]]:
    conn = sqlite3.connect(data_dir / "knowledge.db")
    try:
        return [conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
                for table in ("sources", "chunks", "links")]
    finally:
        conn.close()


def test_a_version_3_database_is_re_indexed_in_place(docs, data_dir):
    _make_version_3(data_dir, docs)
    before = _contents(data_dir)
    assert before[2]  # it has links to re-index too
    # As version 3 indexed it: a word inside a run of CJK characters, or written full width, is not found.
    assert _found(data_dir, "数据丢失") == [] and _found(data_dir, "command") == []
    assert _found(data_dir, "pg_dump")[:1] == ["备份.md"]

    kb = open_store(data_dir)
    assert kb.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    _assert_index_sound(kb)
    kb.close()
    assert _contents(data_dir) == before  # nothing imported is touched, hashes included (no re-import needed)
    assert _found(data_dir, "数据丢失")[:1] == ["备份.md"]
    assert _found(data_dir, "command")[:1] == ["maintenance.txt"]

    # Rows indexed before the migration can now be removed with the values the store gives back.
    kb = open_store(data_dir)
    for source in kb.sources():
        assert kb.remove_source(source.id)
    _assert_index_sound(kb)
    kb.close()


def test_an_index_made_under_other_unicode_tables_is_rebuilt(docs, data_dir):
    _make_version_3(data_dir, docs)
    kb = open_store(data_dir)  # migrated
    kb.conn.execute("UPDATE meta SET value = '1.0.0' WHERE key = 'index_unicode'")
    kb.conn.executescript("INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all');")  # as if built otherwise
    kb.close()
    kb = open_store(data_dir)
    assert kb.conn.execute("SELECT value FROM meta WHERE key = 'index_unicode'").fetchone()[0] == \
        unicodedata.unidata_version
    _assert_index_sound(kb)
    kb.close()
    assert _found(data_dir, "数据丢失")[:1] == ["备份.md"]


def test_a_newer_database_is_still_refused(imported):
    kb = open_store(imported)
    kb.conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    kb.close()
    with pytest.raises(StoreError, match="newer version"):
        open_store(imported)
    conn = sqlite3.connect(imported / "knowledge.db")
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION + 1)
    conn.close()


# Text that mixes what the form changes: CJK, full-width and half-width forms, combining marks,
# ligatures, punctuation, FTS5's operators, and any other character (never a lone surrogate).
_TRICKY = "数据库データベース한국어ｶﾀｶﾅﾟｕｎｉｔＡ１ﬁ①㍿・ー々〇\u3099\u309b\u0301\u1100\u1161\u11a8 \t\n\"*:-()^"
_ANY_TEXT = st.text(alphabet=st.one_of(st.characters(blacklist_categories=("Cs",)), st.sampled_from(_TRICKY)),
                    max_size=60)


@given(_ANY_TEXT)
def test_the_form_of_a_form_is_itself(text):
    form = index_form(text)
    assert index_form(form) == form
    assert unicodedata.is_normalized("NFKC", form)
    assert form.replace(" ", "") == unicodedata.normalize("NFKC", text).replace(" ", "")  # it only adds spaces


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_ANY_TEXT)
def test_any_string_searches_without_error(imported, text):
    assert len(search(imported, text, 5)) <= 5


_SENTENCE = "定期备份数据库可以防止数据丢失"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(_SENTENCE) - 1), st.integers(1, 6))
def test_any_run_of_characters_from_a_sentence_finds_it(imported, start, length):
    word = _SENTENCE[start:start + length]
    assert "备份.md" in _found(imported, word)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from("数据库备份恢复日本語のテキストデータ한국어도서관ｶﾀｶﾅｕｎｉｔＡ１ー々・、。 "),
               min_size=1, max_size=20))
def test_any_cjk_or_full_width_text_finds_itself_and_is_replaced_cleanly(data_dir, text):
    kb = open_store(data_dir)
    kb.replace_source(title="Note", location="/note.txt", type="text", size=len(text), content_hash=text,
                      chunks=[Chunk("Note", text)], load_id="test")  # replaces the last example's note
    assert _index_mismatches(kb) == []
    kb.close()
    if any(term not in STOP_WORDS for term in query_terms(text)):  # "Ａ" alone is "a": not searched
        assert [h.location for h in search(data_dir, text, 1)] == ["/note.txt"]


def test_a_question_all_in_hiragana_still_finds_its_passage(tmp_path: Path, data_dir: Path):
    # No pair of an all-hiragana question can be in a word by _in_a_word's rule; searched only as the whole
    # run, as written, it found nothing at all (it found the page before Japanese pairs were left out).
    _import(data_dir, _write(tmp_path / "hiragana", {"すし.txt": "すしはおいしいです。まいにちたべます。\n",
                                                     "お茶.txt": "お茶を毎日飲みます。緑茶が好きです。\n"}))
    for question in ("おいしいすし", "すしがたべたい", "おいしいすしはどこ"):
        assert _found(data_dir, question)[:1] == ["すし.txt"], question
