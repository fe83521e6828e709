"""Odd query strings on every public address, as a visitor, a crawler or a fuzzer sends them:
NUL, very long, negative, huge, non-numeric, repeated and Unicode values (surrogates too)
answer 400 saying what was wrong, or a page that ignores the value, never a 500."""

from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chips import selectors as chip_selectors
from comparisons.models import ComparisonVersion
from vendors.demo import load_demo
from vendors.models import Lane, VendorVersion
from vendors.selectors import active_axes

pytestmark = pytest.mark.django_db

# The same examples on every run (CI must not pass or fail by chance), no example database
# written beside the code.
FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Addresses that are not the public site's: the admin and its second factor.
NOT_PUBLIC = ("admin/",)

# Already percent-encoded, as a hand-made address carries them: NUL, a lone surrogate
# (%ED%A0%80, not UTF-8 at all), bytes that are no UTF-8, an overlong NUL, a half escape.
RAW_VALUES = ["%00", "a%00b", "%ED%A0%80", "%FF%FE", "%C0%80", "%", "%2", "%%00"]
ODD_VALUES = [
    "", " ", "-1", "0", "-0", "1e309", "-1e309", "nan", "inf", "1.5", "0x10", "١٢", "99999999999999999999",
    "9" * 400, "a" * 5000, "abc", "'", '"', "<b>", "[]", "a,b", ",,,", "\u202eevil", "👩‍💻", "\ufeff",
    "ｓｏｒｔ",
]  # fmt: skip


@pytest.fixture
def site():
    """The demo site, and a client that answers a 500 rather than raising it."""
    load_demo()
    return Client(raise_request_exception=False)


def public_routes():
    """Every public URL pattern's route, the prefixes of the includes joined (``vendors/<slug:slug>/``)."""

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(NOT_PUBLIC):
                continue
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                yield route

    return set(walk(get_resolver().url_patterns, ""))


def addresses():
    """Each public address with real slugs from the demo, and the parameters its view reads."""
    lane = Lane.objects.order_by("slug")[0]
    vendor, other = VendorVersion.objects.live().order_by("slug")[:2]
    comparison = ComparisonVersion.objects.live().order_by("slug")[0]
    chips = [chip.slug for chip in chip_selectors.live_chips()[:2]]
    axes = [axis.slug for axis in active_axes()]
    page = ["page"]
    vendor_filters = ["q", "lane", "min_total", "sort", *(f"min_{axis}" for axis in axes)]
    editorial = ["live", "frame"]
    profile = {"slug": vendor.slug}
    version = {**profile, "number": vendor.number}
    compared = {"slug": comparison.slug}
    urls = {
        reverse("vendors:rankings"): ["sort", *page, *(f"w-{axis}" for axis in axes), "w-nothing"],
        reverse("vendors:list"): [*vendor_filters, *page],
        reverse("vendors:detail", kwargs=profile): editorial,
        reverse("vendors:changes", kwargs=profile): [],
        reverse("vendors:version", kwargs=version): [],
        reverse("vendors:lanes"): [],
        reverse("vendors:lane", kwargs={"slug": lane.slug}): page,
        reverse("chips:list"): [
            "min_memory",
            "min_bandwidth",
            "max_price",
            "max_pflop_hour",
            "precision",
            "stage",
            "sort",
            *page,
        ],  # fmt: skip
        reverse("chips:compare"): ["chips"],
        reverse("chips:trends"): [],
        reverse("chips:trends_csv"): [],
        reverse("chips:fit"): ["params", "bits", "kv_cache", "overhead"],
        reverse("chips:detail", kwargs={"slug": chips[0]}): [],
        reverse("comparisons:list"): ["vendors"],
        reverse("comparisons:generated", kwargs={"slugs": f"{vendor.slug}/{other.slug}"}): [],
        reverse("comparisons:detail", kwargs=compared): editorial,
        reverse("comparisons:version", kwargs={**compared, "number": comparison.number}): [],
        reverse("corrections:vendor", kwargs=profile): ["part", "sent"],
        reverse("corrections:comparison", kwargs=compared): ["part", "sent"],
        reverse("search"): ["q", "kind", *page, "too-long"],
        reverse("robots"): [],
        reverse("favicon"): [],
        reverse("sitemap"): [],
        reverse("sitemap_section", kwargs={"section": "profiles", "page": 1}): ["p"],
        reverse("feed"): [],
        reverse("vendor_feed", kwargs=profile): [],
        reverse("lane_feed", kwargs={"slug": lane.slug}): [],
        reverse("opendata:index"): page,
        reverse("opendata:site"): [],
        reverse("opendata:chips", kwargs={"format": "csv"}): [],
        reverse("opendata:prices", kwargs={"format": "csv"}): [],
        reverse("opendata:results", kwargs={"format": "csv"}): [],
        "/api/v1/": [],
        reverse("api:openapi-json"): [],
        reverse("api:openapi-view"): [],
        reverse("api:vendors"): [*vendor_filters, *page, "per_page"],
        reverse("api:vendor", kwargs=profile): [],
        reverse("api:vendor-versions", kwargs=profile): [],
        reverse("api:chips"): [*page, "per_page"],
        reverse("api:chip", kwargs={"slug": chips[0]}): [],
        reverse("api:lanes"): [],
        reverse("api:axes"): [],
        reverse("api:comparisons"): [],
        reverse("api:comparison", kwargs=compared): [],
        reverse("healthz"): [],
        reverse("readyz"): [],
    }
    downloads: list[tuple[str, dict[str, object]]] = [
        ("vendors:citation", {**version, "format": "bib"}),
        ("comparisons:citation", {**compared, "number": comparison.number, "format": "json"}),
        ("opendata:rankings", {"format": "json"}),
        ("opendata:vendor", {**profile, "format": "csv"}),
        ("opendata:comparison", {**compared, "format": "json"}),
    ]
    for name, kwargs in downloads:
        urls[reverse(name, kwargs=kwargs)] = []
    return urls


def test_every_public_url_pattern_is_fuzzed(site):
    """A new public address joins the fuzzing below, or this says which one did not."""
    fuzzed = {resolve(url).route for url in addresses()}
    media = f"{reverse('media', kwargs={'name': 'x'}).removesuffix('x')}<path:name>".lstrip("/")
    assert public_routes() - fuzzed == {media}  # files, not a view that reads a query


@pytest.mark.parametrize("query", ["chips=%00", "chips=a%00b", "chips=groq&chips=%00", "%00=1"])
def test_a_nul_in_the_chips_to_compare_is_a_400_that_says_so(site, query):
    """Found by the fuzzing below: PostgreSQL refuses NUL in text, so it never reaches a query."""
    response = site.get(reverse("chips:compare"), QUERY_STRING=query)
    assert response.status_code == 400
    assert response.content.decode() == "The address holds a character it cannot use (NUL).\n"


def encoded(text):
    """Percent-encoded as UTF-8, a lone surrogate as the three bytes it would be (%ED%A0%80)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


# Any character, lone surrogates, right-to-left marks and emoji among them.
TEXT = st.text(
    alphabet=st.characters() | st.integers(0xD800, 0xDFFF).map(chr) | st.sampled_from("\u200f\u202e👩‍💻"),
    max_size=30,
)


def values():
    return st.one_of(
        st.sampled_from(RAW_VALUES),
        st.sampled_from(ODD_VALUES).map(encoded),
        st.integers().map(str),
        st.floats().map(str),
        TEXT.map(encoded),
    )


@pytest.fixture
def urls(site):
    return addresses()


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_no_public_address_answers_500_to_an_odd_query_string(site, urls, data):
    url = data.draw(st.sampled_from(sorted(urls)), label="url")
    names = st.sampled_from([*urls[url], "unknown"]) | st.sampled_from(RAW_VALUES) | TEXT.map(encoded)
    pairs = data.draw(st.lists(st.tuples(names, values()), min_size=1, max_size=4), label="pairs")
    query = "&".join(f"{name}={value}" for name, value in pairs)
    response = site.get(url, QUERY_STRING=query)
    assert response.status_code < 500, (url, query, response.status_code)
    if response.status_code == 400:
        assert response.content.strip(), (url, query)  # says what was wrong


LISTS = [
    "/", "/?w-performance=3", "/vendors/", "/lanes/inference-specialist/", "/chips/", "/chips/fit/?params=405"
]  # fmt: skip


@pytest.mark.parametrize("page", ["99999999999999999999", "9" * 400, "1000000001", "0", "-1", "1.5", "abc"])
@pytest.mark.parametrize("address", LISTS)
def test_a_page_number_no_list_has_shows_a_real_page_never_a_500(site, address, page):
    """A list reads a page by its number from the database (infra/rows/pages.py): one past any the
    database could hold, or not a number at all, shows a real page (what fits, whose form checks
    its page, may say it is not one: a 400 that says why), never a 500."""
    joiner = "&" if "?" in address else "?"
    response = site.get(f"{address}{joiner}page={page}")
    expected = (200, 400) if address.startswith("/chips/fit/") else (200,)
    assert response.status_code in expected, (address, page, response.status_code)
    assert response.content.strip()
