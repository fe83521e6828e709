"""Two editors save the same profile at the same moment. Changes to different facts both land;
changes to the same field land once, and the other editor sees both values. PostgreSQL only."""

import re
import threading

import pytest
from django.db import connection
from django.test import Client

from comparisons.models import Comparison
from editorial.revisions import latest_version_id
from tests import factories as f
from vendors.models import Vendor

change_url, inline_rows, rows_on_page = f.admin_change_url, f.admin_inline_rows, f.admin_rows_on_page


def user_in(group, django_user_model, name):
    user = django_user_model.objects.create_user(name, password="pw", is_staff=True)
    user.groups.add(f.role_group(group))
    return user


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs this on it)"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_saves_of_one_field_keep_exactly_one_and_show_the_other_both(django_user_model):
    vendor = f.make_vendor(summary="Original")
    post_page_client = Client()
    post_page_client.force_login(f.make_superuser())
    f.admin_post_vendor_page(post_page_client, vendor)  # a first revision, as after any admin save

    forms = []
    for name in ("alice", "bob"):
        client = Client()
        client.force_login(user_in("Editor", django_user_model, name))
        rows, initial = rows_on_page(client.get(change_url(vendor)))
        data = f.vendor_admin_post(vendor, summary=f"{name}'s summary")
        for prefix, found in rows.items():
            data.update(inline_rows(prefix, found, initial[prefix]))
        forms.append((client, change_url(vendor), data))
    assert forms[0][2]["opened_revision"] == forms[1][2]["opened_revision"]

    results = save_at_once(forms)

    codes = sorted(response.status_code for response in results)
    assert codes == [200, 302], codes
    loser = next(response for response in results if response.status_code == 200)
    winner = next(response for response in results if response.status_code == 302)
    winner_name = "alice" if results[0] is winner else "bob"
    (error,) = loser.context["adminform"].form.errors["summary"]
    assert error.startswith(f"Saved by {winner_name} at ") and error.endswith("'s summary")
    vendor.refresh_from_db()
    assert vendor.summary == f"{winner_name}'s summary"


def save_at_once(forms):
    """Post each (client, url, data) from a thread of its own, all at the same moment."""
    start = threading.Barrier(len(forms))
    results = [None] * len(forms)

    def save(i):
        client, url, data = forms[i]
        try:
            start.wait()
            results[i] = client.post(url, data)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(i,)) for i in range(len(forms))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_editors_changing_different_facts_at_once_both_land(django_user_model):
    vendor = f.make_vendor(summary="Original")
    memory, pricing = f.make_attribute(name="Memory"), f.make_attribute(name="Pricing")
    f.make_fact(vendor=vendor, attribute=memory, value="96 GB HBM3")
    f.make_fact(vendor=vendor, attribute=pricing, value="On demand")
    admin = Client()
    admin.force_login(f.make_superuser())
    f.admin_post_vendor_page(admin, vendor)  # a first revision, as after any admin save

    forms = []
    for name, row, value in (("alice", 0, "144 GB HBM3e"), ("bob", 1, "Savings plans")):
        client = Client()
        client.force_login(user_in("Editor", django_user_model, name))
        rows, initial = rows_on_page(client.get(change_url(vendor)))
        rows["facts"][row]["value"] = value
        forms.append((client, change_url(vendor), f.vendor_admin_post(vendor, rows=rows, initial=initial)))

    results = save_at_once(forms)

    assert [response.status_code for response in results] == [302, 302]
    values = dict(vendor.facts.values_list("attribute__name", "value"))
    assert values == {"Memory": "144 GB HBM3e", "Pricing": "Savings plans"}


@pytest.mark.django_db
def test_a_comparison_form_opened_before_two_saves_of_the_same_field_shows_both_values(admin_client):
    comparison = f.make_comparison(vendors=[f.make_vendor(), f.make_vendor()], intro="Old intro")
    opened = latest_version_id(comparison)

    def submit(c, **fields):
        rows, initial = rows_on_page(c.get(f.admin_change_url(comparison)))
        data = f.comparison_admin_fields(comparison, **fields)
        for prefix, found in rows.items():
            data.update(inline_rows(prefix, found, initial[prefix]))
        return c.post(f.admin_change_url(comparison), data)

    assert submit(admin_client, intro="First save").status_code == 302
    assert submit(admin_client, intro="Second save").status_code == 302
    stale = submit(admin_client, intro="From a stale page", opened_revision=opened)
    assert stale.status_code == 200
    (error,) = stale.context["adminform"].form.errors["intro"]
    assert re.fullmatch(r"Saved by \w+ at \d\d:\d\d: Second save · Yours: From a stale page", error)
    assert Comparison.objects.get(pk=comparison.pk).intro == "Second save"
    assert Vendor.objects.count() == 2
