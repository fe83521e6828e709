"""Search over the demo site finds what readers type: 30 queries and the hits a reader expects
among the first five of their kind, on SQLite and on PostgreSQL alike.

Recall@5 is the share of expected hits that are among the first five results of their kind
(the results page shows each kind as its own list). Run it on both databases:

    SECRET_KEY=t DEBUG=1 pytest tests/discovery/test_search_recall.py
    SECRET_KEY=t DEBUG=1 DATABASE_URL=postgres://postgres@127.0.0.1:5432/chipsite \
        pytest tests/discovery/test_search_recall.py
"""

import pytest
from django.db import transaction

from discovery.search import search
from vendors.demo import load_demo

TOP = 5
NVIDIA = "Nvidia (data-center GPUs)"

# query: [(kind, title), ...] a reader expects among the first five of that kind.
EXPECTED = {
    "trainium": [("vendor", "AWS Trainium")],
    "trainum": [("vendor", "AWS Trainium")],
    "HBM3": [
        ("fact", "AWS Trainium: Memory"),
        ("fact", "Microsoft Maia: Memory"),
        ("fact", f"{NVIDIA}: Memory"),
        ("fact", "AMD Instinct: Memory"),
    ],
    "inference chip": [("vendor", "Cerebras"), ("vendor", "Groq"), ("vendor", "SambaNova")],
    "nvidia": [("vendor", NVIDIA)],
    "nvdia": [("vendor", NVIDIA)],
    "cerebas": [("vendor", "Cerebras")],
    "groq": [("vendor", "Groq")],
    "samba nova": [("vendor", "SambaNova")],
    "tenstorent": [("vendor", "Tenstorrent")],
    "google tpu": [("vendor", "Google TPU")],
    "maia 200": [("fact", "Microsoft Maia: Current chips")],
    "mi355x": [("fact", "AMD Instinct: Current chips")],
    "wafer scale": [("fact", "Cerebras: Architecture")],
    "sram": [("fact", "Groq: Memory")],
    "neuron sdk": [("fact", "AWS Trainium: Software")],
    "ironwood": [("fact", "Google TPU: Current chips")],
    "blackwell ultra": [("fact", f"{NVIDIA}: Current chips")],
    "rocm": [("fact", "AMD Instinct: Software")],
    "lpu": [("fact", "Groq: Current chips")],
    "risc-v": [("fact", "Tenstorrent: Architecture")],
    "hyperscaler custom silicon": [
        ("vendor", "AWS Trainium"),
        ("vendor", "Google TPU"),
        ("vendor", "Microsoft Maia"),
    ],
    "merchant gpu": [("vendor", NVIDIA), ("vendor", "AMD Instinct")],
    "open hardware": [("vendor", "Tenstorrent")],
    "cerebras vs groq": [("comparison", "Cerebras vs Groq vs SambaNova")],
    "tpu vs trainium": [("comparison", "Google TPU vs AWS Trainium vs Nvidia GPU")],
    "is trainium a good alternative to nvidia": [("faq", "Is AWS Trainium a good alternative to Nvidia?")],
    "project rainier": [("vendor", "AWS Trainium"), ("event", "AWS Trainium, 2026")],
    "hbm4": [("fact", f"{NVIDIA}: Next generation"), ("fact", "AMD Instinct: Scale-up")],
    "ipo": [("event", "Cerebras, Apr 2026")],
}


@pytest.fixture(scope="module")
def demo_site(django_db_setup, django_db_blocker):
    """The demo content, loaded once for this module and rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        load_demo()
        yield
        transaction.set_rollback(True)


@pytest.fixture
def top(demo_site, db):
    def first_five(query):
        return {(group.kind, hit.title) for group in search(query).groups for hit in group.hits[:TOP]}

    return first_five


def test_the_thirty_queries_find_nine_in_ten_expected_hits_in_the_first_five(top):
    assert len(EXPECTED) == 30
    expected = [(query, hit) for query, hits in EXPECTED.items() for hit in hits]
    missed = [(query, hit) for query, hit in expected if hit not in top(query)]

    recall = 1 - len(missed) / len(expected)
    assert recall >= 0.9, f"recall@5 {recall:.2f}; missed {missed}"
    print(f"recall@{TOP} = {recall:.3f} over {len(expected)} expected hits; missed {missed}")


def test_hbm3_finds_the_hbm3e_facts(top):
    assert ("fact", "AWS Trainium: Memory") in top("HBM3")
    assert ("fact", "Microsoft Maia: Memory") in top("HBM3")


def test_inference_chip_finds_the_inference_specialists(top):
    assert {("vendor", "Cerebras"), ("vendor", "Groq"), ("vendor", "SambaNova")} <= top("inference chip")


def test_a_misspelt_trainium_finds_aws_trainium_first(demo_site, db):
    (vendors,) = [group for group in search("trainum").groups if group.kind == "vendor"]
    assert vendors.hits[0].title == "AWS Trainium"
