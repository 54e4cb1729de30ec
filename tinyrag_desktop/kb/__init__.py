"""The local knowledge base: SQLite store, import, chunking and search."""
