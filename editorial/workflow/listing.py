"""The admin's list of items: the state column and filter, and the workflow's actions."""

from django.contrib import admin, messages

from .. import selectors, services
from .base import EditorialAdminPart


class StateFilter(admin.SimpleListFilter):
    """The items in one state, as the ``state`` annotation says (editorial.selectors.with_state)."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return selectors.State.choices

    def queryset(self, request, queryset):
        if self.value() in selectors.State.values:
            return queryset.filter(state=self.value())
        return queryset


class StateListing(EditorialAdminPart):
    """For EditorialAdmin: each row says its state, the list filters by it, and the actions
    publish, unpublish or submit the items ticked."""

    def changelist_view(self, request, extra_context=None):
        """Without django-reversion's surrounding revision block: each action saves its items
        in revisions of their own, so no item's history shows another item's rows."""
        context = {"has_change_permission": self.has_change_permission(request), **(extra_context or {})}
        return admin.ModelAdmin.changelist_view(self, request, context)

    @admin.display(description="state", ordering="live_since")
    def state(self, obj):
        return selectors.state(obj)

    def get_list_display(self, request):
        return [*super().get_list_display(request), "state"]

    def get_list_filter(self, request):
        return [StateFilter, *super().get_list_filter(request)]

    actions = ["publish_changes", "unpublish", "submit_for_review"]

    def _each(self, request, queryset, service, done):
        count, refused = 0, []
        for obj in queryset:
            try:
                service(obj=obj, user=request.user)
                count += 1
            except services.WorkflowError as error:
                refused.append(f"{obj}: {error}")
        messages.success(request, f"{done} {count} {self._noun(count)}.")
        for line in refused:
            messages.warning(request, line)

    @admin.action(description="Publish changes", permissions=["publish"])
    def publish_changes(self, request, queryset):
        self._each(
            request,
            queryset.filter(has_unpublished_changes=True),
            services.publish,
            "Published",
        )

    @admin.action(description="Unpublish (visitors no longer see it)", permissions=["publish"])
    def unpublish(self, request, queryset):
        self._each(request, queryset.filter(live_since__isnull=False), services.unpublish, "Unpublished")

    @admin.action(description="Submit for review", permissions=["change"])
    def submit_for_review(self, request, queryset):
        self._each(
            request, queryset.filter(has_unpublished_changes=True), services.submit_for_review, "Submitted"
        )

    def _noun(self, count):
        return self.opts.verbose_name if count == 1 else self.opts.verbose_name_plural
