"""The vendor list's filters. Values the list does not understand are ignored and said so."""

import django_filters
from django import forms
from django.db.models import Count, F, Q

from infra.cache import cached
from infra.fixed import FixedRead
from infra.forms import FilterForm

from .models import SCORE_MAX, Axis, Lane, VersionScore
from .selectors import LANE_COUNTS_KEY, active_axes

TOTAL_THRESHOLDS = [5, 10, 15, 20]
SORTS = {
    "name": ("name", False),
    "-name": ("name", True),
    "total": ("total", False),
    "-total": ("total", True),
    "verified": ("verified_on", False),
    "-verified": ("verified_on", True),
}
SORT_LABELS = [
    ("-total", "Total, highest first"),
    ("total", "Total, lowest first"),
    ("name", "Name, A to Z"),
    ("-name", "Name, Z to A"),
    ("-verified", "Most recently verified"),
    ("verified", "Least recently verified"),
]


_LANES = FixedRead(lambda: Lane.objects.only("name", "slug"))  # every lane in order: the choices


class VendorFilter(django_filters.FilterSet):
    """Built from the view's queryset (live published versions), so it can never show more."""

    q = django_filters.CharFilter(
        method="search",
        label="Name or company",
        max_length=100,
        widget=forms.TextInput(attrs={"type": "search"}),
    )
    lane = django_filters.MultipleChoiceFilter(
        field_name="lane__slug",
        widget=forms.CheckboxSelectMultiple,
        label="Lane",
        distinct=False,  # a version has one lane: no duplicates to remove
    )
    min_total = django_filters.ChoiceFilter(
        field_name="total",
        lookup_expr="gte",
        choices=[(n, f"{n} or more") for n in TOTAL_THRESHOLDS],
        empty_label="Any total",
        label="Minimum total",
    )
    sort = django_filters.ChoiceFilter(method="order", choices=SORT_LABELS, empty_label=None, label="Sort by")

    class Meta:
        form = FilterForm  # the filters' widgets written in Python, the same HTML (infra/forms.py)

    def __init__(self, data=None, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.axes = active_axes()
        self._lanes: list[Lane] | None = None
        # Read when a lane is asked for or the options are counted, once for both (a function,
        # which the form's copy of its fields shares, where a method would copy this filter set).
        self.filters["lane"].extra["choices"] = lambda: [(lane.slug, lane.name) for lane in self.lanes]
        for axis in self.axes:
            name = f"min_{axis.slug}"
            axis_filter = django_filters.ChoiceFilter(
                field_name=name,
                method="min_score",
                choices=[(n, f"{n} or more") for n in range(1, SCORE_MAX + 1)],
                empty_label="Any",
                label=axis.name,
            )
            axis_filter.parent = self
            axis_filter.axis = axis
            self.filters[name] = axis_filter

    @property
    def lanes(self) -> list[Lane]:
        """Every lane, in order: one query, for the choices, their counts and the keys shown."""
        if self._lanes is None:
            self._lanes = _LANES()
        return self._lanes

    def search(self, queryset, name, value):
        return queryset.filter(Q(name__icontains=value) | Q(company__icontains=value))

    def min_score(self, queryset, name, value):
        axis = self.filters[name].axis
        return queryset.filter(
            pk__in=VersionScore.objects.filter(axis=axis, value__gte=int(value)).values("version_id")
        )

    def order(self, queryset, name, value):
        field, descending = SORTS[value]
        column = F(field)
        expression = column.desc(nulls_last=True) if descending else column.asc(nulls_last=True)
        return queryset.order_by(expression, "name")

    @property
    def qs(self):
        """Apply the valid values only: an invalid one is reported, not a reason to show nothing."""
        if not hasattr(self, "_qs"):
            self.form.is_valid()
            queryset = self.filter_queryset(self.queryset.all())
            if not self.form.cleaned_data.get("sort"):
                queryset = self.order(queryset, "sort", "-total")
            self._qs = queryset
        return self._qs

    def filter_queryset(self, queryset, *, skip=()):
        for name, value in self.form.cleaned_data.items():
            if name in skip:
                continue
            queryset = self.filters[name].filter(queryset, value)
        return queryset

    @property
    def ignored(self):
        """What the visitor asked for that the list could not use, each in one sentence of ours.

        Django's own messages ("Select a valid choice. ...") are written for form fields, not
        for a link someone followed, so only the error's code is used.
        """
        notes = []
        for name, errors in self.form.errors.as_data().items():
            error = errors[0]
            value = str((error.params or {}).get("value", self.data.get(name, "")))
            shown = value if len(value) <= 40 else value[:40] + "…"
            label = self.form.fields[name].label if name in self.form.fields else name
            if error.code == "max_length":
                reason = f"is longer than {self.form.fields[name].max_length} characters"
            elif error.code == "null_characters_not_allowed":
                notes.append(
                    f"{label}: the text holds a character that cannot be searched for, so it was ignored."
                )
                continue
            elif error.code in ("invalid_choice", "invalid_pk_value", "invalid_list"):
                reason = "is not one of the choices"
            else:
                reason = "could not be used"
            notes.append(f"{label}: “{shown}” {reason}, so this filter was ignored.")
        known = set(self.filters) | {"page", "vendors"}
        for name in sorted(set(self.data) - known):
            notes.append(f"Unknown filter “{name[:40]}” was ignored.")
        return notes

    def shown_keys(self):
        """The keys of what the list shows (infra/freshness.py): filtered by lane alone, those
        lanes' rows and how many vendors each lane has (a publish in another lane leaves it as
        it is); else every vendor's row."""
        self.form.is_valid()
        cleaned = self.form.cleaned_data
        if {name for name, value in cleaned.items() if value and name != "sort"} == {"lane"}:
            asked = set(cleaned["lane"])
            return [LANE_COUNTS_KEY, *(f"lane-{lane.pk}" for lane in self.lanes if lane.slug in asked)]
        return ["entries"]

    def _matching(self, *, without):
        """Primary keys of the vendors the other filters (all but ``without``) let through."""
        return self.filter_queryset(self.queryset.all(), skip=(without, "sort")).order_by().values("pk")

    def count_options(self, *, listed=None):
        """Label each option with how many vendors it would match, given the other filters.

        A constant number of queries whatever the number of vendors: one for the lanes and
        the totals, one for the scores plus one per score filter in use. The bare list's
        counts are the catalogue's, shared through the cache (infra/cache.py). ``listed``: the
        list's keys as its page compiled them (infra/rows/pages.py), not compiled again here.
        """
        self.form.is_valid()
        if any(value for name, value in self.form.cleaned_data.items() if name != "sort"):
            counts = self._option_counts(listed)
        else:
            counts = cached("vendor-list-option-counts", self._option_counts)
        by_lane, totals, scores = counts["lanes"], counts["totals"], counts["scores"]
        self.form.fields["lane"].widget.choices = [
            (lane.slug, f"{lane.name} ({by_lane.get(lane.slug, 0)})") for lane in self.lanes
        ]
        # django-filter's field puts its empty_label ("Any total", "Any") first by itself.
        self.form.fields["min_total"].choices = [
            (n, f"{n} or more ({totals[f'at_least_{n}']})") for n in TOTAL_THRESHOLDS
        ]
        for axis in self.axes:
            self.form.fields[f"min_{axis.slug}"].choices = [
                (n, f"{n} or more ({sum(c for v, c in scores.get(axis.pk, {}).items() if v >= n)})")
                for n in range(1, SCORE_MAX + 1)
            ]

    def _option_counts(self, listed=None):
        """{"lanes": {slug: n}, "totals": {"at_least_N": n}, "scores": {axis pk: {value: n}}}."""
        return {**self._lane_and_total_counts(), "scores": self._score_counts(listed)}

    def _lane_and_total_counts(self):
        """The lanes' and the totals' counts from one grouped query: the vendors the other
        filters let through, by lane and total. A lane's count is of its vendors with the
        minimum total asked for; a total's, of the vendors in the lanes asked for."""
        rows = (
            self.filter_queryset(self.queryset.all(), skip=("lane", "min_total", "sort"))
            .order_by()
            .values_list("lane__slug", "total")
            .annotate(n=Count("pk"))
        )
        minimum = int(self.form.cleaned_data.get("min_total") or 0)
        chosen = set(self.form.cleaned_data.get("lane") or ())
        lanes: dict[str, int] = {}
        totals = dict.fromkeys((f"at_least_{n}" for n in TOTAL_THRESHOLDS), 0)
        for slug, total, n in rows:
            if not minimum or (total is not None and total >= minimum):
                lanes[slug] = lanes.get(slug, 0) + n
            if not chosen or slug in chosen:
                for threshold in (t for t in TOTAL_THRESHOLDS if total is not None and total >= t):
                    totals[f"at_least_{threshold}"] += n
        return {"lanes": lanes, "totals": totals}

    def _score_counts(self, listed=None):
        """{axis pk: {value: how many matching vendors have it}}.

        The axes the visitor has not filtered on all count over the same vendors, so they
        share one grouped query; each axis filter in use adds one (its options count the
        vendors the other filters let through).
        """
        in_use = [axis for axis in self.axes if self.form.cleaned_data.get(f"min_{axis.slug}")]
        groups: list[tuple[Axis | None, list[Axis]]] = [(axis, [axis]) for axis in in_use]
        if unused := [axis for axis in self.axes if axis not in in_use]:
            groups.append((None, unused))
        counts: dict[int, dict[int, int]] = {}
        for filtered, axes in groups:
            # The list's own vendors (as its page compiled them, or ``qs``, built once) when no
            # filter is left out.
            if filtered:
                matching = self._matching(without=f"min_{filtered.slug}")
            else:
                matching = listed if listed is not None else self.qs.order_by().values("pk")
            rows = (
                VersionScore.objects.filter(axis__in=axes, version__in=matching)
                .order_by()
                .values_list("axis_id", "value")
                .annotate(n=Count("pk"))
            )
            for axis_id, value, n in rows:
                counts.setdefault(axis_id, {})[value] = n
        return counts
