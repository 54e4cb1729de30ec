"""Realistic test bodies for url_fetch: an article page with page chrome, a non-UTF-8 page, a small PDF."""

from __future__ import annotations

ARTICLE_SENTENCES = [
    "Retrieval-augmented generation lets a language model read documents it was never trained on.",
    "The retriever ranks passages from a local index, and the model quotes the best ones in its answer.",
    "Because the index lives on the user's machine, private notes never leave it, which matters for "
    "lawyers, doctors and anyone else who keeps confidential files.",
    "Streaming parsers make it possible to start a tool call before the model has finished its sentence.",
]

ARTICLE_HTML = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>How local RAG works | The Example Gazette</title>
  <script>window.dataLayer = []; function trackAd() {{ console.log("TRACKING-PIXEL-SCRIPT"); }}</script>
  <style>.ad {{ display: block }} body::after {{ content: "STYLE-CONTENT" }}</style>
</head>
<body>
  <header class="site-header">
    <nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/world">NAVIGATION-WORLD</a></li>
    <li><a href="/sport">NAVIGATION-SPORT</a></li><li><a href="/login">Sign in</a></li></ul></nav>
  </header>
  <div class="ad banner" id="top-ad"><a href="https://ads.example/click">ADVERT-BUY-NOW cheap watches</a></div>
  <main>
    <article>
      <h1>How local RAG works</h1>
      <p class="byline">By A. Writer, 3 March 2025</p>
      <p>{ARTICLE_SENTENCES[0]} {ARTICLE_SENTENCES[1]}</p>
      <p>{ARTICLE_SENTENCES[2]}</p>
      <h2>Streaming</h2>
      <p>{ARTICLE_SENTENCES[3]} It also keeps the window responsive while the answer is still arriving,
      so the reader can follow the reasoning as it unfolds on screen.</p>
    </article>
    <aside class="related"><h3>Related</h3><ul><li><a href="/x">SIDEBAR-RELATED-LINK one</a></li></ul></aside>
  </main>
  <div class="ad" id="bottom-ad">ADVERT-SUBSCRIBE today for 1 dollar</div>
  <footer><p>FOOTER-COPYRIGHT The Example Gazette</p><a href="/privacy">Privacy</a></footer>
  <script>trackAd(); document.write("DOCUMENT-WRITE-SCRIPT");</script>
</body>
</html>
"""

CYRILLIC_TEXT = "Привет, мир! Это страница в кодировке windows-1251, и её надо прочитать правильно."
FRENCH_TEXT = "Le café où l'élève a mangé une crème brûlée était très agréable, même en été."


def cyrillic_page(declare_in_meta: bool) -> bytes:
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">' if declare_in_meta else ""
    html = (f"<html><head>{meta}<title>Страница</title></head><body><article>"
            f"<p>{CYRILLIC_TEXT}</p><p>{CYRILLIC_TEXT}</p><p>{CYRILLIC_TEXT}</p></article></body></html>")
    return html.encode("cp1251")


def minimal_pdf(lines: list[str], title: str = "Test PDF") -> bytes:
    """A one-page PDF whose text layer holds ``lines`` (ASCII), with correct xref offsets."""
    content_ops = ["BT", "/F1 12 Tf", "72 720 Td", "14 TL"]
    for line in lines:
        escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        content_ops.append(f"({escaped}) Tj T*")
    content_ops.append("ET")
    stream = "\n".join(content_ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Title (" + title.encode("latin-1") + b") >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref_at = len(out)
    out += f"xref\n0 {len(objects) + 1}\n".encode() + b"0000000000 65535 f \n"
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\n"
            f"startxref\n{xref_at}\n%%EOF\n").encode()
    return bytes(out)


PNG_BYTES = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
             b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00"
             b"\x00\x00IEND\xaeB`\x82")
