"""Readers' chip pages: /chips/, every live chip in a table that sorts by any spec and
filters by ranges, and the any-N chip comparison with its bar charts."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.db.models import QuerySet
from django.shortcuts import render
from django.views.generic import TemplateView

from infra.forms import FilterForm
from infra.query_input import refuses_nul
from infra.rows.pages import KeptRowsPaginator
from infra.stored import shows

from . import market_rows, selectors, units
from . import rows as chip_rows
from .documents import SCOPE_TEXT, STAGES, Spec
from .models import Precision, VersionChip
from .quantities import SPARSITY_WORDS
from .selectors import LiveChip

CHIPS_PER_PAGE = 50
COMPARE_AT_MOST = 8  # chips side by side; more are left out, saying so
COLUMNS = chip_rows.COLUMNS
PAGE_KEY = selectors.CHIPS_KEY  # what /chips/ shows: every live chip (vendors.pages.page_keys)


def _sort_choices() -> list[tuple[str, str]]:
    choices = []  # the first is the default: memory capacity, highest first
    for kind in COLUMNS:
        spec = units.KINDS[kind]
        high, low = f"-{kind}", kind
        first = [(high, f"{spec.label}, highest first"), (low, f"{spec.label}, lowest first")]
        choices += first if spec.higher_is_better else first[::-1]
    prices = [
        ("price", "Lowest price, lowest first"),
        ("-price", "Lowest price, highest first"),
        ("pflop", "$ per PFLOP-hour (FP8), lowest first"),
        ("-pflop", "$ per PFLOP-hour (FP8), highest first"),
    ]
    return [*choices, *prices, ("name", "Name, A to Z"), ("-name", "Name, Z to A")]


SORTS = _sort_choices()
RANGES = {"min_memory": "memory", "min_bandwidth": "bandwidth"}  # filter: its kind
STAGE_CHOICES = {
    "announced": "Announced or later",
    "preview": "In preview or later",
    "ga": "Generally available",
}


def bound_field(label: str, *, places: int) -> forms.DecimalField:
    """A filter's bound (“at least”, “at most”): a number of 0 or more, optional."""
    return forms.DecimalField(
        label=label,
        required=False,
        min_value=0,
        max_digits=12,
        decimal_places=places,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )


class ChipListForm(FilterForm):
    """What a reader may ask of /chips/. A value it cannot use is ignored, and said so."""

    min_memory = bound_field(f"Memory of at least ({units.KINDS['memory'].unit})", places=3)
    min_bandwidth = bound_field(f"Memory bandwidth of at least ({units.KINDS['bandwidth'].unit})", places=3)
    max_price = bound_field("On-demand price at most ($ per chip-hour)", places=4)
    max_pflop_hour = bound_field("$ per PFLOP-hour (FP8) at most", places=4)
    precision = forms.ChoiceField(label="Compute at precision", required=False)
    stage = forms.ChoiceField(label="Availability", required=False)
    sort = forms.ChoiceField(label="Sort by", required=False, choices=SORTS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._choice_field("precision").choices = [("", "Any precision"), *Precision.choices]
        self.count_stages({})

    def _choice_field(self, name: str) -> forms.ChoiceField:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        return field

    def count_precisions(self, counts: dict[str, int]) -> None:
        """Label each precision with how many chips, given the other filters, have it."""
        self._choice_field("precision").choices = [
            ("", "Any precision"),
            *((value, f"{label} ({counts.get(value, 0)})") for value, label in Precision.choices),
        ]

    def count_stages(self, counts: dict[str, int]) -> None:
        """Each stage as a choice (“Generally available (3)”), counting the chips, given the
        other filters, that have reached it or a later one."""
        self._choice_field("stage").choices = [
            ("", "Any"),
            *(
                (stage, f"{STAGE_CHOICES[stage]}{f' ({counts[stage]})' if counts else ''}")
                for stage in STAGES
            ),
        ]

    def ignored(self, data) -> list[str]:
        notes = []
        for name in self.errors:
            value = str(data.get(name, ""))
            shown = value if len(value) <= 40 else value[:40] + "…"
            reason = (
                "is not one of the choices"
                if name in ("precision", "stage", "sort")
                else "is not a number of 0 or more"
            )
            notes.append(f"{self.fields[name].label}: “{shown}” {reason}, so it was ignored.")
        known = set(self.fields) | {"page"}
        notes += [f"Unknown filter “{name[:40]}” was ignored." for name in sorted(set(data) - known)]
        return notes

    def value(self, name: str):
        return self.cleaned_data.get(name) if name not in self.errors else None


class ChipListView(TemplateView):
    template_name = "chips/chip_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        shows(PAGE_KEY)
        form = ChipListForm(self.request.GET)
        form.is_valid()
        # The ranges and prices (the live chips among them), compiled once: the page, its count
        # and the options' counts read their keys, not the chain again (selectors.compiled_once).
        filtered = selectors.compiled_once(_filtered(form))
        chips, sort = _listed(form, filtered)
        paginator = KeptRowsPaginator(chips, CHIPS_PER_PAGE)
        page = paginator.get_page(self.request.GET.get("page"))
        _count_options(form, filtered, listed=selectors.chips_of(paginator.listed))
        listed = list(page.object_list)
        rows = chip_rows.chip_rows(listed)
        context.update(
            form=form,
            ignored=form.ignored(self.request.GET),
            page_obj=page,
            rows=rows,
            # the JSON-LD of the page's chips, on the unfiltered page only (the template's meta)
            chip_list=[] if self.request.GET else chip_rows.live_chips_of(listed),
            columns=[(kind, units.KINDS[kind]) for kind in COLUMNS],
            sort=sort,
            has_vendor_stated=chip_rows.shows_stated_mark(rows),
        )
        return context


def _filtered(form: ChipListForm) -> QuerySet[VersionChip]:
    """The chips a valid ``form``'s ranges and prices leave (its choices, precision and stage,
    apart: each choice counts the chips the other filters leave)."""
    chips = selectors.live_chips()
    for name, kind in RANGES.items():
        if (minimum := form.value(name)) is not None:
            chips = selectors.at_least(chips, kind, float(minimum))
    if (maximum := form.value("max_price")) is not None:
        chips = selectors.at_most_price(chips, maximum)
    if (maximum := form.value("max_pflop_hour")) is not None:
        chips = selectors.at_most_pflop_hour(chips, maximum)
    return chips


def _listed(form: ChipListForm, chips: QuerySet[VersionChip]) -> tuple[QuerySet[VersionChip], str]:
    """The chips the whole of a valid ``form`` asks for, of those its ranges left, sorted, and
    the sort."""
    precision, stage = form.value("precision"), form.value("stage")
    if stage:
        chips = selectors.reached(chips, stage)
    if precision:
        chips = selectors.with_precision(chips, precision)
    sort = form.value("sort") or SORTS[0][0]
    return _sorted(chips, sort).select_related(None).only(*chip_rows.LISTED), sort


def _count_options(
    form: ChipListForm, chips: QuerySet[VersionChip], *, listed: QuerySet[VersionChip]
) -> None:
    """Count each stage and precision over the chips the other filters leave, of ``chips`` (what
    the ranges and prices left): where the form asks for no stage (or no precision), that is
    the page's own list, ``listed`` (its keys as its page compiled them), not compiled again."""
    precision, stage = form.value("precision"), form.value("stage")
    by_precision = selectors.with_precision(chips, precision) if precision else chips
    form.count_stages(selectors.stage_counts(by_precision if stage else listed))
    by_stage = selectors.reached(chips, stage) if stage else chips
    form.count_precisions(selectors.precision_counts(by_stage if precision else listed))


def _sorted(chips: QuerySet[VersionChip], sort: str) -> QuerySet[VersionChip]:
    descending, key = sort.startswith("-"), sort.lstrip("-")
    if key == "name":
        return chips.order_by(("-" if descending else "") + "name", "pk")
    if key == "price":
        return selectors.sorted_by_price(chips, descending=descending)
    if key == "pflop":
        return selectors.sorted_by_pflop_hour(chips, descending=descending)
    return selectors.sorted_by(chips, key, descending=descending)


@dataclass
class Bar:
    chip: LiveChip
    spec: Spec
    width: int  # of BAR_WIDTH, the longest bar's


BAR_WIDTH = 300


@dataclass
class MeasureRow:
    """One thing measured the same way on every chip (kind, scope, precision, sparsity): the
    cells side by side and, when two or more chips state it, a bar each."""

    measure: tuple[str, str, str, bool | None]
    label: str
    unit: str
    cells: list[Spec | None]
    bars: list[Bar]

    @property
    def anchor(self) -> str:
        kind, scope, precision, sparse = self.measure
        return "-".join(
            part
            for part in (
                kind,
                scope,
                precision.replace("/", "-").replace(" ", "-").lower(),
                SPARSITY_WORDS[sparse],
            )
            if part
        )


def measure_rows(chips: list[LiveChip]) -> list[MeasureRow]:
    """Every measure any of ``chips`` states, kinds in their order, per chip before per system
    before per pod: a per-system figure is only ever beside per-system figures."""
    kinds, scopes = list(units.KINDS), list(SCOPE_TEXT)
    measures: dict[tuple[str, str, str, bool | None], str] = {}
    for chip in chips:
        for spec in chip.specs:
            measures.setdefault(spec.measure, spec.label)
    sparsity = list(SPARSITY_WORDS)
    ordered = sorted(
        measures, key=lambda m: (kinds.index(m[0]), scopes.index(m[1]), m[2], sparsity.index(m[3]))
    )
    rows = []
    for measure in ordered:
        cells = [next((s for s in chip.specs if s.measure == measure), None) for chip in chips]
        stated = [(chip, spec) for chip, spec in zip(chips, cells, strict=True) if spec is not None]
        top = max((spec.sort_key for _, spec in stated), default=0)
        bars = (
            [
                Bar(chip=chip, spec=spec, width=max(1, round(BAR_WIDTH * spec.sort_key / top)))
                for chip, spec in stated
            ]
            if len(stated) >= 2 and top > 0
            else []
        )
        rows.append(
            MeasureRow(
                measure=measure,
                label=measures[measure],
                unit=units.KINDS[measure[0]].unit,
                cells=cells,
                bars=bars,
            )
        )
    return rows


def asked_slugs(request) -> list[str]:
    """The chips asked for: ``?chips=a&chips=b`` (the table's boxes) or ``?chips=a,b``."""
    slugs = []
    for value in request.GET.getlist("chips"):
        slugs += [slug.strip().lower() for slug in value.split(",") if slug.strip()]
    return list(dict.fromkeys(slug[:100] for slug in slugs))


@refuses_nul  # the asked slugs go straight to a query, which PostgreSQL refuses with a NUL
def chip_compare(request):
    """Any number of live chips side by side. An address naming a chip that is not live is a
    404 that still offers the others; none at all asks the reader to pick some."""
    slugs = asked_slugs(request)
    left_out = slugs[COMPARE_AT_MOST:]
    chips, missing = selectors.chips_by_slug(slugs[:COMPARE_AT_MOST], these_only=True)
    priced = market_rows.priced(chips)
    context = {
        "chips": chips,
        "missing": missing,
        "left_out": left_out,
        "rows": measure_rows(chips),
        "priced": priced,
        "derived_rows": market_rows.derived_rows(priced),
        "results": market_rows.results_of(chips),
        "bar_width": BAR_WIDTH,
        "at_most": COMPARE_AT_MOST,
        "others_query": "&".join(f"chips={chip.slug}" for chip in chips),
    }
    context["has_vendor_stated"] = any(
        any(spec.vendor_stated for spec in chip.specs) or any(row.vendor_stated for row in chip.availability)
        for chip in chips
    )
    status = 404 if missing else 200
    return render(request, "chips/chip_compare.html", context, status=status)
