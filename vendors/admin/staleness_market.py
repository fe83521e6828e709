"""The staleness queue's chip prices and measured results (chips/market.py): the same rule, columns,
“Edit” link and “Mark verified today” as every other kind (staleness.StaleQueueAdmin), with the
filters and search an editor needs to find an offer or a benchmark."""

from django.contrib import admin

from chips import quantities, units
from chips.market_documents import PER_TEXT, money
from chips.models import StalePrice, StaleResult

from .staleness import StaleQueueAdmin


@admin.register(StalePrice)
class StalePriceAdmin(StaleQueueAdmin):
    item_fields = ["chip", "provider", "offer", "kind"]
    tie_break = ["chip", "position"]
    list_filter = [*StaleQueueAdmin.list_filter, "kind", "per", "currency"]
    list_select_related = ["vendor", "verified_by"]
    search_fields = ["chip", "provider", "offer", "vendor__name"]

    @admin.display(description="price", ordering="amount")
    def short_value(self, obj):
        """“$98.32 per instance-hour, 8 chips”, as the source gives it."""
        chips = f", {obj.chips_per_unit} chips" if obj.chips_per_unit and obj.per != "chip-hour" else ""
        return f"{money(units.plain(obj.amount), obj.currency)} {PER_TEXT[obj.per]}{chips}"


@admin.register(StaleResult)
class StaleResultAdmin(StaleQueueAdmin):
    item_fields = ["chip", "benchmark", "system"]
    tie_break = ["chip", "position"]
    list_filter = [*StaleQueueAdmin.list_filter, "metric", "division"]
    list_select_related = ["vendor", "verified_by"]
    search_fields = ["chip", "system", "suite", "workload", "submitter", "vendor__name"]

    @admin.display(description="benchmark", ordering="workload")
    def benchmark(self, obj):
        """“MLPerf Inference v5.0, Llama 2 70B, Offline”, as pages name it."""
        suite = " ".join(part for part in (obj.suite, obj.suite_version) if part)
        return ", ".join(part for part in (suite, obj.workload, obj.scenario) if part)

    @admin.display(description="value", ordering="value")
    def short_value(self, obj):
        return f"{quantities.text(obj.value)} {obj.unit}"
