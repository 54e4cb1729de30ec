"""One window per data folder: starting the app again brings the open window to the front.

Two windows on one data folder would each show a chat list the other changes behind its back, race on
the settings file and import into one knowledge base at once. The first window holds a lock file in the
data folder (``window.lock``, QLockFile: left by a crashed window, it is stale and taken over) and listens
on a local socket named after the folder; a second start finds the lock taken, asks that window to come
forward, and exits. Only the window takes part: the headless verbs and ``--ask`` runs work beside it.

A lock file can name a live process that holds no window on this folder: a copied data folder carries the
lock of the window open on the original, and after a crash the lock's process id can be another program's.
The lock records the folder it was written for, and a lock that was written for another folder, or whose
holder has no socket at all on this folder's name (a busy window still has one), is taken over once it is
older than a starting window needs to write it. On POSIX a window's own lock file also holds a file lock
that QLockFile checks before removing it: a live window's lock is never taken from it.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
import time
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

LOCK_NAME = "window.lock"
_RAISE = b"raise\n"
_NOT_LISTENING_YET = (QLocalSocket.LocalSocketError.ServerNotFoundError,
                      QLocalSocket.LocalSocketError.ConnectionRefusedError)
_WRITING_SECONDS = 5.0  # a lock file younger than this may be one a starting window has not filled in yet


def server_name(data_dir: Path) -> str:
    """The local socket's name: one per user and data folder, the same however the folder is written."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError, ImportError):  # no user name in the environment, nor a password database
        # (ImportError: Windows has no pwd module, which Python 3.11 turns to when %USERNAME% is not set)
        user = "user"
    folder = hashlib.sha256(str(Path(data_dir).resolve()).encode("utf-8", "surrogatepass")).hexdigest()
    return f"tinyrag-desktop-{hashlib.sha256(user.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}-{folder[:16]}"


class WindowGuard(QObject):
    """Claims the data folder for this process's window, or reaches the window that has it."""

    raiseRequested = Signal()  # a second start asked this window to come to the front

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data_dir = Path(data_dir)
        self.name = server_name(self.data_dir)
        self._lock = QLockFile(str(self.data_dir / LOCK_NAME))
        # Held for as long as the window is open: only a lock whose process has ended is stale (the
        # default would also take over a live window's lock after 30 seconds).
        self._lock.setStaleLockTime(0)
        self._server: QLocalServer | None = None

    def claim(self) -> bool:
        """True when this process may open the window (it now holds the folder); False when another
        window has it. A folder where no lock can be written (read-only) is not guarded: True."""
        if not self._lock.tryLock(0) and not self._take_over():
            if self._lock.error() == QLockFile.LockError.LockFailedError:
                return False
            log.warning("no window lock in %s (%s): a second window would not be noticed",
                        self.data_dir, self._lock.error().name)
            return True
        self._note_folder()
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # no other user may knock
        QLocalServer.removeServer(self.name)  # a crashed window's socket; the lock says none is running
        if not server.listen(self.name):
            log.warning("a second start cannot reach this window (%s)", server.errorString())
            return True
        server.newConnection.connect(self._accept)
        self._server = server
        return True

    def _take_over(self) -> bool:
        """Take the lock over when no open window on this folder holds it: the lock file was written for
        another folder (copied with it), or it is not being written just now and nothing listens on the
        folder's socket (its process, if any, is not a window on this folder: a crashed window's process id
        used again, or a file left empty by a power cut). True when this process holds the lock now."""
        if self._lock.error() != QLockFile.LockError.LockFailedError:
            return False
        path = self.data_dir / LOCK_NAME
        try:
            age = time.time() - path.stat().st_mtime
        except OSError:
            return False
        if self._written_for_another_folder(path):
            why = "was written for another data folder (copied with it)"
        elif abs(age) < _WRITING_SECONDS or not self._nobody_listens():
            return False
        elif self.holder():
            why = f"names process {self.holder()}, which has no window on this folder"
        else:
            why = "names no process"
        log.warning("window lock %s %s; taking it over", path, why)
        return self._lock.removeStaleLockFile() and self._lock.tryLock(0)

    def _folder_identity(self) -> dict:
        folder = self.data_dir.resolve()
        st = folder.stat()
        return {"folder": str(folder), "id": f"{st.st_dev}:{st.st_ino}"}

    def _note_folder(self) -> None:
        """Add the folder this lock is for to the lock file, after QLockFile's lines (it reads only those)."""
        try:
            line = json.dumps(self._folder_identity(), ensure_ascii=True)
            with open(self.data_dir / LOCK_NAME, "a", encoding="ascii") as fh:  # Windows: shared for reading only
                fh.write(f"tinyrag {line}\n")
        except (OSError, ValueError) as exc:
            log.info("the window lock does not record its folder (%s)", exc)

    def _written_for_another_folder(self, path: Path) -> bool:
        """True when the lock file records a folder other than this one both by place and by identity (a
        folder renamed under its window keeps its identity; a copy has a new one, and another place)."""
        try:
            with open(path, "rb") as fh:
                lines = fh.read(64 * 1024).splitlines()
            recorded = next((json.loads(line[len(b"tinyrag "):]) for line in lines if line.startswith(b"tinyrag {")),
                            None)
            if not isinstance(recorded, dict):
                return False
            here = self._folder_identity()
        except (OSError, ValueError, RecursionError):  # RecursionError: a line nested thousands deep
            return False
        return recorded.get("folder") != here["folder"] and recorded.get("id") != here["id"]

    def _nobody_listens(self) -> bool:
        """True when no server has this folder's socket name (none, or one left by a crash); a window that
        is busy still has one, and the connection is queued or times out."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        connected = socket.waitForConnected(1000)
        error = socket.error()
        socket.abort()
        return not connected and error in _NOT_LISTENING_YET

    def holder(self) -> int:
        """The process id of the window that holds the folder, or 0 when unknown."""
        pid, _host, _app = self._lock.getLockInfo()  # PySide returns (0, "", "") when there is none
        return int(pid or 0)

    def knock(self, timeout_ms: int = 3000) -> bool:
        """Ask the window that holds the folder to come to the front; False when it did not answer.

        A window started at the same moment may hold the lock and not listen yet: no socket by that name is
        not the end of it (two copies started together, one said the other "does not answer")."""
        deadline = time.monotonic() + timeout_ms / 1000
        socket = QLocalSocket()
        while True:
            socket.connectToServer(self.name)
            if socket.waitForConnected(max(1, int((deadline - time.monotonic()) * 1000))):
                break
            if time.monotonic() >= deadline or socket.error() not in _NOT_LISTENING_YET:
                return False
            socket.abort()
            time.sleep(0.05)  # another process: nothing here to wait on
        socket.write(_RAISE)
        sent = socket.waitForBytesWritten(timeout_ms)
        socket.disconnectFromServer()
        return sent

    def release(self) -> None:
        if self._server is not None:
            self._server.newConnection.disconnect(self._accept)
            self._server.close()
            self._server.deleteLater()  # with the connections it accepted, which are its children
            self._server = None
        if self._lock.isLocked():
            self._lock.unlock()

    def _accept(self) -> None:
        while self._server is not None and (socket := self._server.nextPendingConnection()) is not None:
            # Bound methods, not closures over the socket: a slot must not outlive the socket it names.
            socket.readyRead.connect(self._read)
            socket.disconnected.connect(socket.deleteLater)
            self._read_from(socket)  # what arrived with the connection

    def _read(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket):
            self._read_from(socket)

    def _read_from(self, socket: QLocalSocket) -> None:
        while socket.canReadLine():
            if bytes(socket.readLine()) == _RAISE:
                log.info("a second start asked this window to come to the front")
                self.raiseRequested.emit()
