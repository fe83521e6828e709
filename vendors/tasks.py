"""Vendors' background tasks (django.tasks), run by `manage.py run_worker`; vendors/apps.py puts
them on the periodic schedule (infra/periodic.py)."""

from django.tasks import task

from claims.source_checks import check_sources, sources_to_check, summarise


@task
def check_all_sources():
    """What `manage.py check_sources` does without options: fetch every source, least recently
    checked first, record what came back and put what cites a failing source into the staleness
    queue. Returns the run's numbers (checked, answered, failed, new_problems)."""
    return summarise(check_sources(sources=sources_to_check()))
