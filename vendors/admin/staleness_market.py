"""The staleness queue's chip prices and measured results (chips/market.py): the same rule, columns,
“Edit” link and “Mark verified today” as every other kind (staleness.StaleQueueAdmin), with the
filters and search an editor needs to find an offer or a benchmark."""

from django.contrib import admin
from django.utils.text import Truncator

from chips import quantities, units
from chips.market_documents import PER_TEXT, money
from chips.models import StalePrice, StaleResult

from .staleness import StaleQueueAdmin


@admin.register(StalePrice)
class StalePriceAdmin(StaleQueueAdmin):
    item_fields = ["chip", "offer_text"]
    tie_break = ["chip", "position"]
    list_filter = [*StaleQueueAdmin.list_filter, "kind", "per", "currency"]
    list_select_related = ["vendor", "verified_by"]
    search_fields = ["chip", "provider", "offer", "vendor__name"]

    @admin.display(description="offer", ordering="provider")
    def offer_text(self, obj):
        """“TensorWave, MI300X rental (on demand)”: who sells it, what, and how it is bought."""
        return f"{obj.provider}, {obj.offer} ({obj.get_kind_display().lower()})"

    @admin.display(description="price", ordering="amount")
    def short_value(self, obj):
        """“$98.32 per instance-hour, 8 chips”, as the source gives it."""
        chips = f", {obj.chips_per_unit} chips" if obj.chips_per_unit and obj.per != "chip-hour" else ""
        return f"{money(units.plain(obj.amount), obj.currency)} {PER_TEXT[obj.per]}{chips}"


@admin.register(StaleResult)
class StaleResultAdmin(StaleQueueAdmin):
    item_fields = ["chip", "benchmark"]
    tie_break = ["chip", "position"]
    list_filter = [*StaleQueueAdmin.list_filter, "metric", "division"]
    list_select_related = ["vendor", "verified_by"]
    search_fields = ["chip", "system", "suite", "workload", "submitter", "vendor__name"]

    @admin.display(description="benchmark, on what system", ordering="workload")
    def benchmark(self, obj):
        """“MLPerf Inference v5.0, Llama 2 70B, Offline on 8x MI300X server”, as pages name the
        benchmark, the system cut short (a system's full name is on the vendor's page)."""
        suite = " ".join(part for part in (obj.suite, obj.suite_version) if part)
        named = ", ".join(part for part in (suite, obj.workload, obj.scenario) if part)
        return f"{named} on {Truncator(obj.system).chars(40)}"

    @admin.display(description="value", ordering="value")
    def short_value(self, obj):
        return f"{quantities.text(obj.value)} {obj.unit}"
