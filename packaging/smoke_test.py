"""Smoke test of the BUILT bundle: the frozen executable's window, ask, kb and nanogo verbs, offline.

    python packaging/smoke_test.py [PATH/TO/tinyrag-desktop]     (default: dist/tinyrag-desktop/…)

Every model answer comes from the loopback scripted server (tests/sse_server.py) and every page from a
loopback HTTP server, so the test never reaches the internet. Exit 0 when all checks pass, 1 otherwise;
each check prints one line with its time, so a CI log shows which part of the bundle broke.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sse_server import ScriptedLLMServer, Stream  # noqa: E402

TIMEOUT = 180  # seconds per frozen run: a cold start on a busy CI machine takes a few seconds


class SmokeFailure(AssertionError):
    """A check of the bundle failed; the message says what the executable did instead."""


def default_executable() -> Path:
    name = "tinyrag-desktop.exe" if os.name == "nt" else "tinyrag-desktop"
    return ROOT / "dist" / "tinyrag-desktop" / name


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "QT_"))}
    env.update(QT_QPA_PLATFORM="offscreen", TINYRAG_DATA_DIR=str(data_dir))
    env.pop("TINYRAG_RESOURCES", None)  # the bundle must find its own resources
    return env


def run(exe: Path, args: list[str], data_dir: Path, stdin: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(exe), *args], input=stdin, capture_output=True, text=True, encoding="utf-8",
                          timeout=TIMEOUT, env={**_env(data_dir), **(env or {})}, cwd=data_dir)
    no_traceback(proc.stderr, " ".join(args[:2]))
    return proc


# A module left out of the bundle, or an error nobody caught: a failing check, even when the run went on and
# exited 0 (an import that fails only on a path that catches it, and prints it).
BROKEN = re.compile(r"Traceback \(most recent call last\)|No module named|ModuleNotFoundError")


def no_traceback(text: str, what: str) -> None:
    """SmokeFailure when ``text`` (a run's standard error, a log) holds a Python traceback or a missing module."""
    found = BROKEN.search(text)
    if found:
        start = max(0, text.rfind("\n", 0, max(0, found.start() - 200)) + 1)
        raise SmokeFailure(f"{what}: Python printed an error it should not have:\n{text[start:start + 3000]}")


def expect(proc: subprocess.CompletedProcess, code: int, what: str) -> None:
    if proc.returncode != code:
        raise SmokeFailure(f"{what}: exit {proc.returncode}, expected {code}\nstdout: {proc.stdout[-2000:]}\n"
                           f"stderr: {proc.stderr[-4000:]}")


def tool_reply(tool: str, element: str, content: str) -> Stream:
    block = f'<tool name="{tool}"><{element}>{content}</{element}></tool>'
    return Stream(["Let me ", "check that. ", block[:9], block[9:30], block[30:]])


def png_facts(path: Path) -> tuple[int, int, int]:
    """(width, height, distinct row contents) of an 8-bit PNG: a blank or broken screenshot has ~1 row kind."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SmokeFailure(f"{path} is not a PNG file")
    pos, idat = 8, b""
    width = height = 0
    channels = 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos: pos + 8])
        body = data[pos + 8: pos + 8 + length]
        if kind == b"IHDR":
            width, height, _, colour = struct.unpack(">IIBB", body[:10])
            channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + width * channels
    rows = {raw[i * stride + 1: (i + 1) * stride] for i in range(height)}
    return width, height, len(rows)


def check_version(exe: Path, tmp: Path) -> str:
    proc = run(exe, ["--version"], tmp)
    expect(proc, 0, "--version")
    text = (ROOT / "tinyrag_desktop" / "__init__.py").read_text(encoding="utf-8")
    version = text.split("__version__ = ")[1].split("\n")[0].strip("\"'")
    if version not in proc.stdout:
        raise SmokeFailure(f"--version printed {proc.stdout!r}, expected {version}")
    return proc.stdout.strip()


def check_window_screenshot(exe: Path, tmp: Path) -> str:
    shot = tmp / "window.png"
    with ScriptedLLMServer() as llm:
        llm.queue(tool_reply("calculate", "query", "17 * 23 + 1"), Stream(["The answer is ", "**392**."]))
        proc = run(exe, ["--ask", "What is 17 * 23 + 1?", "--screenshot", str(shot), "--base-url", llm.base_url,
                         "--model", "scripted", "--temperature", "0", "--data-dir", str(tmp / "window")], tmp)
        requests = list(llm.requests)
    expect(proc, 0, "--ask --screenshot")
    if not shot.is_file():
        raise SmokeFailure("--ask --screenshot exited 0 but wrote no PNG")
    width, height, kinds = png_facts(shot)
    if width < 400 or height < 300 or kinds < 40:
        raise SmokeFailure(f"the screenshot looks blank: {width}x{height}, {kinds} distinct rows")
    if len(requests) != 2 or "392" not in json.dumps(requests[1]):
        raise SmokeFailure(f"the calculate card did not hand 392 back to the model: {len(requests)} requests")
    return f"{width}x{height} PNG, {shot.stat().st_size // 1024} KB, {kinds} distinct rows, tool result sent back"


def check_ask_jsonl(exe: Path, tmp: Path) -> str:
    with ScriptedLLMServer() as llm:
        llm.queue(tool_reply("calculate", "query", "2 ** 10"), Stream(["It is 1024."]))
        proc = run(exe, ["ask", "What is 2 to the 10th?", "--jsonl", "--base-url", llm.base_url, "--model",
                         "scripted", "--data-dir", str(tmp / "ask")], tmp)
    expect(proc, 0, "ask --jsonl")
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    names = [e["event"] for e in events]
    results = [e for e in events if e["event"] == "tool_result"]
    if names[-1:] != ["done"] or not results or results[0]["status"] != "ok":
        raise SmokeFailure(f"ask --jsonl events: {names}; results: {results}")
    return f"{len(events)} events, calculate {results[0]['status']}"


def check_every_tool(exe: Path, tmp: Path) -> str:
    """Every built-in tool is in the bundle. Their modules are imported by name, and one that is missing is
    left out without a word (tools/registry.py: a build without that tool), so only the list the model is
    given shows it: the system prompt of ``ask`` with every tool allowed must name all of this tree's."""
    from tinyrag_desktop.tools import default_registry

    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Hello."]))
        proc = run(exe, ["ask", "Hello", "--allow-nanogo", "--allow-shell-exec", "--base-url", llm.base_url,
                         "--model", "scripted", "--data-dir", str(tmp / "tools")], tmp)
        requests = list(llm.requests)
    expect(proc, 0, "ask with every tool allowed")
    system = " ".join(m["content"] for m in requests[0]["messages"] if m["role"] == "system") if requests else ""
    listed = re.findall(r"^- ([a-z_]+):", system, re.M)  # the prompt's "Tools:" list, one "- name: …" a line
    wanted = default_registry().names()
    missing = [name for name in wanted if name not in listed]
    if missing:
        raise SmokeFailure(f"tools missing from the bundle (or disabled in it): {missing}; its prompt lists {listed}")
    return f"the model is offered all {len(wanted)} tools: {', '.join(listed)}"


def check_ask_nanogo_tool(exe: Path, tmp: Path) -> str:
    source = 'package main\nimport "fmt"\nfunc main() { fmt.Println("hello from", 6*7) }'
    with ScriptedLLMServer() as llm:
        llm.queue(tool_reply("nanogo", "source", source), Stream(["It printed hello from 42."]))
        proc = run(exe, ["ask", "Run a Go hello world", "--jsonl", "--allow-nanogo", "--base-url", llm.base_url,
                         "--model", "scripted", "--data-dir", str(tmp / "asknano")], tmp)
        requests = list(llm.requests)
    expect(proc, 0, "ask with the nanogo tool")
    if not (ROOT / "tinyrag_desktop" / "tools" / "nanogo_tool.py").is_file():
        return "SKIPPED: this source tree has no nanogo tool module yet (tools/nanogo_tool.py)"
    results = [json.loads(line) for line in proc.stdout.splitlines() if '"tool_result"' in line]
    if not results or results[0]["status"] != "ok" or "hello from 42" not in json.dumps(requests[-1]):
        raise SmokeFailure(f"the nanogo tool inside the bundle failed: {results}")
    return "nanogo tool ran in the frozen sandbox"


def check_nanogo_verb(exe: Path, tmp: Path) -> str:
    program = ('package main\nimport "fmt"\nfunc main() {\n\tsum := 0\n\tfor i := 1; i <= 100; i++ {\n'
               '\t\tsum += i\n\t}\n\tfmt.Printf("sum=%d\\n", sum)\n}\n')
    proc = run(exe, ["nanogo", "-"], tmp, stdin=program)
    expect(proc, 0, "nanogo -")
    if proc.stdout != "sum=5050\n":
        raise SmokeFailure(f"nanogo printed {proc.stdout!r}")
    bad = run(exe, ["nanogo", "-"], tmp, stdin="package main\nfunc main() { x := 1 }\n")
    expect(bad, 2, "nanogo with a compile error")
    panic = run(exe, ["nanogo", "-"], tmp, stdin="package main\nfunc main() { var a []int; _ = a[3] }\n")
    expect(panic, 1, "nanogo with a runtime panic")
    return "ok, compile error 2, panic 1"


class _Pages(BaseHTTPRequestHandler):
    PAGE = (b"<html><head><title>Greenhouse notes</title></head><body><nav>Home | About</nav><article>"
            b"<h1>Greenhouse notes</h1><p>The greenhouse tomatoes are watered every morning at seven, and the "
            b"vents open automatically when the air is warmer than twenty-six degrees.</p><p>Basil grows "
            b"beside the tomatoes because it keeps whiteflies away and likes the same warm, humid air.</p>"
            b"</article><footer>Copyright</footer></body></html>")

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.PAGE)))
        self.end_headers()
        self.wfile.write(self.PAGE)

    def log_message(self, *args: object) -> None:
        pass


def check_kb(exe: Path, tmp: Path) -> str:
    data = tmp / "kb"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/greenhouse.html"
        guide = ROOT / "resources" / "guide"
        docs = tmp / "docs"
        docs.mkdir(exist_ok=True)
        # PDF and Word files go through PDFium (pypdfium2) and python-docx inside the bundle.
        from tests.kb.conftest import make_docx, make_pdf

        (docs / "lighthouse.pdf").write_bytes(make_pdf(["The lighthouse lamp turns every twelve seconds."]))
        make_docx(docs / "garden.docx")
        targets = [url, str(docs / "lighthouse.pdf"), str(docs / "garden.docx")]
        targets += [str(p) for p in sorted(guide.glob("*.md"))[:1]]
        added = run(exe, ["kb", "add", *targets, "--data-dir", str(data)], tmp)
    finally:
        httpd.shutdown()
        httpd.server_close()
    expect(added, 0, "kb add (a loopback page through trafilatura, and a Markdown file)")
    found = run(exe, ["kb", "search", "when are the tomatoes watered", "--jsonl", "--data-dir", str(data)], tmp)
    expect(found, 0, "kb search")
    hits = [json.loads(line) for line in found.stdout.splitlines() if line.strip()]
    if not hits or "seven" not in hits[0]["text"]:
        raise SmokeFailure(f"kb search did not find the page's passage: {hits}")
    for query, word in (("how often does the lighthouse lamp turn", "twelve"), ("watering tomatoes", "twice")):
        other = run(exe, ["kb", "search", query, "--jsonl", "--data-dir", str(data)], tmp)
        expect(other, 0, f"kb search {query!r}")
        if word not in other.stdout:
            raise SmokeFailure(f"kb search {query!r} did not find the PDF/Word passage: {other.stdout[:500]}")
    # pyspellchecker's English word list is in the bundle: a typo is corrected, a real word is not.
    typo = run(exe, ["kb", "search", "lighthuose lamp", "--jsonl", "--data-dir", str(data)], tmp)
    word = run(exe, ["kb", "search", "lamb", "--jsonl", "--data-dir", str(data)], tmp)
    expect(typo, 0, "kb search with a typo")
    expect(word, 0, "kb search for a word no passage uses")
    if "twelve" not in typo.stdout or "lighthouse" not in typo.stderr:
        raise SmokeFailure(f"kb search did not correct 'lighthuose': {typo.stdout[:300]} {typo.stderr[:300]}")
    if word.stdout.strip() or "instead of" in word.stderr:
        raise SmokeFailure(f"kb search took the word 'lamb' for a typo (is the word list missing?): {word.stderr[:300]}")
    listed = run(exe, ["kb", "list", "--data-dir", str(data)], tmp)
    expect(listed, 0, "kb list")
    if len(re.findall(r"\d+ chunks?\b", listed.stdout)) < len(targets):  # a line per source: "4 chunks", "1 chunk"
        raise SmokeFailure(f"kb list shows fewer sources than were added:\n{listed.stdout}")
    return (f"{len(targets)} sources added (web page, PDF, Word, Markdown), all found by search; "
            "a typo corrected, a real word not")


def check_kb_reader(exe: Path, tmp: Path) -> str:
    """The executable as a reader process (``--kb-reader``), as a large import starts it on a computer with
    processors to spare: files in, their chunks out, a failure sent back as an error, then its exit."""
    from tinyrag_desktop.kb import reader_worker
    from tinyrag_desktop.kb.errors import ReadError

    page = b"<html><head><title>Greenhouse</title></head><body><main><h1>Watering</h1><p>" + \
        b"Tomatoes are watered twice a week. " * 40 + b"</p></main></body></html>"
    jobs = [reader_worker.ReadJob(page, "html", "greenhouse.html", 1200),
            reader_worker.ReadJob(b"", "text", "empty.txt", 1200)]
    proc = subprocess.Popen([str(exe), reader_worker.READER_FLAG], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(tmp), cwd=tmp)
    try:
        for job in jobs:
            reader_worker._send(proc.stdin, job)
        proc.stdin.close()
        ok, packed = reader_worker._receive(proc.stdout)
        failed, error = reader_worker._receive(proc.stdout)
        code = proc.wait(TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        stderr = proc.stderr.read().decode("utf-8", "replace")
        proc.stdout.close()
        proc.stderr.close()
    no_traceback(stderr, "--kb-reader")
    if not ok:
        raise SmokeFailure(f"the reader could not read an HTML page: {packed!r}\nstderr: {stderr[-2000:]}")
    doc, chunks = reader_worker._unpacked(packed)
    if doc.title != "Greenhouse" or not chunks or "twice a week" not in chunks[0].text:
        raise SmokeFailure(f"the reader read the page wrongly: {doc.title!r}, {chunks[:1]}")
    if failed or not isinstance(error, ReadError):
        raise SmokeFailure(f"the reader did not send back the empty file's error: {failed}, {error!r}")
    if code != 0:
        raise SmokeFailure(f"the reader exited {code} at the end of its input\nstderr: {stderr[-2000:]}")
    read = f"{len(chunks)} chunk{'s' if len(chunks) != 1 else ''}"
    return f"an HTML page read into {read}, an empty file's error sent back ({error}), exit 0"


def check_child_guard(exe: Path, tmp: Path) -> str:
    """The executable as the guard (``--child-guard``) that shell commands and llama-server start through
    (lifeline.py): it runs the program, whose output and exit status are the program's own."""
    if os.name != "posix":
        return "not used on Windows"
    done = run(exe, ["--child-guard", "/bin/sh", "-c", "echo guarded; exit 3"], tmp)
    expect(done, 3, "the guard running /bin/sh")
    if done.stdout != "guarded\n":
        raise SmokeFailure(f"the guard did not pass the program's output on: {done.stdout!r} {done.stderr[-2000:]}")
    return "ran /bin/sh: its output and its exit status 3"


def check_child_environment(exe: Path, tmp: Path) -> str:
    """A program the app starts (here a shell command, through the guard) gets the environment the app was
    started with: not the bundle's LD_LIBRARY_PATH and QT_PLUGIN_PATH, with which ``curl`` or a browser
    loaded the bundle's (the build machine's) libssl and Qt plugins instead of their own."""
    if os.name != "posix":
        return "not used on Windows"
    own = {"LD_LIBRARY_PATH": str(tmp / "own-lib"), "QT_PLUGIN_PATH": str(tmp / "own-qt-plugins")}
    show = "printf 'LD=%s;QT=%s;PYI=%s;END' \"$LD_LIBRARY_PATH\" \"$QT_PLUGIN_PATH\" \"$_PYI_ARCHIVE_FILE\""
    with ScriptedLLMServer() as llm:
        llm.queue(tool_reply("shell", "query", show), Stream(["Done."]))
        proc = run(exe, ["ask", "Show the environment", "--allow-shell-exec", "--base-url", llm.base_url, "--model",
                         "scripted", "--data-dir", str(tmp / "child-env")], tmp, env=own)
        requests = list(llm.requests)
    expect(proc, 0, "ask with a shell command")
    # the command's output, not the command itself (which the request holds too, with its "%s")
    seen = [found for found in re.findall(r"LD=[^;]*;QT=[^;]*;PYI=[^;]*;END", json.dumps(requests[-1:]))
            if "%s" not in found]
    if not seen:
        raise SmokeFailure(f"the shell command's output did not reach the model: {proc.stderr[-2000:]}")
    wanted = f"LD={own['LD_LIBRARY_PATH']};QT={own['QT_PLUGIN_PATH']};PYI=;END"
    if seen[-1] != wanted:
        raise SmokeFailure(f"a shell command saw the bundle's environment: {seen[-1]!r}, expected "
                           f"{wanted!r} (bundle {exe.resolve().parent})")
    return "a shell command sees the LD_LIBRARY_PATH and QT_PLUGIN_PATH the app was started with, no _PYI_"


def check_installer(exe: Path, tmp: Path) -> str:
    """The bundle folder (the archive people download) can install itself: its own install-linux.sh puts a
    launcher, the menu entry and the icons (from _internal/resources) under a prefix, and takes them away."""
    if not sys.platform.startswith("linux"):
        return "Linux only"
    bundle = exe.resolve().parent
    script = bundle / "install-linux.sh"
    if not script.is_file() or not (bundle / "tinyrag-desktop.desktop").is_file():
        raise SmokeFailure(f"the bundle folder has no install-linux.sh or tinyrag-desktop.desktop: "
                           f"{sorted(p.name for p in bundle.iterdir())}")
    prefix = tmp / "install prefix"
    env = {k: v for k, v in os.environ.items() if k != "DIST"}
    env["PREFIX"] = str(prefix)
    done = subprocess.run(["sh", str(script)], env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if done.returncode != 0:
        raise SmokeFailure(f"the bundle's install-linux.sh failed (exit {done.returncode}): {done.stderr[-2000:]}")
    try:
        icons = list((prefix / "share" / "icons").glob("hicolor/*/apps/tinyrag-desktop.png"))
        version = run(prefix / "bin" / "tinyrag-desktop", ["--version"], tmp)
        expect(version, 0, "the installed launcher's --version")
        entry = prefix / "share" / "applications" / "tinyrag-desktop.desktop"
        if len(icons) < 8 or not entry.is_file():
            raise SmokeFailure(f"the installer left {len(icons)} icons and the menu entry "
                               f"{'in place' if (prefix / 'share' / 'applications').is_dir() else 'missing'}")
        exec_line = f'Exec="{prefix / "bin" / "tinyrag-desktop"}"'  # the prefix has a space: quoted
        if exec_line not in entry.read_text(encoding="utf-8").splitlines():
            raise SmokeFailure(f"the menu entry does not start the launcher: no line {exec_line}")
    finally:
        subprocess.run(["sh", str(script), "--uninstall"], env=env, capture_output=True, timeout=TIMEOUT)
    return f"./install-linux.sh installed a launcher that runs, the menu entry and {len(icons)} icons"


def check_logs(exe: Path, tmp: Path) -> str:
    """No run wrote a traceback or a missing module to its data folder's log (every run's stderr is read by
    :func:`run`)."""
    logs = sorted(tmp.glob("**/logs/*.log"))
    for log in logs:
        no_traceback(log.read_text(encoding="utf-8", errors="replace"), str(log.relative_to(tmp)))
    return f"{len(logs)} log files, none with a traceback or a missing module"


def _processes() -> dict[int, tuple[int, bool, str]]:
    """Every process: pid -> (parent's pid, still running (not a zombie), command line). From /proc on Linux
    (a slim container may have no ps), from ps on macOS."""
    table: dict[int, tuple[int, bool, str]] = {}
    if sys.platform.startswith("linux"):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                stat = Path(f"/proc/{name}/stat").read_text(encoding="utf-8", errors="replace")
                args = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:  # it ended meanwhile
                continue
            state, ppid = stat[stat.rindex(")") + 2:].split()[:2]  # after "(comm)", which may hold spaces
            table[int(name)] = (int(ppid), state not in ("Z", "X"), args.strip())
        return table
    out = subprocess.run(["ps", "-A", "-o", "pid=,ppid=,stat=,args="], capture_output=True, text=True,
                         timeout=TIMEOUT).stdout
    for line in out.splitlines():
        pid, ppid, state, *args = line.split(None, 3)
        table[int(pid)] = (int(ppid), not state.startswith("Z"), " ".join(args))
    return table


def _descendants(root: int) -> dict[int, str]:
    """The running processes below ``root``: pid -> command line."""
    table = _processes()
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, running, args) in table.items():
            if ppid == parent and running and pid not in found:
                found[pid] = args
                todo.append(pid)
    return found


def _started_as(args: str, flag: str) -> bool:
    """Whether a command line is the executable started with ``flag`` first. Not by the executable's path:
    the app starts itself by its real path (sys.executable), which is not the path of a link to it (the
    launcher install-linux.sh puts on the PATH)."""
    return f" {flag} " in f"{args} "


GONE_WITHIN = 10.0  # seconds the children may take to end after the app is killed (they take well under one)


def _killed_app_leaves_none(exe: Path, tmp: Path, name: str, reply: Stream, flag: str,
                            started: Callable[[dict[int, str]], bool]) -> dict[int, str]:
    """Run ``ask`` with ``reply`` (a tool call); once ``started`` says its children run, SIGKILL the app and
    wait for them to end. Returns the children seen; SmokeFailure names those still running."""
    import signal

    data = tmp / f"killed-{name}"
    data.mkdir()
    with ScriptedLLMServer() as llm:
        llm.queue(reply, Stream(["Done."]))
        app = subprocess.Popen([str(exe), "ask", "Run it", "--jsonl", flag, "--base-url", llm.base_url, "--model",
                                "scripted", "--data-dir", str(data)], env=_env(data), cwd=data,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + TIMEOUT
            children = seen = _descendants(app.pid)
            while not started(children) and app.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
                children = _descendants(app.pid)
                seen = {**seen, **children}
            if not started(children):
                app.kill()
                out, err = app.communicate()
                raise SmokeFailure(f"the {name} tool's processes were not all seen (exit {app.returncode}); "
                                   f"seen: {sorted(set(seen.values()))}\nstdout: {out.decode()[-1000:]}\n"
                                   f"stderr: {err.decode()[-2000:]}")
            os.kill(app.pid, signal.SIGKILL)  # as the OOM killer or a crash ends it: no atexit, no clean-up
            app.communicate()
        finally:
            if app.poll() is None:
                app.kill()
                app.communicate()
    deadline = time.monotonic() + GONE_WITHIN
    while True:
        table = _processes()
        left = {pid: args for pid, args in children.items() if pid in table and table[pid][1]
                and table[pid][2] == args}  # the same command line: not a pid used again meanwhile
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in left:  # a failing check leaves no `sleep` or `for {}` running
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if left:
        raise SmokeFailure(f"after the app was killed, its {name} children ran on: {sorted(left.values())}")
    return children


def check_children_end_with_app(exe: Path, tmp: Path) -> str:
    """The app killed with SIGKILL takes its children with it (lifeline.py): a shell command, started through
    the executable as the guard, with the job it put in the background; and a nanoGo worker in ``for {}``,
    which would otherwise run to its CPU limit."""
    if os.name != "posix":
        return "not used on Windows"

    def sleeping(children: dict[int, str]) -> bool:  # both commands run, and the guard's watchdog beside them
        args = set(children.values())
        return {"sleep 300", "sleep 301"} <= args and any(_started_as(a, "--child-guard") for a in args)

    shell = tool_reply("shell", "query", "sleep 300 &amp; sleep 301")
    seen = _killed_app_leaves_none(exe, tmp, "shell", shell, "--allow-shell-exec", sleeping)
    loop = "package main\nfunc main() {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\n"
    _killed_app_leaves_none(exe, tmp, "nanogo", tool_reply("nanogo", "source", loop), "--allow-nanogo",
                            lambda children: any(_started_as(a, "--nanogo-worker") for a in children.values()))
    return (f"a shell command's {len(seen)} processes (the guard's watchdog, a background job) and a nanoGo "
            "worker in `for {}` ended with the killed app")


def check_kb_vectors(exe: Path, tmp: Path) -> str:
    data = tmp / "kb-vectors"
    data.mkdir()
    docs = tmp / "vector-docs"
    docs.mkdir()
    (docs / "pets.txt").write_text("A kitten sleeps all day on the sofa.", encoding="utf-8")
    (docs / "garage.txt").write_text("The car engine needs new oil.", encoding="utf-8")
    from tests.embed_server import EmbeddingServer

    with EmbeddingServer() as server:
        settings = {"base_url": server.base_url, "embed_model": "fake-embed"}
        (data / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        added = run(exe, ["kb", "add", str(docs), "--data-dir", str(data)], tmp)
        expect(added, 0, "kb add with an embedding model")
        # "feline" is in no document: only the vector ranking (numpy, inside the bundle) can find the kitten.
        found = run(exe, ["kb", "search", "feline", "--k", "1", "--jsonl", "--data-dir", str(data)], tmp)
    expect(found, 0, "kb search with vectors")
    hits = [json.loads(line) for line in found.stdout.splitlines() if line.strip()]
    if not hits or "kitten" not in hits[0]["text"]:
        raise SmokeFailure(f"kb search with vectors did not find the passage by meaning: {hits} {found.stderr[-500:]}")
    return "2 files embedded through a loopback /embeddings server; a word in neither found by meaning"


def check_first_run(exe: Path, tmp: Path) -> str:
    """The window's first start in a fresh data folder imports the bundle's own user guide.

    Without --ask the window stays open, so it is stopped once the guide's marker file appears. The
    first-run probe also looks at the usual local ports (loopback only, 1.5 s); what it finds does not matter.
    """
    data = tmp / "firstrun"
    data.mkdir()
    proc = subprocess.Popen([str(exe), "--data-dir", str(data)], env=_env(data), cwd=data,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    marker = data / ".guide-imported"
    deadline = time.monotonic() + TIMEOUT
    second = None
    try:
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        if proc.poll() is None:  # the window is open: starting again must bring it forward (QtNetwork)
            second = run(exe, ["--data-dir", str(data)], data)
    finally:
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    no_traceback(err.decode("utf-8", "replace"), "the window's first start")
    if not marker.exists():
        raise SmokeFailure(f"the first start imported no user guide (exit {proc.returncode}):\n"
                           f"{err.decode('utf-8', 'replace')[-3000:]}")
    if second is None or second.returncode != 0 or "already open" not in second.stderr:
        why = f"exit {second.returncode}\n{second.stderr[-3000:]}" if second else "the window had closed"
        raise SmokeFailure(f"a second start while the window was open did not bring it forward: {why}")
    listed = run(exe, ["kb", "list", "--data-dir", str(data)], tmp)
    expect(listed, 0, "kb list after the first start")
    guide = [line for line in listed.stdout.splitlines() if "resources" in line and line.strip().endswith(".md")]
    bundle = exe.resolve().parent
    if len(guide) < 3 or not all(str(bundle) in line for line in guide):
        raise SmokeFailure(f"the guide was not read from the bundle's own resources:\n{listed.stdout}")
    return (f"{len(guide)} guide pages imported from the bundle's resources; a second start brought the "
            "window forward")


CHECKS: list[tuple[str, Callable[[Path, Path], str]]] = [
    ("version", check_version),
    ("window --ask --screenshot", check_window_screenshot),
    ("ask --jsonl (calculate)", check_ask_jsonl),
    ("every built-in tool", check_every_tool),
    ("ask (nanogo tool)", check_ask_nanogo_tool),
    ("nanogo verb", check_nanogo_verb),
    ("kb add/search/list", check_kb),
    ("kb reader process (--kb-reader)", check_kb_reader),
    ("child guard (--child-guard)", check_child_guard),
    ("a child's environment (no bundle paths)", check_child_environment),
    ("children end with the killed app (SIGKILL)", check_children_end_with_app),
    ("kb with vectors (numpy)", check_kb_vectors),
    ("first start (user guide, one window)", check_first_run),
    ("the bundle installs itself (install-linux.sh)", check_installer),
    ("no traceback in the logs", check_logs),
]


def main(argv: list[str]) -> int:
    exe = Path(argv[0]) if argv else default_executable()
    if not exe.is_file():
        print(f"smoke test: no bundle at {exe}; build it with `make bundle`", file=sys.stderr)
        return 1
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tinyrag-smoke-") as tmp:
        for name, check in CHECKS:
            start = time.monotonic()
            try:
                detail = check(exe, Path(tmp))
            except (SmokeFailure, subprocess.TimeoutExpired, OSError, ValueError, KeyError) as exc:
                failed += 1
                print(f"FAIL {name} ({time.monotonic() - start:.1f} s): {exc}", flush=True)
            else:
                print(f"ok   {name} ({time.monotonic() - start:.1f} s): {detail}", flush=True)
    print(f"smoke test of {exe}: {len(CHECKS) - failed} of {len(CHECKS)} checks passed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
