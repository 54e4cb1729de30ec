"""The models seen starting their replies inside their reasoning, kept in the data folder between runs.

A model whose chat template opens its <think> itself (see protocol/think.py) sends its reasoning first with no
tag before it: once seen, its next replies start as reasoning. Each program that meets one (the window, ``ask``
in a terminal) notes it in THINKING_MODELS, read, changed and written back under the file's lock
(file_lock.py), so that two noting one each at the same moment both keep theirs, and the next start knows
them from its first reply.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from ..file_lock import locked
from ..files import write_whole

log = logging.getLogger(__name__)

# (server address, model name) of the models known to open their reasoning, in this process
_OPENS_THINKING: set[tuple[str, str]] = set()
_READ_FROM: set[Path] = set()  # the data folders whose file has been read into _OPENS_THINKING
THINKING_MODELS = "thinking-models.json"


def read_habits(data_dir: Path) -> None:
    """Read the data folder's THINKING_MODELS into _OPENS_THINKING, once."""
    if data_dir not in _READ_FROM:
        _READ_FROM.add(data_dir)
        _OPENS_THINKING.update(_habits_on_disk(data_dir))


def _habits_on_disk(data_dir: Path) -> set[tuple[str, str]]:
    """The models the data folder's THINKING_MODELS lists; a missing or damaged file lists none."""
    try:
        listed = json.loads((data_dir / THINKING_MODELS).read_text(encoding="utf-8"))
        return {(str(url), str(model)) for url, model in listed}
    except (OSError, ValueError, TypeError, RecursionError) as exc:  # damaged: learnt again from the replies
        if not isinstance(exc, FileNotFoundError):
            why = "brackets nested too deeply" if isinstance(exc, RecursionError) else exc
            log.warning("could not read %s: %s", data_dir / THINKING_MODELS, why)
    return set()


def learn(data_dir: Path, habit: tuple[str, str], opens: bool) -> None:
    """Note whether a model's replies start inside its reasoning, here and in the data folder's file as it is
    now: what another program (`ask` in a terminal, the window) noted there since stays, and so does what
    one notes while this one writes (the lock)."""
    if (habit in _OPENS_THINKING) == opens:
        return
    (_OPENS_THINKING.add if opens else _OPENS_THINKING.discard)(habit)
    path = data_dir / THINKING_MODELS
    with locked(path):
        noted = _habits_on_disk(data_dir)
        try:
            write_whole(path, json.dumps(sorted(noted | {habit} if opens else noted - {habit})))
        except OSError as exc:  # a read-only data folder: known for this run only
            log.warning("could not write %s: %s", path, exc)
