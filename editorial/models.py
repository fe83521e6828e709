"""What every published item shares: a status, a publish time, and when it was made and changed."""

from django.db import models
from django.utils import timezone


class PublishableQuerySet(models.QuerySet):
    def published(self, *, at=None):
        """What visitors may see: published, and its publish time has come."""
        at = at or timezone.now()
        return self.filter(status=Publishable.Status.PUBLISHED, published_at__lte=at)


class Publishable(models.Model):
    """Draft, published, or scheduled (published with a publish time still to come)."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(
        "publish time",
        null=True,
        blank=True,
        help_text="Visitors see the page from this time on. Filled with now when left empty on publishing.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = PublishableQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def is_public(self):
        return (
            self.status == self.Status.PUBLISHED
            and self.published_at is not None
            and self.published_at <= timezone.now()
        )
