"""“My work” on the admin's home at desktop width: the “Returned to me” table leaves its item
column room to read the item's name, however long the publisher's comment beside it."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from editorial import services
from tests import factories as f
from tests.e2e.conftest import sign_in
from vendors.models import Vendor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = {"viewport": {"width": 1280, "height": 900}}
COMMENT = (
    "Cite the Trn3 spec sheet for the 288 GB of HBM3e, and say which instance types carry it: the "
    "re:Invent launch post gives the memory per chip, the pricing page the instances, and the "
    "Neuron release notes say which versions of PyTorch and JAX it runs today."
)


def test_returned_to_me_shows_the_item_column_at_least_8em_wide_at_1280(open_page):
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    editor, watch = sign_in(open_page, username="alice", group="Editor", **WIDE)
    Vendor.objects.filter(pk=vendor.pk).update(summary="Edited in the working copy.")
    services.refresh_state(obj=vendor)
    alice = get_user_model().objects.get(username="alice")
    services.submit_for_review(obj=vendor, user=alice)
    services.request_changes(obj=vendor, user=f.make_staff_user(group="Publisher"), comment=COMMENT)

    editor.goto("/admin/")
    returned = editor.locator(".my-work table").filter(has_text="Returned to me (1)")
    expect(returned).to_contain_text(COMMENT)
    item = returned.get_by_role("rowheader").filter(has_text="AWS Trainium")
    em = editor.evaluate("parseFloat(getComputedStyle(document.querySelector('.my-work th')).fontSize)")
    width = item.bounding_box()["width"]
    assert width >= 8 * em, f"the item column is {width:.0f} px, under 8em ({8 * em:.0f} px)"
    link = item.get_by_role("link", name="AWS Trainium")
    assert link.bounding_box()["height"] < 2.5 * em  # the name reads on one line or two, not a letter a line
    watch.assert_clean()
