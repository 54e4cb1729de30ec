"""kb add's summary names a file its notes are about by its folder too when two have the same name: "NEWS.gz:
its encoding was guessed …" was said twice, of two NEWS.gz files, with nothing to tell them apart."""

from __future__ import annotations

import gzip

from .cli_run import run_main


def test_two_notes_of_files_with_one_name_say_their_folders(tmp_path, data_dir, capsys):
    for package in ("libfoo", "libbar"):
        (tmp_path / package).mkdir()
        # KOI8-R reads cleanly as Shift-JIS's half-width katakana too: the guess is unsure, and said
        (tmp_path / package / "NEWS.gz").write_bytes(
            gzip.compress(f"Привет, это русский текст о складе {package}.\n".encode("koi8_r")))
    (tmp_path / "solo").mkdir()
    (tmp_path / "solo" / "koi8.txt").write_bytes("Привет, это русский текст о складе.\n".encode("koi8_r"))
    code, out, err = run_main(capsys, "add", "--data-dir", str(data_dir), str(tmp_path / "libfoo" / "NEWS.gz"),
                              str(tmp_path / "libbar" / "NEWS.gz"), str(tmp_path / "solo" / "koi8.txt"))
    assert code == 0, err
    assert "; libfoo/NEWS.gz: its encoding was guessed" in out and "; libbar/NEWS.gz: its encoding was guessed" in out
    assert "; 1 more notes" in out  # the third, koi8.txt, is counted (a name alone when it is the only one)
