"""schemathesis against the API's own OpenAPI document, in-process through the WSGI app: every
operation, every answer inside the schema (status code, content type, body), never a 500.

The examples are derandomized and few, so the run is the same every time and takes seconds.
"""

import datetime as dt

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings

from tests import factories as f
from tests.factories import make_axis, make_comparison, make_lane, make_source, make_vendor, publish


@pytest.fixture
def api_schema(db, settings):
    settings.API_RATE_LIMIT = 1_000_000  # the generated requests all come from one address
    lanes = [make_lane(slug="hyperscaler"), make_lane(slug="inference")]
    axes = [make_axis(slug="performance"), make_axis(slug="software")]
    vendors = f.make_published_vendors(5, lanes=lanes, axes=axes)
    vendor = make_vendor(name="Cited chip", slug="cited-chip", lane=lanes[0])
    source = make_source(title="A datasheet")
    f.make_fact(vendor=vendor, value="144 GB", vendor_stated=True, sources=[source])
    f.make_event(vendor=vendor, date=dt.date(2025, 12, 1), sources=[source])
    f.make_score(vendor=vendor, axis=axes[0], value=4, reason="Fast.", sources=[source])
    f.make_faq(vendor=vendor, sources=[source])
    f.make_spec(vendor=vendor, chip="Cited1", kind="memory", quantity="144", unit="GiB", sources=[source])
    f.make_price(
        vendor=vendor, chip="Cited1", per="instance-hour", chips_per_unit=8, verified_on=dt.date.today(),
        sources=[source],
    )  # fmt: skip
    f.make_result(vendor=vendor, chip="Cited1", verified_on=dt.date.today(), sources=[source])
    publish(vendor, note="Facts added.")
    comparison = make_comparison(title="Two chips", slug="two-chips", vendors=[vendor, vendors[0]])
    criterion = f.make_criterion(comparison=comparison, name="Price")
    f.make_assessment(criterion=criterion, vendor=vendor, value="Cheap", mark=4, sources=[source])
    publish(comparison)
    # As Django's test client does: a request must not close the test's connection (and with
    # it the transaction holding this data), which PostgreSQL would otherwise do.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


# One test that walks the operations the document lists, rather than schemathesis's pytest
# plugin: its lazy (fixture-loaded) schemas need a pytest internal that pytest 9 no longer has.
def test_every_operation_answers_inside_its_schema(api_schema):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 9  # never a pass that tested nothing

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=10,
            derandomize=True,
            deadline=None,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def answers_inside_the_schema(case):
            # The WSGI client does not decompress: ask for the plain bytes.
            case.call_and_validate(headers={"Accept-Encoding": "identity"})

        answers_inside_the_schema()
