"""files.write_whole writes the text as given, byte for byte, on Windows too."""

from __future__ import annotations

import os
from pathlib import Path

from tinyrag_desktop.files import write_whole


def test_the_text_is_written_as_given_where_text_mode_writes_crlf(tmp_path: Path, monkeypatch) -> None:
    # Python's text mode writes each "\n" as os.linesep: "\r\n" on Windows, where a "\r\n" already in the
    # text (an answer's, a pasted text's) became "\r\r\n" in an export. Here text mode does what it does there.
    real = os.fdopen

    def as_on_windows(fd, mode="r", *args, **kwargs):
        if "b" not in mode and kwargs.get("newline") is None:
            kwargs["newline"] = "\r\n"
        return real(fd, mode, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", as_on_windows)
    path = tmp_path / "chat.md"
    text = "# A chat\n\nline one\r\nline two\n"
    write_whole(path, text)
    assert path.read_bytes() == text.encode("utf-8")
