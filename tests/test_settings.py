"""The settings file: atomic writes, damaged files kept aside, unknown keys kept, bad values refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings
from hypothesis import strategies as st

from tinyrag_desktop.settings import SCHEMA, SettingsError, defaults, load_settings, save_settings


def test_defaults_follow_design() -> None:
    s = defaults()
    assert (s.max_tools_total, s.max_tools_per_round, s.max_continuations, s.tool_timeout) == (5, 3, 3, 30.0)
    assert s.allow_shell_exec is False and s.allow_nanogo is False
    assert s.network_tools is True and s.url_fetch_allow_private is False
    for key in ("base_url", "chat_model", "embed_model", "api_key", "lang", "theme", "temperature",
                "chunk_size", "k", "personas"):
        assert key in s


def test_round_trip_keeps_unknown_keys(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"chat_model": "qwen", "future_key": [1, 2]}))
    s, warnings = load_settings(tmp_path)
    assert s.chat_model == "qwen"
    assert warnings == ['settings.json has a setting this version does not use: “future_key”. It is kept as it is.']
    save_settings(tmp_path, s.replace(temperature=0.2))
    raw = json.loads((tmp_path / "settings.json").read_text())
    assert raw["future_key"] == [1, 2] and raw["temperature"] == 0.2 and raw["chat_model"] == "qwen"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temp file left behind


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path) == (defaults(), [])


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", "", "\x00\x01"])
def test_damaged_file_is_kept_aside_with_a_warning(tmp_path: Path, content: str) -> None:
    (tmp_path / "settings.json").write_text(content)
    s, warnings = load_settings(tmp_path, keep_aside=True)
    assert s == defaults()
    assert len(warnings) == 1 and "damaged" in warnings[0] and "settings.json.bad" in warnings[0]
    assert (tmp_path / "settings.json.bad").read_text() == content
    assert not (tmp_path / "settings.json").exists()


def test_bad_values_in_the_file_fall_back_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"max_tools_total": -3, "theme": "pink", "k": 7}))
    s, warnings = load_settings(tmp_path)
    assert s.max_tools_total == 5 and s.theme == "system" and s.k == 7
    assert any("max_tools_total must be at least 0" in w for w in warnings)
    assert any("theme must be one of light, dark, system" in w for w in warnings)


def test_a_value_too_long_in_the_file_is_said_without_quoting_it(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"api_key": "k" * 50_000, "personas": {"A": "y" * 200_000}}))
    s, warnings = load_settings(tmp_path)
    assert s.api_key == "" and s.personas == defaults().personas
    assert len(warnings) == 2 and all(len(w) < 200 for w in warnings), warnings
    assert "Using the default personas." in warnings[1]


def test_a_server_address_that_cannot_work_in_the_file_is_said_at_start(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"base_url": "127.0.0.1:8766/v1", "searxng_url": ""}))
    s, warnings = load_settings(tmp_path)
    assert s.base_url == defaults().base_url and s.searxng_url == ""
    assert warnings == ["settings.json: base_url must be an http:// or https:// address, like "
                        'http://127.0.0.1:11434/v1, not “127.0.0.1:8766/v1”. Using the default, '
                        '“http://127.0.0.1:11434/v1”.']


def test_any_refused_value_in_the_file_is_said_without_quoting_all_of_it(tmp_path: Path) -> None:
    # every check quoted the value whole: a 50,000-character theme filled the notice bar
    (tmp_path / "settings.json").write_text(json.dumps(
        {"theme": "x" * 50_000, "allow_nanogo": ["y" * 50_000], "temperature": "9" * 50_000, "lang": 7}))
    s, warnings = load_settings(tmp_path)
    assert s.theme == "system" and s.allow_nanogo is False and s.temperature == 0.7
    assert len(warnings) == 4 and all(len(w) < 200 for w in warnings), [w[:100] for w in warnings]
    assert 'theme must be one of light, dark, system, not “xxx' in warnings[0]
    assert "(50,000 characters)" in warnings[0]
    assert "lang must be text, not 7." in warnings[3]


def test_the_longest_values_taken_are_kept() -> None:
    s = defaults().replace(chat_model="m" * 8192, personas={"n" * 200: "x" * 100_000})
    assert len(s.chat_model) == 8192 and s.personas == {"n" * 200: "x" * 100_000}


@pytest.mark.parametrize(
    "key, value, words",
    [
        ("tool_timeout", 0, "at least 0.1"),
        ("temperature", 5, "at most 2"),
        ("max_tools_total", 2.5, "whole number"),
        ("allow_nanogo", "yes", "true or false"),
        ("base_url", 3, "must be text"),
        ("chat_model", "m" * 9000, "9,000 characters long; at most 8,192"),
        ("base_url", "127.0.0.1:8766/v1", "must be an http:// or https:// address"),
        ("base_url", "ftp://127.0.0.1/v1", "must be an http:// or https:// address"),
        ("base_url", "http://127.0.0.1:99999/v1",
         "base_url: the port 99999 is out of range; a port is a number from 1 to 65535"),
        ("base_url", "", "must be an http:// or https:// address"),
        ("searxng_url", "searx.local", "must be an http:// or https:// address"),
        ("base_url", "http://127.0.0.1:11434/v1 /x", "has a space in it, and an address has none"),
        ("base_url", "http://127.0.0.1:11434/v1\t/x", "has a tab or line break in it"),
        ("searxng_url", "https://searx .local", "has a space in it"),
        ("lang", "English", "must be a language code"),
        ("api_key", "sk-“abc”", "can hold only plain letters, digits and signs"),
        ("api_key", "sk-abc def", "with no spaces"),
        ("base_url", "http://[::1", "must be an http:// or https:// address"),
        ("base_url", "http://[zz]/v1", "must be an http:// or https:// address"),
        # the app adds /chat/completions: "/v1#frag/chat/completions" was asked, and failed as a 404
        ("base_url", "http://127.0.0.1:11434/v1#frag", "base_url ends in “#frag”, which a server address has no use"),
        ("base_url", "http://127.0.0.1:11434/v1?x=1", "ends in “\\?x=1”, which a server address has no use"),
        ("searxng_url", "http://127.0.0.1:8888/?q=", "searxng_url ends in “\\?q=”"),
        ("personas", {"Long": "x" * 100_001}, '“Long” is 100,001 characters long; at most 100,000'),
        ("personas", {"n" * 201: "short"}, "a name is 201 characters long; at most 200"),
        ("personas", {f"p{n}": "" for n in range(501)}, "501 entries; at most 500"),
        ("nonsense", 1, "no setting called"),
    ],
)
def test_out_of_range_values_are_refused_with_a_message(key: str, value: object, words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        defaults().replace(**{key: value})


def test_write_is_atomic_when_the_disk_write_fails(tmp_path: Path, monkeypatch) -> None:
    save_settings(tmp_path, defaults().replace(chat_model="first"))

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_settings(tmp_path, defaults().replace(chat_model="second"))
    monkeypatch.undo()
    assert load_settings(tmp_path)[0].chat_model == "first"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


@hsettings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from([o.name for o in SCHEMA] + ["extra"]),
                       st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text())))
def test_any_decoded_file_loads_without_error(raw: dict) -> None:
    from tinyrag_desktop.settings import from_mapping

    s, warnings = from_mapping(raw)
    assert set(s) == {o.name for o in SCHEMA}


@pytest.mark.parametrize("verb", [["kb", "list"], ["ask", "hello", "--base-url", "http://127.0.0.1:9/v1"]])
def test_a_damaged_file_is_said_once_in_words_and_logged_in_full(tmp_path: Path, verb: list[str]) -> None:
    import subprocess
    import sys

    (tmp_path / "settings.json").write_text("{broken", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", *verb, "--data-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    said = [line for line in proc.stderr.splitlines() if "damaged" in line]
    assert said == [said[0]] and said[0].startswith("warning: The settings file ")  # no raw log line
    assert "is damaged (not valid JSON" in said[0] and "It is left as it is" in said[0], said
    # a verb that saves no settings leaves the file where it is, for the window to say (it keeps it aside)
    assert (tmp_path / "settings.json").read_text(encoding="utf-8") == "{broken"
    assert not (tmp_path / "settings.json.bad").exists()
    if verb[0] == "ask":  # a reading verb (kb list) writes no log in the data folder
        assert "settings file" in (tmp_path / "logs" / "tinyrag.log").read_text(encoding="utf-8")


@pytest.mark.parametrize("content", [b'{"theme": "\xff\xfe dark"}', b"[" * 100_000 + b"]" * 100_000,
                                     b'{"a": ' * 50_000 + b"1" + b"}" * 50_000])
def test_a_file_not_in_utf8_or_nested_too_deep_is_kept_aside_too(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "settings.json").write_bytes(content)
    s, warnings = load_settings(tmp_path, keep_aside=True)
    assert s == defaults()
    assert len(warnings) == 1 and "damaged" in warnings[0] and "settings.json.bad" in warnings[0]
    assert (tmp_path / "settings.json.bad").read_bytes() == content


def test_a_settings_file_not_in_utf8_is_a_warning_on_the_command_line_not_a_traceback(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "settings.json").write_bytes(b'{"theme": "\xff dark"}')
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "list", "--data-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, env=env)
    assert "Traceback" not in proc.stderr and proc.returncode == 0, proc.stderr
    assert "is damaged (not UTF-8 text)" in proc.stderr and (tmp_path / "settings.json").exists()


def test_a_second_damaged_file_does_not_overwrite_the_first_one_kept(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("{first")
    load_settings(tmp_path, keep_aside=True)
    (tmp_path / "settings.json").write_text("{second")
    _s, warnings = load_settings(tmp_path, keep_aside=True)
    assert (tmp_path / "settings.json.bad").read_text() == "{first"
    assert (tmp_path / "settings.json.bad-2").read_text() == "{second" and "settings.json.bad-2" in warnings[0]


def test_spaces_around_an_address_in_the_file_or_a_flag_are_dropped(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"base_url": " http://127.0.0.1:8766/v1\t",
                                                        "searxng_url": "  "}))
    s, warnings = load_settings(tmp_path)
    assert warnings == [] and s.base_url == "http://127.0.0.1:8766/v1" and s.searxng_url == ""
    assert defaults().replace(base_url="http://127.0.0.1:1234/v1 \n").base_url == "http://127.0.0.1:1234/v1"


_PASTED = (
    ("http://127.0.0.1:1234/v1/chat/completions", "http://127.0.0.1:1234/v1"),  # as LM Studio's docs show it
    ("http://127.0.0.1:1234/v1/chat/completions/", "http://127.0.0.1:1234/v1"),
    ("http://127.0.0.1:1234/v1/completions", "http://127.0.0.1:1234/v1"),
    ("http://127.0.0.1:11434/v1/models/", "http://127.0.0.1:11434/v1"),
    ("https://llm.example.org/v1/Embeddings", "https://llm.example.org/v1"),
    ("http://127.0.0.1:1234/v1", "http://127.0.0.1:1234/v1"),  # a root stays as it is
    ("http://127.0.0.1:1234/v1/completions-proxy", "http://127.0.0.1:1234/v1/completions-proxy"),
)


def test_an_endpoint_pasted_as_the_server_url_is_cut_back_to_the_server(tmp_path):
    # Kept, every request went to ".../chat/completions/chat/completions", and a strict server's 404 never
    # named the extra part. The settings file and --base-url go through the same check as the dialog.
    from tinyrag_desktop.cli import build_parser
    from tinyrag_desktop.cliargs import context_from_args

    for pasted, used in _PASTED:
        assert defaults().replace(base_url=pasted).base_url == used
        (tmp_path / "settings.json").write_text(json.dumps({"base_url": pasted}))
        assert load_settings(tmp_path) == (defaults().replace(base_url=used), [])
        args = build_parser().parse_args(["ask", "hi", "--base-url", pasted, "--data-dir", str(tmp_path)])
        assert context_from_args(args, create=False).settings.base_url == used


def test_one_bad_persona_in_the_file_leaves_the_others_in_place(tmp_path):
    personas = {"Pirate": "Talk like a pirate.", "Broken": 5, "n" * 201: "too long a name", "Poet": "Rhyme."}
    (tmp_path / "settings.json").write_text(json.dumps({"personas": personas}))
    s, warnings = load_settings(tmp_path)
    assert s.personas == {"Pirate": "Talk like a pirate.", "Poet": "Rhyme."}
    assert len(warnings) == 1 and '“Broken”' in warnings[0] and "left out" in warnings[0], warnings
    assert len(warnings[0]) < 300
    save_settings(tmp_path, s)  # what the user saves next keeps them
    assert load_settings(tmp_path)[0].personas == s.personas


@hsettings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.from_regex(r"https?://\[[^\]]{0,8}\]?(:\d{0,6})?(/[a-z]*)?", fullmatch=True)))
def test_any_address_or_key_is_taken_or_refused_in_words(text: str) -> None:
    # "http://[::1" in settings.json crashed every verb and the window (urlsplit's ValueError); a key with a
    # curly quote failed every request as "unreachable"
    for key in ("base_url", "searxng_url", "api_key"):
        try:
            defaults().replace(**{key: text})
        except SettingsError as exc:
            assert str(exc).startswith(key) and (key != "api_key" or text.strip() not in str(exc) or not text.strip())


def test_a_bracketed_ipv6_address_is_a_server_address() -> None:
    assert defaults().replace(base_url="http://[::1]:11434/v1")["base_url"] == "http://[::1]:11434/v1"
    assert defaults().replace(api_key="  sk-abc_DEF.123~ \n")["api_key"] == "sk-abc_DEF.123~"


def test_a_file_with_a_byte_order_mark_is_read_and_damage_is_said_in_words(tmp_path: Path) -> None:
    # Saved by Windows Notepad: "damaged (Unexpected UTF-8 BOM (decode using utf-8-sig) …)", every setting lost
    (tmp_path / "settings.json").write_bytes(b'\xef\xbb\xbf{"chat_model": "qwen", "k": 7}')
    s, warnings = load_settings(tmp_path)
    assert (s["chat_model"], s["k"], warnings) == ("qwen", 7, [])
    (tmp_path / "settings.json").write_text('{"k": 7,\n "chat_model": }')
    [said] = load_settings(tmp_path, keep_aside=True)[1]
    assert said.startswith("The settings file was damaged (not valid JSON: expecting value at line 2, column 16)")
    (tmp_path / "settings.json").write_text('{"k": 1' + "0" * 5000 + "}")
    [said] = load_settings(tmp_path, keep_aside=True)[1]
    assert said.startswith("The settings file was damaged (a number in it is too long)") and "sys." not in said


def test_a_warning_names_a_few_of_the_personas_left_out_and_counts_the_rest(tmp_path: Path) -> None:
    # 100,000 personas made one warning of 885,631 characters, and a banner over the whole window
    personas = {f"p{n}": "x" for n in range(100_000)}
    (tmp_path / "settings.json").write_text(json.dumps({"personas": personas}))
    s, [said] = load_settings(tmp_path)
    assert len(s["personas"]) == 500 and len(said) < 400
    assert said.endswith('“p509” and 99,490 more.')


def test_a_value_this_version_refuses_is_written_back_until_that_setting_is_changed(tmp_path):
    # "theme": "solarized" from a newer version was reset to "system", and the next Save wrote "system"
    # over it: going back to the newer version lost the choice.
    (tmp_path / "settings.json").write_text(json.dumps({"theme": "solarized", "temperature": 0.4}))
    settings, warnings = load_settings(tmp_path)
    assert settings["theme"] == "system" and "solarized" in warnings[0]
    save_settings(tmp_path, settings.replace(temperature=0.5, theme="system"))  # the dialog sends every field
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["theme"] == "solarized" and saved["temperature"] == 0.5
    save_settings(tmp_path, load_settings(tmp_path)[0].replace(theme="dark"))  # chosen here: it goes
    assert json.loads((tmp_path / "settings.json").read_text())["theme"] == "dark"


def test_a_value_of_the_wrong_kind_is_not_written_back(tmp_path):
    # "hot" for a temperature is a mistake, not a newer version's choice: it warned at every start
    (tmp_path / "settings.json").write_text(json.dumps({"temperature": "hot", "theme": "solarized"}))
    settings, _warnings = load_settings(tmp_path)
    save_settings(tmp_path, settings)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["temperature"] == settings["temperature"] and saved["theme"] == "solarized"


def test_a_misspelt_setting_is_said_with_the_one_meant_and_kept_in_the_file(tmp_path: Path) -> None:
    # "temprature": 0.5 was read without a word, and the temperature stayed at its default
    (tmp_path / "settings.json").write_text(json.dumps({"temprature": 0.5, "theme": "purple"}))
    s, warnings = load_settings(tmp_path)
    assert warnings == [
        'settings.json: theme must be one of light, dark, system, not “purple”. Using the default, “system”.',
        'settings.json has a setting this version does not use: “temprature” (did you mean “temperature”?). '
        "It is kept as it is."]
    save_settings(tmp_path, s.replace(k=5))
    assert json.loads((tmp_path / "settings.json").read_text())["temprature"] == 0.5  # a newer version's, maybe


def test_many_unknown_settings_are_one_notice_and_overrides_read_elsewhere_none() -> None:
    from tinyrag_desktop.settings import from_mapping

    raw = {f"key{i:03}": i for i in range(30)} | {"chatmodel": "qwen", "wikipedia_api_url": "http://127.0.0.1:9/w"}
    _s, [said] = from_mapping(raw)
    assert said.startswith('settings.json has settings this version does not use: “key000”, “key001”')
    assert "and 21 more. They are kept as they are." in said and "wikipedia_api_url" not in said
    assert '“chatmodel” (did you mean “chat_model”?)' in from_mapping({"chatmodel": "qwen"})[1][0]
    assert from_mapping({"wikipedia_api_url": "http://127.0.0.1:9/w"})[1] == []
    long_key = "x" * 5000
    assert len(from_mapping({long_key: 1})[1][0]) < 200


def test_the_readme_says_what_each_key_read_from_the_file_does() -> None:
    # `wikipedia_api_url` was read (and not said to be unknown) but written of nowhere: a power user could not
    # learn of it, nor of `url_fetch_trusted_networks`, short of the source.
    from tinyrag_desktop.settings_extra import READ_AS_EXTRA

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    settings_part = readme.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    for key in [option.name for option in SCHEMA] + sorted(READ_AS_EXTRA):  # the whole schema is there too
        assert f"`{key}`" in settings_part, key


def test_half_a_character_in_a_setting_is_refused_like_any_bad_value(tmp_path: Path) -> None:
    # JSON's "\ud800" without its other half: kept, it failed `ask --jsonl` and every save of an answer (the
    # model's name is stored with it) with a UnicodeEncodeError (the fuzzing review's case)
    (tmp_path / "settings.json").write_text('{"chat_model": "a\\ud800", "personas": {"Bad\\udc00": "x", "Ok": "y"},'
                                           ' "future_option\\ud800": 1, "theme": "\\ud800"}', encoding="utf-8")
    s, warnings = load_settings(tmp_path)
    assert s.chat_model == "" and s.personas == {"Ok": "y"} and s.theme == defaults().theme
    assert "future_option\ud800" not in s.to_json()
    said = "\n".join(warnings)
    assert "chat_model holds half of a character (written \\ud800 or the like), which cannot be saved" in said
    assert 'personas: “Bad\\udc00” holds half of a character' in said and "left out" in said
    said.encode("utf-8")  # the warnings themselves can be printed
    save_settings(tmp_path, s)
    assert json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))["personas"] == {"Ok": "y"}


def test_values_in_warnings_are_spelt_as_json(tmp_path: Path) -> None:
    # Python's spellings ("not None", "not True", "Using the default, False.") are no words settings.json holds
    (tmp_path / "settings.json").write_text(json.dumps({"temperature": None, "k": True, "allow_nanogo": "yes",
                                                        "theme": "it's"}))
    _s, warnings = load_settings(tmp_path)
    assert warnings == ["settings.json: temperature must be a number, not null. Using the default, 0.7.",
                        "settings.json: k must be a number, not true. Using the default, 5.",
                        'settings.json: allow_nanogo must be true or false, not “yes”. Using the default, false.',
                        "settings.json: theme must be one of light, dark, system, not “it's”. "
                        'Using the default, “system”.']


def test_a_warning_shows_invisible_and_reordering_characters_as_json_escapes():
    # A right-to-left override in a value turned the warning's words around on a terminal and in the window.
    from tinyrag_desktop.settings import from_mapping

    _, warnings = from_mapping({"theme": "dark\u202ekrad", "language\u2028": 1, "k": "\U000e0041"})
    said = "\n".join(warnings)
    assert "\u202e" not in said and "\u2028" not in said and "\U000e0041" not in said
    assert '“dark\\u202ekrad”' in said and "\\u2028" in said and '“\\udb40\\udc41”' in said


def test_a_value_typed_with_backslashes_and_one_holding_control_characters_are_told_apart() -> None:
    from tinyrag_desktop.settings import shown

    typed, controls = shown("C:\\temp\\new"), shown("C:\temp\new")  # backslashes typed; a tab and a line break
    assert typed == "“C:\\temp\\new”" and controls == "“C:␉emp␊ew”"  # both read “C:\temp\new” before
    assert shown('say "hi"\x01\x7f\x9b') == '“say "hi"␁\\u007f\\u009b”'  # nothing invisible reaches a terminal
