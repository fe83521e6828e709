"""The citation kernel's admin: sources (claims.admin.sources) and the evidence fields every
cited row's form uses (claims.admin.evidence)."""

from .sources import SourceAdmin, citation_relations

__all__ = ["SourceAdmin", "citation_relations"]
