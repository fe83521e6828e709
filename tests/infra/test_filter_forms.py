"""The lists' filter forms are written by infra/forms.py's renderer, not Django's widget
templates: a visitor (and a screen reader) must get the same HTML, byte for byte."""

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

from infra.forms import FilterForm, FilterRenderer


class EveryWidget(FilterForm):
    q = forms.CharField(required=False, max_length=10, widget=forms.TextInput(attrs={"type": "search"}))
    amount = forms.DecimalField(required=False, min_value=0, widget=forms.NumberInput(attrs={"step": "any"}))
    pick = forms.ChoiceField(
        required=False,
        choices=[("", "Any"), (1, "One & <two>"), ('"q"', mark_safe("<b>bold</b>"))],
    )
    many = forms.MultipleChoiceField(
        required=False,
        choices=[("a", "A's"), ("b", "B (3)")],
        widget=forms.CheckboxSelectMultiple(attrs={"class": "boxes"}),
    )
    grouped = forms.ChoiceField(required=False, choices=[("Group", [("x", "X"), ("y", "Y")]), ("z", "Z")])
    flag = forms.BooleanField(required=False)
    disabled = forms.ChoiceField(required=False, choices=[("d", "D")], disabled=True)


def _written(form):
    return [str(field) for field in form]


def test_the_filter_forms_html_is_what_djangos_templates_write():
    for data in ({}, {"q": "<a&\"b'>", "amount": "-1", "pick": '"q"', "many": ["a", "b"], "grouped": "y"}):
        fast = EveryWidget(data)
        templates = EveryWidget(data, renderer=DjangoTemplates())
        assert isinstance(fast.renderer, FilterRenderer)
        assert _written(fast) == _written(templates)
