"""Pieces every one-page editor uses: cited rows, positions filled in entry order."""

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import AutocompleteSelectMultiple

from ..models import (
    Source,
)


class CitesSources:
    """For a ModelAdmin or inline: ``sources`` gets an autocomplete with an “add source” button.

    The citation tables are explicit (their foreign key to Source is PROTECT), which
    the admin would otherwise refuse to show as a form field.
    """

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "sources":
            kwargs.setdefault(
                "widget", AutocompleteSelectMultiple(db_field, self.admin_site, using=kwargs.get("using"))
            )
            kwargs.setdefault("queryset", Source.objects.all())
            kwargs.setdefault("required", False)
            return db_field.formfield(**kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class CitedInline(CitesSources, admin.TabularInline):
    """An inline whose rows cite sources through an autocomplete with an “add source” button."""

    extra = 0


class PositionedInlineForm(forms.ModelForm):
    """Position may be left empty: the row then goes after the others, in the order entered."""

    position = forms.IntegerField(min_value=0, required=False)


# The inlines name their fields on the form, not with ``fields``: the admin's check
# refuses a many-to-many with its own through table there, though the form saves it.


class FillsPositions:
    """For a ModelAdmin: inline rows left without a position go last, in the order entered."""

    def save_formset(self, request, form, formset, change):
        instances = formset.save(commit=False)
        for removed in formset.deleted_objects:
            removed.delete()
        if "position" in formset.form.base_fields:
            self._fill_positions(formset, instances)
        for instance in instances:
            instance.save()
        formset.save_m2m()

    @staticmethod
    def _fill_positions(formset, instances):
        """Rows without a position go after the highest one, in the order they were entered."""
        taken = [
            f.cleaned_data["position"]
            for f in formset.forms
            if f.cleaned_data and f.cleaned_data.get("position") is not None
        ]
        siblings = formset.model.objects.filter(**{formset.fk.name: formset.instance})
        taken += list(siblings.values_list("position", flat=True))
        next_position = max(taken, default=0) + 1
        for instance in instances:
            if instance.position is None:
                instance.position = next_position
                next_position += 1


# Verification: “Mark verified today”, on facts in the staleness queue and on whole vendors.
