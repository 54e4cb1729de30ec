"""What an import reads: the items named (paths, web addresses, Wikipedia titles), folders expanded into
the files they hold, and why a path is left out of a folder's import or cannot be read."""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence
from urllib.parse import urlsplit
from urllib.request import url2pathname

from ..hidden_text import first_hidden
from ..natural_order import natural_key
from ..paths import UnknownHome, expand_home
from .code_files import CODE_TYPES, LOCK_FILES
from .errors import UnsupportedFile
from .import_report import Failure, ImportReport
from .own_data import OWN_FILES, data_folder_around, is_data_folder, is_own_file
from .readers import SAMPLE_BYTES, SUPPORTED, file_type, is_compressed, sniff, with_utf16_bom

# A log or data file larger than this, found in a folder, is skipped with its reason: a 60 MB log beside a
# manual made 70% of the knowledge base's passages, and took places in searches about the manual. Named by
# itself (a file dialog, `kb add FILE`), it is imported up to ingest.MAX_FILE_BYTES.
FOLDER_DATA_BYTES = 16 * 1024 * 1024
_DATA_KINDS = {"log": "log", "csv": "CSV file", "json": "JSON file", "xml": "XML file"}


@dataclass(frozen=True, slots=True)
class ImportItem:
    """One thing to import: a path (file or folder), a URL, or a Wikipedia title."""

    kind: str  # "path", "url" or "wikipedia"
    value: str
    # The name a path was found under, when a link's own name differs from its target's: "LICENSE" linked to
    # "Apache-2.0" is read as the text its name says it is.
    name: str = ""
    # A Wikipedia article's edition ("de"), as a re-import of one stored from de.wikipedia.org asks for it;
    # empty: the settings' language.
    lang: str = ""
    # Found in a folder the user named, not named itself: a page of links there is navigation (link_pages.py).
    in_folder: bool = False

    @staticmethod
    def parse(text: str) -> "ImportItem":
        """``http(s)://…`` is a URL, ``wikipedia:Title`` an article, ``file://…`` and anything else a path."""
        low = text.strip().lower()
        if low.startswith(("http://", "https://")):
            return ImportItem("url", text.strip())
        if low.startswith("wikipedia:"):
            return ImportItem("wikipedia", text.strip()[len("wikipedia:"):].strip())
        if low.startswith("file:"):  # a link copied from a browser's address bar or a file manager
            parts = urlsplit(text.strip())
            if parts.netloc.lower() in ("", "localhost"):
                return ImportItem("path", url2pathname(parts.path))
            if os.name == "nt":  # file://server/share/x: a Windows share's UNC path, \\server\share\x
                return ImportItem("path", url2pathname(f"//{parts.netloc}{parts.path}"))
            # another computer's file: kept as written, so the import can say why it cannot be read
        return ImportItem("path", text)


def _is_hidden(path: Path) -> bool:
    return path.name.startswith(".")


# Windows hides a file or folder by an attribute, not by a dot: AppData in a home folder, which holds what
# ~/.config and ~/.ssh hold elsewhere (importing the home folder read programs' settings and tokens there).
_MARKED_HIDDEN_TOO = os.name == "nt"


def _marked_hidden(folder: str) -> frozenset[str]:
    """On Windows, the names in ``folder`` marked hidden, from one listing of it (its entries carry their
    attributes there: no look at each file); none elsewhere."""
    if not _MARKED_HIDDEN_TOO:
        return frozenset()
    try:
        with os.scandir(folder) as entries:
            return frozenset(e.name for e in entries if _attributes(e) & stat.FILE_ATTRIBUTE_HIDDEN)
    except OSError:  # the walk says why it cannot read the folder
        return frozenset()


def _attributes(entry: os.DirEntry) -> int:
    """The file attributes Windows keeps for ``entry`` (a link's own, not those of where it leads)."""
    return getattr(entry.stat(follow_symlinks=False), "st_file_attributes", 0)


def expand(items: Sequence[ImportItem], report: ImportReport, walked: set[str] | None = None,
           own: str = "", spelled: Callable[[str], str] | None = None,
           stop: Callable[[], bool] | None = None) -> list[ImportItem]:
    """Folders become the supported files they hold (recursively); hidden and unsupported ones are skipped.

    ``own``: tinyRAG's own data folder (where the knowledge base being imported into is), skipped with what
    it holds wherever a folder's walk meets it: importing a home folder that held it imported settings.json
    (its API key made searchable), the app's log and its databases.

    Links inside a folder named are followed, each real folder once (a link back up the tree ends there);
    links that lead out of it are not (see _outside). A file or folder named by itself is taken wherever it
    leads. Whatever a folder holds that is not imported is listed in ``report.skipped`` with the reason; one
    that cannot even be looked at (a link into a folder this user may not read) too. ``walked`` is given
    the real path (ending in a separator) of each folder looked into, and of what each broken link in them
    led to: the files found there are stored under those paths, which a linked folder's are not below the
    folder's own (see ingest.Importer._remove_deleted). ``spelled`` gives each file's path as it is known
    already, in other letters on a case-insensitive disk (path_case.py). When ``stop()`` turns true (Cancel),
    the listing ends at the next folder: /usr took 9 s.
    """
    out: list[ImportItem] = []
    taken: dict[str, str] = {}  # each file once, however many links or folders lead to it: by which path
    named_files = _named_files(items)  # a hidden file named beside its folder is wanted: not "skipped" there

    def add(file: str, name: str, in_folder: bool = True, found: str = "") -> None:
        """Take ``file`` (a real path), found as ``found`` (a link to it, or itself), named ``name``."""
        file = spelled(file) if spelled is not None else file
        # one of the app's own files (settings.json) named by itself, or linked to from a folder (whose files
        # come as real paths): as in the data folder, left out (and it would be removed as an old import)
        real = file if in_folder else os.path.realpath(file)
        if own and is_own_file(real, own):
            report.skipped.append(Failure(_shown(file), OWN_FOLDER))
        elif _may_be_apps(real) and data_folder_around(real):
            report.skipped.append(Failure(_shown(file), DATA_COPY_FILE))
        elif file in taken:
            shown = found if found and os.path.islink(found) else file  # a link by its own name
            report.skipped.append(Failure(_shown(shown), _taken_already(found or file, file, taken[file])))
        else:
            taken[file] = found or file
            out.append(ImportItem("path", file, name if name != Path(file).name else "", in_folder=in_folder))

    for item in items:
        if item.kind != "path":
            out.append(item)
            continue
        if not item.value.strip():  # an empty shell variable must not mean "the current folder"
            report.failed.append(Failure("(empty)", "an empty path: name a file or a folder"))
            continue
        if _other_host(item.value):  # as written: a path made of it ("file:/otherhost/x") means nothing
            out.append(item)
            continue
        try:
            path = expand_home(item.value)
        except UnknownHome as exc:
            report.failed.append(Failure(_shown(item.value), str(exc)))
            continue
        try:
            folder = path.is_dir()
            # a pipe (/dev/stdin, <(…)) is named as given: resolved, it is /proc/PID/fd/pipe:[N], "no such file"
            named = None if folder else str(path.resolve()) if path.is_file() else str(path)
        except OSError as exc:  # a link to a place this user may not look into, a name too long
            report.failed.append(Failure(_shown(item.value), _unreadable(path, exc)))
            continue
        if named is not None:  # a file named by itself is taken, a link too, wherever it leads
            add(named, path.name, in_folder=False, found=str(path))
            continue
        path = Path(os.path.normpath(path.absolute()))  # named as the files imported are: from the root, no ".."
        top = os.path.realpath(path)  # what its links may lead into (see _outside)
        if _inside(os.path.realpath(path), own):
            report.skipped.append(Failure(_shown(str(path)), OWN_FOLDER))
            continue
        if data_folder_around(os.path.realpath(path)):  # a copy of it named, or its logs/ in a copy
            report.skipped.append(Failure(_shown(str(path)), DATA_COPY))
            continue
        seen: set[str] = set()
        before, failed = len(out), len(report.failed)

        def unreadable(exc: OSError) -> None:
            # the folder named itself: failed, as a file named is, and said once (not "no supported files" too)
            said = report.failed if exc.filename == str(path) else report.skipped
            said.append(Failure(exc.filename or str(path), f"could not be read ({exc.strerror})"))

        for root, dirs, files in os.walk(path, onerror=unreadable, followlinks=True):
            if stop is not None and stop():
                return out
            real = os.path.realpath(root)
            if real in seen:
                report.skipped.append(Failure(root, "a link to a folder already imported"))
                dirs[:] = []
                continue
            seen.add(real)
            if walked is not None:
                walked.add(os.path.join(real, ""))
            marked = _marked_hidden(root)
            hidden = {d for d in dirs if d.startswith(".") or d in marked}
            for name in sorted(hidden):
                report.skipped.append(Failure(_shown(str(Path(root, name))), "hidden folder"))
            kept = []
            # in the order a person reads the names (Topic 2 before Topic 10): the order they are stored in,
            # and so listed in (sources imported in the same second), and shown in as they import; folders before
            # links to folders, so that a folder is read where it is, and a link to it said to be one ("again"
            # before "Archive" read the folder through the link, and called the folder itself a link)
            for name in sorted((d for d in dirs if d not in hidden),
                               key=lambda d: (os.path.islink(os.path.join(root, d)), natural_key(d))):
                folder = os.path.join(root, name)
                try:
                    reason = _outside(folder, os.path.realpath(folder), top) or (
                        OWN_FOLDER if own and _inside(os.path.realpath(folder), own)
                        else DATA_COPY if is_data_folder(folder) else _tool_folder(root, name))
                except OSError as exc:  # realpath reads links: one into /proc/1/ may not be read
                    reason = _unreadable(Path(folder), exc)
                if reason:
                    report.skipped.append(Failure(_shown(str(Path(root, name))), reason))
                else:
                    kept.append(name)
            dirs[:] = kept
            for name in sorted(files, key=natural_key):
                file = Path(root, name)
                resolved = None
                try:
                    reason = "hidden file" if name in marked else _not_importable(file)
                    if not reason:
                        resolved = _real_file(file, real, name)
                        reason = _outside(file, resolved, top) or _hidden_target(file, path, resolved)
                    if not reason and resolved is None:
                        resolved = str(file.resolve())
                except OSError as exc:  # one file, not the whole import: said with its reason, and passed by
                    reason = _unreadable(file, exc)
                if reason == "hidden file" and named_files and os.path.realpath(file) in named_files:
                    continue  # imported as named
                if reason:
                    report.skipped.append(Failure(_shown(str(file)), reason))
                    gone = _gone_link(file) if walked is not None else None
                    if gone is not None:  # a link to a folder deleted since: the files imported through it
                        walked.add(os.path.join(gone, ""))  # are gone too
                else:
                    add(resolved, file.name, found=str(file))
        if len(out) == before and len(report.failed) == failed:  # say why nothing happened, not a bare "0 added"
            report.skipped.append(Failure(str(path), "no supported files found in this folder"))
    return out


def _named_files(items: Sequence[ImportItem]) -> frozenset[str]:
    """The real paths of the files among ``items`` (not folders)."""
    paths = [expand_home(i.value, keep_unknown=True) for i in items if i.kind == "path" and i.value.strip()]
    return frozenset(os.path.realpath(p) for p in paths if os.path.isfile(p))


def _taken_already(found: str, real: str, by: str) -> str:
    """Why ``found`` is left out: the file it is or leads to (``real``) is in the import already, found as
    ``by``. "notes.md: already in this import (through a link or twice named)" named the file, not the link
    that had taken it (link-to-notes.md, listed before it), nor which of the two it was."""
    if os.path.islink(found):
        return f"a link to {_shown(os.path.basename(real))}, which is in this import already"
    if os.path.islink(by):
        return f"already in this import, through the link {_shown(os.path.basename(by))}"
    if by != found:  # through a linked folder
        return f"already in this import, as {_shown(by)}"
    return "already in this import (named twice)"


# Why a folder's walk leaves out the data folder the knowledge base is in (see expand).
OWN_FOLDER = "tinyRAG's own data folder (its settings, log and knowledge base), not documents"
# Why it leaves out another data folder (own_data.is_data_folder): a copy of it, as the README's backup advice
# ("copy the whole folder") makes, put in a folder that is imported made its API key searchable.
DATA_COPY = ("a tinyRAG data folder (a copy or backup): its settings (which may hold the API key), log and "
             "databases, not documents")
DATA_COPY_FILE = ("one of a tinyRAG data folder's own files (a copy or backup of the data folder, whose settings "
                  "may hold the API key), not a document")


def _may_be_apps(real: str) -> bool:
    """Whether the real path ``real`` could be one of the app's own files in a data folder (by its name, or
    a logs/ or work/ folder on its way): the few that could are looked at on disk (data_folder_around)."""
    return bool(OWN_FILES.fullmatch(os.path.basename(real))) or any(
        f"{os.sep}{name}{os.sep}" in real for name in ("logs", "work"))


def _inside(real: str, folder: str) -> bool:
    """Whether the real path ``real`` is the real folder ``folder`` or inside it ("" holds nothing)."""
    return bool(folder) and (real == folder or real.startswith(os.path.join(folder, "")))


# Folders a program fills, not a person: what a project installed or built, whose thousands of READMEs,
# licences and package.json files would crowd the user's own notes out of every search. By name, only
# where the name says it ("node_modules"); a name people give their own folders too ("target", "build",
# "vendor") only with the tool's own mark beside it or in it.
_TOOL_FOLDERS = {"node_modules": "installed JavaScript packages (node_modules)",
                 "bower_components": "installed JavaScript packages (bower_components)",
                 "__pycache__": "Python's compiled files (__pycache__)",
                 "site-packages": "installed Python packages (site-packages)",
                 "dist-packages": "installed Python packages (dist-packages)"}
# A build folder named "target" is Rust's (Cargo.toml beside it) or Maven's (pom.xml beside it).
_BUILD_MARKS = ("Cargo.toml", "pom.xml")
# A project whose build writes into "build" or "dist" beside it (Python, JavaScript, CMake, Meson, Gradle).
_PROJECT_MARKS = ("pyproject.toml", "setup.py", "setup.cfg", "package.json", "CMakeLists.txt", "meson.build",
                  "build.gradle", "build.gradle.kts")
# The Cache Directory Tagging Specification's mark, which Cargo, Bazel and others put in their caches.
_CACHE_TAG = b"Signature: 8a477f597d28d172789f06886806bc55"


def _tool_folder(parent: str, name: str) -> str:
    """Why the folder ``name`` in ``parent`` is left out of a folder's import, as a program's (installed
    packages, a virtual environment, a build or cache folder: see _TOOL_FOLDERS); "" when it is not."""
    if name in _TOOL_FOLDERS:
        return f"{_TOOL_FOLDERS[name]}: a program's files, not documents"
    folder = os.path.join(parent, name)
    if os.path.isfile(os.path.join(folder, "pyvenv.cfg")):
        return "a Python virtual environment (pyvenv.cfg): a program's files, not documents"
    if name == "target" and any(os.path.isfile(os.path.join(parent, mark)) for mark in _BUILD_MARKS):
        return "a build folder (target, beside Cargo.toml or pom.xml): a program's files, not documents"
    if name in ("build", "dist") and (mark := next(
            (m for m in _PROJECT_MARKS if os.path.isfile(os.path.join(parent, m))), None)):
        return f"a build folder ({name}, beside {mark}): what a build made, not documents"
    try:
        if read_now(Path(folder, "CACHEDIR.TAG"), len(_CACHE_TAG)) == _CACHE_TAG:
            return "a cache folder (CACHEDIR.TAG): a program's files, not documents"
    except OSError:
        pass
    return ""


# Why a file is not read: what it gives comes only when the system writes it (/proc/kmsg, the kernel's messages).
WAITS = "it has nothing to read until the system writes to it (a stream of messages, not a document)"
# Files that look regular (0 bytes, as all of /proc's do) whose every read takes what it gives away from the
# system: /proc/kmsg's first read, even without waiting, took the kernel's queued messages from the system
# logger (as root). They are refused unopened, whatever name leads to them.
_STREAM_FILES = ("/proc/kmsg",)


@functools.cache
def _streams() -> frozenset[tuple[int, int]]:
    """The (device, inode) of each of _STREAM_FILES here that is a regular file: a container may hide one
    behind /dev/null, which must still be called a device."""
    found = set()
    for name in _STREAM_FILES:
        try:
            status = os.stat(name)
        except OSError:  # no such file (not Linux), or /proc not there
            continue
        if stat.S_ISREG(status.st_mode):
            found.add((status.st_dev, status.st_ino))
    return frozenset(found)


def _is_stream(file: Path) -> bool:
    """Whether ``file`` is one of _STREAM_FILES, by any name (a link, /proc/self/root/proc/kmsg): known by
    what it is, one stat, rather than by its real path, which looks at each folder on the way (read_now
    runs for each program in a folder's listing)."""
    if not _streams():
        return False
    try:
        status = os.stat(file)
    except OSError:  # the open says why
        return False
    return (status.st_dev, status.st_ino) in _streams()


class NotReadNow(OSError):
    """read_now's refusal, its strerror in words: what the path is instead of a file, or WAITS."""


def read_now(file: Path, most: int) -> bytes:
    """Up to ``most`` bytes of the regular file ``file``, read without waiting for more. A listing looks into
    files this way, and a file named by itself is read so: a named pipe waited for a writer forever on open,
    and /proc/kmsg waits for the kernel's next message on read (``kb add /proc`` and ``kb add /proc/kmsg``
    hung); each raises NotReadNow instead, with a reason (WAITS, or what it is: see _not_a_file). /proc/kmsg
    is refused unopened (see _STREAM_FILES)."""
    if _is_stream(file):
        raise NotReadNow(errno.EAGAIN, WAITS)
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):  # replaced by a pipe since it was looked at
            raise NotReadNow(errno.EINVAL, _what_it_is(status.st_mode))
        chunks: list[bytes] = []
        while most > 0:  # /proc's files say 0 bytes, and may hold more than they say
            chunk = os.read(fd, min(most, status.st_size + 1 if status.st_size else 65536))
            if not chunk:
                break
            chunks.append(chunk)
            most -= len(chunk)
        return b"".join(chunks)
    except BlockingIOError:
        raise NotReadNow(errno.EAGAIN, WAITS) from None
    finally:
        os.close(fd)


def _other_host(text: str) -> str:
    """The computer a ``file://HOST/…`` address names when it is not this one, else "" (see ImportItem.parse)."""
    if not text.lstrip().lower().startswith("file:"):
        return ""
    try:
        host = urlsplit(text.strip()).netloc
    except ValueError:
        return ""
    return "" if host.lower() in ("", "localhost") else host


def _folders(items: Sequence[ImportItem]) -> list[str]:
    """The folders among ``items``, resolved as the files found in them are, each ending in a separator
    (so "notes" does not take in "notes-old")."""
    out = []
    for item in items:
        if item.kind == "path" and item.value.strip():
            path = expand_home(item.value, keep_unknown=True)
            if os.path.isdir(path):  # False for one that cannot be looked at (expand said why)
                out.append(os.path.join(str(path.resolve()), ""))
    return out


def _deleted(location: str) -> bool:
    """True only when ``location`` is certainly gone: a folder that cannot be read hides files, not
    deletes them, and those stay."""
    try:
        os.lstat(location)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except (OSError, ValueError):
        return False
    return False


# The extensions of supported files that are top-level domains too (the Public Suffix List's, as the test
# of this list checks): "foo.ml" names an OCaml file or the web site of that name in Mali, and neither
# reading is taken for the other (the file's name may be mistyped; a script's missing file must fail).
DOMAIN_SUFFIXES = frozenset({".cc", ".java", ".md", ".ml", ".mm", ".pl", ".pm", ".properties", ".py", ".rs", ".sh"})
# Those after which a missing file's name is said to be perhaps a web site's. Not .md, .py, .sh, .java and
# .properties: README.md, notes.md, setup.py, install.sh, Main.java and application.properties are the files
# most often named in the wrong folder, and were all offered as "https://README.md"; sites under those domains
# are few. Sites under .pl (Poland), .rs (Serbia: rustup.rs, docs.rs), .cc, .ml, .pm and .mm are common.
_SITE_SUFFIXES = DOMAIN_SUFFIXES - {".md", ".py", ".sh", ".java", ".properties"}
# … and only for a name written as host names are: lower case letters, digits and hyphens, in parts of 63 at
# most between dots. A file's name often is not: README.pl, CHANGELOG.rs and LICENSE.cc are in capitals (as are
# Perl's Module.pm and Objective-C's AppDelegate.mm), and my_parser.ml holds "_", which no host name does.
_SITE_NAME = re.compile(r"[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})+")


def why_missing(value: str) -> str:
    """Why the path ``value``, which names nothing here, was not imported (``kb add`` and the Knowledge panel
    say it alike): with a hint when it looks like standard input ("-") or a web address without its scheme
    (a document's name, "notes.txt", does not; "foo.ml" gets the web site as a possibility, "README.md" does
    not: see _SITE_SUFFIXES)."""
    from .web import typed_address  # httpx and lxml load with it: only for a path that names nothing

    if value == "-":
        return ("\"-\" (standard input) is not read by kb add: save what a command prints to a file "
                "(… > notes.txt) and import that")
    if hidden := first_hidden(value):  # "\u202ehttp://…" copied from a page: no address, no file either
        return f"no such file or folder (what was named holds an invisible character, {hidden}: type it again)"
    host = value.split("/", 1)[0]
    address = typed_address(value)
    suffix = Path(host).suffix.lower()
    if address and (host.lower().startswith(("www.", "localhost")) or "/" in value or ":" in host
                    or suffix not in SUPPORTED):
        return f"no such file or folder; to import a web page, write {address}"
    if address and suffix in _SITE_SUFFIXES and _SITE_NAME.fullmatch(value):
        return f"no such file or folder; if you meant the web site, write {address}"
    return "no such file or folder"


def _not_a_file(path: Path) -> str:
    """Why ``path``, which is there, is not read: what it is instead of a file (it is not opened: a device may
    act when opened, and a named pipe waits for a writer). A shell's pipe (/dev/stdin, <(…)) leads to no name
    on disk ("pipe:[N]"), and is said so rather than by its /proc path."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "not a regular file (a pipe, device or socket)"
    if stat.S_ISFIFO(mode) and not os.path.lexists(os.path.realpath(path)):
        return "a pipe, not a file: save what it gives to a file (… > notes.txt) and import that"
    return _what_it_is(mode)


def _what_it_is(mode: int) -> str:
    """What a path of ``mode`` that is not a regular file is, as a reason it is not read."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), not a file: save what it gives to a file (… > notes.txt) and import that"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    return "not a regular file (a pipe, device or socket)"


# Why a folder's walk passes by a link that leads out of the folder named (see _outside).
OUTSIDE = ("a link to a place outside the folder: not followed (a folder from elsewhere could bring in any "
           "file on this computer); import that place by itself if you want it")


def _outside(found: str | Path, real: str | None, top: str) -> str:
    """Why ``found``, met in the walk of the folder whose real path is ``top``, is passed by: it is a link (or
    in a linked folder) whose real path ``real`` is not inside ``top``. "" when it is inside.

    A folder downloaded or received can hold ``docs -> /`` or ``taxes.csv -> ~/Documents/taxes.csv``; followed,
    they brought every readable file on the disk, or /etc/passwd, into the knowledge base. Links that stay
    inside the folder are followed; a file or folder named by itself is taken wherever it leads."""
    if real is None:
        real = os.path.realpath(found)
    return "" if _inside(real, top) else OUTSIDE


def _gone_link(file: Path) -> str | None:
    """The real path the link ``file`` led to, when that is certainly gone (see _deleted); else None."""
    try:
        if not os.path.islink(file):
            return None
        target = os.path.realpath(file)
    except OSError:  # a link into a folder this user may not look into: hidden, not gone
        return None
    return target if _deleted(target) else None


def _unreadable(path: Path, exc: OSError) -> str:
    """Why ``path``, which could not even be looked at (``exc``), is passed by: a link to a place this user
    may not read (a link into another user's home folder), a name too long, …"""
    why = exc.strerror or exc.__class__.__name__
    if os.path.islink(path):
        return f"a link to a place that cannot be read ({why})"
    return f"could not be read ({why})"


def _broken_link(link: Path) -> str:
    """Why the link ``link``, which leads to no file, cannot be read: it points at itself, or at a link that
    leads back to it ("a link to something that does not exist" was said of those too, as if it pointed
    to nothing), or at something gone."""
    try:
        os.stat(link)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            try:
                target = os.path.join(os.path.dirname(link), os.readlink(link))
            except OSError:
                target = ""
            if target and os.path.normpath(target) == os.path.normpath(link):
                return "a link to itself, not to a file"
            return "a link in a loop of links that leads back to itself, never to a file"
    return "a link to something that does not exist"


def _not_importable(file: Path) -> str:
    """Why a file found in a folder is not imported, or "" when it is."""
    if _is_hidden(file):
        return "hidden file"
    try:
        kind = file_type(file)
    except UnsupportedFile as exc:
        return str(exc)
    if file.is_symlink() and not file.exists():
        return _broken_link(file)
    if not file.is_file():  # a named pipe would wait for a writer forever; devices and sockets are no text
        return _not_a_file(file)
    if kind in _DATA_KINDS and (size := file.stat().st_size) > FOLDER_DATA_BYTES:
        return (f"a {size / 2**20:.0f} MB {_DATA_KINDS[kind]}: logs and data files over "
                f"{FOLDER_DATA_BYTES // 2**20} MB are left out of a folder's import (they would fill most of the "
                "search with their lines); add the file by itself to import it")
    if file.name.lower() in LOCK_FILES:
        return f"a lock file ({file.name}): the package versions a package manager wrote down, not documents"
    if kind in CODE_TYPES and (why := _generated(file)):
        return why
    if kind == "text" and file.suffix.lower() not in SUPPORTED and not is_compressed(file):
        # Without an extension a folder's programs and data files look like "README": only text is taken.
        if file.stat().st_size == 0:  # as the import says of it; not read: /proc's files all say 0 bytes
            return "the file is empty"
        try:
            found = sniff(with_utf16_bom(read_now(file, SAMPLE_BYTES)))
        except OSError as exc:
            return f"could not be read ({exc.strerror or exc.__class__.__name__})"
        if found not in (None, "pdf"):
            return f"{file.suffix} is not a supported type ({found})" if file.suffix else \
                f"no extension, and not text ({found})"
    return ""


# A line this long in a program is no person's writing: a minified script, a generated table, a source map.
_GENERATED_LINE = 2000


def _generated(file: Path) -> str:
    """Why the program or configuration ``file`` is left out of a folder's import as generated, or ""."""
    if ".min." in file.name.lower():
        return "a minified file (.min.): a program's compressed copy, not written to be read"
    try:
        start = read_now(file, SAMPLE_BYTES)
    except OSError:
        return ""  # the import says why it cannot be read
    if max(map(len, start.split(b"\n")), default=0) >= _GENERATED_LINE:
        return (f"a generated or minified file (a line of {_GENERATED_LINE:,} characters or more), not written "
                "to be read; add the file by itself to import it")
    return ""


def _real_file(file: Path, real_folder: str, name: str) -> str | None:
    """On POSIX, os.path.realpath(file) for ``file``, the file ``name`` in a folder whose real path is
    ``real_folder``, and so ``str(file.resolve())`` too for a file _not_importable took (resolve() is
    realpath, then a stat that fails only in a loop of links, which it turns away, and the Path it makes
    reads as realpath's answer). realpath looks at each folder of the path in turn, then at the name;
    the folder's answer is known already, so only the name is looked at here, as realpath would (a name
    that is a link is left to realpath): the PostgreSQL manual's folder was listed in 0.06-0.08 s of processor
    time instead of 0.13-0.17 (three runs each).
    None elsewhere (Windows's realpath asks the system for the whole path)."""
    if os.name != "posix":
        return None
    candidate = os.path.join(real_folder, name)
    return os.path.realpath(file) if os.path.islink(candidate) else candidate


def _hidden_target(file: Path, folder: Path, real: str | None = None) -> str:
    """Why a file found in ``folder`` through a link is not imported: it is hidden, or in a hidden folder, that
    the folder itself is not in, and only a name makes it text (a link's, or none: "id_rsa", ".aws/credentials").
    Hidden folders are skipped in a folder; a link must not bring in what they hold. ``real``: the file's
    real path (os.path.realpath), when known."""
    if real is None:
        real = os.path.realpath(file)
    if _typed_by_name(Path(real)) or real == os.path.abspath(file):
        return ""
    try:
        inside = os.path.relpath(real, os.path.commonpath([real, os.path.realpath(folder)]))
    except ValueError:  # another drive
        inside = real
    return "a link into a hidden file or folder" if any(_is_hidden(Path(p)) for p in Path(inside).parts) else ""


def _typed_by_name(path: Path) -> bool:
    """Whether ``path``'s own extension names its reader ("guide.md", "guide.html.gz"), not just "text"."""
    inner = Path(path.name[:-3]) if is_compressed(path) else path
    return inner.suffix.lower() in SUPPORTED


def _shown(location: str) -> str:
    """``location`` as a report says it: the bytes of a file name that is not UTF-8 (kept by Python as
    lone surrogates, which no UTF-8 console or log can write, and were shown as "bad\\udcffname.txt")
    as � (as UTF-8 decoding replaces them: one for each byte that starts no character), as a file
    manager shows them. Such a file is still refused (see ingest.Importer._import_one): its location could
    not be stored as it is, and one stored by a name with � would be no file's, and taken for deleted."""
    if _utf8(location):
        return location
    try:
        return location.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a lone surrogate that stands for no byte
        return re.sub("[\ud800-\udfff]", "\ufffd", location)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a file name's undecodable bytes, kept by Python as lone surrogates
        return False
    return True
