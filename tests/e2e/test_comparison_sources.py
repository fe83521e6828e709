"""On a comparison's change page, a new source is added in the dialog, not in a second window."""

import pytest
from playwright.sync_api import expect

from claims.models import Source
from comparisons.models import Assessment
from tests import factories as f
from tests.e2e.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_comparison_and_an_assessment_cite_sources_added_in_the_dialog(open_page):
    tpu, trainium = f.make_vendor(name="Google TPU"), f.make_vendor(name="AWS Trainium")
    comparison = f.make_comparison(title="TPU vs Trainium", vendors=[tpu, trainium])
    f.make_assessment(criterion=f.make_criterion(comparison=comparison, name="Memory"), vendor=trainium)
    page, watcher = sign_in(open_page, username="comparing-editor")
    page.goto(f"/admin/comparisons/comparison/{comparison.pk}/change/")
    dialog = page.locator("#source-dialog")

    for field, title, url in [
        ("sources", "Trainium3 launch", "https://aws.amazon.com/ai/machine-learning/trainium/"),
        ("assessments-0-sources", "Trainium3 memory", "https://www.tomshardware.com/trainium3"),
    ]:
        expect(page.locator(f"#id_{field} ~ .add-source-button")).to_be_visible()
        expect(page.locator(f"#id_{field} ~ .related-widget-wrapper-link.add-related:visible")).to_have_count(
            0
        )
        page.locator(f"#id_{field} ~ .add-source-button").click()
        dialog.get_by_label("URL").fill(url)
        dialog.get_by_label("Title").fill(title)
        dialog.get_by_role("button", name="Add source").click()
        expect(dialog).not_to_be_visible()
        expect(page.locator(f"#id_{field} + .select2-container .select2-selection__choice")).to_contain_text(
            title
        )
    page.get_by_role("button", name="Save and continue editing").click()

    expect(page.locator(".messagelist .success")).to_be_visible()
    assert [s.title for s in comparison.sources.all()] == ["Trainium3 launch"]
    assert [s.title for s in Assessment.objects.get().sources.all()] == ["Trainium3 memory"]
    assert Source.objects.count() == 2
    assert watcher.console_errors == []
