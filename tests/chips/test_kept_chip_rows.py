"""/chips/'s kept rows (chips/rows.py): a chip's row is rendered once for its published version
and read from then on, until a price it shows turns stale by the calendar."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.utils import timezone

from infra.models import KeptRow
from tests.factories import make_price, make_source, make_spec, make_vendor, publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def groq():
    vendor = make_vendor(name="Groq", published=False)
    source = make_source()
    make_spec(vendor=vendor, chip="LPU", kind="memory", quantity="0.23", unit="GB", sources=[source])
    make_price(vendor=vendor, chip="LPU", sources=[source], verified_on=timezone.localdate())
    publish(vendor)
    return vendor


def row_of(client, url, chip):
    html = client.get(url).content.decode()
    rows = [row for row in re.findall(r"<tr>.*?</tr>", html, re.S) if f">{chip}</a></th>" in row]
    assert len(rows) == 1, rows
    return rows[0]


def test_a_chip_row_is_kept_and_read_from_then_on(client, groq):
    first = row_of(client, "/chips/", "LPU")
    assert "$2.50" in first
    assert KeptRow.objects.filter(kind="chip").count() == 1

    response = client.get("/chips/?sort=name")
    assert "chips/rows/chip.html" not in {template.name for template in response.templates}
    assert row_of(client, "/chips/?sort=name", "LPU") == first


def test_a_kept_chip_row_drops_its_price_once_the_calendar_makes_the_price_stale(client, groq, monkeypatch):
    assert "$2.50" in row_of(client, "/chips/", "LPU")

    later = timezone.now() + dt.timedelta(days=settings.FRESHNESS_DAYS + 2)
    monkeypatch.setattr(timezone, "now", lambda: later)

    row = row_of(client, "/chips/?sort=name", "LPU")
    assert "$2.50" not in row and "no price stated" in row


def test_a_draft_never_reaches_a_kept_chip_row(client, groq):
    client.get("/chips/")
    make_spec(vendor=groq, chip="LPU draft", kind="memory", quantity="1", unit="GB", sources=[make_source()])

    assert "LPU draft" not in client.get("/chips/?sort=name").content.decode()
    assert not KeptRow.objects.filter(kind="chip", html__contains="LPU draft").exists()


def test_another_vendors_publish_leaves_a_chips_kept_row_as_it_was(client, groq):
    cerebras = make_vendor(name="Cerebras", published=False)
    make_spec(vendor=cerebras, chip="WSE-3", kind="memory", quantity="44", unit="GB", sources=[make_source()])
    publish(cerebras)
    client.get("/chips/")
    kept = {row.html: row.stamp for row in KeptRow.objects.filter(kind="chip")}
    lpu_stamp = next(stamp for html, stamp in kept.items() if ">LPU</a>" in html)

    make_spec(
        vendor=cerebras, chip="WSE-3", kind="bandwidth", quantity="21", unit="TB/s", sources=[make_source()]
    )
    publish(cerebras)
    assert "21 TB/s" in row_of(client, "/chips/?sort=name", "WSE-3")

    lpu = next(row for row in KeptRow.objects.filter(kind="chip") if ">LPU</a>" in row.html)
    assert lpu.stamp == lpu_stamp  # not rendered again: it shows nothing of Cerebras
