"""Text in a legacy encoding (Windows-1251 Russian, Shift-JIS, GBK, Windows-1250 Polish, an HTML page with no
<meta charset>) is read in that encoding, not as Windows-1252 garble; Latin-1 and Windows-1252 files read as
they always did, and a guess the reader is unsure of is said in the import's report."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.decoding import collecting_notes, decode_text

_NOTES = {
    "sjis.txt": ("これは日本語のテキストです。倉庫の在庫管理について。\n", "shift_jis", "倉庫"),
    "gbk.txt": ("这是中文文本，关于仓库库存管理。\n", "gbk", "仓库"),
    "cp1251.txt": ("Привет, это русский текст о складе и инвентаризации.\n", "cp1251", "складе"),
    "cp1250.txt": ("Zażółć gęślą jaźń — polski tekst o magazynie.\n", "cp1250", "magazynie"),
    "latin1.txt": ("Grüße aus München, schöne Straße am Flußufer.\n", "latin-1", "Straße"),
    "cp1252.txt": ("Café crème, naïve façade – “quoted” for 5 €.\n", "cp1252", "crème"),
    # Hebrew read cleanly, as nonsense, in the more common Windows-1251 ("щмен"); Turkish as Windows-1252
    "cp1255.txt": ("שלום, זהו המחסן הראשי של החברה. כאן נשמרים כל המוצרים לפני המשלוח.\n", "cp1255", "המחסן"),
    "cp1254.txt": ("Günaydın, burası şirketin ana deposudur. Bütün ürünler burada saklanır.\n", "cp1254",
                   "deposudur"),
}
_PAGE = ("<html><head><title>Склад</title></head><body><p>Привет, это русский текст о складе и инвентаризации."
         "</p></body></html>")


def _import(data_dir: Path, items: list[str]):
    kb = open_store(data_dir)
    try:
        return Importer(kb).run(items)
    finally:
        kb.close()


def _texts(data_dir: Path) -> dict[str, str]:
    kb = open_store(data_dir)
    try:
        return {Path(s.location).name: "\n".join(c.text for c in kb.chunks(s.id)) for s in kb.sources()}
    finally:
        kb.close()


def test_files_in_legacy_encodings_are_found_by_their_own_words(tmp_path, data_dir):
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, (text, codec, _) in _NOTES.items():
        (folder / name).write_bytes(text.encode(codec))
    # worded apart from cp1251.txt: one passage's text takes one place in a search, whichever file holds it
    (folder / "nometa.html").write_bytes(_PAGE.replace("Привет, это", "Здравствуйте, вот").encode("cp1251"))
    report = _import(data_dir, [str(folder)])
    assert len(report.added) == len(_NOTES) + 1 and not report.notes, (report.failed, report.notes)
    for name, (text, _, word) in _NOTES.items():
        assert name in [Path(h.location).name for h in search(data_dir, word, 3)], word
    assert {Path(h.location).name for h in search(data_dir, "складе", 3)} == {"nometa.html", "cp1251.txt"}
    assert _texts(data_dir)["nometa.html"] == "Здравствуйте, вот русский текст о складе и инвентаризации."


def test_a_web_page_without_a_charset_is_read_in_the_encoding_it_looks_like(data_dir):
    class Page(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            body = _PAGE.encode("cp1251")
            self.send_response(200)
            self.send_header("Content-Type", "text/html")  # no charset
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with serving(Page) as url:
        report = _import(data_dir, [f"{url}/склад.html"])
    assert report.added and not report.notes, report.failed
    assert search(data_dir, "складе", 1)[0].title == "Склад"


def test_an_unsure_guess_is_said_in_the_report(tmp_path, data_dir, capsys):
    from .cli_run import run_main

    note = tmp_path / "koi8.txt"  # KOI8-R reads cleanly as Shift-JIS's half-width katakana too
    note.write_bytes("Привет, это русский текст о складе.\n".encode("koi8_r"))
    code, out, err = run_main(capsys, "add", "--data-dir", str(data_dir), str(note))
    assert code == 0, err
    assert f"note: {note}: its encoding was guessed, read as KOI8-R: if its text looks wrong" in err
    assert "; koi8.txt: its encoding was guessed, read as KOI8-R" in out
    assert "складе" in _texts(data_dir)["koi8.txt"]


def test_portuguese_whose_only_letter_beyond_ascii_is_a_tilde_a_stays_windows_1252():
    # "ã" is Romanian's "ă" in Windows-1250, its likeliest letter: "não" was read "năo" (found by hypothesis)
    text = "Não sei. São Paulo não é longe, não.\n" * 3
    assert decode_text(text.encode("cp1252")) == text


def test_a_file_mixing_utf8_and_a_legacy_encoding_reads_both():
    data = "café au lait\n".encode() + "Привет, это русский текст о складе.\n".encode("cp1251")
    assert decode_text(data) == "café au lait\nПривет, это русский текст о складе.\n"


_LATIN = st.text(st.characters(codec="cp1252", exclude_categories=("Cc", "Cs")), min_size=1, max_size=60)


# Words of one Western language each, and what any text may hold beside them. A text mixing languages
# ("Ærø Ærø señor señor señor señor señor", found by this test) can read more likely in another code page:
# as Polish "Ćrř seńor", with fewer letters foreign to its one language than Danish or Spanish has.
_WESTERN_WORDS = [["Grüße", "Köln", "Straße"], ["naïve", "Café", "façade", "déjà vu", "crème"], ["São Paulo", "não"],
                  ["Ærø", "smørrebrød"], ["señor", "años", "mañana"], ["Björk", "Göteborg"]]
_ANY_TEXT = ["5 €", "“so”", "the", "and", "quay", "½ pint", "—"]


@settings(max_examples=150, deadline=None)
@given(words=st.sampled_from(_WESTERN_WORDS).flatmap(
    lambda language: st.lists(st.sampled_from(language + _ANY_TEXT), min_size=1, max_size=12)))
@example(words=["naïve"] * 6 + ["façade"] * 2)  # as Latvian in Windows-1257, "naļve faēade", when each "naïve" counted
def test_latin_text_in_windows_1252_reads_as_it_always_did(words):
    text = " ".join(words) + "\n"
    assert decode_text(text.encode("cp1252")) == text


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_decode_to_text_without_nuls_and_notes_are_sentences(data):
    with collecting_notes() as notes:
        text = decode_text(data)
    assert isinstance(text, str) and "\x00" not in text
    assert all(note.startswith("its encoding was guessed, read as ") for note in notes)


@settings(max_examples=100, deadline=None)
@given(_LATIN)
def test_windows_1252_text_never_fails_to_decode(text):
    decode_text(text.encode("cp1252"))


def test_turkish_letters_are_read_as_turkish_and_icelandic_ones_as_ever():
    assert decode_text("Günaydın, burası şirketin ana deposudur.".encode("cp1254")).startswith("Günaydın, burası")
    icelandic = "Þórður og Guðrún fóru í sund á laugardaginn og hittu vini sína."
    assert decode_text(icelandic.encode("cp1252")) == icelandic
