"""A vendor's chips and their numbers: each spec a typed value (a quantity in a unit, counted
per chip, per system or per pod), cited like a fact and verified by the same rule.

A chip is the product generation the specs name (“Trainium3”): the specs of one vendor that
give the same chip name make up that chip, in the order of their positions. Its address is
the name's slug, which no other vendor's chip may take (``chip_taken_by``).
"""

import reversion
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.text import slugify

from claims.models import Source, Verifiable, VerifiableQuerySet, Wording, citation_table, citations_of

from . import quantities, units
from . import stated as statements

# The vendor a chip's rows belong to, and the published version a live chip is indexed with, are
# named by label: the vendors app builds on this one (a profile holds its chips), never the reverse.
VENDOR = "vendors.Vendor"
VENDOR_VERSION = "vendors.VendorVersion"

# Enum's functional API with (value, label) pairs, which django-stubs does not declare.
SpecKind = models.TextChoices(  # type: ignore[call-overload]
    "SpecKind", {key: (key, kind.label) for key, kind in units.KINDS.items()}
)


class Scope(models.TextChoices):
    """What a value is counted for: a per-system figure is never compared with a per-chip one."""

    CHIP = "chip", "Per chip"
    SYSTEM = "system", "Per system"
    POD = "pod", "Per pod"


class Precision(models.TextChoices):
    FP4 = "FP4", "FP4"
    FP6 = "FP6", "FP6"
    FP6_FP4 = "FP6/FP4", "FP6/FP4"
    FP8 = "FP8", "FP8"
    MXFP8 = "MXFP8", "MXFP8"
    BLOCK_FP8 = "Block FP8", "Block FP8"
    INT8 = "INT8", "INT8"
    FP16 = "FP16", "FP16"
    BF16 = "BF16", "BF16"
    TF32 = "TF32", "TF32"
    FP32 = "FP32", "FP32"
    FP64 = "FP64", "FP64"


class Qualifier(models.TextChoices):
    """How the source bounds its figure: “over 10 PFLOPS” is kept as 10 and “over”."""

    EXACT = "", "Exact"
    ABOUT = "about", "About"
    AT_LEAST = "at_least", "At least"
    OVER = "over", "Over"
    UP_TO = "up_to", "Up to"


def chip_slug(name: str) -> str:
    return slugify(name)


# The addresses under /chips/ that are pages of many chips (chips/urls.py): no chip may take one.
PAGE_SLUGS = frozenset({"compare", "trends", "fit"})


def chip_name_error(name: str) -> str | None:
    """What is wrong with a chip's name as its address, or None: the one check every chip row makes."""
    slug = chip_slug(name)
    if not slug:
        return "A chip's name has letters or digits."
    if slug in PAGE_SLUGS:
        return f"“{name}” would take the address of /chips/{slug}/, a page of many chips: name it otherwise."
    return None


class Spec(Verifiable):
    """One number of one chip: 144 GB of memory per Trainium3 chip, as its sources state."""

    vendor = models.ForeignKey(VENDOR, on_delete=models.CASCADE, related_name="specs")
    chip = models.CharField(
        max_length=80, help_text="The chip (product generation) it is a number of, e.g. “Trainium3”."
    )
    kind = models.CharField(max_length=16, choices=SpecKind.choices)
    quantity = models.DecimalField(
        max_digits=16, decimal_places=6, help_text="The number as the source gives it, e.g. 144 or 7.37."
    )
    unit = models.CharField(
        max_length=8,
        choices=[(unit, unit) for unit in units.UNITS],
        help_text="The unit as the source gives it.",
    )
    scope = models.CharField(max_length=6, choices=Scope.choices, default=Scope.CHIP)
    precision = models.CharField(
        max_length=12,
        choices=Precision.choices,
        blank=True,
        help_text="For compute: the number format it is counted in.",
    )
    qualifier = models.CharField(
        max_length=8,
        choices=Qualifier.choices,
        blank=True,
        default=Qualifier.EXACT,
        help_text="As the source bounds the figure: “over 10 PFLOPS” is 10 with “Over”.",
    )
    sparse = models.BooleanField(
        null=True,
        blank=True,
        default=None,
        help_text="For compute: whether a source says it is counted with sparsity (empty: not stated).",
    )
    sources_differ = models.BooleanField(
        default=False,
        editable=False,
        help_text="A cited source states another value than this one (beyond rounding).",
    )
    difference_note = models.TextField(
        "note on differing sources",
        blank=True,
        help_text="Shown to readers: why the sources' figures differ, e.g. “AWS states GiB; press "
        "reports round to GB”. Settles “Sources differ”.",
    )
    vendor_stated = models.BooleanField(
        default=False, help_text="Tick when the figure comes from the vendor itself."
    )
    position = models.PositiveIntegerField(default=0, help_text="Order within the page.")
    sources = models.ManyToManyField(Source, through="SpecCitation", blank=True, related_name="specs")

    objects = VerifiableQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "position", "pk"]
        verbose_name = "chip spec"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="compute") | Q(precision="", sparse__isnull=True),
                name="spec_precision_only_for_compute",
                violation_error_message="Only a compute figure has a precision or sparsity.",
            ),
            models.CheckConstraint(
                condition=Q(quantity__gt=0),
                name="spec_quantity_positive",
                violation_error_message="A spec's number is more than zero.",
            ),
        ]

    def __str__(self):
        figure = quantities.Quantity(self.kind, units.plain(self.quantity), self.unit, self.qualifier)
        return f"{self.chip}: {self.get_kind_display()} {figure.as_given()}"

    @property
    def chip_slug(self) -> str:
        return chip_slug(self.chip)

    @property
    def stated(self) -> list[dict[str, object]]:
        """What each citation's quote states for it (chips/stated.py), by source id: what the
        published document keeps. A summary is our words, not the source's: it states nothing
        for the source. Reads the citations prefetched (citations_of(Spec))."""
        said = []
        for citation in sorted(getattr(self, citations_of(Spec)).all(), key=lambda c: c.source_id):
            if citation.wording != Wording.QUOTE:
                continue
            found = statements.stated_for(citation.quote, self.kind, self.quantity, self.unit)
            if found is not None:
                differs = statements.differs([found], self.quantity, self.unit)
                said.append({"source": citation.source_id, **vars(found), "differs": differs})
        return said

    def clean(self):
        errors = {}
        if self.kind and self.unit:
            try:
                units.check(self.kind, self.unit)
            except units.UnitError as error:
                errors["unit"] = str(error)
        if self.kind == SpecKind.compute and not self.precision:
            errors["precision"] = "A compute figure says its precision (FP8, BF16, …)."
        if self.kind != SpecKind.compute and (self.precision or self.sparse is not None):
            errors["precision"] = "Only a compute figure has a precision or sparsity."
        if self.chip and (problem := chip_name_error(self.chip)):
            errors["chip"] = problem
        if errors:
            raise ValidationError(errors)


def chip_taken_by(name: str, vendor_id: int | None) -> str | None:
    """The name of the other vendor whose chip has this name's address, or None."""
    return chips_taken(vendor_id).get(chip_slug(name))


def chips_taken(vendor_id: int | None) -> dict[str, str]:
    """{chip address: vendor name} for the chips of every vendor but this one, in one query:
    what an import checks all its rows' chips against."""
    taken: dict[str, str] = {}
    specs = Spec.objects.all() if vendor_id is None else Spec.objects.exclude(vendor_id=vendor_id)
    for other, vendor in specs.values_list("chip", "vendor__name").distinct():
        taken.setdefault(chip_slug(other), vendor)
    return taken


class StaleSpec(Spec):
    """The staleness queue's chip specs (see claims.StaleFact); the admin checks the Spec permissions."""

    class Meta:
        proxy = True
        verbose_name = "stale chip spec"
        verbose_name_plural = "staleness queue: chip specs"
        default_permissions = ()


class Stage(models.TextChoices):
    """How far a chip has come, in the order it gets there."""

    ANNOUNCED = "announced", "Announced"
    PREVIEW = "preview", "In preview"
    GA = "ga", "Generally available"


class Availability(Verifiable):
    """When a chip reached a stage (announced, in preview, generally available), to the month,
    as its sources state: a dated value of the chip, cited and verified like its numbers."""

    vendor = models.ForeignKey(VENDOR, on_delete=models.CASCADE, related_name="availability")
    chip = models.CharField(
        max_length=80, help_text="The chip (product generation) it dates, e.g. “Trainium3”."
    )
    stage = models.CharField(max_length=10, choices=Stage.choices)
    month = models.DateField(help_text="The month it reached the stage, e.g. 2025-10 (no day is kept).")
    vendor_stated = models.BooleanField(
        default=False, help_text="Tick when the date comes from the vendor itself."
    )
    position = models.PositiveIntegerField(default=0, help_text="Order within the page.")
    sources = models.ManyToManyField(
        Source, through="AvailabilityCitation", blank=True, related_name="availability"
    )

    objects = VerifiableQuerySet.as_manager()

    class Meta:
        ordering = ["vendor", "position", "pk"]
        verbose_name = "availability date"
        constraints = [
            models.CheckConstraint(
                condition=Q(month__day=1),
                name="availability_month_only",
                violation_error_message="An availability date is a month: its day is the first.",
            ),
        ]

    def __str__(self):
        return f"{self.chip}: {self.get_stage_display()} {self.month:%b %Y}" if self.month else self.chip

    @property
    def chip_slug(self) -> str:
        return chip_slug(self.chip)

    def clean(self):
        if self.chip and (problem := chip_name_error(self.chip)):
            raise ValidationError({"chip": problem})


class StaleAvailability(Availability):
    """The staleness queue's availability dates; the admin checks the Availability permissions."""

    class Meta:
        proxy = True
        verbose_name = "stale availability date"
        verbose_name_plural = "staleness queue: availability dates"
        default_permissions = ()


SpecCitation = citation_table(
    Spec, verbose_name="spec citation", unique_name="unique_spec_citation", prefix="spec_citation"
)


class VersionChip(models.Model):
    """A chip of a published version, so /chips/ sorts, filters and pages in the database.
    Written with the version (``VendorPublication.after_write``); the page draws each chip
    from the version's document."""

    version = models.ForeignKey(VENDOR_VERSION, on_delete=models.CASCADE, related_name="chips")
    slug = models.SlugField(max_length=100)
    name = models.CharField(max_length=80)
    position = models.PositiveIntegerField()
    stage = models.CharField(
        max_length=10,
        blank=True,
        default="",
        help_text="The furthest stage it reached (documents.Chip.stage).",
    )
    # Its highest per-chip value of each kind /chips/ sorts and filters by, in the kind's unit
    # (``documents.Chip.spec``, the highest of its VersionSpec rows), kept on the row so a sorted
    # page is one query with a limit; written with the version.
    memory = models.FloatField(null=True, blank=True)
    bandwidth = models.FloatField(null=True, blank=True)
    sram = models.FloatField(null=True, blank=True)
    compute = models.FloatField(null=True, blank=True)
    power = models.FloatField(null=True, blank=True)
    process = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["version", "position"]
        constraints = [models.UniqueConstraint(fields=["version", "slug"], name="version_chip_once")]
        indexes = [models.Index(fields=["slug", "version"], name="version_chip_slug")]

    def __str__(self):
        return self.name


class VersionSpec(models.Model):
    """One value of a published chip, in its kind's unit (``quantities.Quantity.sort_key``):
    a sort and filter key only, never printed (pages write the document's figure)."""

    chip = models.ForeignKey(VersionChip, on_delete=models.CASCADE, related_name="values")
    kind = models.CharField(max_length=16, choices=SpecKind.choices)
    scope = models.CharField(max_length=6, choices=Scope.choices)
    precision = models.CharField(max_length=12, blank=True)
    sparse = models.BooleanField(null=True, blank=True, default=None)
    value = models.FloatField()
    exact = models.BooleanField(default=True, help_text="No qualifier bounds it (“up to”, “over”).")
    usable_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Until when it may be an input to a derived figure (chips.prices.usable_until); "
        "null: not now, or written before this was kept.",
    )

    class Meta:
        indexes = [
            models.Index(fields=["kind", "scope", "value"], name="version_spec_value"),
            models.Index(fields=["kind", "precision", "chip"], name="version_spec_precision"),
        ]

    def __str__(self):
        return f"{self.kind} {self.value}"


AvailabilityCitation = citation_table(
    Availability,
    verbose_name="availability citation",
    unique_name="unique_availability_citation",
    prefix="availability_citation",
)


reversion.register(Spec, follow=["speccitation_set"])
reversion.register(SpecCitation)
reversion.register(Availability, follow=["availabilitycitation_set"])
reversion.register(AvailabilityCitation)


# A chip's prices and measured results: models of this app, declared in a module of their own.
from .market import (  # noqa: E402, F401
    Price,
    PriceCitation,
    Result,
    ResultCitation,
    StalePrice,
    StaleResult,
    VersionPrice,
)
