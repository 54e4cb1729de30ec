"""A damaged data folder: the window opens or exits with words, keeps what the user had, shows no traceback."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from tests.permissions import as_a_user
from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.chat_file import SCHEMA_VERSION
from tinyrag_desktop.chats import DB_FILE, ChatStore, ChatStoreError

from .conftest import ask_and_wait, tokens


def _window(data: Path, tmp_path: Path, base_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(data), "--base-url", base_url,
                           "--ask", "Hello?", "--screenshot", str(tmp_path / "shot.png")],
                          env=env, capture_output=True, text=True, timeout=60)


def _answering_server() -> ScriptedLLMServer:
    srv = ScriptedLLMServer()
    srv.queue(Stream(["Hello ", "there."]))
    return srv


def _chat_history(data: Path) -> bytes:
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "a question worth keeping")
    store.close()
    return (data / DB_FILE).read_bytes()


@pytest.mark.parametrize("damage", ["random bytes", "cut short"])
def test_a_damaged_chat_history_is_kept_aside_and_the_window_opens(tmp_path, damage):
    data = tmp_path / "data"
    whole = _chat_history(data)
    damaged = os.urandom(40_000) if damage == "random bytes" else whole[:5000]
    (data / DB_FILE).write_bytes(damaged)
    with _answering_server() as srv:
        done = _window(data, tmp_path, srv.base_url)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    kept = [p for p in data.iterdir() if p.name.startswith(DB_FILE + ".damaged")]
    assert [p.read_bytes() for p in kept] == [damaged]  # the user's file, byte for byte, beside a new one
    assert ChatStore(data).list_chats()  # the new history holds this run's chat


def test_a_history_damaged_in_the_middle_is_kept_aside_too(tmp_path):
    # Its first pages are sound, so SQLite opens it; the damage shows only when the chats are read.
    data = tmp_path / "data"
    store = ChatStore(data)
    for n in range(200):
        chat = store.new_chat()
        store.add_user_message(chat.id, f"question {n} " + "x" * 3000)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    damaged = bytearray((data / DB_FILE).read_bytes())
    damaged[8192:28192] = random.Random(7).randbytes(20000)
    (data / DB_FILE).write_bytes(damaged)
    with _answering_server() as srv:
        done = _window(data, tmp_path, srv.base_url)
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert (data / (DB_FILE + ".damaged")).read_bytes() == damaged


def test_a_second_damaged_history_does_not_overwrite_the_first_one_kept(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / (DB_FILE + ".damaged")).write_bytes(b"kept the first time")
    (data / DB_FILE).write_bytes(b"not a database, the second time" * 100)
    with _answering_server() as srv:
        done = _window(data, tmp_path, srv.base_url)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    kept = sorted(p.read_bytes() for p in data.iterdir() if p.name.startswith(DB_FILE + ".damaged"))
    assert kept == sorted([b"kept the first time", b"not a database, the second time" * 100])


def test_another_apps_database_in_its_place_is_left_alone_and_said_in_words(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    other = sqlite3.connect(data / DB_FILE)
    other.executescript("CREATE TABLE chats(a, b); INSERT INTO chats VALUES (1, 2);")
    other.commit()
    other.close()
    before = (data / DB_FILE).read_bytes()
    done = _window(data, tmp_path, "http://127.0.0.1:9/v1")
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert "chat history" in done.stderr and str(data / DB_FILE) in done.stderr
    assert (data / DB_FILE).read_bytes() == before  # not changed, not moved


@pytest.mark.parametrize("newer", [
    [],
    # in rollback-journal mode, with a column renamed: it was switched to WAL (a write) before its version
    # was read, or called "not tinyRAG's" for the column
    ["PRAGMA journal_mode=DELETE", "ALTER TABLE chats RENAME COLUMN persona TO persona_id"],
])
def test_the_history_keeps_its_layout_version_and_a_newer_one_is_refused_untouched(tmp_path, newer):
    data = tmp_path / "data"
    _chat_history(data)
    with sqlite3.connect(data / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        for statement in [*newer, f"PRAGMA user_version = {SCHEMA_VERSION + 1}"]:
            db.execute(statement)
    db.close()
    before = (data / DB_FILE).read_bytes()
    with pytest.raises(ChatStoreError, match="newer version of tinyRAG"):
        ChatStore(data)
    assert (data / DB_FILE).read_bytes() == before
    assert sorted(p.name for p in data.iterdir() if p.name.startswith(DB_FILE)) == [DB_FILE]


def test_a_history_from_before_the_version_was_kept_opens_and_gets_it(tmp_path):
    data = tmp_path / "data"
    _chat_history(data)
    with sqlite3.connect(data / DB_FILE) as db:
        db.execute("PRAGMA user_version = 0")
    db.close()
    store = ChatStore(data)
    assert [m.content for m in store.messages(store.list_chats()[0].id)] == ["a question worth keeping"]
    store.close()
    with sqlite3.connect(data / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_a_folder_in_place_of_the_chat_history_is_said_in_words(tmp_path):
    data = tmp_path / "data"
    (data / DB_FILE).mkdir(parents=True)
    (data / DB_FILE / "something.txt").write_text("the user's")
    done = _window(data, tmp_path, "http://127.0.0.1:9/v1")
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert "chat history" in done.stderr and "is a folder, not a file" in done.stderr
    assert (data / DB_FILE / "something.txt").read_text() == "the user's"


def test_a_read_only_chat_history_is_said_at_start_in_words(tmp_path):
    data = Path(tempfile.mkdtemp(prefix="tinyrag-ro-"))  # outside pytest's root-only folder
    try:
        before = _chat_history(data)
        (data / DB_FILE).chmod(0o444)
        if os.geteuid() == 0:
            shutil.chown(data, 65534, 65534)
            shutil.chown(data / DB_FILE, 65534, 65534)
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8", "HOME": str(data),
               "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")])}
        with _answering_server() as srv:
            done = subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(data),
                                              "--base-url", srv.base_url, "--ask", "Hello?"]),
                                  env=env, capture_output=True, text=True, timeout=60)
        assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr
        assert done.returncode == 1, done.stderr
        assert "chat history" in done.stderr and "read-only" in done.stderr, done.stderr
        assert (data / DB_FILE).read_bytes() == before
    finally:
        shutil.rmtree(data, ignore_errors=True)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_closing_the_window_after_talking_to_a_live_server_prints_no_traceback(tmp_path):
    # The status bar's check leaves a kept-alive connection in the HTTP pool; closing it on quit must run
    # on the event loop, not after Qt has already left it because the last window closed.
    import signal
    import time

    from tinyrag_desktop.ui.single import LOCK_NAME

    data = tmp_path / "data"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    with _answering_server() as srv:
        app = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(data), "--base-url",
                                srv.base_url], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while not (data / LOCK_NAME).exists():
                assert app.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(2)  # the server check has connected
            app.send_signal(signal.SIGTERM)  # closes the window as its Quit does
            assert app.wait(timeout=30) == 0
            _out, err = app.communicate()
        finally:
            if app.poll() is None:
                app.kill()
                app.wait()
    assert "Traceback" not in err and "Event loop stopped" not in err, err


def test_start_up_notices_stay_whole_until_dismissed(make_window, server, qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / DB_FILE).write_bytes(os.urandom(40_000))
    win = make_window(server.base_url, data_dir=data)
    # in the window itself, whole: the kept-aside file's full path
    assert win.notice_bar.isVisible()
    assert str(data / (DB_FILE + ".damaged")) in win.notice_label.text()
    qtbot.mouseClick(win.findChild(QPushButton, "dismissNotice"), Qt.MouseButton.LeftButton)
    assert not win.notice_bar.isVisible()


def test_every_start_up_warning_is_shown_not_only_the_last(qapp, qloop, tmp_path):
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.main_window import MainWindow

    warnings = ("settings.json could not be read: it is kept as settings.json.bad; defaults are used.",
                "The setting max_tokens must be a whole number; its default is used.")
    win = MainWindow(tmp_path / "data", defaults().replace(base_url="http://127.0.0.1:9/v1"), warnings=warnings)
    try:
        win.show()
        assert win.notice_bar.isVisible() and win.notice_label.text().splitlines() == list(warnings)
    finally:
        qloop.run(win.aclose())
        win.close()
        win.deleteLater()


def test_a_clean_start_shows_no_notice(make_window, server, tmp_path):
    win = make_window(server.base_url, data_dir=tmp_path / "fresh")
    assert not win.notice_bar.isVisible()


def test_a_scripted_run_says_a_failed_save_in_words_instead_of_waiting_on_a_box(make_window, server, capsys,
                                                                                monkeypatch, tmp_path):
    # a full disk mid-run cannot be made here; the store's own error is what it would raise
    from tinyrag_desktop.chats import ChatStoreError

    win = make_window(server.base_url, data_dir=tmp_path / "data")
    win.scripted = True

    def full(*_args, **_kwargs):
        raise ChatStoreError("The chat history could not be saved: database or disk is full.")

    monkeypatch.setattr(win.store, "add_user_message", full)
    assert win.ask("Will this be saved?") is False  # returns at once: no modal box waits for a click
    assert "could not be saved" in capsys.readouterr().err
    assert win.notice_bar.isVisible() and "disk is full" in win.notice_label.text()


def test_the_start_up_dialog_leaves_out_the_flag_the_console_gives(tmp_path):
    """The console says each way out, --data-dir included; the dialog, for someone who double-clicked the
    app, only what can be done without a command line."""
    from tinyrag_desktop.app import dialog_words

    data = tmp_path / "data"
    (data / DB_FILE).mkdir(parents=True)
    with pytest.raises(ChatStoreError) as folder:
        ChatStore(data)
    message = str(folder.value)
    assert message.endswith("is a folder, not a file. It was left as it is; move it elsewhere, or use another "
                            "data folder (--data-dir).")
    assert dialog_words(message) == message.replace(", or use another data folder (--data-dir)", "")
    assert dialog_words(message).endswith("It was left as it is; move it elsewhere.")
    newer = tmp_path / "newer"
    _chat_history(newer)
    with sqlite3.connect(newer / DB_FILE) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(ChatStoreError) as later:
        ChatStore(newer)
    assert dialog_words(str(later.value)).endswith("It was left as it is; update tinyRAG.")
    assert "--data-dir" in str(later.value) and "--data-dir" not in dialog_words(str(later.value))


def test_a_damaged_knowledge_base_left_out_of_an_answer_is_said(make_window, server, qloop, tmp_path):
    # The answer came, routed as if the knowledge base were empty, and the window said nothing
    from tinyrag_desktop.kb import Importer, open_store, release
    from tinyrag_desktop.kb.store import db_path

    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "h.md").write_text("# Handbook\n\nEvery employee gets 27 vacation days per year.\n")
    kb = open_store(data)
    Importer(kb).run([str(tmp_path / "h.md")])
    kb.close()
    release(data)
    path = db_path(data)
    path.write_bytes(path.read_bytes()[:4096] + b"\x00garbage" * 512)
    server.queue(Stream(tokens("Twenty-seven.")))
    win = make_window(server.base_url, data_dir=data)
    said = []
    win.statusBar().messageChanged.connect(said.append)
    assert qloop.run(ask_and_wait(win, "How many vacation days do I get?")) == "done"
    assert any(m.startswith(f"The knowledge base {path} cannot be read") and m.endswith("Answering without it.")
               and "--data-dir" not in m for m in said), said


def _history_with_a_damaged_index(data: Path, chats: int, *, answered: bool = False) -> tuple[list[str], bytes]:
    """A chat history in ``data`` of ``chats`` chats (a question each, and its answer when ``answered``), one
    page of its index overwritten: its chats' titles, and the damaged file's bytes."""
    store = ChatStore(data)
    titles = []
    for n in range(chats):
        chat = store.new_chat(title=f"chat {n}")
        store.add_user_message(chat.id, f"question {n}")
        if answered:
            store.add_assistant_message(chat.id, f"answer {n}", tools=())
        titles.append(chat.title)
    root = store._db.execute("SELECT rootpage FROM sqlite_master WHERE name='messages_by_chat'").fetchone()[0]
    page = store._db.execute("PRAGMA page_size").fetchone()[0]
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    damaged = bytearray((data / DB_FILE).read_bytes())
    damaged[(root - 1) * page:(root - 1) * page + 200] = bytes(range(200))
    (data / DB_FILE).write_bytes(damaged)
    return titles, bytes(damaged)


def test_a_history_with_a_damaged_index_is_read_back_whole_into_the_new_one(make_window, server, tmp_path):
    # One damaged page of an index hid every chat, though each could still be read from its table.
    data = tmp_path / "data"
    titles, damaged = _history_with_a_damaged_index(data, 20, answered=True)
    win = make_window(server.base_url, data_dir=data)
    assert "20 chats with 40 messages could still be read" in win.notice_label.text()
    assert sorted(c.title for c in win.store.list_chats()) == sorted(titles)
    chat = next(c for c in win.store.list_chats() if c.title == "chat 7")
    assert [m.content for m in win.store.messages(chat.id)] == ["question 7", "answer 7"]
    assert (data / (DB_FILE + ".damaged")).read_bytes() == damaged  # kept, byte for byte, and alone
    assert not (data / (DB_FILE + ".damaged-wal")).exists() and not (data / (DB_FILE + ".damaged-shm")).exists()


@pytest.mark.parametrize("table", ["messages", "chats"])
def test_a_history_with_a_damaged_table_page_gives_back_every_row_it_still_can(tmp_path, table):
    # The first damaged page of a table ended its reading: 99 of 400 messages came back, and with a
    # damaged page of chats, 32 of 200 chats, though their messages could all still be read.
    from tinyrag_desktop.chats import open_chat_store

    data = tmp_path / "data"
    store = ChatStore(data)
    for n in range(200):
        chat = store.new_chat(title=f"chat {n}")
        store.add_user_message(chat.id, f"question {n} " + "x" * 300)
        store.add_assistant_message(chat.id, f"answer {n} " + "y" * 300)
    leaves = [page for (page,) in store._db.execute(
        "SELECT pageno FROM dbstat WHERE name=? AND pagetype='leaf' ORDER BY pageno", (table,))]
    size = store._db.execute("PRAGMA page_size").fetchone()[0]
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    damaged = bytearray((data / DB_FILE).read_bytes())
    page = leaves[len(leaves) // 2]
    damaged[(page - 1) * size:(page - 1) * size + 300] = bytes(range(256)) + bytes(44)
    (data / DB_FILE).write_bytes(damaged)
    new, notice = open_chat_store(data)
    try:
        chats = new.list_chats()
        messages = sum(len(new.messages(c.id)) for c in chats)
        assert notice is not None and f"with {messages:,} messages could still be read" in notice
        if table == "messages":
            assert 0 < 400 - messages <= 40  # only the rows on the damaged page
        else:  # every message came back, those of the chats on the page under a chat named by its question
            assert messages == 400 and len(chats) == 200
            assert any(c.title.startswith("question ") for c in chats)
    finally:
        new.close()


def test_a_damaged_history_in_a_folder_with_a_hash_in_its_name_is_read_back(tmp_path):
    # The damaged file was opened as "file:" + its path: a "#" (or "?") ended the path there, nothing was
    # opened, and every chat was given up for lost.
    from tinyrag_desktop.chats import open_chat_store

    data = tmp_path / "C# notes"
    _history_with_a_damaged_index(data, 5)
    new, notice = open_chat_store(data)
    try:
        assert notice is not None and "5 chats with 5 messages could still be read" in notice
        assert sorted(c.title for c in new.list_chats()) == [f"chat {n}" for n in range(5)]
    finally:
        new.close()
