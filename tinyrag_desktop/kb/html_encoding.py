"""Which encoding an HTML page is in: its byte order mark, the charset its server or its <meta> names, or
what its bytes look like; and the page's bytes as libxml2 is to read them."""

from __future__ import annotations

import codecs
import re

# Byte order marks, longest first: UTF-32-LE's mark begins with UTF-16-LE's. Python's "utf-16" and
# "utf-32" codecs read the mark to learn the byte order, and drop it. (The readers use them too.)
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xef\xbb\xbf", "utf-8-sig"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def bom_codec(data: bytes) -> str | None:
    """The codec a byte order mark at the start of ``data`` names, or None without one."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec
    return None


# Where a page names its encoding: <meta charset="…">, <meta http-equiv="Content-Type" content="…;
# charset=…">, or an XML declaration's encoding="…" (XHTML).
_CHARSET_REACH = 65536
_CHARSET_NAME = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)|<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)""",
                           re.I)
# What browsers read a page in when it names one of these (the WHATWG Encoding Standard): Windows-1252,
# which gives the bytes 0x80–0x9F their letters ("€", curly quotes) where Latin-1 has control codes.
_AS_WINDOWS_1252 = frozenset({"iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii",
                              "cp819", "ibm819", "iso_8859-1", "windows-1252", "cp1252", "x-cp1252"})


def _declared_encoding(data: bytes) -> str | None:
    """The encoding a page without a byte order mark names in a <meta> or an XML declaration, when
    Python knows it; None otherwise.

    libxml2 finds a <meta charset> itself, but not always: after an XML declaration naming ISO-8859-1 it
    read libxslt's news page's "Pokorný" as "Pokorn�". Named here, the encoding is always used, unless the
    page's bytes are UTF-8 and it names another."""
    if bom_codec(data) is not None or data.isascii():
        return None
    declared = _named_encoding(data)
    if declared is None:
        return None
    if declared != "utf-8" and _is_utf8(data):
        # The page names another encoding, but its bytes are UTF-8 beyond ASCII, which text in a legacy
        # encoding almost never is by chance ("Ã©" for every "é"): a page converted to UTF-8 by an editor
        # that left its <meta> as it was. Read as declared, "café" would be stored as "cafÃ©".
        return "utf-8"
    return declared


# Codecs Python finds by a name that are no encoding a page can be in: they turn its text into something else
# (escapes, IDNA), or refuse everything; UTF-7 is an old trick to hide a script from filters (browsers
# dropped it). Bytes-to-bytes codecs ("base64", "hex") are told apart by Python itself.
_NOT_PAGE_ENCODINGS = frozenset({"undefined", "idna", "punycode", "unicode-escape", "raw-unicode-escape", "utf-7",
                                 "mbcs", "oem"})


def _codec_named(name: str) -> str | None:
    """Python's codec for the encoding a page or its server names ("windows-1251", "Shift_JIS"; ISO-8859-1
    as Windows-1252, as browsers read it); None for a name Python does not know, or for an encoding whose
    page would not read its own ASCII markup as ASCII (UTF-16 without its byte order mark, EBCDIC)."""
    name = name.strip().strip("\"'").lower()
    if name in _AS_WINDOWS_1252:
        return "cp1252"
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):  # not a codec's name ("x-bogus"), or one with a NUL in it
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_PAGE_ENCODINGS:
        return None
    try:
        ascii_based = b"<meta charset=a>".decode(info.name) == "<meta charset=a>"
    except UnicodeDecodeError:
        return None
    return info.name if ascii_based else None


def served_as_utf8(data: bytes, charset: str | None) -> bytes | None:
    """``data``, a page or a text its server says is in ``charset`` (its Content-Type's), in UTF-8; None when
    that does not decide how it reads: no charset, one Python does not know (see _codec_named), a byte
    order mark (which outranks it), bytes all ASCII.

    The server's charset outranks a <meta charset> in the page, as in browsers. A page whose bytes are
    UTF-8 beyond ASCII is read as UTF-8 though its server names another encoding: a server's default
    (Apache's ISO-8859-1) sent with a page saved as UTF-8, which read so would store "cafÃ©" for "café"."""
    codec = _codec_named(charset) if charset else None
    if codec is None or bom_codec(data) is not None or data.isascii():
        return None
    if _is_utf8(data):
        return data
    return _decoded(data, codec).encode("utf-8")


def _named_encoding(data: bytes) -> str | None:
    """The codec for the encoding ``data`` names in a <meta> or an XML declaration; None when it names none
    a page can be in (see _codec_named): such a page ("x-bogus", "utf-16" without its byte order mark) is
    read as one that names none."""
    found = _CHARSET_NAME.search(data, 0, _CHARSET_REACH)
    return None if found is None else _codec_named((found.group(1) or found.group(2)).decode("ascii"))


def _decoded(data: bytes, codec: str) -> str:
    """``data`` decoded as ``codec``. A page that says it is UTF-8 but is not throughout (saved from an
    older editor in Windows-1252, or pasted together) is read as plain text files are, line by line
    (decoding.decode_text): "Café", not "Caf�", which no search finds."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        if codec != "utf-8":
            return data.decode(codec, errors="replace")
    from .decoding import decode_text  # decoding imports this module

    return decode_text(data)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _undeclared_utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 beyond ASCII without a byte order mark or a declared encoding.

    libxml2 reads a page that names no encoding as Latin-1, so "café — menu" saved by any editor of
    today shows "cafÃ© â€” menu"; browsers look at the bytes, and so does this. A page that declares its
    encoding is read by _declared_encoding."""
    if bom_codec(data) is not None or data.isascii() or _named_encoding(data) is not None:
        return False
    return _is_utf8(data)


def _undeclared_legacy(data: bytes) -> bool:
    """Whether ``data`` is in a legacy encoding it does not name: not ASCII, no byte order mark, no declared
    encoding (see _named_encoding), not UTF-8."""
    return not data.isascii() and bom_codec(data) is None and _named_encoding(data) is None and not _is_utf8(data)


def utf8_page(data: bytes) -> tuple[bytes, str | None]:
    """A page's bytes, and the encoding to parse them in (None: the page's own, which libxml2 finds by its
    byte order mark or <meta charset>): a page in a legacy encoding that it does not name is given in
    UTF-8 (see decoding.decode_legacy), one in UTF-8 that does not say so is parsed as UTF-8.

    Neither declared nor UTF-8, a page is read in the encoding its bytes look like, as browsers guess it;
    in Windows-1252 when they read as well in it as in any (libxml2 would read Latin-1, where a curly quote
    or a dash of Windows-1252 is an invisible control code, and a Russian or Japanese page as Latin-1
    garble)."""
    if _undeclared_legacy(data):
        from .decoding import decode_legacy  # decoding imports this module

        return decode_legacy(data).replace("\x00", "").encode("utf-8"), "utf-8"
    return data, "utf-8" if _undeclared_utf8(data) else None


def page_encoding(data: bytes | str) -> tuple[bytes, str | None]:
    """A page's bytes as libxml2 is to read them, and the encoding to read them in (None: left to libxml2:
    a byte order mark, a <meta charset>, else a guess)."""
    encoding = None
    if isinstance(data, bytes) and bom_codec(data) in ("utf-16", "utf-32"):
        # decoded here, so that what is done to its bytes below (a DTD dropped, a nest flattened) works
        # on ASCII-based bytes
        data = data.decode(bom_codec(data), errors="replace")
    if isinstance(data, str):
        # Text already decoded: its <meta charset> no longer applies.
        data, encoding = data.replace("\x00", "").encode("utf-8"), "utf-8"
    elif (declared := _declared_encoding(data)) == "utf-8" and b"\x00" not in data and _is_utf8(data):
        encoding = "utf-8"  # as it is: decoded and encoded again, it would be the same bytes
    elif declared is not None:
        # decoded here, by Python's codecs: libxml2 (through iconv) does not know every name Python does
        data, encoding = _decoded(data, declared).replace("\x00", "").encode("utf-8"), "utf-8"
    elif _undeclared_utf8(data):
        encoding = "utf-8"
    elif _undeclared_legacy(data):
        data, encoding = utf8_page(data)
    return data, encoding


def web_text(data: bytes, charset: str | None, *, page: bool) -> str:
    """A web answer's bytes (a page, a text, an API's JSON) as text, read as the knowledge base reads a page
    it imports: in the ``charset`` its server names when its bytes read in it, in UTF-8 when they are UTF-8
    though it names another (see served_as_utf8); a ``page``'s byte order mark, <meta charset> or look
    (see page_encoding); else as a text file is read (decoding.decode_text): by its byte order mark, as
    UTF-8, else in the legacy encoding its bytes look like. Never raises: a page served as UTF-8 but in
    Windows-1252 reads "Café", not "Caf�".

    One decision for the web tools (url_fetch, web_search, wikipedia) and ``kb add``, so that the model and
    the knowledge base never read one page two ways."""
    from .decoding import decode_text  # decoding imports this module

    served = served_as_utf8(data, charset)
    if served is not None:
        return served.decode("utf-8", errors="replace")
    if page:
        data, encoding = page_encoding(data)
        if encoding is not None:
            return data.decode(encoding, errors="replace")
    return decode_text(data)
