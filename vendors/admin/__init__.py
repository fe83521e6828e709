"""The editors' admin, in four parts; importing the package registers them all."""

from django.contrib import admin

from .editing import CitedInline, CitesSources, FillsPositions, PositionedInlineForm, ResolvesChoicesOnce
from .profile import VendorAdmin
from .reference import SourceAdmin, citation_relations
from .staleness import StaleEventAdmin, StaleFactAdmin, StaleScoreAdmin

admin.site.site_header = "chipsite editorial admin"
admin.site.site_title = "chipsite admin"
admin.site.index_title = "Profiles, scores and sources"
# Profile pages carry wide inline tables: give them the whole width.
admin.site.enable_nav_sidebar = False

__all__ = [
    "CitedInline",
    "CitesSources",
    "FillsPositions",
    "PositionedInlineForm",
    "ResolvesChoicesOnce",
    "SourceAdmin",
    "StaleEventAdmin",
    "StaleFactAdmin",
    "StaleScoreAdmin",
    "VendorAdmin",
    "citation_relations",
]
