"""Counting a public page's queries, as the query-count tests pin them."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from infra.models import KeptRow


def asked(client, url, *, rows_kept=True):
    """(queries, response) of asking ``url``: by default once the rows it lists were rendered and
    kept (infra/rows/), as every request after the first finds them; else with none kept."""
    if rows_kept:
        client.get(url)
    else:
        KeptRow.objects.all().delete()
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context), response
