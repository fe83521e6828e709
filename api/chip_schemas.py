"""What the API answers of a chip, as OpenAPI describes it: the chip's parts of the published
document (chips/documents.py, chips/market_documents.py) with their cited sources drawn out,
and the figures derived from them (chips/prices.py). Each class extends the document's own
model, so a field added to a part is in the API and in OpenAPI with no change here.
"""

import datetime as dt
from collections.abc import Callable
from typing import Any, Self

from ninja import Field, Schema
from pydantic import computed_field

from chips import documents as chip_documents
from chips import market_documents, quantities
from chips.prices import Derived, HourPrice
from claims.documents import Evidence, Source, SupportValue, Verified, WordingValue

from .schemas import VersionRef


class CitedSource(Source):
    """A source a chip's value cites, with what it says for that value."""

    id: int = Field(description="The source's id.")
    quote: str = Field(description="The source's own words for the value; empty when none.")
    support: SupportValue = Field(
        description="Whether the source supports the value fully, only partly, or contradicts it."
    )
    # As a document's evidence says them (claims.documents.Evidence), described once there.
    wording: WordingValue = Field("quote", description=Evidence.model_fields["wording"].description)
    quote_found: bool | None = Field(None, description=Evidence.model_fields["quote_found"].description)
    quote_checked_at: dt.datetime | None = Field(
        None, description=Evidence.model_fields["quote_checked_at"].description
    )


SAID: set[str] = {"quote", "support", "wording", "quote_found", "quote_checked_at"}  # a CitedSource's


class StatedFigure(Schema):
    """The figure a source's words give for a chip spec (chips/stated.py), as written."""

    value: int | float = Field(description="The number as the words write it, e.g. 144.")
    unit: str = Field(description="Its unit as they write it, e.g. “GB”.")


class ChipCitedSource(CitedSource):
    """A source a chip's spec cites, with what it says for it and the figure its words state."""

    stated: StatedFigure | None = Field(
        None, description="The figure of the spec's kind its words state; null when none was read."
    )


class ChipSpec(chip_documents.Spec):
    """One value of a chip: its document's spec, the value in its kind's unit, and its sources."""

    sources: list[ChipCitedSource] = Field(  # type: ignore[assignment]  # the document's ids, drawn out
        description="The sources it cites, each with its quote, support and the figure its words state."
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="What it is, as pages name it: “Compute, FP8, sparse, per system”."
    )
    @property
    def label(self) -> str:
        return chip_documents.Spec.label.fget(self)  # type: ignore[attr-defined]

    @computed_field(  # type: ignore[prop-decorator]
        description="The value in its kind's unit (`value_unit`), for comparing: 144 GiB is 155 GB "
        "(a conversion other than by a power of ten is rounded to the figure's significant digits)."
    )
    @property
    def value(self) -> int | float:  # type: ignore[override]  # the document's Decimal, as a JSON number
        return quantities.number(chip_documents.Spec.value.fget(self))  # type: ignore[attr-defined]

    @computed_field(  # type: ignore[prop-decorator]
        description="The figure as the source gave it, as a number (`quantity` in `unit`): 144."
    )
    @property
    def value_as_given(self) -> int | float:
        return quantities.number(quantities.figure(self.quantity))

    @computed_field(  # type: ignore[prop-decorator]
        description="The kind's unit, which `value` is in (GB, TB/s, MB, PFLOPS, W, nm, chips)."
    )
    @property
    def value_unit(self) -> str:
        return self.display_unit

    @classmethod
    def of(cls, spec: chip_documents.Spec) -> Self:
        said = {
            row.source: {"value": quantities.number(quantities.figure(row.quantity)), "unit": row.unit}
            for row in spec.stated
        }
        return _with_sources_drawn(cls, spec, extra=lambda pk: {"stated": said.get(pk)})


def _with_sources_drawn[T: Verified](
    cls: type[T], row: Verified, extra: Callable[[int], dict[str, Any]] = lambda pk: {}
) -> T:
    """The document's ``row`` as ``cls``, its cited sources drawn out, stale as the document says."""
    shaped = cls.model_validate(
        {
            **row.model_dump(exclude={"sources"}, exclude_computed_fields=True),
            "sources": [
                {
                    **source.model_dump(),
                    "id": source.pk,
                    **row.evidence_from(source.pk).model_dump(include=SAID),
                    **extra(source.pk),
                }
                for source in row.cited
            ],
        }
    )
    shaped._stale = row.is_stale
    return shaped


class ChipAvailability(chip_documents.Availability):
    """A stage the chip reached, with its month and its sources."""

    sources: list[CitedSource] = Field(  # type: ignore[assignment]  # the document's ids, drawn out
        description="The sources it cites, each with its words, their support and their check."
    )

    @computed_field(description="The stage as pages name it: “Generally available”.")  # type: ignore[prop-decorator]
    @property
    def stage_label(self) -> str:
        return chip_documents.STAGES[self.stage]

    @classmethod
    def of(cls, row: chip_documents.Availability) -> Self:
        return _with_sources_drawn(cls, row)


class ChipPrice(market_documents.Price):
    """One offer's price of the chip, as its source gives it, with its sources."""

    sources: list[CitedSource] = Field(  # type: ignore[assignment]  # the document's ids, drawn out
        description="The sources it cites, each with its words, their support and their check."
    )

    @computed_field(description="How it is bought, as pages name it: “On demand”.")  # type: ignore[prop-decorator]
    @property
    def kind_label(self) -> str:
        return market_documents.KIND_TEXT[self.kind]

    @computed_field(  # type: ignore[prop-decorator]
        description="The price as pages write it: “$98.32 per instance-hour” (the amount to its own digits)."
    )
    @property
    def shown(self) -> str:
        return market_documents.Price.shown.fget(self)  # type: ignore[attr-defined]

    @classmethod
    def of(cls, row: market_documents.Price) -> Self:
        return _with_sources_drawn(cls, row)


class ChipResult(market_documents.Result):
    """One measured value of a named benchmark on a named system, with its sources."""

    sources: list[CitedSource] = Field(  # type: ignore[assignment]  # the document's ids, drawn out
        description="The sources it cites, each with its words, their support and their check."
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="The benchmark as pages name it: “MLPerf Inference v5.0, Llama 2 70B, Offline”."
    )
    @property
    def benchmark(self) -> str:
        return market_documents.Result.benchmark.fget(self)  # type: ignore[attr-defined]

    @classmethod
    def of(cls, row: market_documents.Result) -> Self:
        return _with_sources_drawn(cls, row)


class ChipDerived(Schema):
    """A figure derived from the chip's cited, fresh values (chips/prices.py), with its arithmetic.
    Derived only when every input cites a source and is not stale; otherwise absent."""

    key: str = Field(description="Unique on the chip, e.g. “chip-hour-12”, “pflop-hour-34”.")
    label: str = Field(description="What it is, e.g. “Dollars per PFLOP-hour, FP8, dense”.")
    value: str = Field(description="The figure to three significant digits, a plain decimal string: “0.574”.")
    unit: str = Field(description="Its unit, e.g. “USD per PFLOP-hour”.")
    shown: str = Field(description="As pages write it: “$0.574 per PFLOP-hour”.")
    arithmetic: str = Field(description="How it was computed from its inputs, written out.")
    sources: list[int] = Field(
        description="The ids of the sources its inputs cite (as in their `sources`), each once."
    )

    @classmethod
    def of(cls, figure: Derived) -> Self:
        return cls(
            key=figure.key,
            label=figure.label,
            value=quantities.text(figure.value, grouped=False),
            unit=figure.unit,
            shown=figure.shown,
            arithmetic=figure.arithmetic,
            sources=[source.pk for source in figure.sources],
        )


class ChipHourPrice(Schema):
    """The chip's lowest on-demand price per chip-hour in US dollars, from a cited, fresh price."""

    amount: str = Field(
        description="Per chip-hour, a plain decimal string: the source's own amount when it prices a "
        "chip-hour, else an instance's price over its chips, to three significant digits."
    )
    currency: str = Field(description="ISO 4217 code: “USD”.")
    provider: str = Field(description="Who sells it.")
    offer: str = Field(description="The offer as the provider names it.")
    derived: bool = Field(description="Derived from an instance's price (see `derived`), not stated.")
    shown: str = Field(description="As pages write it: “$4.92 per chip-hour”.")

    @classmethod
    def of(cls, lowest: HourPrice | None, derived: list[Derived]) -> Self | None:
        """``lowest`` (``Chip.lowest_on_demand``), its amount the derived figure's when derived."""
        if lowest is None:
            return None
        price = lowest.price
        if lowest.derived:  # the figure every surface shows for it, to its three digits
            figure = next(figure for figure in derived if figure.key == f"chip-hour-{price.id}")
            amount = quantities.text(figure.value, grouped=False)
        else:
            amount = price.amount
        return cls(
            amount=amount,
            currency=price.currency,
            provider=price.provider,
            offer=price.offer,
            derived=lowest.derived,
            shown=lowest.shown,
        )


class ChipVendor(Schema):
    slug: str
    name: str
    url: str = Field(description="The vendor's profile page.")
    api_url: str = Field(description="The vendor in the API.")


class ChipDetail(Schema):
    """A live chip: its name and address, whose it is, and every value of it with its sources."""

    slug: str = Field(description="The chip's address under /api/v1/chips/.")
    name: str = Field(description="e.g. “Trainium3”.")
    vendor: ChipVendor
    url: str = Field(description="The chip on its vendor's profile page.")
    api_url: str = Field(description="This chip in the API.")
    version: VersionRef = Field(description="The vendor's live version the chip is read from.")
    specs: list[ChipSpec] = Field(description="Its values, in the editors' order.")
    availability: list[ChipAvailability] = Field(
        description="Each stage it reached (announced, preview, ga), oldest month first; "
        "empty when none is stated."
    )
    prices: list[ChipPrice] = Field(description="Each offer's price, in the editors' order.")
    results: list[ChipResult] = Field(description="Each measured result, in the editors' order.")
    derived: list[ChipDerived] = Field(
        description="The figures derived from its cited, fresh values (price per chip-hour, per "
        "PFLOP-hour, per watt, results per chip and per dollar), each with its arithmetic."
    )
    lowest_on_demand: ChipHourPrice | None = Field(
        description="Its lowest on-demand price per chip-hour in US dollars, stated or derived; "
        "null when no cited, fresh one is known."
    )


class ChipPage(Schema):
    count: int = Field(description="Live chips, on every page.")
    page: int
    pages: int
    per_page: int
    next: str | None = Field(description="The next page's API address, null on the last page.")
    previous: str | None
    results: list[ChipDetail] = Field(description="By vendor, then in the editors' order.")
