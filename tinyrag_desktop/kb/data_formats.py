"""Readers for data files: CSV, JSON (and JSON Lines) and XML, each value said with the path that names it.

Split from readers.py, which picks the reader; failures are :class:`ReadError` with a reason a person reads.
"""

from __future__ import annotations

import csv
import io
import json
import re

from ..settings import json_mistake
from .decoding import decode_text, note
from .errors import ReadError
from .html_reader import parse_html
from .models import Block, Document



# ---- CSV, JSON, XML ---------------------------------------------------------------------------------------

# The csv module refuses a cell over 128 KB ("field larger than field limit"), a whole table for one long
# note. The limit only guards memory, which the file size limit (ingest.MAX_FILE_BYTES) already bounds;
# this is the largest value it takes on every platform (a C long).
_CSV_FIELD_LIMIT = 2**31 - 1


def read_csv(data: bytes, name: str) -> Document:
    text = decode_text(data)
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)
    dialect: type[csv.Dialect] | csv.Dialect
    if (sep := _EXCEL_SEP.match(text)) is not None:
        # Excel's first line naming the delimiter ("sep=;"), not a row of the table
        text = text[sep.end():]
        dialect = type("_ExcelSep", (csv.excel,), {"delimiter": sep.group(1)})
    else:
        # Not csv.Sniffer: a quote inside a field ("likes "quoted; semicolons"") defeats it, and its regular
        # expressions take time cubic in a run of quotes (69 s for a 2 KB file with 2,000 in a field)
        delimiter = _delimiter(text[:8192])
        spaced = _spaced(text[:8192], delimiter)
        dialect = type("_Guessed", (csv.excel,), {"delimiter": delimiter, "skipinitialspace": spaced})
    try:
        # universal newlines: a classic Mac export ends its lines with CR alone
        rows = list(csv.reader(io.StringIO(text, newline=None), dialect))
    except csv.Error as exc:
        raise ReadError(f"not a readable CSV file ({exc})") from exc
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        return Document(name, "csv", ())
    if len(rows) == 1:  # a header alone, or one line of values: no names to give them
        return Document(name, "csv", (Block("text", "; ".join(c.strip() for c in rows[0] if c.strip())),))
    header = [h.strip() for h in rows[0]]
    blocks = []
    for row in rows[1:]:
        if len(row) > len(header):
            row = _requoted(row, dialect.delimiter, len(header))
        # a row longer than the header keeps its extra cells, as "column 5: …"
        names = header + [""] * (len(row) - len(header))
        cells = [f"{h or f'column {n + 1}'}: {c.strip()}" for n, (h, c) in enumerate(zip(names, row)) if c.strip()]
        if cells:
            blocks.append(Block("text", "; ".join(cells)))
    return Document(name, "csv", tuple(blocks))


# A quoted cell: a quote at a cell's start (after a delimiter it could have), to the quote that ends it.
_QUOTED_CELL = re.compile(r'(?:^|(?<=[,;\t|]))( ?)"(?:[^"]|"")*"')


def _unquoted_lines(sample: str) -> list[str]:
    """The first lines of ``sample`` with text, each quoted cell emptied: the delimiters in one ("New York,
    NY") are no delimiters."""
    return [_QUOTED_CELL.sub(r'\1""', line) for line in sample.splitlines()[:20] if line.strip()]


def _delimiter(sample: str) -> str:
    """The delimiter of the CSV text ``sample``: the one found the same number of times (and at least once)
    on the most of its first lines; a comma when none is. One look at each line for each candidate."""
    lines = _unquoted_lines(sample)
    best, most = ",", 0
    for candidate in ",;\t|":
        counts = [line.count(candidate) for line in lines]
        usual = max(set(counts), key=counts.count) if counts else 0
        steady = counts.count(usual) if usual else 0
        if steady > most:
            best, most = candidate, steady
    return best


def _spaced(sample: str, delimiter: str) -> bool:
    """Whether a quoted cell in ``sample`` follows its delimiter after a space (``a, "b, c"``), as csv.Sniffer
    tells: read with the space left out, the cell is read as quoted."""
    return f'{delimiter} "' in sample


def _requoted(row: list[str], delimiter: str, width: int) -> list[str]:
    """``row``, longer than its header (``width`` cells), with the cells a quote inside a field split
    joined again: ``likes "quoted; semicolons"`` is one field to whoever wrote it, two to the csv module
    (a quote that does not open the field is a plain character)."""
    out: list[str] = []
    extra = len(row) - width  # cells to join at most: a row with cells of its own beyond the header keeps them
    for cell in row:
        if extra > 0 and out and out[-1].count('"') % 2:
            out[-1] += delimiter + cell
            extra -= 1
        else:
            out.append(cell)
    return out


# Excel's first line in a CSV file it writes for another locale: the delimiter, "sep=;".
_EXCEL_SEP = re.compile(r"\Asep=([^\w\s\"])[ \t]*\r?\n", re.I)


def _flatten(value: object, path: str, out: list[str]) -> None:
    """``value``'s leaves as "path: value" lines, in order. A loop, not recursion: the JSON parser nests
    deeper than the recursion limit allows a recursive walk from here."""
    stack: list[tuple[object, str]] = [(value, path)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            items = [(item, f"{path}.{key}" if path else str(key)) for key, item in value.items()]
            stack.extend(reversed(items))
        elif isinstance(value, list):
            stack.extend(reversed([(item, f"{path}[{n}]") for n, item in enumerate(value)]))
        else:
            if isinstance(value, str) and "</" in value and _HTML_VALUE.search(value):
                value = _html_text(value)
            if value is None or isinstance(value, bool):
                value = _JSON_WORDS[value]
            out.append(f"{path}: {value}" if path else str(value))


# null, true and false as the file writes them, not as Python does ("None").
_JSON_WORDS = {None: "null", True: "true", False: "false"}
# A value that holds HTML (exported documentation, a CMS's pages, Sphinx's glossary.json): an element
# with its end tag.
_HTML_VALUE = re.compile(r"<([A-Za-z][A-Za-z0-9]*)\b[^<>]*>.*?</\1\s*>", re.S)
_SPACES = re.compile(r"\s+")


def _html_text(value: str) -> str:
    """An HTML value's text as a page shows it, a line per paragraph or item."""
    import lxml.etree
    import lxml.html

    from .html_reader import separate_lines

    try:
        root = lxml.html.fragment_fromstring(value.replace("\x00", ""), create_parent="div")
    except (lxml.etree.ParserError, ValueError):
        return value
    for el in root.iter():  # the line ends in the markup are spaces (but in <pre>); elements start lines
        in_pre = next(el.iterancestors("pre"), None) is not None
        if el.text and isinstance(el.tag, str) and el.tag != "pre" and not in_pre:
            el.text = _SPACES.sub(" ", el.text)
        if el.tail and not in_pre:
            el.tail = _SPACES.sub(" ", el.tail)
    separate_lines(root)
    lines = (" ".join(line.split()) for line in root.text_content().split("\n"))
    return "\n".join(line for line in lines if line)


def _json_value(text: str) -> object:
    """The value a JSON file holds; a JSON Lines file (an export or a log: a value on each line, which
    is not one JSON value) as the list of its lines' values. Raises ValueError for what is neither.

    A JSON Lines file with a few damaged lines (the last record cut off when its writer was killed) gives
    the others, and each damaged line is noted (decoding.note) with its number and what is wrong; one with
    more damaged lines than good ones is no JSON Lines file, and is refused, naming its first bad line."""
    try:
        return json.loads(text, parse_int=str, parse_float=str)
    except json.JSONDecodeError as exc:
        whole = exc  # said when the file is not JSON Lines either, unless it is "extra data" after a line
        if "\n" not in text.strip():
            raise
    values, bad = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                values.append(json.loads(line, parse_int=str, parse_float=str))
            except json.JSONDecodeError as exc:
                bad.append((number, exc))
    if bad and len(bad) >= len(values):
        if not whole.msg.startswith("Extra data"):  # one JSON value, damaged: where it went wrong
            raise whole
        number, exc = bad[0]
        raise json.JSONDecodeError(exc.msg, text, _offset(text, number) + exc.pos) from None
    for number, exc in bad[:_BAD_LINES_SAID]:
        what = exc.msg.removesuffix(" at")
        note(f"line {number:,} skipped, not valid JSON ({what[0].lower()}{what[1:]} at column {exc.colno}): "
             f"the other {len(values):,} line{'s were' if len(values) != 1 else ' was'} imported")
    if len(bad) > _BAD_LINES_SAID:
        note(f"{len(bad) - _BAD_LINES_SAID:,} more damaged lines skipped")
    return values


# The damaged lines of a JSON Lines file said one by one; the rest are counted.
_BAD_LINES_SAID = 3


def _offset(text: str, number: int) -> int:
    """Where line ``number`` (from 1) of ``text`` starts."""
    return sum(len(line) for line in text.splitlines(keepends=True)[: number - 1])


def read_json(data: bytes, name: str) -> Document:
    try:
        # Numbers stay as written: they only become text here, and a number of 5,000 digits (which int()
        # refuses beyond 4,300) or 1e999 (which float() makes "inf") is still what the file says.
        value = _json_value(decode_text(data))
    except RecursionError as exc:
        raise ReadError("nested too deeply to read (lists or objects hundreds of levels inside one another)"
                        ) from exc
    except json.JSONDecodeError as exc:
        raise ReadError(f"not valid JSON: {json_mistake(exc)}") from exc
    except ValueError as exc:
        raise ReadError(f"not valid JSON ({exc})") from exc
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) if isinstance(value, list) else [("", value)]
    blocks = []
    for key, item in items:
        lines: list[str] = []
        _flatten(item, str(key) if key != "" else "", lines)
        if lines:
            blocks.append(Block("text", "\n".join(lines)))
    return Document(name, "json", tuple(blocks))


def read_xml(data: bytes, name: str) -> Document:
    import lxml.etree

    # huge_tree lifts libxml2's limits on a text's size (10 MB) and on nesting (256 deep, to 2,048), both
    # well within what the file size limit lets in. Entities are still never loaded or expanded, and
    # libxml2 still refuses an entity bomb ("billion laughs") with or without it.
    parser = lxml.etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True,
                                  recover=False)
    try:
        root = lxml.etree.fromstring(data, parser)
    except lxml.etree.XMLSyntaxError as exc:
        raise ReadError(_xml_problem(exc)) from exc
    if root is None:
        raise ReadError("not well-formed XML (no root element)")
    if lxml.etree.QName(root).localname.lower() == "html":
        return parse_html(data, name)
    _resolve_entities(root)
    top = root
    # a wrapper around the records (RSS's <channel> in <rss>): a block per record, not one for them all
    while len(inner := [c for c in top if isinstance(c.tag, str)]) == 1 and len(inner[0]) and not (
            _mixed(top) or _mixed(inner[0])):
        top = inner[0]
    blocks = []
    for child in top if len(top) else [top]:
        if not isinstance(child.tag, str):
            continue
        lines = _xml_lines(child)
        if lines:
            blocks.append(Block("text", "\n".join(lines)))
    return Document(name, "xml", tuple(blocks))


def _xml_lines(top: object) -> list[str]:
    """An element's text as "name: text" lines: one for each element that holds text of its own, in order.

    An element whose text runs around its children ("<p>Hello <b>bold</b> world</p>", a paragraph of
    DocBook, TEI or XHTML) is one line of all its text, its children's words in their places; a
    container of fields is a line per field. A loop, not recursion: elements nest 2,048 deep.
    """
    import lxml.etree

    lines = []
    stack = [top]
    while stack:
        el = stack.pop()
        children = [c for c in el if isinstance(c.tag, str)]
        if not children or _mixed(el):
            text = "".join(el.itertext())
            # HTML written as a value (a feed's <description>, escaped or in CDATA): its text, not its tags
            text = _html_text(text) if "</" in text and _HTML_VALUE.search(text) else text
            text = " ".join(text.split())
            if text:
                lines.append(f"{lxml.etree.QName(el).localname}: {text}")
        else:
            stack.extend(reversed(children))
    return lines


def _mixed(el: object) -> bool:
    """Whether an XML element holds text of its own around its children (or without any)."""
    return bool(el.text and el.text.strip()) or any(c.tail and c.tail.strip() for c in el)


# How much text one entity reference may stand for, and how deep entities may refer to others: libxml2
# already refuses a file whose entities would swell it ("billion laughs"); these bound the rest.
_ENTITY_CHARS = 10_000
_ENTITY_DEPTH = 8
_ENTITY_REF = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);")
_PREDEFINED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _resolve_entities(root: object) -> None:
    """Each entity reference in ``root`` replaced by its text: an entity the file defines by its value,
    one HTML names ("&mdash;", which a DocBook or XHTML file takes from a DTD not read here) by its
    character, any other (an external file, never read) by nothing. The parser leaves them unexpanded
    (``resolve_entities=False``), so that one undefined name does not refuse the whole file."""
    import html.entities

    import lxml.etree

    refs = list(root.iter(lxml.etree.Entity))
    if not refs:
        return
    dtd = root.getroottree().docinfo.internalDTD
    defined = {e.name: e.content or "" for e in dtd.iterentities()} if dtd is not None else {}

    def expand(name: str, depth: int) -> str:
        if name.startswith("#"):
            try:
                return chr(int(name[2:], 16) if name[1:2] in "xX" else int(name[1:]))
            except (ValueError, OverflowError):
                return ""
        if name in _PREDEFINED:
            return _PREDEFINED[name]
        if name in defined:
            if depth >= _ENTITY_DEPTH:
                return ""
            value = re.sub(r"<[^<>]*>", "", defined[name])  # markup in an entity: its text
            return _ENTITY_REF.sub(lambda m: expand(m.group(1), depth + 1), value)[:_ENTITY_CHARS]
        return html.entities.html5.get(name + ";", "")

    for ref in refs:
        text = expand(ref.name, 0) + (ref.tail or "")
        previous, parent = ref.getprevious(), ref.getparent()
        if previous is not None:
            previous.tail = (previous.tail or "") + text
        else:
            parent.text = (parent.text or "") + text
        parent.remove(ref)


# The longest parser message a reason quotes.
_PROBLEM_CHARS = 100


def _xml_problem(exc: Exception) -> str:
    """What is wrong with an XML file, from libxml2's error: where, and in words, not in its option names."""
    import lxml.etree

    message = getattr(exc, "msg", "") or str(exc)
    if getattr(exc, "code", None) == lxml.etree.ErrorTypes.ERR_RESOURCE_LIMIT:
        if "depth" in message.lower():
            return "not readable as XML (elements nested more than 2,048 deep)"
        if "entit" in message.lower():
            return ("not read, for safety: its entity definitions would expand into an enormous text "
                    "(an \"entity bomb\")")
        return "not readable as XML (too large a part for the XML parser)"
    # libxml2 ends its message with the position ("…, line 1, column 19"), which lxml repeats after it,
    # and may quote the file ("Double hyphen within comment: <!-- ⏎ XML Security …"): one line of it.
    message = " ".join(re.sub(r",? line \d+, column \d+$", "", message.strip()).split())
    message = message if len(message) <= _PROBLEM_CHARS else message[: _PROBLEM_CHARS - 1].rstrip() + "…"
    line = getattr(exc, "lineno", None)
    return f"not well-formed XML (line {line}: {message})" if line else f"not well-formed XML ({message})"
