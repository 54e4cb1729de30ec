"""A small PDF whose one page unpacks to a lot of memory: a Flate content stream of spaces after one line of text."""

from __future__ import annotations

import functools
import zlib


@functools.lru_cache(maxsize=4)  # a bomb takes a second to pack
def pdf_bomb(megabytes: int, text: str = "hello bomb") -> bytes:
    """A valid PDF of about ``megabytes`` KB whose page's content stream unpacks to ``megabytes`` MB."""
    packer = zlib.compressobj(9)
    spaces = b" " * (1 << 20)
    stream = b"".join([packer.compress(f"BT /F1 12 Tf 72 712 Td ({text}) Tj ET\n".encode("latin-1"))]
                      + [packer.compress(spaces) for _ in range(megabytes)] + [packer.flush()])
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out
