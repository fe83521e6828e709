"""SQLite's typo tolerance is pg_trgm's: the port's answers are PostgreSQL's own."""

import pytest
from django.db import connection

from discovery.trigrams import SQLITE_FUNCTION, trigrams, word_similarity

PAIRS = [
    ("trainum", "AWS Trainium"),
    ("trainium", "AWS Trainium: Memory"),
    ("nvdia", "Nvidia (data-center GPUs)"),
    ("nvidea", "Google TPU vs AWS Trainium vs Nvidia GPU"),
    ("cerebas", "Cerebras vs Groq vs SambaNova"),
    ("tenstorent", "Tenstorrent: Where to get it"),
    ("nova", "SambaNova"),
    ("project", "AMD Instinct: Process node"),
    ("memory", "Microsoft Maia: Memory"),
    ("hbm3", "AWS Trainium, Dec 2025"),
    ("Über", "über alles"),
    ("ironwod", "Google TPU, Aug 2025"),
    ("softwre", "What software does AWS Trainium run?"),
    ("x", "AMD Instinct"),
    ("groq", ""),
]


def test_trigrams_are_made_as_pg_trgm_makes_them():
    assert trigrams("AWS-tpu") == ["  a", " aw", "aws", "ws ", "  t", " tp", "tpu", "pu "]


@pytest.mark.parametrize(
    ("query", "text", "likeness"),
    [
        ("trainum", "AWS Trainium", 0.625),
        ("groq", "Groq", 1.0),
        ("groq", "Tenstorrent", 0.0),
        ("", "Groq", 0.0),
    ],
)
def test_a_misspelt_word_is_as_like_a_title_as_postgresql_says(query, text, likeness):
    assert word_similarity(query, text) == pytest.approx(likeness)


@pytest.mark.django_db
def test_sqlite_connections_know_the_function(db):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite port")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {SQLITE_FUNCTION}(%s, %s)", ["trainum", "AWS Trainium"])
        assert cursor.fetchone()[0] == pytest.approx(0.625)


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="compares with PostgreSQL's pg_trgm")
def test_the_port_gives_postgresqls_answer_for_every_pair():
    with connection.cursor() as cursor:
        for query, text in PAIRS:
            cursor.execute("SELECT word_similarity(%s, %s)", [query, text])
            (theirs,) = cursor.fetchone()
            assert word_similarity(query, text) == pytest.approx(theirs, abs=1e-6), (query, text)
