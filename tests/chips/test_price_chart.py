"""A chip's price chart's arithmetic (chips/price_chart.py): where each price goes, the axes'
ticks and labels, without a database or a template."""

import datetime as dt
from decimal import Decimal

from chips.market_documents import money
from chips.price_chart import PricePoint, price_chart


def dollars(amount):
    return money(amount, "USD")


def point(amount, day, series="AWS, p5 (on demand)", dated=True):
    return PricePoint(series=series, amount=Decimal(amount), day=day, dated_by_source=dated)


def test_no_price_is_no_chart():
    assert price_chart([], money=dollars) is None


def test_a_cheaper_later_price_is_lower_and_further_right_on_one_line():
    chart = price_chart(
        [point("2.50", dt.date(2026, 1, 1)), point("1.50", dt.date(2026, 6, 1))], money=dollars
    )
    old, new = chart.points
    assert float(new.x) > float(old.x) and float(new.y) > float(old.y)  # y grows downwards in SVG
    (series,) = chart.series
    assert series.path == f"{old.x},{old.y} {new.x},{new.y}"


def test_the_price_axis_starts_at_zero_and_reaches_past_the_highest_price():
    chart = price_chart(
        [point("2.50", dt.date(2026, 1, 1)), point("7.10", dt.date(2026, 2, 1))], money=dollars
    )
    labels = [tick.label for tick in chart.y_ticks]
    assert labels[0] == "$0" and labels[-1] == "$8"  # 0, 2, 4, 6, 8: steps of 2 cover 7.10 in four
    assert float(chart.y_ticks[0].at) == chart.bottom and float(chart.y_ticks[-1].at) == chart.top


def test_every_point_lies_inside_the_plot():
    days = [dt.date(2024, 3, 15), dt.date(2025, 7, 2), dt.date(2026, 11, 30)]
    chart = price_chart([point(str(n + 1), day) for n, day in enumerate(days)], money=dollars)
    for placed in chart.points:
        assert chart.left <= float(placed.x) <= chart.right
        assert chart.top <= float(placed.y) <= chart.bottom


def test_months_apart_read_as_months_and_years_apart_as_years():
    months = price_chart([point("1", dt.date(2026, 1, 5)), point("2", dt.date(2026, 5, 20))], money=dollars)
    assert months.x_ticks[0].label == "Jan 2026"
    years = price_chart([point("1", dt.date(2022, 1, 5)), point("2", dt.date(2026, 5, 20))], money=dollars)
    assert [tick.label for tick in years.x_ticks] == ["2022", "2024", "2026"]


def test_a_date_label_at_the_right_edge_ends_there_so_it_stays_inside_the_drawing():
    chart = price_chart([point("1", dt.date(2026, 1, 1)), point("2", dt.date(2026, 2, 27))], money=dollars)
    last = chart.x_ticks[-1]
    assert float(last.at) == chart.right and last.anchor == "end"


def test_a_price_dated_by_its_publish_is_hollow_and_each_offer_has_its_own_series():
    chart = price_chart(
        [
            point("2", dt.date(2026, 1, 1)),
            point("3", dt.date(2026, 2, 1), series="Azure, ND (spot)", dated=False),
        ],
        money=dollars,
    )
    assert chart.has_hollow
    assert [series.series_class for series in chart.series] == ["series-0", "series-1"]
    assert [series.path for series in chart.series] == ["", ""]  # one point each: no line


def test_two_offers_at_one_price_on_one_day_sit_side_by_side_in_shapes_of_their_own():
    day = dt.date(2026, 5, 18)
    chart = price_chart([point("6", day, series="Azure"), point("6", day, series="Oracle")], money=dollars)
    azure, oracle = chart.points
    assert azure.y == oracle.y and float(oracle.x) - float(azure.x) == 8  # a marker's width apart
    assert "a" in azure.marker and "H" in oracle.marker  # a circle's arcs, a square's sides
