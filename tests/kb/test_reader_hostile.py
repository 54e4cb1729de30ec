"""Readers on hostile and odd files: deep or sloppy nesting, UTF-16, binary junk, bad bytes, NULs, huge
values and entity tricks. Each file is read whole or refused in words a person understands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import data_formats
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.readers import decode_text, looks_binary, read_bytes

# Words of library internals that must never reach the user.
_INTERNALS = ("XML_PARSE_HUGE", "xmlCtxt", "set_int_max_str_digits", "field limit", "recursion", "<string>")


def _text(doc) -> str:
    return "\n".join(b.text for b in doc.blocks)


def _refusal(data: bytes, kind: str) -> str:
    with pytest.raises(ReadError) as info:
        read_bytes(data, kind, "input")
    message = str(info.value)
    assert not any(word in message for word in _INTERNALS), message
    return message


def _posts(wrapper: str, count: int) -> bytes:
    """A forum page whose posts each open ``wrapper`` and never close it: each post nests in the last."""
    posts = "".join(f"<{wrapper}><p>Post {n}: the numbat eats termites.</p>" for n in range(count))
    return f"<html><body>{posts}</body></html>".encode()


# ---- 1. HTML nested deeper than libxml2's limits ---------------------------------------------------------

@pytest.mark.parametrize("wrapper", ["div class=post", "font color=red", "blockquote"])
def test_sloppy_html_that_never_closes_its_wrappers_keeps_every_post(wrapper):
    doc = read_bytes(_posts(wrapper, 400), "html", "forum.html")
    posts = [b.text for b in doc.blocks if b.text.startswith("Post ")]
    # each post still its own paragraph, in order, none lost past the 253rd
    assert posts == [f"Post {n}: the numbat eats termites." for n in range(400)]


@pytest.mark.parametrize("depth", [254, 300, 2100, 20_000])
def test_well_formed_deep_nesting_keeps_the_text_inside_and_after_it(depth):
    html = ("<html><body>" + "<div>" * depth + "<p>Deep wombat paragraph.</p>" + "</div>" * depth
            + "<p>Shallow paragraph after the nest.</p></body></html>")
    text = _text(read_bytes(html.encode(), "html", "deep.html"))
    assert "Deep wombat paragraph." in text
    assert "Shallow paragraph after the nest." in text


def test_deep_nesting_keeps_the_page_structure_above_it():
    nest = "<div>" * 500 + "<p>Deep text.</p>" + "</div>" * 500
    html = (f"<html><head><title>Quokkas</title></head><body><nav>Home | Menu</nav><main><h1>Quokka</h1>"
            f"{nest}<h2>Diet</h2><p>Leaves and grasses.</p></main><footer>copyright</footer></body></html>")
    doc = read_bytes(html.encode(), "html", "deep.html")
    assert doc.title == "Quokkas"
    assert [b.text for b in doc.blocks if b.kind == "heading"] == ["Quokka", "Diet"]
    assert "Home" not in _text(doc) and "copyright" not in _text(doc)
    assert "Deep text." in _text(doc) and "Leaves and grasses." in _text(doc)


def test_a_script_deep_in_a_nest_stays_out_of_the_text():
    html = ("<html><body>" + "<div>" * 3000 + "<script>var tag = '<div><div>';</script><p>Deep text.</p>"
            + "</div>" * 3000 + "<p>After.</p></body></html>")
    text = _text(read_bytes(html.encode(), "html", "deep.html"))
    assert "var tag" not in text
    assert "Deep text." in text and "After." in text


def test_html_with_a_text_over_10_mb_is_read_whole():
    html = b"<html><body><p>" + b"wombat " * 1_600_000 + b"</p><p>The end marker.</p></body></html>"
    text = _text(read_bytes(html, "html", "big.html"))
    assert text.count("wombat") == 1_600_000
    assert "The end marker." in text


# (not <article> or <main>: the reader takes those for the main content and leaves the rest)
_WRAPPERS = st.sampled_from(["div", "font", "span", "blockquote", "section", "b", "em", "center", "ul"])


@settings(max_examples=40, deadline=None)
@given(depth=st.integers(0, 3000), wrappers=st.lists(_WRAPPERS, min_size=1, max_size=4), closed=st.booleans())
def test_every_word_of_a_nested_page_comes_through(depth, wrappers, closed):
    opening = "".join(f"<{wrappers[n % len(wrappers)]}> w{n} " for n in range(depth))
    closing = "".join(f"</{wrappers[n % len(wrappers)]}>" for n in reversed(range(depth))) if closed else ""
    html = f"<html><body>{opening}{closing}<p> last </p></body></html>"
    words = set(_text(read_bytes(html.encode(), "html", "nest.html")).split())
    assert words >= {f"w{n}" for n in range(depth)} | {"last"}


# ---- 2. UTF-16 and UTF-32 with a byte order mark ---------------------------------------------------------

_SAMPLES = {
    "text": "Quokka notes\n\nThe quokka smiles at visitors on Rottnest Island, café.",
    "log": "12:00 quokka sighted near the café\n12:01 quokka left\n",
    "markdown": "# Quokka\n\nThe quokka smiles at visitors, café.\n",
    "rst": "Quokka\n======\n\nThe quokka smiles at visitors, café.\n",
    "csv": "animal,place\nquokka,café\n",
    "json": '{"animal": "quokka", "place": "café"}',
    "xml": '<?xml version="1.0" encoding="UTF-16"?><animals><a>quokka at the café</a></animals>',
    "html": '<html><head><meta charset="utf-8"></head><body><p>The quokka smiles at the café.</p></body></html>',
}
_WIDE = {"UTF-16 LE": ("utf-16-le", b"\xff\xfe"), "UTF-16 BE": ("utf-16-be", b"\xfe\xff"),
         "UTF-32 LE": ("utf-32-le", b"\xff\xfe\x00\x00"), "UTF-32 BE": ("utf-32-be", b"\x00\x00\xfe\xff")}


@pytest.mark.parametrize("encoding", _WIDE)
@pytest.mark.parametrize("kind", _SAMPLES)
def test_utf16_and_utf32_files_with_a_byte_order_mark_are_read(kind, encoding):
    # Windows Notepad's "Unicode" and PowerShell's ">" write UTF-16 with a byte order mark.
    codec, bom = _WIDE[encoding]
    doc = read_bytes(bom + _SAMPLES[kind].encode(codec), kind, "notes")
    text = _text(doc)
    assert "quokka" in text and "café" in text
    assert "\x00" not in text and "\ufeff" not in text


def test_binary_refusal_names_the_type_once():
    assert _refusal(b"\x00\x01\x02binary", "text") == "looks like binary data, not text"
    assert _refusal(b"\x89PNG\r\n\x1a\n" + bytes(100), "markdown") == "looks like PNG image data, not Markdown text"


# ---- 3. binary junk without NUL bytes ---------------------------------------------------------------

@pytest.mark.parametrize("kind", ["text", "html", "markdown", "csv", "log"])
def test_random_bytes_without_nuls_are_refused_as_binary(kind):
    junk = random.Random(3).randbytes(4000).replace(b"\x00", b"a")
    assert "binary" in _refusal(junk, kind)


_REAL_TEXTS = {
    "English": "The quick brown fox jumps over the lazy dog.\n".encode(),
    "Latin-1": "Café crème brûlée, naïve façade, Æsir øl.\n".encode("latin-1"),
    "Windows-1252": "“Smart quotes” – and the € sign…\n".encode("cp1252"),
    "CJK in UTF-8": "日本語のテキストと中文文本和한국어 텍스트\n".encode(),
    "Shift-JIS": "日本語のテキスト、ソフトウェア表示\n".encode("shift_jis"),
    "GBK": "中文文本，软件显示\n".encode("gbk"),
    "KOI8-R": "Съешь же ещё этих мягких французских булок\n".encode("koi8_r"),
    "right to left": "שלום עולם مرحبا بالعالم \u202e reversed\n".encode(),
    "combining marks": "z̸̢̛a̷l̵g̶o̴ t̃ẽx̃t̃\n".encode() * 3,
    "emoji": "🦘🐨 kangaroo koala 🌏\n".encode(),
    "UTF-16 with BOM": "Hello ému ünïcode world\n".encode("utf-16"),
    "UTF-8 with BOM": "\ufeffHello ému\n".encode(),
    "log with colours": b"\x1b[32mINFO\x1b[0m started\r\n\x1b[31mERROR\x1b[0m disk full\r\n",
    "man page": b"N\x08NA\x08AM\x08ME\x08E\n       ls - list directory contents\n\x0c",
    "a stray NUL": b"numbat text here\x00with a nul byte in the middle of a longer line of text\n",
}


@pytest.mark.parametrize("name", _REAL_TEXTS)
def test_real_text_in_any_common_encoding_is_not_binary(name):
    assert not looks_binary(_REAL_TEXTS[name] * 200)
    assert not looks_binary(_REAL_TEXTS[name])


# Everything a person writes: letters, marks, numbers, punctuation, symbols, spaces, line breaks, emoji.
_WRITTEN = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn")) | st.sampled_from("\n\t\r "),
                   max_size=3000)


@settings(max_examples=200, deadline=None)
@given(text=_WRITTEN, codec=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]))
def test_looks_binary_never_flags_text(text, codec):
    assert not looks_binary(text.encode(codec))


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"),
                    max_size=3000).filter(lambda t: not t.startswith(("\xfe\xff", "\xff\xfe"))))
def test_looks_binary_never_flags_latin1_text(text):
    # "þÿ" or "ÿþ" first is, as bytes, a UTF-16 byte order mark: such a file is read as what it says it is.
    assert not looks_binary(text.encode("latin-1"))


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(2048, 20_000),
       bom=st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"]))
def test_looks_binary_flags_random_bytes(seed, size, bom):
    assert looks_binary(bom + random.Random(seed).randbytes(size))


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("kind, data", [
    ("text", "Kettle notes\n\nDescale with citric acid; the café's kettle needs it monthly.\n"),
    ("markdown", "# Kettles\n\nDescale with citric acid; the café's kettle needs it monthly.\n"),
    ("html", "<html><body><h1>Kettles</h1><p>Descale with citric acid; the café's kettle</p></body></html>"),
    ("csv", "appliance,care\nkettle,descale with citric acid at the café\n"),
])
def test_utf16_saved_without_a_byte_order_mark_is_read_as_text(codec, kind, data):
    text = _text(read_bytes(data.encode(codec), kind, "notes"))
    assert "citric acid" in text and "café" in text and "\x00" not in text


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"),
                    min_size=3, max_size=2000).filter(lambda t: t.strip() and not t.lstrip().startswith("=")),
       codec=st.sampled_from(["utf-16-le", "utf-16-be"]))
def test_latin_text_in_utf16_without_a_mark_comes_back_word_for_word(text, codec):
    # (Not starting with "=": "= A" is an AsciiDoc title, read as the heading, not as text.)
    assert _text(read_bytes(text.encode(codec), "text", "notes.txt")).split() == text.split()


@pytest.mark.parametrize("seed", range(20))
def test_binary_with_zeros_in_every_other_byte_is_still_binary(seed):
    # 16-bit numbers (audio samples, pixel values) whose high bytes are zero: the pattern of UTF-16, but
    # they decode to control characters, not text.
    rng = random.Random(seed)
    data = b"".join(bytes([rng.randrange(0, 32), 0]) for _ in range(3000))
    assert "binary" in _refusal(data, "text")


# ---- 4. a few bad bytes in a UTF-8 file -----------------------------------------------------------------

def test_one_bad_byte_in_a_utf8_file_spoils_one_character_not_every_accent():
    data = "Café crème brûlée.\nNaïve façade, déjà vu.\n".encode() * 50 + b"A broken \xff byte.\n"
    text = decode_text(data)
    assert "CafÃ©" not in text
    assert text.count("Café") == 50 and text.count("déjà vu") == 50
    assert "A broken \ufffd byte." in text or "A broken ÿ byte." in text


def test_a_damaged_utf8_line_keeps_its_good_characters():
    text = decode_text("Crème brûlée à la française, ".encode() + b"\xc3 cut here\n")
    assert text.startswith("Crème brûlée à la française, ") and "\ufffd" in text


def test_utf8_and_latin1_files_joined_are_each_read_right():
    data = "Café in UTF-8\n".encode() + "Café in Latin-1\n".encode("latin-1")
    assert decode_text(data) == "Café in UTF-8\nCafé in Latin-1\n"


def test_latin1_and_windows_files_still_read_as_such():
    assert decode_text("Café crème “quoted” €5\n".encode("cp1252")) == "Café crème “quoted” €5\n"


# ---- 5. NUL bytes ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["text", "log", "markdown", "rst", "csv", "html", "xml"])
def test_a_nul_after_the_first_8_kb_never_reaches_a_passage(kind):
    filler = "numbat facts " * 1000
    body = {"csv": f"a,b\n1,{filler}\n2,late\x00words here\n",
            "html": f"<html><body><p>{filler}</p><p>late\x00words here</p></body></html>",
            "xml": f"<r><a>{filler}</a><b>late\x00words here</b></r>"}.get(kind, f"{filler}\n\nlate\x00words here\n")
    text = _text(read_bytes(body.encode(), kind, "nul"))
    assert "\x00" not in text and "\ufffd" not in text
    assert "late words here" in text


def test_a_nul_between_two_words_parts_them():
    assert decode_text(b"numbat text here\x00with a nul") == "numbat text here with a nul"
    assert decode_text(b"padding\n\x00\x00\x00\x00next line") == "padding\nnext line"


# ---- 6. limits of the parsers, said in words --------------------------------------------------------------

def test_json_with_a_huge_integer_is_read_with_its_digits():
    text = _text(read_bytes(b'{"x": ' + b"9" * 5000 + b', "y": 1e999}', "json", "big.json"))
    assert "x: " + "9" * 5000 in text
    assert "y: 1e999" in text


def test_json_nested_too_deeply_is_refused_in_words():
    assert "nested too deeply" in _refusal(b"[" * 100_000 + b"]" * 100_000, "json")


def test_json_nested_hundreds_deep_is_read():
    text = _text(read_bytes(b"[" * 800 + b'"platypus"' + b"]" * 800, "json", "deep.json"))
    assert text.endswith("[0]: platypus")


def test_xml_with_a_text_over_10_mb_is_read():
    data = b"<r><a>" + b"bilby " * 1_800_000 + b"</a><b>end marker</b></r>"
    text = _text(read_bytes(data, "xml", "big.xml"))
    assert text.count("bilby") == 1_800_000 and "b: end marker" in text


def test_xml_nested_hundreds_deep_is_read():
    data = b"<a>" * 1000 + b"deep xml text" + b"</a>" * 1000
    assert "deep xml text" in _text(read_bytes(data, "xml", "deep.xml"))


def test_xml_nested_too_deeply_is_refused_in_words():
    assert "nested more than 2,048 deep" in _refusal(b"<a>" * 100_000 + b"x" + b"</a>" * 100_000, "xml")


def test_malformed_xml_says_where_without_parser_noise():
    assert _refusal(b"<a><b>unclosed</a>", "xml").startswith("not well-formed XML (line 1: ")


_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE %(root)s [
 <!ENTITY lol "lol">
""" + b"".join(b' <!ENTITY lol%d "%s">\n' % (n, (b"&lol%d;" % (n - 1) if n > 1 else b"&lol;") * 10)
               for n in range(1, 10)) + b"""]>
<%(root)s><a>&lol9;</a><b>wallaby text</b></%(root)s>
"""


def test_an_xml_entity_bomb_is_refused_quickly_in_words(monkeypatch):
    # refused by the parser, before any entity is expanded (a thousand million "lol"s, the program hung)
    expanded = []
    monkeypatch.setattr(data_formats, "_resolve_entities", expanded.append)
    message = _refusal(_LAUGHS % {b"root": b"lolz"}, "xml")
    assert "entity" in message and expanded == []


def test_xml_external_entities_are_never_loaded(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the vault code is 4711", encoding="utf-8")
    data = (f'<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>'
            f"<foo><bar>&xxe;</bar><baz>dingo text</baz></foo>").encode()
    text = _text(read_bytes(data, "xml", "xxe.xml"))
    assert "dingo text" in text and "4711" not in text


def test_csv_with_a_cell_over_128_kb_is_read():
    for cell in (b"y" * 300_000, b'"' + b"y, " * 100_000 + b'"'):
        text = _text(read_bytes(b"name,desc\nbig," + cell + b"\nsmall,otter\n", "csv", "big.csv"))
        assert text.count("y") >= 100_000 and "desc: otter" in text


# ---- 7. an internal DTD subset in HTML ----------------------------------------------------------------

def test_an_html_dtd_subset_is_dropped_and_its_entities_never_expanded():
    doc = read_bytes(_LAUGHS % {b"root": b"html"}, "html", "laughs.html")
    text = _text(doc)
    assert "wallaby text" in text
    assert "]>" not in text and "ENTITY" not in text and "lollol" not in text
