"""A page's footnotes: the citation kernel's (claims/footnotes.py), which a chip's page shares
with the profile and the comparison table; read from here too."""

from claims.footnotes import MARKERS_PER_CLAIM, Footnotes, GroupedNote, Quoted, SourceEntry

__all__ = ["MARKERS_PER_CLAIM", "Footnotes", "GroupedNote", "Quoted", "SourceEntry"]
