"""``{% waiting_for_review as waiting %}``: the review queue on the admin index.

Items an Editor submitted that still differ from what visitors see, oldest request first,
for each kind of item the user may publish. One query per kind of item.
"""

from django import template
from django.urls import reverse

from editorial.registry import publications
from editorial.services import State, with_state

register = template.Library()
SHOWN = 50


@register.simple_tag(takes_context=True)
def waiting_for_review(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None:
        return []
    waiting = []
    for publication in publications():
        opts = publication.model._meta
        if not user.has_perm(f"{opts.app_label}.publish_{opts.model_name}"):
            continue
        items = (
            with_state(publication.model.objects.all())
            .filter(state=State.REVIEW)  # the one state rule: the list's filter says the same
            .select_related("review_requested_by")
            .order_by("review_requested_at")[:SHOWN]
        )
        for item in items:
            waiting.append(
                {
                    "item": item,
                    "noun": opts.verbose_name,
                    "by": item.review_requested_by,
                    "at": item.review_requested_at,
                    "url": reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[item.pk]),
                }
            )
    return sorted(waiting, key=lambda entry: entry["at"])
