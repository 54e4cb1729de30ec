"""One window per data folder: starting the app again brings the open window to the front.

Two windows on one data folder would each show a chat list the other changes behind its back, race on
the settings file and import into one knowledge base at once. The first window holds a lock file in the
data folder (``window.lock``, QLockFile: left by a crashed window, it is stale and taken over) and listens
on a local socket named after the folder; a second start finds the lock taken, asks that window to come
forward, and exits. Only the window takes part: the headless verbs and ``--ask`` runs work beside it.
"""

from __future__ import annotations

import getpass
import hashlib
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
    except (KeyError, OSError):  # no user name in the environment or the password database
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
        if not self._lock.tryLock(0) and not self._take_over_unreadable():
            if self._lock.error() == QLockFile.LockError.LockFailedError:
                return False
            log.warning("no window lock in %s (%s): a second window would not be noticed",
                        self.data_dir, self._lock.error().name)
            return True
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # no other user may knock
        QLocalServer.removeServer(self.name)  # a crashed window's socket; the lock says none is running
        if not server.listen(self.name):
            log.warning("a second start cannot reach this window (%s)", server.errorString())
            return True
        server.newConnection.connect(self._accept)
        self._server = server
        return True

    def _take_over_unreadable(self) -> bool:
        """Take the lock over when its file names no process (left empty by a power cut, or garbled), is not
        being written just now, and no window answers on the folder's socket: no open window holds it then.
        True when this process holds the lock now."""
        if self._lock.error() != QLockFile.LockError.LockFailedError:
            return False
        path = self.data_dir / LOCK_NAME
        try:
            age = time.time() - path.stat().st_mtime
        except OSError:
            return False
        if self.holder() or abs(age) < _WRITING_SECONDS or self._answers():
            return False
        log.warning("window lock %s names no process; taking it over", path)
        return self._lock.removeStaleLockFile() and self._lock.tryLock(0)

    def _answers(self) -> bool:
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        connected = socket.waitForConnected(1000)
        socket.abort()
        return connected

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
