"""What an SQLite file holds, read before tinyRAG writes to it: whether it is one of ours or another program's.

The chat history and the knowledge base both refuse a database whose tables are not the ones they read,
rather than add theirs to it; this is the reading they share.
"""

from __future__ import annotations

import sqlite3
from typing import Mapping


def table_columns(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """Each table of the database (SQLite's own left out), with its columns' names."""
    return {name: {col for (col,) in conn.execute("SELECT name FROM pragma_table_info(?)", (name,))}
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not name.startswith("sqlite_")}


def missing_columns(tables: Mapping[str, set[str]], expected: Mapping[str, set[str]]) -> list[str]:
    """"table.column" for each expected column a table present lacks (tables absent are not counted)."""
    return [f"{table}.{column}" for table, columns in expected.items() if table in tables
            for column in sorted(columns - tables[table])]
