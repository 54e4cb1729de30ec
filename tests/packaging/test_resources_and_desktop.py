"""The resource locator in a checkout, a bundle and a wheel layout; the Linux .desktop entry and installer."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tinyrag_desktop import resources
from tinyrag_desktop.resources import ResourceNotFound, candidate_roots, resource_path, resources_root

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_cache():
    resources_root.cache_clear()
    yield
    resources_root.cache_clear()


def _fake_root(base: Path) -> Path:
    root = base / "resources"
    (root / "icons").mkdir(parents=True)
    (root / "icons" / "app.svg").write_text("<svg/>", encoding="utf-8")
    return root


def test_source_checkout_finds_the_repository_resources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TINYRAG_RESOURCES", raising=False)
    assert resources_root() == ROOT / "resources"
    assert resource_path("icons", "app.svg").is_file()
    assert resource_path("themes", "base.qss").is_file()
    assert len(list(resource_path("guide").glob("*.md"))) >= 3


def test_a_frozen_bundle_uses_its_own_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TINYRAG_RESOURCES", raising=False)
    bundle = _fake_root(tmp_path / "_internal")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "_internal"), raising=False)
    assert resources_root() == bundle
    assert resource_path("icons", "app.svg") == bundle / "icons" / "app.svg"


def test_the_environment_overrides_everything(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    root = _fake_root(tmp_path)
    monkeypatch.setenv("TINYRAG_RESOURCES", str(root))
    assert resources_root() == root


def test_a_wheel_install_finds_the_shared_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TINYRAG_RESOURCES", raising=False)
    shared = _fake_root(tmp_path / "share" / "tinyrag-desktop")
    monkeypatch.setattr(resources, "__file__", str(tmp_path / "site-packages" / "tinyrag_desktop" / "resources.py"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert resources_root() == shared


def test_nowhere_is_an_error_that_lists_the_places(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TINYRAG_RESOURCES", raising=False)
    monkeypatch.setattr(resources, "__file__", str(tmp_path / "pkg" / "tinyrag_desktop" / "resources.py"))
    monkeypatch.setattr(resources.sys, "prefix", str(tmp_path / "p1"))
    monkeypatch.setattr(resources.sys, "base_prefix", str(tmp_path / "p2"))
    monkeypatch.setattr(resources.sysconfig, "get_path", lambda name: str(tmp_path / "p3"))
    with pytest.raises(ResourceNotFound) as err:
        resources_root()
    for root in candidate_roots():
        assert str(root) in str(err.value)
    # resource_path itself never raises: icon code tests is_file() and paints its fallback
    assert not resource_path("icons", "app.svg").is_file()


def test_desktop_entry_is_complete_and_names_an_existing_icon() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(ROOT / "packaging" / "tinyrag-desktop.desktop", encoding="utf-8")
    d = entry["Desktop Entry"]
    assert d["Type"] == "Application" and d["Name"] == "tinyRAG Desktop" and d["Terminal"] == "false"
    assert d["Exec"].split()[0] == "tinyrag-desktop" and d["Categories"].endswith(";")
    assert d["StartupWMClass"] == "tinyrag-desktop"  # matches app.setDesktopFileName in app.py
    assert (ROOT / "resources" / "icons" / "app" / f"{d['Icon']}-256.png").is_file()


def test_platform_icons_are_valid_containers() -> None:
    icons = ROOT / "resources" / "icons" / "app"
    ico = (icons / "tinyrag-desktop.ico").read_bytes()
    assert ico[:4] == b"\x00\x00\x01\x00" and int.from_bytes(ico[4:6], "little") >= 5
    icns = (icons / "tinyrag-desktop.icns").read_bytes()
    assert icns[:4] == b"icns" and int.from_bytes(icns[4:8], "big") == len(icns)


@pytest.mark.skipif(os.name != "posix" or not shutil.which("sh"), reason="the Linux installer is a POSIX script")
def test_linux_installer_installs_and_uninstalls_a_bundle(tmp_path: Path) -> None:
    dist = tmp_path / "dist" / "tinyrag-desktop"
    dist.mkdir(parents=True)
    exe = dist / "tinyrag-desktop"
    exe.write_text("#!/bin/sh\necho frozen\n", encoding="utf-8")
    exe.chmod(0o755)
    prefix = tmp_path / "home" / ".local"
    env = {**os.environ, "DIST": str(dist), "PREFIX": str(prefix)}
    script = ROOT / "packaging" / "install-linux.sh"
    subprocess.run(["sh", str(script)], env=env, check=True, capture_output=True, timeout=60)
    launcher = prefix / "bin" / "tinyrag-desktop"
    assert subprocess.run([str(launcher)], capture_output=True, text=True, timeout=30).stdout == "frozen\n"
    desktop = (prefix / "share" / "applications" / "tinyrag-desktop.desktop").read_text(encoding="utf-8")
    assert f'Exec="{launcher}"\n' in desktop  # quoted, whatever its folder is called (see below)
    assert (prefix / "share" / "icons" / "hicolor" / "256x256" / "apps" / "tinyrag-desktop.png").is_file()
    subprocess.run(["sh", str(script), "--uninstall"], env=env, check=True, capture_output=True, timeout=60)
    assert not launcher.exists() and not (prefix / "lib" / "tinyrag-desktop").exists()


@pytest.mark.skipif(os.name != "posix" or not shutil.which("sh"), reason="the Linux installer is a POSIX script")
def test_the_unpacked_archive_installs_itself_with_the_bundles_icons(tmp_path: Path) -> None:
    # As the spec leaves the bundle folder (and the archive made of it): the installer and the menu entry
    # beside the executable, the icons only under _internal/resources; no source checkout anywhere.
    bundle = tmp_path / "my downloads" / "tinyrag-desktop"
    icons = bundle / "_internal" / "resources" / "icons" / "app"
    icons.mkdir(parents=True)
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        (icons / f"tinyrag-desktop-{size}.png").write_bytes(b"bundle icon %d" % size)
    exe = bundle / "tinyrag-desktop"
    exe.write_text("#!/bin/sh\necho frozen\n", encoding="utf-8")
    exe.chmod(0o755)
    for name in ("install-linux.sh", "tinyrag-desktop.desktop"):
        shutil.copy2(ROOT / "packaging" / name, bundle / name)
    prefix = tmp_path / "home" / ".local"
    env = {k: v for k, v in os.environ.items() if k != "DIST"}
    env["PREFIX"] = str(prefix)
    done = subprocess.run(["./install-linux.sh"], cwd=bundle, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    launcher = prefix / "bin" / "tinyrag-desktop"
    assert subprocess.run([str(launcher)], capture_output=True, text=True, timeout=30).stdout == "frozen\n"
    assert (prefix / "share" / "icons" / "hicolor" / "256x256" / "apps" / "tinyrag-desktop.png").read_bytes() \
        == b"bundle icon 256"
    desktop = (prefix / "share" / "applications" / "tinyrag-desktop.desktop").read_text(encoding="utf-8")
    assert f'Exec="{launcher}"\n' in desktop and "Name=tinyRAG Desktop\n" in desktop
    # run again from the installed copy, it would delete what it copies: it says so and changes nothing
    again = subprocess.run(["sh", str(prefix / "lib" / "tinyrag-desktop" / "install-linux.sh")], env=env,
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "installed copy" in again.stderr and launcher.exists()


def _exec_argv(desktop: str) -> list[str]:
    """The command a menu runs for the entry's Exec= line, read as the Desktop Entry spec says: the string's
    escapes first (\\s, \\n, \\t, \\r, \\\\), then its arguments, split at spaces outside double quotes, where
    a backslash takes the ", `, $ or \\ after it as it is; %% is a %."""
    value = next(line[len("Exec="):] for line in desktop.splitlines() if line.startswith("Exec="))
    escapes = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
    value = re.sub(r"\\([sntr\\])", lambda m: escapes[m.group(1)], value)
    args = [m.group(1) if m.group(1) is not None else m.group(2)
            for m in re.finditer(r'"((?:[^"\\]|\\["`$\\])*)"|([^ "]+)', value)]
    return [re.sub(r'\\(["`$\\])', r"\1", arg).replace("%%", "%") for arg in args]


def _install(tmp_path: Path, prefix: Path, path: str) -> subprocess.CompletedProcess[str]:
    """The installer run into ``prefix`` with PATH ``path``, from a bundle whose program writes where it ran."""
    dist = tmp_path / "dist" / "tinyrag-desktop"
    dist.mkdir(parents=True, exist_ok=True)
    exe = dist / "tinyrag-desktop"
    exe.write_text(f"#!/bin/sh\necho frozen > {shlex.quote(str(tmp_path / 'ran'))}\n", encoding="utf-8")
    exe.chmod(0o755)
    env = {**os.environ, "DIST": str(dist), "PREFIX": str(prefix), "PATH": path}
    return subprocess.run(["sh", str(ROOT / "packaging" / "install-linux.sh")], env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.skipif(os.name != "posix" or not shutil.which("sh"), reason="the Linux installer is a POSIX script")
@pytest.mark.parametrize("folder", ["my apps", 'odd $HOME `x` "q" back\\slash it\'s 100%'])
def test_the_menu_entry_names_a_launcher_in_a_folder_with_spaces_and_quotes(tmp_path: Path, folder: str) -> None:
    # Exec=/home/me/my apps/.local/bin/tinyrag-desktop: the menu ran "/home/me/my" with an argument
    prefix = tmp_path / folder / ".local"
    done = _install(tmp_path, prefix, os.environ["PATH"])
    assert done.returncode == 0, done.stderr
    launcher = prefix / "bin" / "tinyrag-desktop"
    desktop = (prefix / "share" / "applications" / "tinyrag-desktop.desktop").read_text(encoding="utf-8")
    assert _exec_argv(desktop) == [str(launcher)], desktop
    try_exec = next(line for line in desktop.splitlines() if line.startswith("TryExec="))
    assert try_exec[len("TryExec="):].replace("\\\\", "\\") == str(launcher)
    subprocess.run(_exec_argv(desktop), check=True, timeout=30)
    assert (tmp_path / "ran").read_text(encoding="utf-8") == "frozen\n"
    assert ("GNOME's menu does not start programs from a folder with %" in done.stderr) == ("%" in folder)


@pytest.mark.skipif(os.name != "posix" or not shutil.which("sh") or not shutil.which("gio"),
                    reason="GLib's gio launches a menu entry as GNOME's menu does")
def test_glib_starts_the_menu_entry_of_a_folder_with_spaces_and_quotes(tmp_path: Path) -> None:
    prefix = tmp_path / 'my apps $x "q" back\\slash' / ".local"
    assert _install(tmp_path, prefix, os.environ["PATH"]).returncode == 0
    entry = prefix / "share" / "applications" / "tinyrag-desktop.desktop"
    launched = subprocess.run(["gio", "launch", str(entry)], capture_output=True, text=True, timeout=30)
    assert launched.returncode == 0, launched.stderr  # was: "Unable to load application information"
    ran = tmp_path / "ran"
    deadline = time.monotonic() + 20  # gio starts it and returns: its file comes when it has run
    while not ran.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ran.read_text(encoding="utf-8") == "frozen\n"


@pytest.mark.skipif(os.name != "posix" or not shutil.which("sh"), reason="the Linux installer is a POSIX script")
def test_the_installer_says_when_its_bin_folder_is_not_on_path(tmp_path: Path) -> None:
    prefix = tmp_path / "home" / ".local"
    tools = os.pathsep.join(os.path.dirname(shutil.which(name) or "/bin") for name in ("sh", "sed", "awk", "cp"))
    done = _install(tmp_path, prefix, tools)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "PATH" in line]
    assert said == [f"Note: {prefix / 'bin'} is not on your PATH, so typing tinyrag-desktop in a terminal will not "
                    "find it (the menu entry works): add that folder to PATH in your shell's profile."]
    (tmp_path / "linked").symlink_to(prefix / "bin")  # on PATH through a link to it: found
    for bin_folder in (prefix / "bin", tmp_path / "linked"):
        done = _install(tmp_path, prefix, os.pathsep.join([tools, str(bin_folder)]))
        assert done.returncode == 0 and "PATH" not in done.stderr, done.stderr
