"""Bytes to text for the text readers: by the byte order mark, else UTF-8, else the legacy encoding the
bytes look like (Windows-1252 where they read as well in it as in any other, unless the words of a Central
European or Baltic language read in its code page); the lines of a file that mixes encodings read by the
same rule where they are not UTF-8; NULs dropped.

Split from readers.py, so that the readers of each markup (markdown.py, rst.py, data_formats.py) decode as
it does without importing it. A guess it is unsure of is noted (see :func:`collecting_notes`), so that the
import can say so rather than store garbled text in silence.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections import Counter
from contextvars import ContextVar
from typing import Iterator, TypeVar

from .html_encoding import bom_codec

_Text = TypeVar("_Text", str, bytes)

# How much of a file the encoding is guessed from: charset_normalizer takes 10-30 ms for 64 KB.
_SAMPLE_BYTES = 65536
# Legacy encodings in the order of how common they are: a tie between look-alike code pages (short
# Cyrillic text reads as cleanly in mac_cyrillic as in Windows-1251, German in Windows-1250 as in 1252)
# goes to the more common one. Windows-1252 first: a Latin-1 or Windows file reads as it always did.
_COMMON = ("cp1252", "latin_1", "cp1251", "cp1250", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
           "koi8_r", "koi8_u", "cp866", "iso8859_2", "iso8859_5", "iso8859_7", "iso8859_9", "iso8859_15", "cp874",
           "shift_jis", "cp932", "euc_jp", "gb2312", "gbk", "gb18030", "big5", "euc_kr", "cp949")
# How much more chaos (charset_normalizer's measure of odd characters, 0 to 1) than the cleanest reading
# a more common encoding may show and still be chosen; above _MOST_CHAOS no reading is trusted.
_CHAOS_TIE = 0.02
_MOST_CHAOS = 0.1
# The languages the Central European code pages are for: text that looks like a Latin script's in
# Windows-1252 is read in one of these only when recognised as one of its languages. Not the Baltic
# ones: charset_normalizer took "Grüße … naïve déjà vu" for Norwegian, and for Estonian, in Windows-1257
# ("naļve déją"); Baltic text is told by its letters (_ALPHABETS).
_CENTRAL = frozenset({"Czech", "Polish", "Slovak", "Slovene", "Croatian", "Romanian", "Bosnian"})
_LANGUAGES = {"cp1250": _CENTRAL, "iso8859_2": _CENTRAL}
# The bytes Windows-1254 (Turkish) reads otherwise than Windows-1252: ğ İ ş ı for Ð Ý Þ ð ý þ, letters
# Icelandic aside no language writes
_TURKISH_BYTES = frozenset(b"\xd0\xdd\xde\xf0\xfd\xfe")
# The encodings' names as people know them, for the note on a guess.
_NAMES = {"cp1252": "Windows-1252", "latin_1": "Latin-1", "cp1251": "Windows-1251 (Cyrillic)",
          "cp1250": "Windows-1250 (Central European)", "cp1253": "Windows-1253 (Greek)", "koi8_r": "KOI8-R",
          "koi8_u": "KOI8-U", "cp866": "DOS Cyrillic (CP866)", "shift_jis": "Shift-JIS", "cp932": "Shift-JIS",
          "shift_jis_2004": "Shift-JIS", "euc_jp": "EUC-JP", "gb2312": "GBK", "gbk": "GBK", "gb18030": "GBK",
          "big5": "Big5", "euc_kr": "EUC-KR", "cp949": "EUC-KR", "cp1254": "Windows-1254 (Turkish)",
          "cp1255": "Windows-1255 (Hebrew)", "cp1256": "Windows-1256 (Arabic)",
          "cp1257": "Windows-1257 (Baltic)"}
_WESTERN = frozenset({"cp1252", "latin_1"})
# Single-byte code pages of scripts other than Latin: their clean readings of one text are told apart by the
# language charset_normalizer recognises in each
_COHERENCE_WINS = 0.1  # how much better a less common code page's words must be recognised to be chosen
_OTHER_SCRIPTS = frozenset({"cp1251", "cp1253", "cp1255", "cp1256", "koi8_r", "koi8_u", "cp866", "iso8859_5",
                            "iso8859_7", "cp874"})  # not the Mac ones: look-alikes of 1251 and 1253
# Fewer bytes beyond ASCII than this, in no language charset_normalizer recognises, make an unsure guess.
_FEW_BYTES = 12
_ASCII = bytes(range(128))
# The letters beyond ASCII of the languages each Latin code page is for, in lower case, the most used first.
# Czech without "ť" and Baltic text read in Windows-1252 as letters too ("mìsto", "ðalies", "Rîga"), which
# charset_normalizer finds as clean as the right reading and often recognises as no language: a reading
# is weighed here by how likely its letters are in the language of its code page they fit best (see
# _letter_odds). Latvian's "ā ē ī ū" read in Windows-1252 as French letters ("â ç î û"), but as French's
# rarest; Windows-1252 reads Lithuanian with "ð" and "è", which no one language has.
_ALPHABETS = {
    "cp1252": ("üäöß", "éèàêçôîâûùëïœÿæ", "óíáéñúü", "ãçéáóíêâõôúà", "èàùòìéíóú", "àéèóíòçúïü",  # German …
               "ëéïöüèáó", "øåæé", "äåöé", "äöåšž", "äõüöšž", "áðíóúæéöþý", "áðíóøúæý", "ëç"),  # … Albanian
    "cp1250": ("íáéěýřčžšůúňóďť", "áíéýčžšúôľňäóďťĺŕ", "łęąóśżćńź", "éáöőüóíúű", "čšž", "čšžćđ",  # Czech …
               "ăîâşţ"),  # … Romanian
    "cp1257": ("ėšųąįžūčę", "āēīšūžņļķčģ", "äõüöšž"),  # Lithuanian, Latvian, Estonian
    "cp1254": ("ıüşçğöi\u0307âîû",),  # Turkish ("İ" in lower case is "i" and a dot above)
}
_ALPHABETS["iso8859_2"] = _ALPHABETS["cp1250"]
# How likely a character beyond ASCII is in one language's text, as its natural logarithm: the letters of
# its alphabet by their rank (a rank's share of the letters falls as 1/rank, as words' shares do), others
# as a slip (a name from another language, a sign between letters).
_SLIP = math.log(0.001)
_LETTER_ODDS = {codec: [{letter: math.log(1 / (rank + 1) / sum(1 / (n + 1) for n in range(len(letters))))
                         for rank, letter in enumerate(letters)} for letters in alphabets]
                for codec, alphabets in _ALPHABETS.items()}
# The alphabets of languages that write a letter beyond ASCII only as a word's last ("città", "perché", "più":
# Italian): elsewhere in a word it is a slip. Czech read in Windows-1252 makes Italian's letters ("lìtì",
# "Karlùv", "èasto" for "létě", "Karlův", "často"), which weighed as Italian letters wherever they stood made
# some Czech paragraphs only 0.14 per letter likelier in Windows-1250 (found by hypothesis).
_AT_WORDS_END = frozenset({"èàùòìéíóú"})
_ENDS_ONLY = {codec: [letters in _AT_WORDS_END for letters in alphabets] for codec, alphabets in _ALPHABETS.items()}
# How many letters beyond ASCII tell a Latin code page from Windows-1252 (a paragraph has 20 or more), and
# how much likelier (per letter, in nats: e ** 0.35 is 1.42 times) its reading's letters must be than
# Windows-1252's: German reads the same in Windows-1250, Finnish in 1257, nearly as likely in Hungarian or
# Estonian. Czech paragraphs came out 0.6 to 2.9 likelier, Baltic ones 1 to 3, Western ones 0.4 to 2.9 less;
# Portuguese with no letter but "ã" 0.31 likelier as Romanian ("năo"), so the margin is over that.
_ENOUGH_LETTERS = 8
_LIKELIER = 0.35
# How much of the sample the letters are weighed by: 16 KB hold thousands, weighed in a few milliseconds.
_LETTERS_SAMPLE = 16384
_JAPANESE = ["shift_jis", "shift_jis_2004", "shift_jisx0213", "cp932", "euc_jp", "euc_jis_2004", "euc_jisx0213"]

_notes: ContextVar[list[str] | None] = ContextVar("kb_decoding_notes", default=None)


@contextlib.contextmanager
def collecting_notes() -> Iterator[list[str]]:
    """Within it, what the readers note (see :func:`note`: an encoding guessed) is added to the list it
    gives, once each: the reader of a file runs in it, and the import reports the notes with the file."""
    notes: list[str] = []
    token = _notes.set(notes)
    try:
        yield notes
    finally:
        _notes.reset(token)


def note(text: str) -> None:
    """Say ``text`` of the file being read, when a reader meets something the import should report
    beside it (an encoding guessed, a damaged line passed over); nothing outside collecting_notes."""
    notes = _notes.get()
    if notes is not None and text not in notes:
        notes.append(text)


def decode_text(data: bytes) -> str:
    """Bytes to text: by the byte order mark (UTF-8, UTF-16 or UTF-32) when there is one, else UTF-8;
    text that is not UTF-8 in the legacy encoding it looks like (see _decode_mixed). NUL bytes are dropped."""
    codec = bom_codec(data)
    if codec in ("utf-16", "utf-32"):
        text = data.decode(codec, errors="replace")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = _decode_mixed(data.removeprefix(b"\xef\xbb\xbf"))
    return without_nul(text) if "\x00" in text else text


def decode_legacy(data: bytes) -> str:
    """``data``, which is not UTF-8, in the legacy encoding it looks like (see guess_encoding); a guess
    that is unsure is noted."""
    return data.decode(_guessed(data), errors="replace")


def _guessed(data: bytes) -> str:
    """The encoding guess_encoding finds for ``data``; noted when it is unsure."""
    codec, sure = guess_encoding(data)
    if not sure:
        note(f"its encoding was guessed, read as {_NAMES.get(codec, codec.upper())}: if its text looks wrong, "
             "save it as UTF-8 and import it again")
    return codec


_NULS_IN_A_WORD = re.compile(r"(?<=[^\s\x00])\x00+(?=[^\s\x00])")
_NULS_IN_A_WORD_BYTES = re.compile(_NULS_IN_A_WORD.pattern.encode())


def without_nul(text: _Text) -> _Text:
    """``text`` without NUL characters, which are never text (a crashed program's padding, a C string's
    end) and only break the search index and what shows a passage. Those between two words part them.
    Bytes must be in an ASCII-based encoding (not UTF-16 or UTF-32)."""
    if isinstance(text, bytes):
        return _NULS_IN_A_WORD_BYTES.sub(b" ", text).replace(b"\x00", b"")
    return _NULS_IN_A_WORD.sub(" ", text).replace("\x00", "")


def _decode_mixed(data: bytes) -> str:
    """Text that is not valid UTF-8 throughout: in one legacy encoding when no part of it is UTF-8, else
    line by line.

    A line that is valid UTF-8 is read as such. Any other line is read as UTF-8 too when it holds at least
    as many well-formed UTF-8 characters as bad bytes (a damaged UTF-8 line: the bad bytes become U+FFFD),
    else in the legacy encoding those lines together look like (a Latin-1 or Windows line, a Shift-JIS one).
    So one bad byte in a UTF-8 file spoils one character, not every accent in the file ("CafÃ©"); a Latin-1
    file, or UTF-8 and Latin-1 files joined, read right.
    """
    if _utf8_tally(data)[0] == 0:  # not one UTF-8 character: a legacy encoding throughout
        return decode_legacy(data)
    lines = data.split(b"\n")
    text: list[str] = []
    legacy: dict[int, bytes] = {}  # the lines to read in a legacy encoding, by their place
    for n, line in enumerate(lines):
        try:
            text.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            good, bad = _utf8_tally(line)
            text.append(line.decode("utf-8", errors="replace") if good >= bad else "")
            if good < bad:
                legacy[n] = line
    if legacy:
        codec = _guessed(b"\n".join(legacy.values()))
        for n, line in legacy.items():
            text[n] = line.decode(codec, errors="replace")
    return "\n".join(text)


def guess_encoding(data: bytes) -> tuple[str, bool]:
    """The legacy encoding ``data`` (not UTF-8) reads best in, by its first 64 KB, and whether the guess is
    sure. Windows-1252 whenever it reads as cleanly as the best reading charset_normalizer finds, or the
    text it makes looks like a Latin script's (a note too short for a sure guess, "5 €", is read as it
    always was), unless its letters are clearly likelier in Windows-1250 or 1257 (Czech, Lithuanian: see
    _latin_code_page); else charset_normalizer's cleanest, the more common of a tie. A few bytes that make
    no Latin words are read as the common Shift-JIS or GBK characters they are pairs of ("倉庫"). Unsure:
    no reading is clean, or the cleanest is one that text in another encoding often takes (Cyrillic KOI8
    read as Shift-JIS's half-width katakana), or a few bytes make no Latin words."""
    from charset_normalizer import from_bytes

    sample = data[:_SAMPLE_BYTES]
    if len(data) > _SAMPLE_BYTES and b"\n" in sample[_SAMPLE_BYTES // 2:]:
        sample = sample[: sample.rindex(b"\n")]  # not a character cut in two
    # A few bytes beyond ASCII that make no Latin words ("‘qŒÉ"): a note of a word or two in a double-byte
    # encoding, which charset_normalizer, finding every reading clean, left to Windows-1252
    odd = len(sample.translate(None, _ASCII)) < _FEW_BYTES and not _reads_as_latin_words(sample)
    if odd and (double := _common_double_byte(sample)) is not None:
        return double, False
    matches = list(from_bytes(sample))
    latin = _latin_looking(sample)
    codec, sure = _cleanest(matches, latin)
    # "Günaydın", which Windows-1252 read as "Günaydýn", when recognised as Turkish and its letters are
    # likelier so: not Icelandic ("Þórður", not "Şórğur"), which charset_normalizer may call Turkish
    turkish = bool(_TURKISH_BYTES.intersection(sample)) and any(
        m.encoding in ("cp1254", "iso8859_9") and m.language == "Turkish" for m in matches)
    if codec == "cp1252":
        return _latin_code_page(sample, turkish), not odd
    page = _latin_code_page(sample, False) if latin else codec
    if latin and (not _in_its_language(matches, codec)
                  or _letter_odds(sample, page)[1] > _letter_odds(sample, codec)[1]):
        # a Latin script's text, not recognised as one its code page is for, or whose letters are likelier
        # in another though recognised (Swedish "på", not "pĺ", which charset_normalizer called Polish)
        return page, not odd
    if max((m.coherence for m in matches), default=0) == 0 and len(sample.translate(None, _ASCII)) < _FEW_BYTES:
        # a few letters, in no language recognised: any of several encodings reads them; Windows-1252, as
        # ever, when it reads them as cleanly as any
        if _cleanest(matches, True)[0] == "cp1252":
            return "cp1252", False
        sure = False
    if codec in _JAPANESE and _half_width_kana(sample.decode(codec, errors="replace")):
        codec, _ = _cleanest(list(from_bytes(sample, cp_exclusion=_JAPANESE)), latin)
        sure = False
    return codec, sure


def _cleanest(matches: list, latin: bool) -> tuple[str, bool]:
    """The most common encoding among the cleanest of charset_normalizer's ``matches``, and whether it is
    clean enough to trust; Windows-1252 only if its reading is ``latin`` (see _latin_looking), or the
    only one."""
    if not matches:
        return "cp1252", False
    best = min(m.chaos for m in matches)
    clean = set()
    for m in matches:
        if m.chaos <= best + _CHAOS_TIE:
            clean.add(m.encoding)
            clean.update(m.could_be_from_charset)  # the encodings that read the same text
    if not latin and len(clean - _WESTERN) > 0:
        clean -= _WESTERN
        # among readings as clean, the one whose words charset_normalizer recognises best: Hebrew in
        # Windows-1255 also reads cleanly, as nonsense, in Windows-1251, the more common
        # (among the code pages of other scripts only: a Latin one's language is weighed by _in_its_language)
        common = next((name for name in _COMMON if name in clean), matches[0].encoding)
        fitting = [m for m in matches if m.encoding in _OTHER_SCRIPTS and m.chaos <= best + _CHAOS_TIE]
        mine = max((m.coherence for m in fitting if m.encoding == common), default=0.0)
        top = max((m.coherence for m in fitting), default=0.0)
        if common in _OTHER_SCRIPTS and top > 0 and top >= mine + _COHERENCE_WINS:
            return next(m.encoding for m in sorted(fitting, key=lambda m: _rank(m.encoding))
                        if m.coherence == top), best <= _MOST_CHAOS
    return next((name for name in _COMMON if name in clean), matches[0].encoding), best <= _MOST_CHAOS


def _rank(codec: str) -> int:
    """Where ``codec`` stands in _COMMON (the uncommon ones last)."""
    return _COMMON.index(codec) if codec in _COMMON else len(_COMMON)


def _in_its_language(matches: list, codec: str) -> bool:
    """Whether charset_normalizer recognised text in ``codec``, a Latin script's code page other than
    Windows-1252, as a language written in it (Czech in Windows-1250): only then is it read so rather
    than as Windows-1252, whose reading of the same bytes also looks like a Latin script's."""
    languages = _LANGUAGES.get(codec, frozenset())
    return any(m.encoding == codec and m.coherence > 0 and m.language in languages for m in matches)


# A sign of Latin-1's upper half between two letters ("Za¿ó³æ", Polish read as Windows-1252): text in a
# Latin script has none there (the middle dot of Catalan's "l·l" aside).
_GLUED_SIGN = re.compile(r"[^\W\d_][\xa1-\xb6\xb8-\xbf\xd7\xf7][^\W\d_]")


def _latin_looking(sample: bytes) -> bool:
    """Whether ``sample`` read as Windows-1252 looks like text in a Latin script: it decodes, at most a
    third of its words with letters beyond ASCII have no other (in Cyrillic or Greek read so, all of them
    are: "Ïðèâåò"; in French a few: "à", "été"), and no sign sits inside a word."""
    try:
        text = sample.decode("cp1252")
    except UnicodeDecodeError:  # bytes Windows-1252 leaves undefined
        return False
    words = ("".join(c for c in word if c.isalpha()) for word in _WORD.findall(text))  # not "½", "²"
    wide = [word for word in words if not word.isascii()]
    only_wide = sum(1 for word in wide if not any(c.isascii() for c in word))
    return only_wide * 3 <= len(wide) and not _GLUED_SIGN.search(text)


_WORD = re.compile(r"[^\W\d_]+")


def _latin_code_page(sample: bytes, turkish: bool) -> str:
    """The Latin code page whose reading of ``sample``'s letters is the likeliest (see _letter_odds):
    Windows-1250 or 1257 when the letters are enough to tell and clearly likelier in it; Windows-1254 for
    text recognised as ``turkish`` whose letters are likelier in it, however few; else Windows-1252."""
    letters, odds = _letter_odds(sample, "cp1252")
    rivals = [("cp1254", 0.0)] if turkish else []  # (a code page, how much likelier it must be)
    if letters >= _ENOUGH_LETTERS:
        rivals += [("cp1250", _LIKELIER * letters), ("cp1257", _LIKELIER * letters)]
    best, most = "cp1252", odds
    for codec, margin in rivals:
        its = _letter_odds(sample, codec)[1] - margin
        if its > most:
            best, most = codec, its
    return best


def _letter_odds(sample: bytes, codec: str) -> tuple[int, float]:
    """How many characters beyond ASCII the words ``sample`` makes in ``codec`` hold, each word once (a word
    said again tells nothing new of the language: "naïve" six times and "façade" twice read as Latvian's
    "naļve faēade", found by hypothesis), and how likely they are (the logarithm, see _LETTER_ODDS) in the
    language of ``codec`` they are likeliest in. A sign inside a word ("Gr˝ße"), a byte the code page leaves
    undefined, a letter of no language of it, one of a language that writes it at a word's end only
    (_AT_WORDS_END) elsewhere are slips."""
    text = sample[:_LETTERS_SAMPLE].decode(codec, errors="replace")
    words = {word.lower() for word in _words_beyond_ascii(text)}
    chars = Counter((c, i == len(word) - 1) for word in words for i, c in enumerate(word) if not c.isascii())
    return chars.total(), max(sum(n * (odds.get(c, _SLIP) if at_end or not ends_only else _SLIP)
                                  for (c, at_end), n in chars.items())
                              for odds, ends_only in zip(_LETTER_ODDS[codec], _ENDS_ONLY[codec]))


def _reads_as_latin_words(sample: bytes) -> bool:
    """Whether ``sample`` read as Windows-1252 is made of words and numbers (see _words_beyond_ascii): each
    word of letters, joined by an apostrophe or a hyphen, in one case or capitalised. Latin text always
    is; a few Shift-JIS or GBK characters read so seldom are ("‘qŒÉ" for 倉庫, "²Ö¿â" for 仓库)."""
    try:
        text = sample.decode("cp1252")
    except UnicodeDecodeError:
        return False
    return all(all(part.isalpha() for part in _JOINER.split(word))  # not "¹" of "ÖÐ¹ú"
               and not any(a.islower() and b.isupper() and not b.isascii() for a, b in zip(word, word[1:]))
               for word in _words_beyond_ascii(text))


# What a word of a Latin script may hold between its letters ("l’été", "col·lecció"); a number with its
# sign or unit ("5€", "10–12", "20°C"); what may stand before a word or after it.
_JOINER = re.compile(r"['’·-]")
_NUMBER = re.compile(r"[€£¥$]?\d[\d.,–-]*[€£¥%°½¼¾²³]*[^\W\d_]*")
_AROUND = "\"'«»‘’‚“”„‹›©®™°§¶•†‡*—–…"  # quotes of every language, on either side; signs
_OPENING = _AROUND + "([{¿¡"
_CLOSING = _AROUND + ")]}.,;:!?…"


def _words_beyond_ascii(text: str) -> Iterator[str]:
    """``text``'s words with characters beyond ASCII, as written between spaces without the quotes and
    stops around them; not numbers ("5€") nor a sign alone ("€", "—", "½")."""
    for token in text.split():
        word = token.lstrip(_OPENING).rstrip(_CLOSING)
        if not (word.isascii() or len(word) == 1 or _NUMBER.fullmatch(word)):
            yield word


# The pairs of bytes of the common characters of the double-byte encodings, which text of a few words in
# them is made of: in Shift-JIS the first level of JIS X 0208's kanji, hiragana, katakana, "ー" and "々";
# in GBK the first level of GB2312's hanzi. Latin-1's letters seldom begin such pairs: in Shift-JIS its
# small letters begin the second level's kanji (é, ü) or none, its capitals are half-width katakana; in
# GBK only a sign or a capital (° to ×) followed by another character beyond ASCII ("ÀÉ") does.
_COMMON_PAIRS = {"shift_jis": ((0x889F, 0x9872), (0x829F, 0x82F1), (0x8340, 0x8396), (0x815B, 0x815B),
                               (0x8158, 0x8158)),
                 "gbk": ((0xB0A1, 0xD7F9),)}


def _common_double_byte(sample: bytes) -> str | None:
    """The double-byte encoding (Shift-JIS, else GBK) that reads every character of ``sample`` beyond ASCII
    as a common one (see _COMMON_PAIRS), in words of two or more: "倉庫", "仓库", not "it’s"'s one kanji."""
    for codec, pairs in _COMMON_PAIRS.items():
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        words = re.findall(r"[^\x00-\x7f]+", text)
        if words and all(len(word) > 1 and all(_within(char.encode(codec), pairs) for char in word)
                         for word in words):
            return codec
    return None


def _within(pair: bytes, ranges: tuple[tuple[int, int], ...]) -> bool:
    code = int.from_bytes(pair, "big")
    return len(pair) == 2 and any(low <= code <= high for low, high in ranges)


def _half_width_kana(text: str) -> bool:
    """Whether most of ``text``'s letters beyond ASCII are half-width katakana, which Japanese text seldom
    uses and Cyrillic KOI8 read as Shift-JIS is made of."""
    wide = [c for c in text if ord(c) > 127 and c.isalpha()]
    kana = sum(1 for c in wide if "\uff61" <= c <= "\uff9f")
    return bool(wide) and kana * 2 > len(wide)


def _utf8_tally(data: bytes) -> tuple[int, int]:
    """How many well-formed UTF-8 characters beyond ASCII ``data`` holds, and how many bad bytes."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode())
    return len(text) - len(text.encode("ascii", errors="ignore")) - bad, bad
