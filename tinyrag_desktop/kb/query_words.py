"""The words of a question worth searching for, and the FTS5 expression that finds any of them."""

from __future__ import annotations

import re
from typing import Sequence

from .textform import CJK_CHARACTERS, identifier_parts, is_cjk, nfkc

MAX_TERMS = 24

# Words that carry no meaning in a question ("how do I …", "what is the …"); a question of only these is
# not searched (search, Hits.common).
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are aren as at be because been before being
    below between both but by can cannot could couldn d did didn do does doesn doing don down during each
    few for from further get gets got had hadn has hasn have haven having he her here hers herself him
    himself his how i if in into is isn it its itself just ll m me might more most must mustn my myself
    need no nor not now o of off on once only or other ought our ours ourselves out over own re s same
    shall shan she should shouldn so some such t than that the their theirs them themselves then there
    these they this those through to too under until up use used using very was wasn way we were weren
    what when where which while who whom why will with won would wouldn y you your yours yourself
    yourselves tell explain show want wants know please thing things something anything one ones also
    make makes give gives take find see write sure new another ways lot lots long quickly""".split()
)

# A word: a run of CJK characters, or of other word characters (a CJK character ends a word, as in the
# index: "MySQL的配置" is "mysql" and "的配置").
_WORD = re.compile(f"[{CJK_CHARACTERS}]+|[^\\W{CJK_CHARACTERS}]+")


def query_terms(text: str) -> list[str]:
    """The words of ``text`` worth searching for, lower-cased, without repeats and stop words.

    Words are read from the text's NFKC form, as the index holds it (``textform``). A run of Chinese,
    Japanese or Korean characters gives one phrase of its characters ("数据库" → "数 据 库", matched
    in order and side by side) and, when longer than two, each pair of neighbours too: questions in those
    languages come without spaces ("如何备份数据库"), so the whole run is seldom in a passage as it is,
    but its words are; the pairs find them (as the bigrams of Lucene's CJK analyser do), and a passage
    holding the whole run still ranks first. In Japanese, a pair that cannot be in a word is left out
    (see :func:`_in_a_word`). The pairs go after the other words, so that a long run cannot crowd those
    out of the MAX_TERMS kept.
    """
    return list(_weighed_terms(text))


def _weighed_terms(text: str) -> dict[str, float]:
    """query_terms' terms, each with what it counts for in the coverage re-rank: 1 for a word. An identifier
    in mixed case of three words or more ("loadUserConfig") counts ½ as written and ½ as the phrase of its
    words ("load user config"), which is how the index holds load_user_config and loadUserConfig alike
    (textform.index_form); a word of two ("iPhone", "JavaScript") is more often a name, and counts as
    written: read as "i phone" it ranked "I phone the shop" above "the iPhone". A CJK run
    of three or more characters counts 1 in all, half for the whole run and half shared by its pairs, so
    a long word counts no more than a short one, and a passage with some of a run's words covers part
    of it (a pair left out by ``_in_a_word`` takes its share with it)."""
    words: dict[str, float] = {}
    pairs: dict[str, float] = {}
    runs: list[list[str]] = []
    for written in _WORD.findall(nfkc(text)):
        raw = written.lower()
        if is_cjk(raw[0]):
            chars = [ch for ch in raw if ch.isalnum()]  # not its punctuation ("・"): the index skips it
            if len(chars) > 2:
                _weigh(words, " ".join(chars), 0.5)
                runs.append(chars)
                for a, b in zip(chars, chars[1:]):
                    if _in_a_word(a, b):
                        _weigh(pairs, f"{a} {b}", 0.5 / (len(chars) - 1))
            elif chars:
                _weigh(words, " ".join(chars), 1.0)
            continue
        word = raw.strip("_")
        parts = identifier_parts(written.strip("_"))
        if len(parts) > 2:  # "loadUserConfig": as written, and its words side by side as load_user_config has them
            _weigh(words, word, 0.5)
            _weigh(words, " ".join(parts).lower(), 0.5)
        elif word and any(ch.isalnum() for ch in word):
            _weigh(words, word, 1.0)
    if runs and not pairs and len(words) == len({" ".join(chars) for chars in runs}):
        # Only runs none of whose pairs can be in a word (a question all in hiragana, "おいしいすし"): its
        # words are written so, and the runs alone, as written, would find next to nothing.
        for chars in runs:
            for a, b in zip(chars, chars[1:]):
                _weigh(pairs, f"{a} {b}", 0.5 / (len(chars) - 1))
    kept = {w: weight for w, weight in words.items() if w not in STOP_WORDS} or words
    for pair, weight in pairs.items():
        _weigh(kept, pair, weight)
    return dict(list(kept.items())[:MAX_TERMS])


_HIRAGANA = re.compile("[\u3041-\u309f]")
_KATAKANA = re.compile("[\u30a0-\u30ff\u31f0-\u31ff]")
_IDEOGRAPH = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")


def _in_a_word(a: str, b: str) -> bool:
    """Whether two neighbouring characters of a question may belong to one word.

    Japanese writes its words in kanji and katakana and its particles and endings in hiragana, so a
    pair is seldom in a word when both are hiragana ("をき", "した", "たい"), when it runs from hiragana
    into a kanji (a particle, then a word: "を調"), or when only one is katakana (a loanword ends or
    begins: "トを", "語フ"). Such pairs match nearly every Japanese passage, crowd the question's words
    out of the MAX_TERMS kept and dilute its coverage. The cost: a word written in hiragana ("きれい")
    is searched only as part of the whole run. Measured on the Debian Reference in Japanese
    (benchmarks/bench_kb_quality.py, section-level recall@5): 17 → 19 of 24 development questions,
    17 → 20 and 21 → 21 on two held-out sets; Chinese, written in ideographs only, is unchanged.
    """
    if _HIRAGANA.match(a):
        return not (_HIRAGANA.match(b) or _IDEOGRAPH.match(b) or _KATAKANA.match(b))
    return (_KATAKANA.match(a) is None) == (_KATAKANA.match(b) is None)


def _weigh(terms: dict[str, float], term: str, weight: float) -> None:
    # A term asked twice (a word repeated, a pair in two runs) counts once, at its larger weight.
    terms[term] = max(terms.get(term, 0.0), weight)


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 expression matching any of ``terms``; each is a quoted string, never an operator."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
