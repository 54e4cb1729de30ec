"""A data folder an older tinyRAG made (tests/fixtures/old_data: the first days' layout) opens with nothing
lost: every source with its passages, every chat with its messages, tool calls and persona, every setting."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tinyrag_desktop.chat_export import export_markdown
from tinyrag_desktop.chats import open_chat_store
from tinyrag_desktop.cli import main
from tinyrag_desktop.settings import load_settings

FIXTURE = Path(__file__).parent / "fixtures" / "old_data"
OLD_DOCS = "/tmp/upgrade46/docs-v120"  # where the older version imported FIXTURE / "docs" from
SOURCES = {"Gadget handbook": 2, "sprockets.txt": 1, "Widgets": 3, "Doohickeys": 1}  # title: passages
CHATS = {  # title: (persona, tool calls of its answer as (tool, status))
    "Please calc seventeen times three": ("Assistant", [("calculate", "done")]),
    "Search my notes about the widget colour": ("Assistant", [("rag_knowledge", "done")]),
    "Tell a story but it will be cut halfway": ("Assistant", []),
    "Just say hello": ("Pirate", []),
    "Do several sums please": ("Assistant", [("calculate", "done"), ("calculate", "error"), ("calculate", "skipped"),
                                             ("calculate", "skipped"), ("nanogo", "error")]),
    "Ponder deeply": ("Assistant", []),
    "Search for nothing at all": ("Assistant", [("rag_knowledge", "done")]),
}


def old_data_folder(where: Path) -> Path:
    """The fixture's data folder, rebuilt at ``where`` as the older version left it."""
    where.mkdir(parents=True)
    for sql, name in (("chats.sql", "chats.sqlite3"), ("knowledge.sql", "knowledge.db")):
        with closing(sqlite3.connect(where / name, isolation_level=None)) as db:
            db.executescript((FIXTURE / sql).read_text(encoding="utf-8"))
    shutil.copyfile(FIXTURE / "settings.json", where / "settings.json")
    return where


def test_every_source_is_listed_and_found_and_a_new_one_is_added(tmp_path, capsys):
    data = old_data_folder(tmp_path / "data")
    assert main(["kb", "list", "--data-dir", str(data)]) == 0
    listed = capsys.readouterr().out
    for title, passages in SOURCES.items():
        assert f"{passages} chunk{'s' if passages > 1 else ' '}" in next(line for line in listed.splitlines()
                                                                          if line.endswith(title))
    assert main(["kb", "search", "widget colour", "--jsonl", "--data-dir", str(data)]) == 0
    hits = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert hits[0]["title"] == "Widgets" and "blue" in hits[0]["text"]
    assert main(["kb", "search", "thingamajigs", "--data-dir", str(data)]) == 0  # the source removed then
    assert "no matches" in capsys.readouterr().err

    (tmp_path / "gizmos.txt").write_text("Gizmos are green.\n", encoding="utf-8")
    assert main(["kb", "add", str(tmp_path / "gizmos.txt"), "--data-dir", str(data)]) == 0
    capsys.readouterr()
    assert main(["kb", "list", "--data-dir", str(data)]) == 0
    titles = [line.split("  ")[-1] for line in capsys.readouterr().out.splitlines() if line.lstrip()[:1].isdigit()]
    assert sorted(titles) == sorted([*SOURCES, "gizmos.txt"])


@pytest.mark.parametrize("moved", [True, False])
def test_its_documents_imported_again_are_said_unchanged_and_moved_not_stored_twice(tmp_path, capsys, moved):
    # An upgrade marks the older version's sources to be read again (it indexed no links), and the mark hid
    # their content hashes: the documents' folder, moved and imported again, had each file stored a second
    # time (8 sources for 4, every passage found twice), and imported where it was, said "4 updated" of files
    # that had not changed.
    data = old_data_folder(tmp_path / "data")
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURE / "docs", docs)
    with closing(sqlite3.connect(data / "knowledge.db")) as db, db:
        db.execute("UPDATE sources SET location = replace(location, ?, ?)",
                   (OLD_DOCS, str(tmp_path / "gone" if moved else docs)))
    assert main(["kb", "add", str(docs), "--data-dir", str(data)]) == 0
    said = capsys.readouterr().out
    assert ("0 added, 4 updated (4 unchanged but read again: an older version imported them), 0 unchanged"
            + (", 4 moved" if moved else " (")) in said
    assert main(["kb", "list", "--data-dir", str(data)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert sorted(line.strip() for line in listed if line.startswith("       ")) == sorted(
        str(docs / name) for name in ("gadgets.html", "sprockets.txt", "widgets.md", "sub/doohickey.md"))


def test_every_setting_and_persona_is_kept(tmp_path):
    settings, warnings = load_settings(old_data_folder(tmp_path / "data"))
    assert warnings == []
    assert (settings.chat_model, settings.temperature, settings.max_tools_total, settings.max_tools_per_round,
            settings.max_continuations, settings.k, settings.tool_timeout, settings.network_tools) == (
        "scratch-model", 0.3, 7, 2, 2, 6, 12.5, False)
    assert settings.personas["Pirate"] == "Talk like a pirate, arr."
    assert sorted(settings.personas) == ["Assistant", "Concise", "Pirate", "Teacher"]


def test_every_chat_keeps_its_messages_tool_calls_and_persona(tmp_path):
    store, note = open_chat_store(old_data_folder(tmp_path / "data"))
    try:
        assert note is None
        chats = {chat.title: chat for chat in store.list_chats()}
        assert chats.keys() == CHATS.keys()
        for title, (persona, tools) in CHATS.items():
            question, answer = store.messages(chats[title].id)
            assert (question.role, question.content, answer.role) == ("user", title, "assistant")
            assert chats[title].persona == persona
            assert [(t.tool, t.status) for t in answer.tools] == tools
        cut = store.messages(chats["Tell a story but it will be cut halfway"].id)[1]
        assert cut.status == "error" and cut.content.endswith("cuts it off in the mid")
        assert store.messages(chats["Ponder deeply"].id)[1].reasoning == "Let me think about this carefully."
    finally:
        store.close()


def test_a_tool_that_was_off_is_said_by_the_setting_settings_shows_now(tmp_path):
    # The older version named the check box "Allow nanoGo"; Settings has called it "Allow Go code (nanoGo)"
    # since. The exported chat (and the card, tests/ui/test_old_data_folder_window.py) sent the user to look
    # for a setting that is not there.
    store, _ = open_chat_store(old_data_folder(tmp_path / "data"))
    try:
        chat = next(c for c in store.list_chats() if c.title == "Do several sums please")
        text = export_markdown(chat, store.messages(chat.id))
    finally:
        store.close()
    assert "Turn on “Allow Go code (nanoGo)” in Settings to use it." in text
    assert "Allow nanoGo" not in text
