"""One way to write a quantity (chips/quantities.py) and sources that disagree (chips/stated.py):
a figure as its source wrote it, conversions rounded to its digits and never float noise, the
qualifier shown, and a spec whose sources state other figures flagged until a note settles it."""

import re
from decimal import Decimal

import pytest

from chips import quantities, stated
from chips.models import Spec, SpecCitation
from chips.selectors import difference_text
from chips.services import recompute_sources_differ
from claims.models import Wording
from tests import factories as f

NOISE = ("154.61882265600002", "206.15843020800003", "154.618822656", "206.158430208", ".000000")


@pytest.mark.parametrize(
    ("kind", "quantity", "unit", "qualifier", "as_given", "converted"),
    [
        ("memory", "144", "GiB", "", "144 GiB", "155 GB"),
        ("memory", "192", "GiB", "", "192 GiB", "206 GB"),
        ("memory", Decimal("288.000000"), "GB", "", "288 GB", ""),
        ("bandwidth", "4.9", "TB/s", "", "4.9 TB/s", ""),
        ("compute", "2517", "TFLOPS", "", "2,517 TFLOPS", "2.517 PFLOPS"),  # a power of ten: exact
        ("compute", "10", "PFLOPS", "over", "over 10 PFLOPS", ""),
        ("bandwidth", "7", "TB/s", "about", "about 7 TB/s", ""),
        ("cluster", "9216", "chips", "up_to", "up to 9,216 chips", ""),
        ("power", "1.4", "kW", "at_least", "at least 1.4 kW", "1,400 W"),
    ],
)
def test_a_figure_reads_as_given_with_its_qualifier_and_converts_to_its_own_digits(
    kind, quantity, unit, qualifier, as_given, converted
):
    figure = quantities.Quantity(kind, quantities.text(quantity, grouped=False), unit, qualifier)
    assert (figure.as_given(), figure.converted()) == (as_given, converted)


def test_a_converted_value_is_a_json_number_without_binary_noise():
    values = [quantities.convert(q, "GiB", "GB") for q in ("144", "192", "7.5")]
    assert [quantities.number(value) for value in values] == [155, 206, 8.1]
    assert quantities.number(quantities.convert("2517", "TFLOPS", "PFLOPS")) == 2.517
    assert quantities.text(Decimal("9216"), grouped=False) == "9216"


@pytest.mark.parametrize(
    ("words", "kind", "read"),
    [
        ("Each Trainium3 has 144 GB of HBM3e", "memory", [("144", "GB")]),
        ("144 GiB of HBM3e with 4.9 TB/sec of bandwidth", "bandwidth", [("4.9", "TB/s")]),
        ("2,517 TFLOPS of MXFP8", "compute", [("2517", "TFLOPS")]),
        ("MI355X delivers 10 petaFLOPS", "compute", [("10", "PFLOPS")]),
        ("up to 9,216 chips in one pod", "cluster", [("9216", "chips")]),
        ("a 3-nm process and 2.52 PFLOPs of FP8", "process", [("3", "nm")]),
        ("9.6 Tb/s of interconnect per chip", "bandwidth", []),  # bits: no figure of bytes
        # A number word multiplies its figure, written to its own digits: 1 million to the million.
        ("clusters of up to 1 million Trainium3 chips", "cluster", [("1E+6", "chips")]),
        ("1.5 million chips", "cluster", [("1.5E+6", "chips")]),
    ],
)
def test_a_quote_is_read_for_the_figures_of_its_specs_kind(words, kind, read):
    assert [(said.quantity, said.unit) for said in stated.read(words, kind)] == read


def test_a_stated_figure_agrees_only_within_the_rounding_of_the_figures_as_written():
    assert not stated.agrees(stated.Stated("144", "GB"), "144", "GiB")  # 154.6 GB is not 144 GB
    assert stated.agrees(stated.Stated("155", "GB"), "144", "GiB")
    assert stated.agrees(stated.Stated("2.52", "PFLOPS"), "2517", "TFLOPS")
    assert not stated.agrees(stated.Stated("74", "PFLOPS"), "80.5", "PFLOPS")


@pytest.fixture
def trainium(db):
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    neuron = f.make_source(title="AWS Neuron docs", url="https://aws.example/neuron")
    press = f.make_source(title="Tom's Hardware", url="https://press.example/trn3")
    spec = f.make_spec(
        vendor=vendor,
        chip="Trainium3",
        quantity="144",
        unit="GiB",
        vendor_stated=True,
        sources=[neuron, press],
    )
    SpecCitation.objects.filter(cited=spec, source=neuron).update(quote="144 GiB of HBM3e memory")
    SpecCitation.objects.filter(cited=spec, source=press).update(quote="each chip has 144 GB of HBM3e")
    recompute_sources_differ(specs=[spec])
    f.publish(vendor)
    return vendor


def test_sources_stating_144_gib_and_144_gb_are_shown_until_a_note_settles_them(
    client, admin_client, trainium
):
    spec = Spec.objects.prefetch_related("speccitation_set__source").get()
    assert spec.sources_differ
    assert difference_text(spec) == (
        "Trainium3 memory capacity: 144 GiB (AWS Neuron docs) vs 144 GB (Tom's Hardware)"
    )
    queue = admin_client.get("/admin/chips/stalespec/?sources_differ=yes").content.decode()
    assert "144 GiB (AWS Neuron docs) vs 144 GB (Tom&#x27;s Hardware)" in queue

    page = re.sub(r"\s+", " ", client.get("/vendors/aws-trainium/").content.decode())
    assert (
        '<span class="sources-differ-label">Sources differ:</span> '
        "144 GiB (AWS Neuron docs) vs 144 GB (Tom&#x27;s Hardware)" in page
    )
    (api_spec,) = client.get("/api/v1/chips/trainium3/").json()["specs"]
    assert api_spec["sources_differ"] is True
    said = {source["title"]: source["stated"] for source in api_spec["sources"]}
    assert said == {
        "AWS Neuron docs": {"value": 144, "unit": "GiB"},
        "Tom's Hardware": {"value": 144, "unit": "GB"},
    }

    note = "AWS states GiB; press reports round to GB"

    def settle(rows):
        rows["specs"][0]["difference_note"] = note

    assert f.admin_post_vendor_page(admin_client, trainium, edit=settle).status_code == 302
    f.publish(trainium)
    page = re.sub(r"\s+", " ", client.get("/vendors/aws-trainium/").content.decode())
    assert f"Sources differ: {note}" in page and " vs 144 GB" not in page
    (api_spec,) = client.get("/api/v1/chips/trainium3/").json()["specs"]
    assert (api_spec["sources_differ"], api_spec["difference_note"]) == (False, note)
    assert (
        "144 GB (Tom" not in admin_client.get("/admin/chips/stalespec/?sources_differ=yes").content.decode()
    )


def test_sources_stating_the_same_figure_are_named_together_beside_it(client, trainium):
    spec = Spec.objects.get()
    blog = f.make_source(title="A blog", url="https://blog.example/trn3")
    spec.sources.add(blog)
    SpecCitation.objects.filter(cited=spec, source=blog).update(quote="Trainium3: 144 GB HBM3e")
    recompute_sources_differ(specs=[spec])
    f.publish(trainium)
    page = re.sub(r"\s+", " ", client.get("/vendors/aws-trainium/").content.decode())
    assert "differ:</span> 144 GiB (AWS Neuron docs) vs 144 GB (Tom&#x27;s Hardware, A blog)" in page


def test_our_summary_of_a_source_states_nothing_for_it(client, trainium):
    """Only a quote is the source's words: a summary saying “144 GB” puts no figure on the press."""
    spec = Spec.objects.get()
    SpecCitation.objects.filter(cited=spec, source__title="Tom's Hardware").update(wording=Wording.SUMMARY)
    recompute_sources_differ(specs=[spec])
    spec.refresh_from_db()
    assert not spec.sources_differ
    f.publish(trainium)
    (api_spec,) = client.get("/api/v1/chips/trainium3/").json()["specs"]
    said = {source["title"]: source["stated"] for source in api_spec["sources"]}
    assert said == {"AWS Neuron docs": {"value": 144, "unit": "GiB"}, "Tom's Hardware": None}
    assert "Sources differ" not in client.get("/vendors/aws-trainium/").content.decode()


def test_a_note_settling_sources_is_not_shown_once_they_no_longer_differ(client, admin_client, trainium):
    note = "AWS states GiB; press reports round to GB"

    def settle(rows):
        rows["specs"][0]["difference_note"] = note

    assert f.admin_post_vendor_page(admin_client, trainium, edit=settle).status_code == 302
    spec = Spec.objects.get()
    SpecCitation.objects.filter(cited=spec, source__title="Tom's Hardware").delete()
    f.publish(trainium)
    page = client.get("/vendors/aws-trainium/").content.decode()
    # Not beside the spec; the change log may say the note was written, as it says any change.
    assert note not in page.split('class="change-log"')[0]


def test_no_surface_writes_binary_float_noise(client, db):
    for name, chip, memory in (("AWS Trainium", "Trainium3", "144"), ("Google TPU", "TPU7x", "192")):
        vendor = f.make_vendor(name=name, published=False)
        f.make_spec(vendor=vendor, chip=chip, quantity=memory, unit="GiB", sources=[f.make_source()])
        f.publish(vendor)
    surfaces = ["/data/chips.csv", "/data/chips.json", "/api/v1/chips/trainium3/", "/api/v1/chips/"]
    surfaces += ["/chips/", "/chips/compare/?chips=trainium3,tpu7x"]
    for url in surfaces:
        body = client.get(url).content.decode()
        assert not [noise for noise in NOISE if noise in body], url
        assert "155" in body and "206" in body or url == "/api/v1/chips/trainium3/", url


def test_a_quote_typed_in_the_admin_that_states_another_figure_flags_its_spec(admin_client, db):
    vendor = f.make_vendor(name="AWS Trainium")
    spec = f.make_spec(vendor=vendor, chip="Trainium3", quantity="144", unit="GiB", sources=[f.make_source()])
    assert not spec.sources_differ

    def quote_press(rows):
        rows["specs"][0]["evidence-quote"] = ["each chip has 144 GB of HBM3e"]

    assert f.admin_post_vendor_page(admin_client, vendor, edit=quote_press).status_code == 302
    spec.refresh_from_db()
    assert spec.sources_differ
