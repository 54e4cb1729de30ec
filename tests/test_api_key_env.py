"""The API key from $TINYRAG_API_KEY: a key given as --api-key shows in the process list and the shell's
history. The flag still wins for its run, and the environment wins over the settings file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tinyrag_desktop.cliargs import API_KEY_ENV, add_shared_flags, context_from_args
from tinyrag_desktop.settings import SettingsError


def _key(data_dir: Path, *flags: str) -> str:
    parser = argparse.ArgumentParser()
    add_shared_flags(parser)
    args = parser.parse_args(["--data-dir", str(data_dir), *flags])
    return context_from_args(args, create=False).settings["api_key"]


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"api_key": "sk-saved"}))
    return data


def test_the_environment_gives_the_key(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert API_KEY_ENV == "TINYRAG_API_KEY"
    monkeypatch.setenv(API_KEY_ENV, " sk-from-env \n")
    assert _key(saved) == "sk-from-env"
    assert json.loads((saved / "settings.json").read_text())["api_key"] == "sk-saved"  # for this run only


def test_the_flag_wins_and_the_settings_file_is_the_fallback(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(API_KEY_ENV, "sk-from-env")
    assert _key(saved, "--api-key", "sk-from-flag") == "sk-from-flag"
    monkeypatch.setenv(API_KEY_ENV, "  ")  # set but empty: as if not set
    assert _key(saved) == "sk-saved"
    monkeypatch.delenv(API_KEY_ENV)
    assert _key(saved) == "sk-saved"


def test_a_bad_key_in_the_environment_is_said_by_its_name(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(API_KEY_ENV, "sk-abc def")
    with pytest.raises(SettingsError) as info:
        _key(saved)
    assert str(info.value).startswith(f"{API_KEY_ENV} ") and "sk-abc def" not in str(info.value)


def test_the_flags_help_names_the_variable() -> None:
    parser = argparse.ArgumentParser()
    add_shared_flags(parser)
    assert "$TINYRAG_API_KEY" in " ".join(parser.format_help().split())
