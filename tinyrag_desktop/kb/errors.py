"""Errors of the knowledge base, each with a message a person understands.

    Error
    ├── StoreError          the database cannot be opened, read or written
    │   └── CannotWrite     no write can succeed until the user acts (an import stops: every next file
    │       │               would fail too)
    │       ├── DiskFull    the disk it is on is full
    │       ├── ReadOnlyStore  the database file (or its -wal or -shm file) is read-only
    │       └── StoreLocked another program is writing to it and did not finish within store.BUSY_TIMEOUT
    ├── ReadError           one file or page could not be read (the import goes on with the next)
    │   ├── UnsupportedFile a file type the knowledge base does not read
    │   ├── NoText          readable, but holds nothing to index (a page that is only navigation)
    │   ├── FolderGone      the folder a file was found in is gone (deleted, a drive removed): said once
    │   └── LeftOut         in a folder, skipped as expected of some files there; named by itself, failed
    │       └── BlockedPage a page whose text stands behind JavaScript or a sign-in (see walls.py)
    ├── FetchError          a URL, Wikipedia article or embedding could not be fetched
    │   ├── Unreachable     the server could not be reached at all (no answer, not an error answer)
    │   └── NetworkOff      not asked at all: the network is off (``--offline``, Network tools unticked)
    └── Cancelled           the user cancelled the import while a long file was being read
"""


class Error(Exception):
    """Base of the knowledge base's errors."""


class StoreError(Error):
    """The knowledge base database cannot be opened, read or written; ``doing`` is what failed, as the
    message starts ("Could not remove 3 sources"), which the window leaves out where it says it itself."""

    doing = ""


class CannotWrite(StoreError):
    """Nothing can be stored until the user acts; ``stopped`` says why in a few words ("the disk is full")."""

    stopped = "the knowledge base cannot be written to"


class DiskFull(CannotWrite):
    """The disk holding the knowledge base is full: nothing more can be stored until space is freed."""

    stopped = "the disk is full"


class ReadOnlyStore(CannotWrite):
    """The knowledge base file (or its -wal or -shm file) is read-only: nothing can be stored until it is
    made writable."""

    stopped = "the knowledge base file is read-only"


class StoreLocked(CannotWrite):
    """Another program holds the knowledge base's write lock and did not let go within the wait allowed."""

    stopped = "another program is writing to the knowledge base"


class ReadError(Error):
    """A file or page could not be turned into text; the message says why."""


class UnsupportedFile(ReadError):
    """A file whose type the knowledge base does not read."""


class NoText(ReadError):
    """The file was read but holds no text worth indexing; imports list it as skipped, not failed."""


class FolderGone(ReadError):
    """The folder a file was found in is no longer there (deleted, a drive removed, a network share dropped),
    so none of the files still to read in it can be: the import says so once, for the folder."""

    def __init__(self, folder: str) -> None:
        super().__init__(f"the folder {folder} is gone")
        self.folder = folder


class LeftOut(ReadError):
    """A file not read for a reason some files in any folder have: too large, or not to be read by this user.
    Named by itself it fails; in a folder it is skipped, as the folder's other files left out by design are
    (a 70 MB log or another user's file beside the notes made `kb add` of the folder fail)."""


class BlockedPage(LeftOut):
    """An HTML page that holds no text of its own: a JavaScript app's empty shell, a sign-in form. Named by
    itself (a URL, a file) it fails; in a folder it is skipped. The message says what to do instead."""


class FetchError(Error):
    """A URL or Wikipedia article could not be downloaded; the message says why."""


class Unreachable(FetchError):
    """The server did not answer at all (refused, timed out): asking it again at once is pointless."""


class NetworkOff(FetchError):
    """A web page or Wikipedia article was not downloaded: the settings say the app is offline."""


class Cancelled(Error):
    """The import was cancelled in the middle of a source; nothing of that source was stored."""
