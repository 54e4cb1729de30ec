"""A settings file edited by hand: comments and trailing commas are read; a file that still cannot be read is
left in place by the command line and kept aside (as settings.json.bad) only by the window, which saves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings as hsettings
from hypothesis import strategies as st

from tinyrag_desktop.settings import LENIENT_NOTE, defaults, lenient_json, load_settings, save_settings

_TEXT = st.text(alphabet=st.sampled_from('ab"\\/*,]}{[ \n\t:é'), max_size=12)
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), _TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=20)


@hsettings(max_examples=300, deadline=None)
@given(_VALUES, st.sampled_from([None, 0, 2]))
def test_any_valid_json_reads_as_json_reads_it(value, indent) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    assert lenient_json(text) == json.loads(text)


_GAP = st.sampled_from(["", " ", "\n", "// a note, with a comma } and a quote \"\n", "/* x, ] // y */",
                        "/*\n*/", " // http://127.0.0.1/v1\n"])


def _written(value, draw) -> str:
    """``value`` as JSON with comments and spaces drawn between its tokens, and now and then a trailing comma."""
    def gap() -> str:
        return draw(_GAP)

    def comma() -> str:
        return draw(st.sampled_from(["", ","])) + gap()

    if isinstance(value, list):
        items = [gap() + _written(v, draw) + gap() for v in value]
        return "[" + ",".join(items) + (comma() if items else gap()) + "]"
    if isinstance(value, dict):
        items = [gap() + json.dumps(k) + gap() + ":" + gap() + _written(v, draw) + gap() for k, v in value.items()]
        return "{" + ",".join(items) + (comma() if items else gap()) + "}"
    return json.dumps(value)


@hsettings(max_examples=300, deadline=None)
@given(_VALUES, st.data())
def test_comments_and_trailing_commas_between_tokens_read_the_same(value, data) -> None:
    text = data.draw(_GAP) + _written(value, data.draw) + data.draw(_GAP)
    assert lenient_json(text) == value


def test_a_hand_edited_file_is_read_with_a_note_that_saving_writes_plain_json(tmp_path: Path) -> None:
    written = ('{ // my server\n "base_url": "http://127.0.0.1:18737/v1", /* the small one */\n'
               ' "chat_model": "qwen", "k": 7,\n}\n')
    (tmp_path / "settings.json").write_text(written)
    s, warnings = load_settings(tmp_path, keep_aside=True)
    assert (s.base_url, s.chat_model, s.k) == ("http://127.0.0.1:18737/v1", "qwen", 7)
    assert warnings == [LENIENT_NOTE] and "plain JSON" in LENIENT_NOTE
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # nothing set aside
    save_settings(tmp_path, s)
    assert json.loads((tmp_path / "settings.json").read_text())["chat_model"] == "qwen"
    assert load_settings(tmp_path) == (s, [])  # plain JSON now: no note


def test_a_mistake_left_beside_comments_is_said_where_it_is(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{ /* one\n two */ "k": 7,\n "chat_model": }')
    s, [said] = load_settings(tmp_path)
    assert s == defaults() and "expecting value at line 3, column 16" in said, said


def test_a_damaged_file_is_left_in_place_by_reading_verbs_and_kept_aside_by_the_window(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("{broken")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8"}
    for verb in (["kb", "list"], ["kb", "search", "anything"]):
        proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", *verb, "--data-dir", str(tmp_path)],
                              capture_output=True, text=True, timeout=60, env=env)
        assert "Traceback" not in proc.stderr and "is damaged" in proc.stderr, proc.stderr
        assert (tmp_path / "settings.json").read_text() == "{broken", verb
        assert not (tmp_path / "settings.json.bad").exists(), verb
    s, [said] = load_settings(tmp_path, keep_aside=True)  # as the window reads it
    assert s == defaults() and f"It was kept as {tmp_path / 'settings.json.bad'}." in said
    assert (tmp_path / "settings.json.bad").read_text() == "{broken"
