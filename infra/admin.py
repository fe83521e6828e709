from axes.admin import AccessAttemptAdmin
from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.utils.translation import ngettext

from .models import SecurityEvent, StoredPage
from .security import record_security_event


class SuperusersOnly:
    """Readable by superusers only, whatever permissions a group was given."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


class ReadOnly:
    """Nothing is added, changed or deleted here: a record the site writes itself."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.unregister(AccessAttempt)


@admin.register(AccessAttempt)
class SignInFailuresAdmin(SuperusersOnly, AccessAttemptAdmin):
    """Axes' failed sign-ins, one row per username, address and browser, with when a pause
    ends and an action that lifts it."""

    list_display = [
        "username",
        "ip_address",
        "failures_since_start",
        "attempt_time",
        "paused_until",
        "user_agent",
    ]
    list_filter = ["attempt_time"]
    search_fields = ["username", "ip_address"]
    ordering = ["-attempt_time"]
    actions = ["lift_pause"]

    @admin.display(description="paused until")
    def paused_until(self, obj):
        if obj.failures_since_start < settings.AXES_FAILURE_LIMIT:
            return "not paused for this username here"
        return obj.attempt_time + get_cool_off()

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def get_actions(self, request, action_location=admin.ActionLocation.CHANGE_LIST):
        # Lifting a pause goes through lift_pause, so that it is recorded.
        actions = super().get_actions(request, action_location=action_location)
        actions.pop("delete_selected", None)
        return actions

    @admin.action(description="Lift the sign-in pause (forget these failures)")
    def lift_pause(self, request, queryset):
        rows = list(queryset)
        for attempt in rows:
            record_security_event(
                kind=SecurityEvent.Kind.LOCKOUT_CLEARED,
                username=attempt.username or "",
                request=request,
                detail=f"{attempt.failures_since_start} failures from {attempt.ip_address} forgotten.",
            )
        queryset.delete()
        self.message_user(
            request,
            ngettext("Forgot %d row of failed sign-ins.", "Forgot %d rows of failed sign-ins.", len(rows))
            % len(rows),
        )


SECURITY_EVENT_FIELDS = ("at", "kind", "user", "username", "actor", "ip_address", "detail")


@admin.register(SecurityEvent)
class SecurityEventAdmin(SuperusersOnly, ReadOnly, admin.ModelAdmin):
    """Read only: the log is evidence, so nobody edits or deletes it here."""

    list_display = ["at", "__str__", "actor", "ip_address", "detail"]
    list_filter = ["kind", "at"]
    search_fields = ["username", "ip_address", "detail"]
    list_select_related = ["actor"]
    date_hierarchy = "at"
    fields = SECURITY_EVENT_FIELDS
    readonly_fields = SECURITY_EVENT_FIELDS


class FailedRender(admin.SimpleListFilter):
    title = "last render"
    parameter_name = "render"

    def lookups(self, request, model_admin):
        return [("failed", "Failed"), ("worked", "Worked")]

    def queryset(self, request, queryset):
        if self.value() == "failed":
            return queryset.exclude(error="")
        if self.value() == "worked":
            return queryset.filter(error="")
        return queryset


STORED_PAGE_FIELDS = (
    "path",
    "file",
    "etag",
    "release",
    "rendered_at",
    "until",
    "error",
    "failed_at",
    "attempts",
    "next_try",
    "shows",
)


@admin.register(StoredPage)
class StoredPageAdmin(ReadOnly, admin.ModelAdmin):
    """The public pages as stored (infra/stored/), for every staff member to read: which
    render failed, why and when the worker tries again (the previous page is still served),
    failures first. Nothing here
    is edited: pages are rendered when what they show changes."""

    list_display = ["path", "rendered_at", "until", "render_state", "failed_at", "next_try"]
    list_filter = [FailedRender]
    search_fields = ["path"]
    fields = STORED_PAGE_FIELDS
    readonly_fields = STORED_PAGE_FIELDS

    def get_ordering(self, request):
        return ["-failed_at", "path"]

    @admin.display(description="last render")
    def render_state(self, page):
        return f"Failed: {page.error}" if page.error else "Worked"

    @admin.display(description="shows")
    def shows(self, page):
        return ", ".join(page.keys.values_list("key", flat=True))

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff
