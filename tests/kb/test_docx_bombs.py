"""A .docx is a ZIP archive: one that unpacks to far more than any real Word document is refused at once,
in words, before its XML is uncompressed or parsed; normal documents still read."""

from __future__ import annotations

import io
import re
import struct
import zipfile
from pathlib import Path

import pytest

from tinyrag_desktop.kb import ImportItem, Importer, open_store
from tinyrag_desktop.kb import word
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.readers import read_bytes

_DOC_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
             b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
_DOC_TAIL = b"</w:body></w:document>"
_PARAGRAPH = b"<w:p><w:r><w:t>lorem ipsum dolor sit amet consectetur</w:t></w:r></w:p>"
# Words of library internals that must never reach the user.
_INTERNALS = ("XML_PARSE_HUGE", "XMLSyntaxError", "Resource limit", "CRC", "Traceback", "zipfile")


def _seed() -> zipfile.ZipFile:
    import docx

    out = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("The seed paragraph of a Word document.")
    document.save(out)
    return zipfile.ZipFile(io.BytesIO(out.getvalue()))


def _docx(write_body, extra: dict[str, bytes] | None = None) -> bytes:
    """A Word document made by python-docx whose document.xml holds what ``write_body(stream)`` writes
    between <w:body> and </w:body>, written in pieces (a big one is never whole in memory)."""
    seed = _seed()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for info in seed.infolist():
            if info.filename == "word/document.xml":
                with z.open("word/document.xml", "w", force_zip64=True) as stream:
                    stream.write(_DOC_HEAD)
                    write_body(stream)
                    stream.write(_DOC_TAIL)
            else:
                z.writestr(info, seed.read(info))
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return out.getvalue()


def _claiming(data: bytes, member: str, size: int) -> bytes:
    """``data`` (a ZIP archive) with ``member``'s uncompressed size given as ``size`` in its central
    directory, whatever the part really holds: a few bytes "claiming" a huge part, or a huge part a small one."""
    out = bytearray(data)
    name = member.encode()
    at = out.find(b"PK\x01\x02")
    while at >= 0:
        name_len = struct.unpack_from("<H", out, at + 28)[0]
        if out[at + 46:at + 46 + name_len] == name:
            struct.pack_into("<I", out, at + 24, size)
            return bytes(out)
        at = out.find(b"PK\x01\x02", at + 4)
    raise AssertionError(f"{member} not in the archive")


def _refusal(data: bytes, monkeypatch: pytest.MonkeyPatch) -> str:
    """The reason ``data`` is refused for, at once: python-docx is never reached, nothing is unpacked or parsed."""
    import docx

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the document was opened and parsed")

    monkeypatch.setattr(docx, "Document", never)
    with pytest.raises(ReadError) as info:
        read_bytes(data, "docx", "bomb.docx")
    message = str(info.value)
    assert not any(word in message for word in _INTERNALS), message
    return message


def test_a_small_zip_claiming_a_huge_document_is_refused_at_once_in_words(monkeypatch):
    small = _docx(lambda w: w.write(_PARAGRAPH))
    data = _claiming(small, "word/document.xml", 3 * 2**30)  # says 3 GB; holds a few hundred bytes
    assert len(data) < 50_000
    message = _refusal(data, monkeypatch)
    # 3 GB and the seed's own styles, themes and settings (under a megabyte)
    assert re.fullmatch(r"too large once uncompressed: its text and layout come to 3,07\d MB \(over 64 MB, the limit\)",
                        message), message


def test_a_small_file_unpacking_to_75_mb_of_paragraphs_is_refused(monkeypatch):
    # The reviewer's bomb, smaller: 75 MB of short paragraphs in well under a megabyte (it ran for minutes).
    data = _docx(lambda w: [w.write(_PARAGRAPH * 10_000) for _ in range(110)])
    assert len(data) < 1_000_000
    message = _refusal(data, monkeypatch)
    assert message == "too large once uncompressed: its text and layout come to 75 MB (over 64 MB, the limit)"


def test_pictures_unpacking_past_the_limit_are_refused(monkeypatch):
    seed_parts = _docx(lambda w: w.write(_PARAGRAPH), {"word/media/image1.png": b"\x89PNG" + b"\x00" * 1000})
    data = _claiming(seed_parts, "word/media/image1.png", 100 * 2**20)
    message = _refusal(data, monkeypatch)
    assert message == ("too large once uncompressed: its pictures and other parts come to 100 MB "
                       "(over 64 MB, the limit)")


def test_a_part_packed_far_tighter_than_any_real_document_is_refused(monkeypatch):
    # 24 MB of one letter, under the size limit, packed about a thousand to one: refused at once, not
    # parsed for half a minute.
    data = _docx(lambda w: [w.write(b"<w:p><w:r><w:t>" + b"a" * 2**20 + b"</w:t></w:r></w:p>") for _ in range(24)])
    message = _refusal(data, monkeypatch)
    assert message.startswith("not read, for safety: 24 MB of it are packed into ")
    assert "far tighter than in any real Word document" in message


def test_a_part_compressed_in_a_way_word_never_uses_is_refused(monkeypatch):
    # bzip2 unpacks a whole piece at once, however much it says it holds: never unpacked at all.
    seed = _seed()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in seed.infolist():
            z.writestr(info.filename, seed.read(info),
                       zipfile.ZIP_BZIP2 if info.filename == "word/document.xml" else zipfile.ZIP_DEFLATED)
    message = _refusal(out.getvalue(), monkeypatch)
    assert message == ("a Word document that cannot be read: its part word/document.xml is compressed in a way "
                       "Word never uses")


def test_a_part_holding_more_than_its_archive_says_is_read_no_further_than_that():
    # The archive says 2 KB; the part holds 30 MB. zipfile stops at the size given, and the part is
    # found damaged: the sizes checked before reading bound what is unpacked.
    data = _docx(lambda w: [w.write(_PARAGRAPH * 20_000) for _ in range(20)])
    data = _claiming(data, "word/document.xml", 2048)
    with pytest.raises(ReadError) as info:
        read_bytes(data, "docx", "liar.docx")
    assert str(info.value) == "a damaged Word document (a part of its ZIP archive is damaged)"


def test_a_single_text_over_10_mb_is_refused_in_words_not_the_parser_s():
    data = _docx(lambda w: w.write(b"<w:p><w:r><w:t>" + b"ab" * (6 * 2**20) + b"</w:t></w:r></w:p>"))
    with pytest.raises(ReadError) as info:
        read_bytes(data, "docx", "long.docx")
    message = str(info.value)
    assert message == "a Word document that cannot be read: a single stretch of text in it is over 10 MB long"


def test_normal_documents_are_still_read():
    data = _docx(lambda w: [w.write(b"<w:p><w:r><w:t>Paragraph %d of a long report on tides.</w:t></w:r></w:p>" % n)
                            for n in range(2000)],
                 {"word/media/image1.jpeg": bytes(range(256)) * 4096})  # a megabyte of picture
    doc = read_bytes(data, "docx", "report.docx")
    assert [b.text for b in doc.blocks][:2] == ["Paragraph 0 of a long report on tides.",
                                                "Paragraph 1 of a long report on tides."]
    assert len(doc.blocks) == 2000


def test_a_large_part_packed_as_tightly_as_real_text_is_not_taken_for_a_bomb():
    # Words in varied order pack about three to one; the same part said to unpack to a hundred times its
    # packed size (over the size where the ratio is looked at) is still let through, to 300 times refused.
    import random

    rng = random.Random(7)
    words = [bytes(rng.choices(b"abcdefghijklmnopqrstuvwxyz", k=rng.randint(2, 9))) for _ in range(5000)]
    body = b"".join(b"<w:p><w:r><w:t>" + b" ".join(rng.choices(words, k=12)) + b"</w:t></w:r></w:p>"
                    for _ in range(5000))
    data = _docx(lambda w: w.write(body))
    word._check_unpacked_size(data)
    packed = zipfile.ZipFile(io.BytesIO(data)).getinfo("word/document.xml").compress_size
    assert 100 * packed > 16 * 2**20
    word._check_unpacked_size(_claiming(data, "word/document.xml", 100 * packed))
    with pytest.raises(ReadError, match="^not read, for safety"):
        word._check_unpacked_size(_claiming(data, "word/document.xml", 300 * packed))


def test_importing_a_docx_bomb_fails_that_file_with_the_reason(tmp_path: Path):
    bomb = tmp_path / "bomb.docx"
    bomb.write_bytes(_claiming(_docx(lambda w: w.write(_PARAGRAPH)), "word/document.xml", 2**31))
    good = tmp_path / "notes.txt"
    good.write_text("The lighthouse keeper logs the weather every morning.")
    kb = open_store(tmp_path / "data")
    try:
        report = Importer(kb).run([ImportItem("path", str(bomb)), ImportItem("path", str(good))])
    finally:
        kb.close()
    assert len(report.failed) == 1
    assert re.fullmatch(r"too large once uncompressed: its text and layout come to 2,04\d MB \(over 64 MB, the limit\)",
                        report.failed[0].reason), report.failed[0].reason
    assert len(report.added) == 1


def test_a_zip_without_the_main_document_part_is_said_in_words():
    # python-docx's "no relationship of type 'http://schemas.openxmlformats.org/…/officeDocument' in collection"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"/>')
        z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/relationships"/>')
        z.writestr("word/document.xml", "<w:document/>")  # there, but nothing points to it
    with pytest.raises(ReadError, match=r"^a damaged Word document \(it holds no main document part\)$"):
        read_bytes(out.getvalue(), "docx", "letter.docx")
