"""What an import did, as the window and ``kb add`` say it: a failure or a skip with its reason, the
progress so far, and the report (ImportReport) whose summary reads "2 added (14 passages), 1 failed".

Split from ingest.py, which fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# The notes (an encoding guessed, a damaged line passed over) a summary spells out; the rest are counted.
_NOTES_SAID = 2


# Progress's ``current`` while a store waits for another program's write lock (see store_schema.WAIT_SAID).
WAITING = "waiting for another program that is writing to the knowledge base…"
# Said while the folders named are listed, before the first source is read (a large one takes seconds).
LISTING = "Listing what to import…"


@dataclass(frozen=True, slots=True)
class Progress:
    """Where an import is: ``done`` of ``total`` sources, the one being read now (or WAITING), failures so far."""

    done: int
    total: int
    current: str
    failed: int

    @property
    def number(self) -> int:
        """The number the progress gives the source being read, from 1; the last one once all are read and a
        wait for another program's lock comes as they are stored (said "1501 of 1500")."""
        return min(self.done + 1, self.total)


@dataclass(frozen=True, slots=True)
class Failure:
    location: str
    reason: str


@dataclass
class ImportReport:
    """What an import did; ``skipped`` are files a folder held that are not imported (with the reason)."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)
    skipped: list[Failure] = field(default_factory=list)
    chunks: int = 0
    updated_chunks: int = 0  # of ``chunks``, those of the sources updated
    cancelled: bool = False
    # Stored without vectors because the embedding server failed, and its first complaint.
    unembedded: list[str] = field(default_factory=list)
    embedding_problem: str = ""
    # Sources whose file was found under a new path (the same bytes, its old path gone): moved, not stored twice.
    moved: list[str] = field(default_factory=list)
    # Sources removed because the file is no longer in the folder imported again.
    removed: list[str] = field(default_factory=list)
    # Unchanged sources read again because an older version read them (see READER_VERSION); in ``updated`` too.
    reread: list[str] = field(default_factory=list)
    # Web pages and Wikipedia articles not downloaded as the network is off; in ``failed`` too, saying so.
    offline: list[str] = field(default_factory=list)
    # Why the import stopped before the end (the disk is full), and how many more items it did not import
    # (not tried, or read and waiting to be stored with the one that failed: see STORE_EVERY).
    stopped: str = ""
    not_tried: int = 0
    # What a cancelled import left out: the sources read and not yet stored, the one it was reading, and
    # those it had not reached, in order.
    left_out: list[str] = field(default_factory=list)
    # Sources stored though the import was cancelled: read before the cancel came, and stored within its
    # moment of grace (ingest.STOP_GRACE); a cancelled import said only what it left out, so a file the
    # cancel came too late for read as "1 added", as if the cancel had been missed.
    late: list[str] = field(default_factory=list)
    # Sources stored with something to say of how they were read (an encoding guessed), and what.
    notes: list[Failure] = field(default_factory=list)
    # Passwords, tokens and keys stored as "***" in the sources stored (secret_values.py).
    hidden: int = 0

    def in_words(self) -> str:
        """The summary as the window says it: only what happened ("2 already up to date", not "0 added,
        0 updated, 2 unchanged (0 chunks stored)"), with passages for chunks. ``summary`` keeps every count,
        for the command line and scripts."""
        stored = {"added": self.chunks - self.updated_chunks, "updated": self.updated_chunks}
        counts = [(self.added, "added"), (self.updated, "updated"), (self.unchanged, "already up to date"),
                  (self.failed, "failed"), (self.skipped, "skipped")]
        parts = []
        for items, words in counts:
            if not items:
                continue
            # each count's own passages: "1 added (4 passages), 1 updated" gave the updated one's to the added
            said = [f"{stored[words]:,} passage{'' if stored[words] == 1 else 's'}"] if stored.get(words) else []
            if words == "updated" and self.reread:
                said.append("read again: an older version of tinyRAG imported them")
            parts.append(f"{len(items):,} {words}" + (f" ({'; '.join(said)})" if said else ""))
        if self.moved:
            parts.append(f"{len(self.moved):,} moved (found under a new path)")
        if self.removed:
            parts.append(f"{len(self.removed):,} removed (deleted from {'its' if len(self.removed) == 1 else 'their'} "
                         "folder)")
        if self.hidden:
            parts.append(self._hidden_words("{:,}"))
        text = ", ".join(parts) or "Nothing was imported"
        return text[0].upper() + text[1:] + self._endings("{:,}", notes=False)

    def summary(self) -> str:
        updated = f"{len(self.updated)} updated"
        if self.reread:
            updated += f" ({len(self.reread)} unchanged but read again: an older version imported them)"
        parts = [f"{len(self.added)} added", updated, f"{len(self.unchanged)} unchanged"]
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        if self.moved:
            parts.append(f"{len(self.moved)} moved")
        if self.removed:
            parts.append(f"{len(self.removed)} removed (deleted from {'its' if len(self.removed) == 1 else 'their'} "
                         "folder)")
        stored = f" ({self.chunks} chunk{'' if self.chunks == 1 else 's'} stored)"
        hidden = f", {self._hidden_words('{}')}" if self.hidden else ""
        return ", ".join(parts) + stored + hidden + self._endings("{}")

    def _hidden_words(self, number: str) -> str:
        what = "password or key" if self.hidden == 1 else "passwords or keys"
        return f"{number.format(self.hidden)} {what} hidden (stored as ***)"

    def _endings(self, number: str, notes: bool = True) -> str:
        """What follows the counts: the notes (not for the window, which lists them beneath, as it lists
        failures and skips), sources stored without embeddings, a stop, a cancel (``number`` formats a count)."""
        text = ""
        for said in self.notes[:_NOTES_SAID] if notes else ():
            text += f"; {_named(said.location, [n.location for n in self.notes])}: {said.reason}"
        if notes and len(self.notes) > _NOTES_SAID:
            text += f"; {number.format(len(self.notes) - _NOTES_SAID)} more notes"
        if self.unembedded:
            text += (f"; {number.format(len(self.unembedded))} stored without embeddings, as "
                     f"{self.embedding_problem}: keyword search finds them, and importing them again once the "
                     "server works embeds them")
        if self.stopped:  # "0 more not imported" of a stop at the last source said nothing
            text += f" — stopped, {self.stopped}" + (
                f": {number.format(self.not_tried)} more not imported" if self.not_tried else "")
        if self.cancelled and self.left_out:
            first = Path(self.left_out[0]).name or self.left_out[0]
            more = f" and {number.format(len(self.left_out) - 1)} more" if len(self.left_out) > 1 else ""
            return text + f" — cancelled: {first}{more} not imported"
        if self.cancelled and self.late:  # nothing left out: the cancel came after the last was read
            first = Path(self.late[0]).name or self.late[0]
            more = f" and {number.format(len(self.late) - 1)} more" if len(self.late) > 1 else ""
            one = len(self.late) == 1
            return text + (f" — cancelled too late: {first}{more} had been read, and {'is' if one else 'are'} "
                           f"stored (Delete removes {'it' if one else 'them'})")
        return text + (" — cancelled" if self.cancelled else "")


def _named(location: str, among: list[str]) -> str:
    """``location`` as a summary names it: by its file's name, with its folder's when another of ``among``
    has the same name (two NEWS.gz files: "its encoding was guessed" was said of "NEWS.gz" twice), and in
    full when that is not enough either; a web address as it is."""
    path = Path(location)
    if not path.name:
        return location
    same = [Path(other) for other in set(among) if Path(other).name == path.name]
    if len(same) < 2:
        return path.name
    if sum(1 for other in same if other.parent.name == path.parent.name) < 2:
        return f"{path.parent.name}/{path.name}"
    return location
