"""Site-wide text editors change without a deploy."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from claims.markdown import links_somewhere
from infra.fixed import FixedRead

CALLOUT_NEEDS_A_LINK = (
    "The explainer callout names a page, so it must link to it: write the name as a Markdown "
    "link, e.g. [TPU vs GPU](https://example.com/tpu-vs-gpu), or leave the callout empty."
)


class SiteSettings(models.Model):
    """Site-wide text editors change without a deploy: one row, edited in the admin."""

    rankings_intro = models.TextField(
        blank=True, help_text="Markdown. The paragraph above the rankings table on the home page."
    )
    callout_text = models.TextField(
        "explainer callout",
        blank=True,
        help_text="Markdown. The short promoted link on every profile, e.g. “New to custom AI silicon? ...”.",
    )
    cta_heading = models.CharField(
        "call to action heading", max_length=200, blank=True, help_text="Shown at the foot of profiles."
    )
    cta_text = models.CharField("call to action text", max_length=300, blank=True)
    cta_link_label = models.CharField(
        "call to action button",
        max_length=100,
        default="See the rankings",
        help_text="Links to the rankings.",
    )

    class Meta:
        verbose_name = "site settings"
        verbose_name_plural = "site settings"
        constraints = [models.CheckConstraint(condition=Q(pk=1), name="site_settings_single_row")]

    def __str__(self):
        return "Site settings"

    def save(self, *args, **kwargs):
        self.pk = 1
        super().save(*args, **kwargs)

    @property
    def shown_callout(self) -> str:
        """The callout readers see: only one that links to what it names (a promoted page
        with no way to reach it is not shown, whatever the row holds)."""
        return self.callout_text if self.callout_text and links_somewhere(self.callout_text) else ""

    def clean(self):
        super().clean()
        if self.callout_text and not links_somewhere(self.callout_text):
            raise ValidationError({"callout_text": CALLOUT_NEEDS_A_LINK})

    @classmethod
    def load(cls):
        """The saved row, or the defaults while nobody has saved one: reading never writes."""
        return next(iter(_SAVED()), None) or cls(pk=1)


_SAVED = FixedRead(lambda: SiteSettings.objects.filter(pk=1).order_by()[:1])  # the one row, if saved
