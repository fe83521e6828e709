"""Pieces every one-page editor uses: cited rows, positions filled in entry order."""

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.contrib.admin.options import BaseModelAdmin, InlineModelAdmin
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import ValidationError
from django.db.models import Model, Prefetch, QuerySet

from claims.models import Source, citations_of

from .evidence import save_evidence

# The mixins below are mixed into these classes: the type checker reads them as subclasses.
if TYPE_CHECKING:
    _AutocompleteWidget = AutocompleteSelect
    _AdminOrInline = BaseModelAdmin[Any]
    _Inline = InlineModelAdmin[Any, Any]
    _ModelAdmin = admin.ModelAdmin[Any]
    _ModelForm = forms.ModelForm[Any]
else:
    _AutocompleteWidget = _AdminOrInline = _Inline = _ModelAdmin = _ModelForm = object

type Known = dict[str, Model]  # {str(key): instance}


class KnownChoices(_AutocompleteWidget):
    """An autocomplete that names its selected options from ``known`` when the page has
    looked them all up at once (see ResolvesChoicesOnce), instead of a query per row."""

    known: Known | None = None

    def optgroups(self, name, value, attr=None):
        if self.known is None:
            return super().optgroups(name, value, attr)
        default: tuple[str | None, list[dict[str, Any]], int | None] = (None, [], 0)
        selected = [str(v) for v in value if str(v) not in self.choices.field.empty_values]
        if not self.is_required and not self.allow_multiple_selected:
            default[1].append(self.create_option(name, "", "", False, 0))
        missing = [pk for pk in selected if pk not in self.known]
        if missing:  # a value the page did not know (a bound form after an error): ask for it
            self.known.update({str(obj.pk): obj for obj in self.choices.queryset.filter(pk__in=missing)})
        for pk in selected:
            if pk in self.known:
                label = self.choices.field.label_from_instance(self.known[pk])
                default[1].append(
                    # the selected values, as Django's own AutocompleteMixin passes them
                    self.create_option(name, pk, label, set(selected), len(default[1]))  # type: ignore[arg-type]
                )
        return [default]


class KnownModelChoiceField(forms.ModelChoiceField):
    """A choice a one-page editor's save resolves from ``known`` (filled for the whole page
    in one query per model by ResolvesChoicesOnce) instead of a query per row."""

    known: Known | None = None

    def to_python(self, value):
        if self.known is not None and value not in self.empty_values and str(value) in self.known:
            return self.known[str(value)]
        return super().to_python(value)


class KnownModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    known: Known | None = None

    def _check_values(self, value):
        keys = [str(v) for v in value]
        if self.known is not None and all(key in self.known for key in keys):
            return [self.known[key] for key in dict.fromkeys(keys)]
        return super()._check_values(value)  # type: ignore[misc]  # private Django API, not in django-stubs


def resolve_choices(forms_on_page):
    """Fill every Known field's ``known`` from what the bound forms submitted: one query per
    model and queryset, so that validating 200 rows does not ask for each row's choices."""
    groups: dict[
        tuple[type[Model], str, str],
        tuple[QuerySet[Any], set[str], list[KnownModelChoiceField | KnownModelMultipleChoiceField]],
    ] = {}
    for form in forms_on_page:
        for name, field in form.fields.items():
            if not isinstance(field, KnownModelChoiceField | KnownModelMultipleChoiceField):
                continue
            data = form[name].data
            values = data if isinstance(data, list | tuple) else [data]
            assert field.queryset is not None  # a model choice field always has one
            key = (field.queryset.model, field.to_field_name or "pk", str(field.queryset.query))
            # The first field's queryset stands for the group (never `or`: that would run it).
            _, wanted, fields = groups.setdefault(key, (field.queryset, set(), []))
            wanted |= {str(v) for v in values if v not in (None, "")}
            fields.append(field)
    for (_, attribute, _), (queryset, wanted, fields) in groups.items():
        try:
            found = {
                str(getattr(obj, attribute)): obj for obj in queryset.filter(**{f"{attribute}__in": wanted})
            }
        except (ValueError, TypeError, ValidationError):
            continue  # a value that is not a key: each field says so itself
        for field in fields:
            field.known = found


class KnownAutocompleteSelect(KnownChoices, AutocompleteSelect):
    pass


class KnownAutocompleteSelectMultiple(KnownChoices, AutocompleteSelectMultiple):
    pass


class AutocompletesKnowChoices(_Inline):
    """For an inline: its autocomplete fields use the widgets above, its choices and its rows'
    own keys the Known fields."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request):
            kwargs["widget"] = KnownAutocompleteSelect(db_field, self.admin_site, using=kwargs.get("using"))
        kwargs.setdefault("form_class", KnownModelChoiceField)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)

        class KnownRows(formset):  # type: ignore[valid-type, misc]  # the class the admin just built
            def add_fields(self, form, index):
                super().add_fields(form, index)
                key = self._pk_field.name
                if type(form.fields.get(key)) is forms.ModelChoiceField:  # the row's own id
                    field = form.fields[key]
                    form.fields[key] = KnownModelChoiceField(
                        field.queryset, initial=field.initial, required=False, widget=field.widget
                    )

        KnownRows.__name__ = formset.__name__
        return KnownRows


class ResolvesChoicesOnce(_ModelAdmin):
    """For a one-page editor: every row's selected sources, attributes and vendors are
    named from one query per model, and every row's plain select (an axis, a criterion)
    from one list, so that a profile with 200 rows opens in a fixed number of queries."""

    def _create_formsets(self, request, obj, change):
        formsets, inline_instances = super()._create_formsets(request, obj, change)  # type: ignore[misc]  # private Django API, not in django-stubs
        if request.method == "POST":
            resolve_choices([form for formset in formsets for form in formset.forms])
        return formsets, inline_instances

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        forms_on_page = [context["adminform"].form]
        for inline in context.get("inline_admin_formsets", []):
            forms_on_page += list(inline.formset.forms)
        wanted: defaultdict[type[Model], set[str]] = defaultdict(set)
        known_widgets: list[tuple[KnownChoices, type[Model]]] = []
        shared: dict[tuple[type[forms.BaseForm], str], list[Any]] = {}
        for form in forms_on_page:
            for name, field in form.fields.items():
                widget = getattr(field.widget, "widget", field.widget)  # inside the "+" wrapper
                if isinstance(widget, KnownChoices):
                    value = form[name].value()
                    values = value if isinstance(value, list | tuple) else [value]
                    model = field.queryset.model
                    wanted[model] |= {str(v) for v in values if v not in (None, "")}
                    known_widgets.append((widget, model))
                elif (
                    isinstance(field, forms.ModelChoiceField)
                    and type(widget) is forms.Select  # a plain select: not an autocomplete, not hidden
                ):
                    key = (type(form), name)
                    if key not in shared:
                        choices = field.choices
                        assert isinstance(choices, Iterable)
                        shared[key] = list(choices)
                    field.choices = shared[key]
        found = {
            model: {str(obj.pk): obj for obj in model._default_manager.filter(pk__in=pks)}
            for model, pks in wanted.items()
        }
        for widget, model in known_widgets:
            widget.known = found.get(model, {})
        return super().render_change_form(request, context, add, change, form_url, obj)


class CitesSources(_AdminOrInline):
    """For a ModelAdmin or inline: ``sources`` gets an autocomplete with an “add source” button.

    The citation tables are explicit (their foreign key to Source is PROTECT), which
    the admin would otherwise refuse to show as a form field.
    """

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "sources":
            kwargs.setdefault(
                "widget",
                KnownAutocompleteSelectMultiple(db_field, self.admin_site, using=kwargs.get("using")),
            )
            kwargs.setdefault("queryset", Source.objects.all())
            kwargs.setdefault("required", False)
            kwargs.setdefault("form_class", KnownModelMultipleChoiceField)
            return db_field.formfield(**kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class CitedInline(AutocompletesKnowChoices, CitesSources, admin.TabularInline):
    """An inline whose rows cite sources through an autocomplete with an “add source” button."""

    extra = 0

    def get_queryset(self, request):
        # Each row's form reads its sources and their evidence for the fields' initial values:
        # one query each for all the rows.
        # The sources' page texts are not read here (claims/quotes.py reads them when it checks).
        sources = Source.objects.defer("page_text", "previous_page_text")
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("sources", queryset=sources), citations_of(self.model))
        )


class ChecksChangedRowsOnly(_ModelForm):
    """For an inline row's form: a stored row the editor did not touch was valid when it was
    saved, and the database still enforces its constraints, so it is not checked against the
    database again (a check constraint or a foreign key costs a query per row). A changed
    row is checked in full, and its uniqueness against every stored row."""

    def _untouched(self):
        return self.instance.pk is not None and not self.has_changed()

    def _get_validation_exclusions(self):
        exclude = super()._get_validation_exclusions()  # type: ignore[misc]  # private Django API, not in django-stubs
        return exclude | set(self.fields) if self._untouched() else exclude

    def validate_unique(self):
        if not self._untouched():
            super().validate_unique()

    def validate_constraints(self):
        if not self._untouched():
            super().validate_constraints()


class PositionedInlineForm(ChecksChangedRowsOnly, forms.ModelForm):
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
        save_evidence(formset)

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
