"""Notifications in the admin: each user's own choice of how to hear about the workflow, and
the messages sent and waiting (editorial/notifications.py)."""

from django.contrib import admin
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html

from infra.admin import ReadOnly, SuperusersOnly

from .models import Notification, NotificationSetting


@admin.register(NotificationSetting)
class NotificationSettingAdmin(admin.ModelAdmin):
    """“How I hear about my work”: every staff user edits their own choice, and only theirs."""

    fields = ["how"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(user=request.user)

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request) and (obj is None or obj.user_id == request.user.pk)

    has_change_permission = has_view_permission

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        """Straight to the user's own choice (made on first visit: an e-mail for each)."""
        own, _ = NotificationSetting.objects.get_or_create(user=request.user)
        return redirect(reverse("admin:editorial_notificationsetting_change", args=[own.pk]))

    def response_change(self, request, obj):
        self.message_user(request, f"Saved: {obj.get_how_display().lower()}.")
        return redirect(reverse("admin:index"))


class StatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("waiting", "Not sent yet"), ("failed", "Failed at least once, not sent")]

    def queryset(self, request, queryset):
        if self.value() == "waiting":
            return queryset.unsent()
        if self.value() == "failed":
            return queryset.failing()
        return queryset


@admin.register(Notification)
class NotificationAdmin(SuperusersOnly, ReadOnly, admin.ModelAdmin):
    """Every message, sent or waiting: one that failed says why, and is retried every minute."""

    list_display = ["__str__", "created_at", "status"]
    list_filter = [StatusFilter, "digest"]
    list_select_related = ["recipient"]
    search_fields = ["subject", "recipient__username", "recipient__email"]
    readonly_fields = [
        "recipient",
        "subject",
        "body",
        "digest",
        "created_at",
        "sent_at",
        "attempts",
        "last_error",
    ]
    fields = [*readonly_fields]

    @admin.display(description="status")
    def status(self, obj):
        if obj.sent_at:
            return f"Sent {obj.sent_at:%d %b %Y %H:%M}"
        if obj.digest:
            return "Held for the daily digest"
        if obj.attempts:
            return format_html(
                "<strong>Not sent after {} tries</strong>: {} (retried every minute)",
                obj.attempts,
                obj.last_error,
            )
        return "Waiting to be sent"
