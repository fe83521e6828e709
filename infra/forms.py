"""A form renderer for the public lists' filter forms (/vendors/, /chips/): the same HTML as
Django's widget templates, written in Python for the widgets those forms use.

Django's select and checkbox templates include a template per option, and each option's
attributes another; a list's filters (nine fields, some sixty options) took about 4 ms that
way. Only these forms use it (``FilterForm``): FORM_RENDERER stays Django's, so the admin's
widgets, and any widget or option this renderer does not know, go through the templates.
"""

from django import forms
from django.forms.renderers import DjangoTemplates

from .html import escaped

WIDGETS = "django/forms/widgets/"


def _attrs(attrs: dict) -> str:
    """As ``django/forms/widgets/attrs.html`` writes them."""
    return "".join(
        f" {escaped(name)}" + ("" if value is True else f'="{escaped(value)}"')
        for name, value in attrs.items()
        if value is not False
    )


def _options(widget: dict) -> list[dict] | None:
    """The widget's options, or None when it groups them (the templates write the groups)."""
    options = []
    for group_name, group_options, _ in widget["optgroups"]:
        if group_name:
            return None
        options += group_options
    return options


def _input(widget: dict) -> str:
    """``input.html``: an input of any type."""
    value = "" if widget["value"] is None else f' value="{escaped(widget["value"])}"'
    return (
        f'<input type="{escaped(widget["type"])}" name="{escaped(widget["name"])}"'
        f"{value}{_attrs(widget['attrs'])}>"
    )


def _select(widget: dict) -> str | None:
    """``select.html`` with ``select_option.html`` for each option."""
    if (options := _options(widget)) is None:
        return None
    written = "".join(
        f'\n  <option value="{escaped(option["value"])}"{_attrs(option["attrs"])}>'
        f"{escaped(option['label'])}</option>\n"
        for option in options
    )
    name = escaped(widget["name"])
    return f'<select name="{name}"{_attrs(widget["attrs"])}>{written}\n</select>'


def _checkboxes(widget: dict) -> str | None:
    """``multiple_input.html`` with ``input_option.html`` for each (label-wrapped) option."""
    options = _options(widget)
    if options is None or not all(option["wrap_label"] for option in options):
        return None
    written = "".join(
        f"<div>\n    <label{_present('for', option['attrs'].get('id'))}>{_input(option)}\n"
        f" {escaped(option['label'])}</label>\n\n</div>"
        for option in options
    )
    attrs = widget["attrs"]
    return f"<div{_present('id', attrs.get('id'))}{_present('class', attrs.get('class'))}>{written}\n</div>"


def _present(name: str, value) -> str:
    """An attribute the templates write only when its value is there (``{% if id %}``)."""
    return f' {name}="{escaped(value)}"' if value else ""


WRITERS = {
    f"{WIDGETS}text.html": _input,
    f"{WIDGETS}number.html": _input,
    f"{WIDGETS}select.html": _select,
    f"{WIDGETS}checkbox_select.html": _checkboxes,
}


class FilterRenderer(DjangoTemplates):
    """Writes the widgets in WRITERS itself; any other template, or a widget it does not
    know how to write (grouped options), goes to Django's templates."""

    def render(self, template_name, context, request=None):
        if (write := WRITERS.get(template_name)) and (html := write(context["widget"])) is not None:
            return html
        return super().render(template_name, context, request=request)


class FilterForm(forms.Form):
    """A public list's filter form, rendered by FilterRenderer (one instance, so its
    template engine is built once)."""

    default_renderer = FilterRenderer()
