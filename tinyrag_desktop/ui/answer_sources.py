"""An answer's Sources line: the passages the route put in the prompt and what its reading tools found."""

from __future__ import annotations

from ..tools.rag import cited_numbers
from .sources import SOURCE_TOOLS, SourceEntry, SourceSet, arrange, split_sources
from .sources_row import SourcesRow


class SourcesMixin:
    """AnswerWidget's Sources line (mixed into it, see answer.py)."""

    def sources(self) -> list[str]:
        """The locations this answer used, in the order they came (the "Sources" line's links)."""
        return self._sources.locations() if self._sources else []

    def source_entries(self) -> list[SourceEntry]:
        """The "Sources" line's entries: each location with the numbers the model cited it by."""
        return self._sources.entries() if self._sources else []

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

    def _source_sets(self) -> list[SourceSet]:
        """The sources, as the route and each reading tool gave them (see sources.arrange): the route's
        first (they were in the prompt before any tool ran), then the cards' in the answer's order."""
        sets: list[SourceSet] = []
        route = self._route or {}
        if self._route_shown and route.get("sources"):
            numbers = route.get("numbers")
            if not (isinstance(numbers, list) and len(numbers) == len(route["sources"])
                    and all(isinstance(n, int) for n in numbers)):
                numbers = [None] * len(route["sources"])  # stored before the numbers were: not known
            pairs = [(str(loc), (n,) if n else ()) for loc, n in zip(route["sources"], numbers)]
            sets.append(("Found for your question:", pairs))  # before the model answered, in the prompt
        for card in self._cards.values():
            # Only tools that read documents name sources worth opening; a failed call read nothing.
            if card.tool_name not in SOURCE_TOOLS or card.status != "done" or not card.source:
                continue
            locations = split_sources(card.source)
            if card.tool_name == "rag_knowledge":
                numbers = cited_numbers(card.result, locations)
                query = card.query_preview
                query = query if len(query) <= 30 else query[:29] + "…"
                sets.append((f"Search “{query}”:", [(loc, numbers.get(loc, ())) for loc in locations]))
            else:
                sets.append(("", [(loc, ()) for loc in locations]))
        return sets

    def _source_anchors(self) -> dict[str, str | None]:
        """Where each source's page opens: at the best passage the route or a search found in it."""
        route = self._route or {}
        found: dict[str, str | None] = {}
        pairs = [zip(route.get("sources") or (), route.get("anchors") or ())]
        pairs += [zip(split_sources(self._cards[call_id].source), anchors)
                  for call_id, anchors in self._anchors.items() if call_id in self._cards]
        for location, anchor in (pair for group in pairs for pair in group):
            if isinstance(anchor, str) and anchor:
                found.setdefault(str(location), anchor)
        return found

    def _update_sources(self) -> None:
        entries = arrange(self._source_sets(), self._source_anchors())
        if entries or self._sources is not None:  # many answers have none: no row for them
            self.sources_row.set_entries(entries)
            self._caption_sources()

    def _caption_sources(self) -> None:
        """An answer that did not finish lists every passage put into its prompt, as it cannot say which it
        drew on: "Given to the model", not "Sources" (a stopped answer's four unrelated guide pages read as
        the files it came from)."""
        if self._sources is not None:
            self.sources_row.set_offered(self._sources_offered())

    def _sources_offered(self) -> bool:
        return self._state in ("stopped", "failed", "ended") and bool((self._route or {}).get("sources"))
