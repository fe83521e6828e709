"""What a chip costs and what it does: a price is a dated value of one offer (“EC2 p5.48xlarge
on demand, $98.32 per instance-hour”), a result a measured value of a named benchmark on a named
system (“MLPerf Inference v5.0, Llama 2 70B, Offline: 1,042,110 tokens/s on 87 MI355X”). Both
are rows of a vendor's profile, cited, verified and staled by the one rule (claims.freshness),
reviewed and published with it, like a chip's specs.

Money is a Decimal with its currency, as the source gives it, never a float.
"""

import reversion
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from claims.models import Source, Verifiable, VerifiableQuerySet, citation_table

from . import units
from .models import VENDOR, chip_name_error, chip_slug


class PriceKind(models.TextChoices):
    """How the offer is bought: what a reader compares like with like."""

    ON_DEMAND = "on-demand", "On demand"
    RESERVED_1Y = "reserved-1y", "Reserved, 1 year"
    RESERVED_3Y = "reserved-3y", "Reserved, 3 years"
    SPOT = "spot", "Spot"
    CAPACITY_BLOCK = "capacity-block", "Capacity block"
    LIST_PRICE = "list-price", "List price"


class PricePer(models.TextChoices):
    """What the amount pays for."""

    INSTANCE_HOUR = "instance-hour", "per instance-hour"
    CHIP_HOUR = "chip-hour", "per chip-hour"
    UNIT = "unit", "per unit"


class Currency(models.TextChoices):
    """ISO 4217 codes: an amount is only ever compared with amounts of its own currency."""

    USD = "USD", "US dollar"
    EUR = "EUR", "Euro"
    GBP = "GBP", "Pound sterling"
    JPY = "JPY", "Japanese yen"
    CNY = "CNY", "Chinese yuan"


class DatePrecision(models.TextChoices):
    DAY = "day", "Day"
    MONTH = "month", "Month"


class ChipRow(Verifiable):
    """What a price and a result share (each names its vendor): the chip they are of, who states them, their
    place on the page, and the date they apply from (to the day or the month, or not stated)."""

    chip = models.CharField(max_length=80, help_text="The chip it is of, e.g. “MI300X”.")
    as_of = models.DateField(
        "as of", null=True, blank=True, help_text="The date it applies from, as its source dates it."
    )
    as_of_precision = models.CharField(
        max_length=5, choices=DatePrecision.choices, default=DatePrecision.DAY, blank=True
    )
    vendor_stated = models.BooleanField(
        default=False, help_text="Tick when the figure comes from the chip's vendor itself."
    )
    position = models.PositiveIntegerField(default=0, help_text="Order within the page.")

    objects = VerifiableQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def chip_slug(self) -> str:
        return chip_slug(self.chip)

    def clean(self):
        errors = {}
        if self.chip and (problem := chip_name_error(self.chip)):
            errors["chip"] = problem
        if self.as_of and self.as_of_precision == DatePrecision.MONTH and self.as_of.day != 1:
            errors["as_of"] = "A date to the month is the month's first day."
        if errors:
            raise ValidationError(errors)


class Price(ChipRow):
    """One offer's price: its provider, what is bought and how, the amount and currency as the
    source gives it, per what, and how many chips that buys."""

    vendor = models.ForeignKey(VENDOR, on_delete=models.CASCADE, related_name="prices")
    provider = models.CharField(max_length=120, help_text="Who sells it, e.g. “AWS”, “RunPod”.")
    offer = models.CharField(
        max_length=200, help_text="The offer as the provider names it, e.g. “EC2 p5.48xlarge”."
    )
    kind = models.CharField(max_length=16, choices=PriceKind.choices, default=PriceKind.ON_DEMAND)
    amount = models.DecimalField(
        max_digits=18, decimal_places=6, help_text="As the source gives it, e.g. 98.32."
    )
    currency = models.CharField(max_length=3, choices=Currency.choices, default=Currency.USD)
    per = models.CharField(max_length=16, choices=PricePer.choices, default=PricePer.CHIP_HOUR)
    chips_per_unit = models.PositiveIntegerField(
        "chips per instance",
        null=True,
        blank=True,
        help_text="How many chips the offer's instance or unit holds (“8 x H100”): a price per "
        "instance-hour is divided by it. Empty: not stated.",
    )
    region = models.CharField(max_length=120, blank=True, help_text="Where the source says it applies.")
    difference_note = models.TextField(
        "note on differing sources",
        blank=True,
        help_text="Shown to readers beside the price: another source gives this offer another price, "
        "and what is known of why. Empty when no source differs.",
    )
    sources = models.ManyToManyField(Source, through="PriceCitation", blank=True, related_name="prices")

    class Meta:
        ordering = ["vendor", "position", "pk"]
        verbose_name = "chip price"
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0),
                name="price_amount_positive",
                violation_error_message="A price is more than zero.",
            ),
            models.CheckConstraint(
                condition=Q(chips_per_unit__isnull=True) | Q(chips_per_unit__gte=1),
                name="price_chips_at_least_one",
                violation_error_message="An offer buys at least one chip.",
            ),
        ]

    def __str__(self):
        return f"{self.chip}: {self.provider} {self.offer}"


class Result(ChipRow):
    """One measured value of a named benchmark on a named system, as its source reports it."""

    vendor = models.ForeignKey(VENDOR, on_delete=models.CASCADE, related_name="results")
    system = models.CharField(max_length=200, help_text="The system measured, e.g. “8x MI300X server”.")
    chips_in_system = models.PositiveIntegerField(
        "chips", null=True, blank=True, help_text="How many of the chip it ran on; empty: not stated."
    )
    suite = models.CharField(
        max_length=80, blank=True, help_text="The benchmark suite, e.g. “MLPerf Inference”; empty for none."
    )
    suite_version = models.CharField("version", max_length=20, blank=True, help_text="E.g. “v5.0”.")
    workload = models.CharField(max_length=200, help_text="What ran, e.g. “Llama 2 70B”.")
    scenario = models.CharField(max_length=80, blank=True, help_text="E.g. “Offline”, “Server”.")
    metric = models.CharField(max_length=20, choices=units.metric_choices())
    value = models.DecimalField(max_digits=18, decimal_places=6, help_text="As the source gives it.")
    unit = models.CharField(max_length=12, choices=[(unit, unit) for unit in units.RESULT_UNITS])
    counted = models.CharField(
        "as the source counts it",
        max_length=120,
        blank=True,
        help_text="The source's own name for what it counts, e.g. “output tokens/s”.",
    )
    division = models.CharField(
        max_length=6,
        blank=True,
        choices=[("closed", "Closed"), ("open", "Open")],
        help_text="MLPerf's division, where stated.",
    )
    availability = models.CharField(
        "system availability",
        max_length=10,
        blank=True,
        choices=[("available", "Available"), ("preview", "Preview"), ("research", "Research")],
        help_text="Whether the system measured can be bought, where stated.",
    )
    submitter = models.CharField(max_length=120, blank=True, help_text="Who measured or submitted it.")
    sources = models.ManyToManyField(Source, through="ResultCitation", blank=True, related_name="results")

    class Meta:
        ordering = ["vendor", "position", "pk"]
        verbose_name = "measured result"
        constraints = [
            models.CheckConstraint(
                condition=Q(value__gt=0),
                name="result_value_positive",
                violation_error_message="A measured value is more than zero.",
            ),
        ]

    def __str__(self):
        return f"{self.chip}: {self.workload}"

    def clean(self):
        super().clean()
        if self.metric and self.unit:
            try:
                units.check_result(self.metric, self.unit)
            except units.UnitError as error:
                raise ValidationError({"unit": str(error)}) from None


class StalePrice(Price):
    """The staleness queue's prices (see claims.StaleFact); the admin checks the Price permissions."""

    class Meta:
        proxy = True
        verbose_name = "stale chip price"
        verbose_name_plural = "staleness queue: chip prices"
        default_permissions = ()


class StaleResult(Result):
    """The staleness queue's measured results; the admin checks the Result permissions."""

    class Meta:
        proxy = True
        verbose_name = "stale measured result"
        verbose_name_plural = "staleness queue: measured results"
        default_permissions = ()


PriceCitation = citation_table(
    Price, verbose_name="price citation", unique_name="unique_price_citation", prefix="price_citation"
)
ResultCitation = citation_table(
    Result, verbose_name="result citation", unique_name="unique_result_citation", prefix="result_citation"
)


class VersionPrice(models.Model):
    """A price of a published chip, kept with every version: what /chips/ sorts by (the
    lowest on-demand price per chip-hour) and what a chip's price chart reads over time."""

    chip = models.ForeignKey("chips.VersionChip", on_delete=models.CASCADE, related_name="prices")
    price_id = models.PositiveIntegerField(help_text="The working copy's row: one offer over versions.")
    provider = models.CharField(max_length=120)
    offer = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=PriceKind.choices)
    per = models.CharField(max_length=16, choices=PricePer.choices)
    amount = models.DecimalField(max_digits=18, decimal_places=6)
    currency = models.CharField(max_length=3)
    per_chip_hour = models.DecimalField(
        max_digits=18, decimal_places=6, null=True, help_text="Stated, or the instance's over its chips."
    )
    as_of = models.DateField(null=True)
    usable_until = models.DateTimeField(
        null=True, help_text="Until when it is cited and fresh (chips.prices.usable_until); null: not now."
    )

    class Meta:
        indexes = [models.Index(fields=["kind", "currency", "per_chip_hour"], name="version_price_hour")]

    def __str__(self):
        return f"{self.offer} {self.amount} {self.currency}"


for model, citation in ((Price, PriceCitation), (Result, ResultCitation)):
    reversion.register(model, follow=[f"{citation._meta.model_name}_set"])
    reversion.register(citation)
