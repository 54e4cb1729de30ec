"""EXPERIMENT (recall34): section-level pseudo-documents in their own FTS5 table, fused with chunks."""

from __future__ import annotations

import os
import sqlite3

from .models import Hit
from .textform import index_form

MODE = os.environ.get("KB_SEC", "")
FUSE = os.environ.get("KB_SEC_FUSE", "src")
WEIGHT = float(os.environ.get("KB_SEC_W", "0.3"))
POOL = int(os.environ.get("KB_SEC_POOL", "100"))
COVER = os.environ.get("KB_SEC_COVER", "1") == "1"
CAP = int(os.environ.get("KB_SEC_CAP", "0"))  # sections of more chunks than this are left out (0: none)

_BUILT: dict = {}


def _sections(rows):
    """rows: (chunk id, source id, title, heading, text) in source, ordinal order."""
    out = []
    by_source: dict[int, list] = {}
    for row in rows:
        by_source.setdefault(row[1], []).append(row)
    for sid, chunks in by_source.items():
        if MODE == "win":
            for n in range(len(chunks)):
                part = chunks[max(0, n - 1): n + 2]
                out.append((sid, chunks[n][2], chunks[n][3], [chunks[n][0]], "\n".join(c[4] for c in part)))
            continue
        groups: list[list] = []
        for c in chunks:
            key = c[3] if MODE == "head" else " > ".join(c[3].split(" > ")[:int(MODE[-1])])
            if groups and groups[-1][0] == key:
                groups[-1][1].append(c)
            else:
                groups.append([key, [c]])
        for key, members in groups:
            if CAP and len(members) > CAP:
                continue
            out.append((sid, members[0][2], key, [c[0] for c in members], "\n".join(c[4] for c in members)))
    return out


def table(conn: sqlite3.Connection):
    key = getattr(conn, "db_key", None)
    version = conn.execute("SELECT count(*), max(id) FROM chunks").fetchone()
    if key in _BUILT and _BUILT[key][0] == version:
        return _BUILT[key][1:]
    rows = conn.execute("SELECT c.id, c.source_id, s.title, c.heading, c.text FROM chunks c JOIN sources s"
                        " ON s.id = c.source_id ORDER BY c.source_id, c.ordinal").fetchall()
    secs = _sections(rows)
    mem = sqlite3.connect(":memory:", check_same_thread=False)
    mem.execute("CREATE VIRTUAL TABLE sec_fts USING fts5(title, heading, text, content='',"
                " tokenize='porter unicode61 remove_diacritics 2')")
    mem.executemany("INSERT INTO sec_fts(rowid, title, heading, text) VALUES(?,?,?,?)",
                    ((n, index_form(t), index_form(h), index_form(x)) for n, (sid, t, h, ids, x) in enumerate(secs)))
    mem.commit()
    _BUILT[key] = (version, mem, secs)
    return mem, secs


def hits(conn, expression: str, weights) -> list[tuple[Hit, list[int]]]:
    mem, secs = table(conn)
    w_title, w_heading, w_text = weights
    out = []
    for rowid, score in mem.execute(
            f"SELECT rowid, bm25(sec_fts, {w_title}, {w_heading}, {w_text}) AS s FROM sec_fts WHERE sec_fts MATCH ?"
            " ORDER BY s LIMIT ?", (expression, POOL)):
        sid, title, heading, ids, text = secs[rowid]
        out.append((Hit(ids[0], sid, title, "", heading, text, -score, None), ids))
    return out
