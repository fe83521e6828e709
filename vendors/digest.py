"""What each editor's daily digest says of vendors (editorial/notifications.py): the facts,
events, scores, chip specs, availability dates, chip prices and measured results they last
verified that are stale now (every kind of publishing.VERIFIED_KINDS, by the one rule,
VerifiableQuerySet.stale), and the dead sources those cite."""

from django.conf import settings
from django.db.models import Q
from django.urls import reverse

from claims.models import Source, citation_table_of

from .publishing import VERIFIED_KINDS

SHOWN_AT_MOST = 20  # rows named per kind; the queue has the rest


def stale_rows_and_dead_sources(user):
    lines = []
    queue = settings.SITE_URL.rstrip("/") + reverse("admin:vendors_stalefact_changelist")
    for model in VERIFIED_KINDS.values():
        noun = model._meta.verbose_name_plural
        rows = model.objects.filter(verified_by=user).stale().select_related("vendor").order_by("pk")
        count = rows.count()
        if count:
            named = ", ".join(f"{row.vendor}: {row}" for row in rows[:SHOWN_AT_MOST])
            more = f" and {count - SHOWN_AT_MOST} more" if count > SHOWN_AT_MOST else ""
            lines.append(f"- {count} of the {noun} you verified are stale: {named}{more}.")
    cited = Q()
    for model in VERIFIED_KINDS.values():
        # ``cited`` is each citation table's own, which the abstract Citation does not declare.
        citations = citation_table_of(model).objects.filter(cited__verified_by=user)  # type: ignore[misc]
        cited |= Q(pk__in=citations.values("source"))
    dead = Source.objects.filter(cited, problem_on__isnull=False)
    for source in dead.order_by("pk")[:SHOWN_AT_MOST]:
        lines.append(f"- A source you cite is failing ({source.problem}): {source.title} <{source.url}>")
    if lines:
        lines.insert(0, "Your stale rows and dead sources:")
        lines.append(f"The staleness queue: {queue}")
    return ["\n".join(lines)] if lines else []
