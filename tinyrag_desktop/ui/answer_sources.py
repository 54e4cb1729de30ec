"""An answer's Sources line: the passages the route put in the prompt and what its reading tools found."""

from __future__ import annotations

from ..source_list import SourceEntry, answer_sources, sources_offered, unknown_citations
from .sources_row import SourcesRow


class SourcesMixin:
    """AnswerWidget's Sources line (mixed into it, see answer.py)."""

    def sources(self) -> list[str]:
        """The locations this answer used, in the order they came (the "Sources" line's links)."""
        return self._sources.locations() if self._sources else []

    def source_entries(self) -> list[SourceEntry]:
        """The "Sources" line's entries: each location with the numbers the model cited it by."""
        return self._sources.entries() if self._sources else []

    def unknown_citations(self) -> tuple[int, ...]:
        """The numbers the answer's text cites that no source has ([7] after a search that found one
        document); none while it is being written, as its searches may be still to come."""
        return () if self._streaming else unknown_citations(self.content(), self.source_entries())

    @property
    def sources_row(self) -> SourcesRow:
        """The "Sources" line above the footer (hidden while it has no link)."""
        if self._sources is None:
            self._sources = SourcesRow(self, self._palette.link)
            self._sources.openFailed.connect(self.notice)
            self._layout.insertWidget(self._layout.indexOf(self._footer_row), self._sources)
        return self._sources

    def show_route_sources(self) -> None:
        """Show the rag route's sources: after Done, those the answer used; else all that were offered."""
        self._route_shown = True
        self._update_sources()

    def _update_sources(self) -> None:
        # as the chat history holds the answer: a copy and an export list what the line lists
        entries = answer_sources(self._route if self._route_shown else None, self.stored_tools(), self.content())
        if entries or self._sources is not None:  # many answers have none: no row for them
            unknown = () if self._streaming else unknown_citations(self.content(), entries)
            self.sources_row.set_entries(entries, unknown)
            self._caption_sources()

    def _caption_sources(self) -> None:
        """An answer that did not finish lists every passage put into its prompt (see sources_offered)."""
        if self._sources is not None:
            self.sources_row.set_offered(self._sources_offered())

    def _sources_offered(self) -> bool:
        return sources_offered(self._state, self._route)
