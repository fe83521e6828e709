# mypy: disallow-untyped-defs, disallow-incomplete-defs
"""A page's footnotes: its sources numbered in the order a reader first meets them, each row's
markers, and the Sources list with what each source says for the page's rows.

Part of the citation kernel, so every content app numbers its pages' notes the same way: the
profile (vendors/selectors.py), the comparison table (comparisons/selectors.py) and a chip's
page (chips/chip_page.py) number theirs with one Footnotes each;
vendors/templatetags/footnotes.py draws the markers and templates/includes/sources_list.html
the list.
"""

from dataclasses import dataclass, field

from .documents import Claim, Evidence, Note, Source

MARKERS_PER_CLAIM = 3  # more sources than this go under one marker, whose note lists them all


@dataclass
class Quoted:
    """A source's words as the Sources list shows them, with the rows they bear on."""

    evidence: Evidence
    # The rows in the order they were named, as a dict's keys: a source cited by a comparison's
    # every row is named as often as it is cited, and a list's ``in`` reads it all each time.
    named: dict[str, None] = field(default_factory=dict, repr=False)

    @property
    def rows(self) -> list[str]:
        return list(self.named)

    def name(self, row: str) -> None:
        """List ``row`` among those these words bear on, once."""
        self.named[row] = None


@dataclass
class SourceEntry:
    """One numbered source in a page's Sources list, with what it says for the page's rows."""

    number: int
    source: Source
    quoted: list[Quoted]


@dataclass
class GroupedNote:
    """A row citing more sources than it has markers for: its one marker's note lists them all."""

    anchor: str
    label: str
    notes: list[Note]


@dataclass
class Footnotes:
    """Numbers sources in the order a reader first meets them on the page, and keeps what
    each says (its citations' quotes and support) for the Sources list."""

    sources: list[Source] = field(default_factory=list)
    groups: list[GroupedNote] = field(default_factory=list)
    _numbers: dict[int, int] = field(default_factory=dict)
    _quoted: dict[int, dict[tuple[str, str, str], Quoted]] = field(default_factory=dict)

    def cite[C: Claim](self, item: C, *, label: str = "") -> C:
        """Give ``item.notes`` its footnotes, numbering new sources as they come. ``label``
        names the row in notes (“Google TPU, Memory” on a comparison), else the row's own."""
        label = label or item.cited_as
        notes = []
        for source in sorted(item.cited, key=lambda s: s.pk):
            if source.pk not in self._numbers:
                self.sources.append(source)
                self._numbers[source.pk] = len(self.sources)
            evidence = item.evidence_from(source.pk)
            notes.append(Note(number=self._numbers[source.pk], source=source, evidence=evidence))
            if evidence.quote or evidence.support_text:
                said = self._quoted.setdefault(source.pk, {})
                words = (evidence.quote, evidence.wording, evidence.support)  # a summary is no quote
                quoted = said.get(words)
                if quoted is None:  # made only when new: a source cited by every row is met often
                    quoted = said[words] = Quoted(evidence=evidence)
                if label:
                    quoted.name(label)
        item._notes = notes  # a document's row keeps its page's numbers privately
        if len(notes) > MARKERS_PER_CLAIM and not any(group.anchor == item.anchor for group in self.groups):
            self.groups.append(GroupedNote(anchor=item.anchor, label=label, notes=notes))
        return item

    @property
    def entries(self) -> list[SourceEntry]:
        """The Sources list: each source with its number and its words, as first met."""
        return [
            SourceEntry(number=number, source=source, quoted=list(self._quoted.get(source.pk, {}).values()))
            for number, source in enumerate(self.sources, start=1)
        ]
