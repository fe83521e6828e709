"""The newsroom's rules, shared by every editorial ModelAdmin (vendors, comparisons).

- Publishing: draft, published, or scheduled (published with a future publish time).
  A draft carries no publish time; publishing without one means now.
- Roles: only users with the model's ``publish_<model>`` permission may set the status
  or the publish time, or delete something published; only ``revert_<model>`` may revert
  or recover. A forged POST is refused with a 403, not quietly ignored.
- Revisions: every admin save records the whole profile (django-reversion), with an
  optional comment; the history page compares any two revisions field by field.
- No lost updates: the form carries the revision it was opened at; a save made on top
  of someone else's is refused and says what they changed.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.template.defaultfilters import date as format_date
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from reversion.admin import VersionAdmin
from reversion.models import Version

from .diff import describe_changes, version_chain

PUBLISHING_FIELDS = ("status", "published_at")
PUBLISHING_FIELDSET = [
    "status", "published_at", "verified_on", "revision_comment", "opened_revision",
    "created_at", "updated_at",
]  # fmt: skip


def latest_version_id(obj):
    if obj is None or obj.pk is None:
        return 0
    return Version.objects.get_for_object(obj).order_by("-pk").values_list("pk", flat=True).first() or 0


def state_in_words(obj, *, now=None):
    """“Draft”, “Published 31 Oct 2026 00:00” or “Scheduled for 3 Dec 2026 09:00”."""
    now = now or timezone.now()
    if obj.status != obj.Status.PUBLISHED or obj.published_at is None:
        return "Draft"
    when = format_date(timezone.localtime(obj.published_at), "j M Y H:i")
    return f"Scheduled for {when}" if obj.published_at > now else f"Published {when}"


class EditorialForm(forms.ModelForm):
    """For a model with ``status`` and ``published_at``: the publishing rules and the edit guard."""

    opened_revision = forms.IntegerField(widget=forms.HiddenInput, required=False)
    revision_comment = forms.CharField(
        label="Comment on this change",
        required=False,
        max_length=200,
        help_text="Optional. Shown in the history next to this revision.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opened_revision"].initial = latest_version_id(self.instance)

    @property
    def changed_data(self):
        # The comment and the guard are about the save, not the item: keep them out of its log.
        return [name for name in super().changed_data if name not in {"revision_comment", "opened_revision"}]

    def clean(self):
        cleaned = super().clean()
        status = cleaned.get("status", self.instance.status)
        published = self._meta.model.Status.PUBLISHED
        if status == published and not cleaned.get("published_at", self.instance.published_at):
            cleaned["published_at"] = timezone.now()
            self.instance.published_at = cleaned["published_at"]
        elif status != published and "published_at" in self.fields:
            # Unpublishing clears the schedule: nothing stale is left behind.
            cleaned["published_at"] = None
            self.instance.published_at = None
        self._check_nobody_saved_since_opening(cleaned)
        return cleaned

    def _check_nobody_saved_since_opening(self, cleaned):
        if self.instance.pk is None:
            return
        # Lock the row until this save commits (the admin runs it in a transaction), so a
        # second save waits for the first and then sees its revision.
        type(self.instance).objects.select_for_update().filter(pk=self.instance.pk).exists()
        opened = cleaned.get("opened_revision") or 0
        current = latest_version_id(self.instance)
        if opened == current:
            return
        newer = version_chain(self.instance, after=opened)
        who = newer[-1].revision if newer else None
        changes = describe_changes(self.instance, opened or None, current)
        by = f" ({who.user})" if who and who.user else ""
        when = f" at {format_date(timezone.localtime(who.date_created), 'j M Y H:i')}" if who else ""
        raise ValidationError(
            "Someone else%(by)s saved this %(name)s%(when)s after you opened it, so your save was "
            "refused and their change kept. Open the page again to see it, then redo your edit. "
            "What they changed: %(changes)s",
            params={
                "name": self._meta.model._meta.verbose_name,
                "by": by,
                "when": when,
                "changes": "; ".join(changes) or "nothing visible (it was saved again unchanged)",
            },
            code="edit_conflict",
        )


class EditorialAdmin(VersionAdmin):
    """Publishing, roles, revisions and the edit guard for a ModelAdmin whose form is an EditorialForm."""

    history_latest_first = True
    object_history_template = "admin/editorial/object_history.html"

    # Permissions.

    def _codename(self, action):
        return f"{self.opts.app_label}.{action}_{self.opts.model_name}"

    def has_publish_permission(self, request, obj=None):
        return request.user.has_perm(self._codename("publish"))

    def has_revert_permission(self, request, obj=None):
        return request.user.has_perm(self._codename("revert"))

    def has_delete_permission(self, request, obj=None):
        if not super().has_delete_permission(request, obj):
            return False
        if obj is not None and obj.status == obj.Status.PUBLISHED:
            return self.has_publish_permission(request)
        return True

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not self.has_publish_permission(request):
            fields += [name for name in PUBLISHING_FIELDS if name not in fields]
        return fields

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method == "POST" and not self.has_publish_permission(request):
            forged = [key for key in request.POST if key.split("_")[0] in {"status", "published"}]
            if forged:
                raise PermissionDenied("Only a publisher may publish, schedule or unpublish.")
        return super().changeform_view(request, object_id, form_url, extra_context)

    def revision_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST" and not self.has_revert_permission(request):
            raise PermissionDenied("Only a publisher may revert to an earlier revision.")
        return super().revision_view(request, object_id, version_id, extra_context)

    def recover_view(self, request, version_id, extra_context=None):
        if not self.has_revert_permission(request):
            raise PermissionDenied("Only a publisher may recover a deleted item.")
        return super().recover_view(request, version_id, extra_context)

    def recoverlist_view(self, request, extra_context=None):
        if not self.has_revert_permission(request):
            raise PermissionDenied("Only a publisher may recover a deleted item.")
        return super().recoverlist_view(request, extra_context)

    # History: revisions, and what changed between any two.

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/history/compare/",
                self.admin_site.admin_view(self.compare_view),
                name="{}_{}_compare".format(*info),
            ),
            *super().get_urls(),
        ]

    def history_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        revision_url = f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_revision"
        context = {
            "revisions": [
                {"version": version, "url": reverse(revision_url, args=[object_id, version.pk])}
                for version in reversed(version_chain(obj))
            ]
            if obj
            else [],
            "can_revert": self.has_revert_permission(request),
            "compare_url": reverse(
                f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_compare",
                args=[object_id],
            ),
        }
        return super().history_view(request, object_id, {**context, **(extra_context or {})})

    def compare_view(self, request, object_id):
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        versions = {v.pk: v for v in version_chain(obj)}
        try:
            picked = sorted({int(request.GET.get(key, "")) for key in ("a", "b")})
        except ValueError:
            picked = []
        if len(picked) != 2 or not all(pk in versions for pk in picked):
            messages.error(request, "Pick two different revisions of this item to compare.")
            return redirect(
                f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_history", object_id
            )
        older, newer = versions[picked[0]], versions[picked[1]]
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "object": obj,
            "title": f"What changed in {obj}",
            "older": older,
            "newer": newer,
            "changes": describe_changes(obj, older.pk, newer.pk),
            "can_revert": self.has_revert_permission(request),
        }
        return TemplateResponse(request, "admin/editorial/compare.html", context)

    # The list.

    def changelist_view(self, request, extra_context=None):
        """Without django-reversion's surrounding revision block: each action saves its items
        in revisions of their own, so no item's history shows another item's rows."""
        context = {"has_change_permission": self.has_change_permission(request), **(extra_context or {})}
        return admin.ModelAdmin.changelist_view(self, request, context)

    @admin.display(description="state", ordering="published_at")
    def state(self, obj):
        return state_in_words(obj)

    def get_list_display(self, request):
        return [*super().get_list_display(request), "state"]

    # Saving.

    def log_change(self, request, object, message):
        entry = super().log_change(request, object, message)
        self._add_comment(request)
        return entry

    def log_addition(self, request, object, message):
        entry = super().log_addition(request, object, message)
        self._add_comment(request)
        return entry

    def _add_comment(self, request):
        from reversion import get_comment, is_active, set_comment

        comment = (request.POST.get("revision_comment") or "").strip()[:200]
        if comment and is_active():
            set_comment(f"{comment} ({get_comment()})" if get_comment() else comment)

    # Actions.

    actions = ["publish_now", "unpublish"]

    @staticmethod
    def _save_with_revision(request, obj, comment):
        import reversion

        with reversion.create_revision():
            obj.save()
            reversion.set_user(request.user)
            reversion.set_comment(comment)

    def publish_now(self, request, queryset):
        now = timezone.now()
        count = 0
        for obj in queryset:
            if obj.status != obj.Status.PUBLISHED or obj.published_at > now:
                obj.status, obj.published_at = obj.Status.PUBLISHED, now
                self._save_with_revision(request, obj, "Published.")
                count += 1
        messages.success(request, f"Published {count} {self._noun(count)}.")

    publish_now.short_description = "Publish now"
    publish_now.allowed_permissions = ("publish",)

    def unpublish(self, request, queryset):
        count = 0
        for obj in queryset.filter(status="published"):
            obj.status, obj.published_at = obj.Status.DRAFT, None
            self._save_with_revision(request, obj, "Unpublished.")
            count += 1
        messages.success(request, f"Unpublished {count} {self._noun(count)}: back to draft.")

    unpublish.short_description = "Unpublish (back to draft)"
    unpublish.allowed_permissions = ("publish",)

    def _noun(self, count):
        return self.opts.verbose_name if count == 1 else self.opts.verbose_name_plural
