"""One vendor's facts, chips' specs, availability, prices and measured results, events and scores
as a CSV file, out and back in.

The format, one row per value (docs/editors.md, “CSV import and export”)::

    kind,label,value,reason,vendor_stated,verified_on,source_urls,measure,unit,scope,precision,sparse,qualifier,...
    fact,Memory,96 GB HBM,,yes,2026-11-01,https://aws.amazon.com/trainium/,,,,,
    spec,Trainium3,2.52,,yes,2026-11-01,https://example.com/a,compute,PFLOPS,chip,FP8,no
    availability,Trainium3,2025-12,,no,2026-11-01,https://example.com/a,ga,,,,
    price,MI300X,39.33,,no,2026-11-01,https://example.com/a,,,,,,,2026-05,AWS,EC2 p5,on-demand,USD,...
    event,2025-12,Trainium3 announced,,,2026-11-01,https://example.com/a https://example.com/b,,,,,
    score,Performance,4,Fast at scale.,,2026-11-01,,,,,,

- ``label`` is the attribute's name (fact), the chip's name (spec), the event's date as
  ``2024``, ``2024-06`` or ``2024-06-14`` (vendors/event_dates.py), or the axis's name (score).
- A spec's ``value`` is its number as the source gives it; ``measure`` what it measures
  (``memory``, ``bandwidth``, ``compute``..., chips/units.py), ``unit`` its unit, ``scope``
  ``chip`` (the default), ``system`` or ``pod``; ``precision`` and ``sparse`` only for compute.
  ``qualifier`` how the source bounds the figure (empty for exact, ``about``, ``at least``,
  ``over``, ``up to``); ``sparse`` is yes, no or empty (not stated). These last six columns
  are for spec rows only, and a file without them still reads.
- An availability row names its chip in ``label``, the month it reached the stage in ``value``
  (``2025-12``) and the stage in ``measure``: ``announced``, ``preview`` or ``ga``.
- A price or a measured result names its chip in ``label`` and gives its amount or value in
  ``value``; its other fields have columns of their own (columns.PRICE_COLUMNS and
  RESULT_COLUMNS, read by market_rows; a result's metric and unit are ``measure`` and ``unit``).
- ``source_urls``: URLs of existing sources, separated by spaces or ``|``. An unknown URL is
  an error, not a new source: a source readers see needs a title, a publisher and a date
  accessed, which a bare URL does not give, and a typo would otherwise create a junk source.
- A row matches what the profile already has by its kind and label: the first ``Memory``
  row of the file is the profile's first Memory fact, and so on (a score: its axis; an
  event: its date; a spec: its chip, what it measures, counted for what, in which precision;
  an availability row: its chip and stage; a price: its chip, provider, offer, kind and region;
  a result: its chip, benchmark, system and metric).
  What matches is updated, the rest is added; nothing is ever deleted.
- A cell a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``...) is written with a
  leading ``'`` by the site's one CSV writer (infra/tabular.py) and read back without it:
  text stays text both ways, and nothing in a cell is ever evaluated.

``plan_import`` says what a file would change without writing anything;
``vendors.services.import_rows`` writes it, all or nothing, in one transaction. A file with
any error is refused whole: a partial import would leave the file and the profile out of
step, and the editor fixes the file and uploads it again.

The parts: ``columns`` (the columns and the limits), ``reading`` (a file's bytes as rows of
cells), ``rows`` (one row checked and turned into what is written; ``market_rows`` a price's
and a result's), ``planning`` (the plan
the preview shows) and ``exporting`` (a profile as a file).
"""

from .columns import COLUMNS, KINDS, MAX_BYTES, MAX_ROWS, SPEC_COLUMNS
from .exporting import export_csv, export_rows
from .planning import ImportChanged, Plan, plan_import
from .reading import ImportFileError, read_csv
from .rows import PlannedRow

__all__ = [
    "COLUMNS",
    "KINDS",
    "MAX_BYTES",
    "MAX_ROWS",
    "SPEC_COLUMNS",
    "ImportChanged",
    "ImportFileError",
    "Plan",
    "PlannedRow",
    "export_csv",
    "export_rows",
    "plan_import",
    "read_csv",
]
