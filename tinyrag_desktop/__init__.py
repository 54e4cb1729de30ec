"""tinyRAG Desktop: a local-first assistant whose LLM calls tools inline while it streams."""

__version__ = "0.1.0"
