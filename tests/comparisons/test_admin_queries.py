"""A comparison's change page in a bounded number of queries, however many rows it holds."""

import pytest

from tests import factories as f
from tests.comparisons.test_admin import change_url, resubmit
from tests.vendors.test_admin_queries import queries

pytestmark = pytest.mark.django_db


def comparison_with(*, vendors, criteria, sources):
    """Every vendor assessed on every criterion, each assessment citing a source; one FAQ per criterion."""
    comparison = f.make_comparison(vendors=[f.make_vendor() for _ in range(vendors)])
    columns = [entry.vendor for entry in comparison.entries.all()]
    for n in range(criteria):
        criterion = f.make_criterion(comparison=comparison, name=f"Criterion {n}")
        for m, vendor in enumerate(columns):
            f.make_assessment(criterion=criterion, vendor=vendor, mark=3, sources=sources[(n + m) % 5 :][:2])
        comparison.faqs.create(question=f"Question {n}?", answer="A.").sources.add(sources[n % 5])
    comparison.sources.set(sources[:2])
    return comparison


@pytest.fixture
def sources():
    return [f.make_source() for _ in range(6)]


def test_a_comparison_of_5_vendors_on_10_criteria_opens_in_as_many_queries_as_2_on_2(admin_client, sources):
    small = comparison_with(vendors=2, criteria=2, sources=sources)
    large = comparison_with(vendors=5, criteria=10, sources=sources)
    queries(admin_client, change_url(small))  # warms the content-type cache
    small_count, _ = queries(admin_client, change_url(small))
    large_count, response = queries(admin_client, change_url(large))
    assert large_count == small_count
    assert large_count <= 32  # 28 when written, 31 once each cited row read its evidence
    assert response.content.decode().count('name="assessments-') >= 50 * 6  # all 50 rows are on the page


def saving_one_edited_assessment(client, comparison):
    def edit(rows):
        rows["assessments"][-1]["value"] = "The last assessment, edited"

    count, response = queries(client, change_url(comparison), resubmit_data(client, comparison, edit))
    assert response.status_code == 302
    assert comparison.assessments.filter(value="The last assessment, edited").count() == 1
    return count


def resubmit_data(client, comparison, edit):
    """What ``resubmit`` would post, without posting it."""
    posted = {}

    class Recorder:
        def get(self, url):
            return client.get(url)

        def post(self, url, data):
            posted.update(data)

    resubmit(Recorder(), comparison, edit)
    return posted


def test_a_large_comparison_saves_in_as_many_queries_as_a_small_one(admin_client, sources):
    small = comparison_with(vendors=2, criteria=2, sources=sources)
    large = comparison_with(vendors=5, criteria=10, sources=sources)
    warm = comparison_with(vendors=2, criteria=1, sources=sources)
    saving_one_edited_assessment(admin_client, warm)  # fills the content-type cache
    small_count = saving_one_edited_assessment(admin_client, small)
    large_count = saving_one_edited_assessment(admin_client, large)
    assert large_count == small_count
    assert large_count <= 80  # 73 when written
