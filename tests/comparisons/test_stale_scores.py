"""A comparison marks a score that is stale (never verified, too old, or citing a failed source)
as it marks a stale fact, on the live page, a published version and a generated comparison,
the same answer as the API's ``stale`` for that score."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.utils import timezone

from tests.factories import make_comparison
from tests.vendors.test_never_verified import days_ago, world  # noqa: F401  # the fixture: AWS, TPU, Old

pytestmark = pytest.mark.django_db


def score_cells(html):
    """Each score row's cells, by vendor: {(axis, vendor): cell HTML}; the total row apart."""
    cells = {}
    for kind, label, row in re.findall(
        r'<tr class="row-(score|total)">\s*<th scope="row">([^<]*)</th>(.*?)</tr>', html, re.S
    ):
        for vendor, cell in re.findall(r'<td data-vendor="([^"]*)"[^>]*>(.*?)</td>', row, re.S):
            cells[(label if kind == "score" else "Total", vendor)] = cell
    return cells


@pytest.mark.parametrize(
    "url", ["/compare/aws-vs-tpu/", "/compare/aws-vs-tpu/v/1/", "/compare/vendors/aws/tpu/"]
)
def test_each_score_is_marked_as_the_api_says_it_is_stale(client, world, url):  # noqa: F811
    make_comparison(vendors=[world["AWS"], world["TPU"]], slug="aws-vs-tpu")  # published: version 1
    cells = score_cells(client.get(url).content.decode())

    checked = 0
    for name in ("AWS", "TPU"):
        for score in client.get(f"/api/v1/vendors/{name.lower()}/").json()["scores"]:
            assert ('class="stale"' in cells[(score["axis"]["name"], name)]) is score["stale"]
            checked += 1
        assert 'class="stale"' not in cells[("Total", name)]
    assert checked == 4
    assert 'title="Never verified">not recently verified</span>' in cells[("Performance", "AWS")]


def test_a_stored_comparison_is_rendered_again_when_a_compared_fact_turns_stale(
    stored_pages,
    world,  # noqa: F811
    client,
):
    from infra.models import StoredPage
    from infra.stored import render_expired

    make_comparison(vendors=[world["AWS"], world["TPU"]], slug="aws-vs-tpu")
    render_expired.call()  # the worker's sweep stores every page
    # The facts, verified 10 days ago, turn stale first (AWS's events, not compared, later).
    turns = dt.datetime.combine(
        days_ago(10) + dt.timedelta(days=settings.FRESHNESS_DAYS + 1),
        dt.time.min,
        tzinfo=timezone.get_current_timezone(),
    )
    page = StoredPage.objects.get(path="/compare/aws-vs-tpu/")
    assert page.until == turns
    # and again when either profile changes
    shows = set(page.keys.values_list("key", flat=True))
    assert {f"vendor-{world['AWS'].pk}", f"vendor-{world['TPU'].pk}"} <= shows
