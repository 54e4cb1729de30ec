"""content_coding.BodyDecoder: one coding at most, unpacked a piece at a time and never past what is asked for."""

from __future__ import annotations

import gzip
import zlib

import pytest

from tinyrag_desktop.content_coding import BodyDecoder, DamagedBody, RefusedCoding, codings

TEXT = b"The harbour closes at dusk; the ferry leaves at six. " * 200


def _bomb(megabytes: int, wbits: int = 31) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
    zeros = b"\0" * (1 << 20)
    return b"".join([packer.compress(zeros) for _ in range(megabytes)] + [packer.flush()])


def _whole(decoder: BodyDecoder, raw: bytes, piece: int) -> bytes:
    out = b"".join(decoder.decode(raw[i:i + piece], 1 << 30) for i in range(0, len(raw), piece))
    return out + decoder.finish(1 << 30)


@pytest.mark.parametrize("header, packed", [
    ("", TEXT), ("identity", TEXT), ("gzip", gzip.compress(TEXT)), ("x-gzip", gzip.compress(TEXT)),
    (" GZIP ", gzip.compress(TEXT)), ("deflate", zlib.compress(TEXT)),
    ("deflate", zlib.compress(TEXT, wbits=-15)),  # raw deflate, as some servers send it
    ("gzip, identity", gzip.compress(TEXT)),
])
@pytest.mark.parametrize("piece", [1, 7, 4096, 1 << 20])
def test_one_coding_unpacks_whole_in_pieces_of_any_size(header: str, packed: bytes, piece: int) -> None:
    assert _whole(BodyDecoder(header), packed, piece) == TEXT


@pytest.mark.parametrize("header", ["gzip, gzip", "deflate, gzip", "gzip,gzip,gzip", "gzip, br"])
def test_two_codings_are_refused_before_a_byte_is_read(header: str) -> None:
    with pytest.raises(RefusedCoding, match="packed the page (twice|3 times over)"):
        BodyDecoder(header)


@pytest.mark.parametrize("header", ["br", "zstd", "compress", "x-bogus"])
def test_a_coding_it_does_not_unpack_is_refused(header: str) -> None:
    with pytest.raises(RefusedCoding, match=f"'{header}', which tinyRAG does not unpack"):
        BodyDecoder(header)


def test_codings_drop_identity_and_case() -> None:
    assert codings("Identity, GZip ,, deflate") == ["gzip", "deflate"]


@pytest.mark.parametrize("header, wbits", [("gzip", 31), ("deflate", 15), ("deflate", -15)])
def test_a_bomb_given_whole_gives_no_more_than_asked(header: str, wbits: int) -> None:
    """64 MB of zeros in about 64 KB, given in one piece: the decoder hands back what was asked for and keeps
    the rest packed, so a cap holds whatever the ratio."""
    decoder = BodyDecoder(header)
    out = decoder.decode(_bomb(64, wbits), 1001)
    assert out == b"\0" * 1001
    assert decoder.pending()
    assert decoder.decode(b"", 10) == b"\0" * 10  # the rest is still there when asked for
    assert len(decoder.finish(5000)) == 5000


@pytest.mark.parametrize("header, raw", [
    ("gzip", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 300),
    ("gzip", b"never compressed at all"),
    ("deflate", b"\xff\xfe\xfd" * 100),
])
def test_a_damaged_body_raises_damaged_body(header: str, raw: bytes) -> None:
    with pytest.raises(DamagedBody):
        _whole(BodyDecoder(header), raw, 4096)
