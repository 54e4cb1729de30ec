"""tinyRAG Desktop: a local-first assistant whose LLM calls tools inline while it streams."""

import logging

__version__ = "0.1.0"

# Until a verb sends logging to the data folder's log file (logsetup.configure), the app's records go
# nowhere: without a handler, Python's last resort would print them raw on the console, beside the
# message a person gets in words (a damaged settings file, for one).
logging.getLogger(__name__).addHandler(logging.NullHandler())
