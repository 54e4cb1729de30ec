"""A citation number names a document: [1] in the model's answer is the file the Sources line shows as [1]."""

from __future__ import annotations

from tinyrag_desktop.kb import Hit
from tinyrag_desktop.tools.rag import cited_numbers, document_numbers, format_hits, used_passages


def _hit(n: int, location: str, text: str, heading: str = "") -> Hit:
    return Hit(n, n, location.rsplit("/", 1)[-1], location, heading, text, 1.0)


# ranked by the search: two passages of guide.md, with install.html's between them
HITS = [_hit(1, "/docs/guide.md", "Backups run nightly.", "Guide > Backups"),
        _hit(2, "/docs/install.html", "Run the installer.", "Install"),
        _hit(3, "/docs/guide.md", "Restore from the console.", "Guide > Restore")]


def test_passages_of_one_document_share_its_number_and_stand_together():
    assert document_numbers(HITS) == {"/docs/guide.md": 1, "/docs/install.html": 2}
    text = format_hits("backups", HITS)
    # guide.md was [1] and [3], so the model's [3] named a file the Sources line (one entry per file) had no
    # number for; now both of its passages are [1], and install.html is [2]
    assert text.index("[1] Guide > Backups") < text.index("[1] Guide > Restore") < text.index("[2] Install")
    assert "[3]" not in text
    assert "Source: guide.md (/docs/guide.md)" in text


def test_a_citation_draws_on_every_passage_of_its_document():
    used = used_passages("How do backups work?", "Nightly, and restored from the console [1].", HITS)
    assert [h.chunk_id for h in used] == [1, 3]
    assert [h.chunk_id for h in used_passages("How?", "Run the installer [2].", HITS)] == [2]


def test_the_numbers_are_read_back_from_a_result_new_or_old():
    locations = list(document_numbers(HITS))
    assert cited_numbers(format_hits("backups", HITS), locations) == {"/docs/guide.md": (1,),
                                                                      "/docs/install.html": (2,)}
    # a result stored before numbers named documents: one number per passage, a file may have several
    old = ("[1] Guide > Backups\nSource: guide.md (/docs/guide.md)\nBackups run nightly.\n\n"
           "[2] Install\nSource: install.html (/docs/install.html)\nRun the installer.\n\n"
           "[3] Guide > Restore\nSource: guide.md (/docs/guide.md)\nRestore from the console.")
    assert cited_numbers(old, locations) == {"/docs/guide.md": (1, 3), "/docs/install.html": (2,)}
    # a location that ends like another one is told apart from it; one with no head has no number
    odd = "[1] A\nSource: A (/x/a (1).md)\ntext"
    assert cited_numbers(odd, ["1).md", "/x/a (1).md", "/never.md"]) == {"/x/a (1).md": (1,)}


def test_numbers_an_answer_gave_already_go_on():
    given = {"/docs/install.html": 1}  # say, the prompt's passage
    text = format_hits("backups", HITS, numbers=given)
    assert given == {"/docs/install.html": 1, "/docs/guide.md": 2}
    assert text.index("[1] Install") < text.index("[2] Guide > Backups") < text.index("[2] Guide > Restore")
    assert cited_numbers(text, list(given)) == {"/docs/install.html": (1,), "/docs/guide.md": (2,)}
