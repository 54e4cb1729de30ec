"""`make corpora` (run by `make bench`): the benchmark corpora installed when missing, or the line to run."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def fake_tools(folder: Path, *, missing: set[str], uid: int, sudo_works: bool) -> Path:
    """dpkg that knows every package but `missing`, id printing `uid`, sudo, and an apt-get that logs."""
    log = folder / "apt.log"
    scripts = {
        "dpkg": "for p in " + " ".join(sorted(missing) or ["-"]) + '; do [ "$2" = "$p" ] && exit 1; done; exit 0',
        "id": f"echo {uid}",
        "sudo": '[ "$1" = -n ] && shift; ' + ('[ "$1" = true ] && exit 0; exec "$@"' if sudo_works else "exit 1"),
        "apt-get": f'echo "$(id) $*" >> {log}',
    }
    for name, body in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    return log


def make_corpora(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{folder}:{os.environ['PATH']}"}
    return subprocess.run(["make", "-s", "-C", str(ROOT), "corpora"], env=env, capture_output=True, text=True,
                          timeout=60)


def test_nothing_missing_installs_nothing_and_says_nothing(tmp_path: Path) -> None:
    log = fake_tools(tmp_path, missing=set(), uid=0, sudo_works=True)
    done = make_corpora(tmp_path)
    assert done.returncode == 0 and done.stdout == ""
    assert not log.exists()


def test_as_root_the_missing_packages_are_installed(tmp_path: Path) -> None:
    log = fake_tools(tmp_path, missing={"git-doc", "debian-reference-ja"}, uid=0, sudo_works=False)
    done = make_corpora(tmp_path)
    assert done.returncode == 0
    assert "Installing the benchmark corpora: git-doc debian-reference-ja" in done.stdout
    assert log.read_text().split("\n")[0] == "0 install -y -q git-doc debian-reference-ja"


def test_with_a_sudo_that_asks_nothing_it_is_used(tmp_path: Path) -> None:
    log = fake_tools(tmp_path, missing={"postgresql-doc-15"}, uid=1000, sudo_works=True)
    assert make_corpora(tmp_path).returncode == 0
    assert log.read_text().split("\n")[0] == "1000 install -y -q postgresql-doc-15"


def test_without_rights_the_command_to_run_is_printed_and_bench_goes_on(tmp_path: Path) -> None:
    log = fake_tools(tmp_path, missing={"git-doc"}, uid=1000, sudo_works=False)
    done = make_corpora(tmp_path)
    assert done.returncode == 0
    assert done.stdout.strip() == "To measure recall, install: sudo apt-get install git-doc"
    assert not log.exists()
