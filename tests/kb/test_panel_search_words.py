"""The Search tab says why it found nothing: no documents yet, or a question of symbols only."""

from __future__ import annotations

import pytest

from tests.kb.test_panel import _import, _search


def _shown(panel) -> list[str]:
    return [panel.results.item(i).text() for i in range(panel.results.count())]


def test_searching_an_empty_knowledge_base_says_to_add_documents(qtbot, panel):
    assert _search(qtbot, panel, "how do I reset my password") == 0
    # It said "No passages match.", as if the documents had been searched and did not cover the question.
    assert _shown(panel) == ["Nothing to search yet: add files, folders or web pages in the Sources tab."]


def test_searching_after_every_source_is_deleted_says_to_add_documents(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    panel.sources_view.selectAll()
    with qtbot.waitSignal(panel.deleteFinished):
        panel.delete_selected(confirm=False)
    assert _search(qtbot, panel, "bread") == 0
    assert _shown(panel)[0].startswith("Nothing to search yet")


@pytest.mark.parametrize("query", ["*", '"', "(", "🙂", "-- !!"])
def test_a_question_of_symbols_only_says_it_has_no_words(qtbot, panel, sample_dir, query):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    assert _search(qtbot, panel, query) == 0
    # It said "No passages match.", as for words the documents do not use; kb search said why.
    assert _shown(panel) == [f"“{query}” has no words to search for (symbols, emoji and punctuation are "
                             "left out): ask with words your documents use."]


def test_operator_characters_around_words_are_searched_as_the_words(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir)])
    for query in ('"volcano eruptions"', "volcano*", "(volcano OR bread)", "volcano NEAR magma", "magma)"):
        assert _search(qtbot, panel, query) > 0, query


def test_words_no_passage_uses_still_say_no_passages_match(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    assert _search(qtbot, panel, "zzqx qqzv") == 0
    assert _shown(panel) == ["No passages match."]


def test_results_of_deleted_sources_are_searched_again_when_the_search_tab_is_shown(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    panel.tabs.setCurrentIndex(1)
    assert _search(qtbot, panel, "bread") >= 1
    panel.tabs.setCurrentIndex(0)
    panel.sources_view.selectAll()
    with qtbot.waitSignal(panel.deleteFinished):
        panel.delete_selected(confirm=False)
    # The deleted guide's passages were still listed, and opened from the list.
    with qtbot.waitSignal(panel.searchFinished) as searched:
        panel.tabs.setCurrentIndex(1)
    assert searched.args == [0] and _shown(panel)[0].startswith("Nothing to search yet")


def test_the_search_tab_shown_again_without_changes_keeps_its_results(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    panel.tabs.setCurrentIndex(1)
    assert _search(qtbot, panel, "bread") >= 1
    before = _shown(panel)
    searches = panel._searches
    panel.tabs.setCurrentIndex(0)
    panel.tabs.setCurrentIndex(1)
    assert panel._searches == searches and _shown(panel) == before


def test_a_word_no_passage_holds_is_said_above_the_passages_that_match_the_others(qtbot, panel, sample_dir):
    # "bread 99817": the bread passages came with no word that none of them holds the number asked for.
    _import(qtbot, panel, [str(sample_dir)])
    assert _search(qtbot, panel, "bread 99817") >= 1
    assert _shown(panel)[0] == "No passage mentions “99817”: these match the other words."
    assert _search(qtbot, panel, "bread") >= 1
    assert not _shown(panel)[0].startswith("No passage mentions")


def test_a_long_note_is_wrapped_to_a_narrow_panel_not_cut(qtbot, panel, sample_dir):
    from PySide6.QtWidgets import QStyleOptionViewItem

    _import(qtbot, panel, [str(sample_dir)])
    panel.resize(300, 500)
    panel.show()
    panel.tabs.setCurrentIndex(1)
    assert _search(qtbot, panel, "bread 99817 4471923 zebrafish") >= 1
    view = panel.results
    assert view.item(0).text().startswith("No passage mentions “99817”, “4471923” or “zebrafish”")
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.widget = view
    size = view.itemDelegate().sizeHint(option, view.model().index(0, 0))
    assert size.width() <= view.viewport().width()  # it was one line of 500 px, cut at the panel's edge
    assert size.height() >= 2 * view.fontMetrics().lineSpacing()
    assert not panel.grab().isNull()
