"""“My work” on the admin index.

- ``{% waiting_for_review as waiting %}``: items an Editor submitted that still differ from what
  visitors see, oldest request first, for each kind of item the user may publish. One query per
  kind of item.
- ``{% returned_to_me as returned %}``: items a Publisher sent back to this user, with the
  comment, newest first, until the comment is resolved. Two queries.
- ``{% my_drafts as drafts %}``: items whose latest revision is this user's and that have
  unpublished changes not submitted for review. One query per kind of item.
- ``{% failing_mail as failing %}``: for those who may see the outbox, how many e-mails the mail
  server refused and are being retried, with the outbox's address. One query.
"""

from django import template
from django.contrib.contenttypes.models import ContentType
from django.db.models import CharField, OuterRef, Subquery
from django.db.models.functions import Cast
from django.urls import reverse
from reversion.models import Version

from editorial.models import Comment, Notification
from editorial.registry import publications
from editorial.selectors import State, with_state

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
            with_state(publication.model._default_manager.all())
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


def _change_url(item):
    opts = item._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[item.pk])


@register.simple_tag(takes_context=True)
def returned_to_me(context):
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return []
    comments = (
        Comment.objects.open()
        .filter(kind=Comment.Kind.CHANGES_REQUESTED, addressed_to=user)
        .select_related("author")
        .prefetch_related("item")
        .order_by("-created_at")[:SHOWN]
    )
    return [
        {"item": c.item, "comment": c, "url": f"{_change_url(c.item)}#comment-{c.pk}"}
        for c in comments
        if c.item is not None
    ]


@register.simple_tag(takes_context=True)
def my_drafts(context):
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return []
    drafts = []
    for publication in publications():
        model = publication.model
        opts = model._meta
        if not user.has_perm(f"{opts.app_label}.change_{opts.model_name}"):
            continue
        last_editor = (
            Version.objects.filter(
                content_type=ContentType.objects.get_for_model(model),
                object_id=Cast(OuterRef("pk"), CharField()),
            )
            .order_by("-pk")
            .values("revision__user")[:1]
        )
        items = (
            with_state(model._default_manager.all())
            .annotate(last_editor=Subquery(last_editor))
            .filter(last_editor=user.pk, state__in=[State.DRAFT, State.UNPUBLISHED, State.CHANGES])
            .order_by("-updated_at")[:SHOWN]
        )
        drafts += [{"item": item, "noun": opts.verbose_name, "url": _change_url(item)} for item in items]
    return drafts


@register.simple_tag(takes_context=True)
def failing_mail(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not (user.is_active and user.is_superuser):  # the outbox is theirs only
        return None
    count = Notification.objects.failing().count()
    if not count:
        return None
    return {"count": count, "url": reverse("admin:editorial_notification_changelist") + "?status=failed"}
