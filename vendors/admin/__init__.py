"""The editors' admin for vendor profiles; importing the package registers them all. The
citation kernel's admin (sources, evidence fields, sectioned change pages) is claims.admin."""

from django.contrib import admin

from .profile import VendorAdmin
from .reference import AttributeAdmin, AxisAdmin, LaneAdmin, SiteSettingsAdmin
from .staleness import StaleEventAdmin, StaleFactAdmin, StaleScoreAdmin
from .staleness_market import StalePriceAdmin, StaleResultAdmin

admin.site.site_header = "chipsite editorial admin"
admin.site.site_title = "chipsite admin"
admin.site.index_title = "Profiles, scores and sources"
# Profile pages carry wide inline tables: give them the whole width.
admin.site.enable_nav_sidebar = False

__all__ = [
    "AttributeAdmin",
    "AxisAdmin",
    "LaneAdmin",
    "SiteSettingsAdmin",
    "StaleEventAdmin",
    "StaleFactAdmin",
    "StalePriceAdmin",
    "StaleResultAdmin",
    "StaleScoreAdmin",
    "VendorAdmin",
]
