"""Shared helpers for driving the vendor admin as a browser does: what its forms send back."""

from django import forms

from editorial.revisions import latest_version_id

VENDOR_CHANGELIST = "/admin/vendors/vendor/"
INLINES = ["facts", "events", "scores", "faqs"]
BLANK = ["summary", "what_it_is", "best_for", "watch_out", "verdict", "alternative_blurb"]


def change_url(vendor):
    return f"{VENDOR_CHANGELIST}{vendor.pk}/change/"


def workflow_url(item, step):
    opts = item._meta
    return f"/admin/{opts.app_label}/{opts.model_name}/{item.pk}/workflow/{step}/"


def inline_rows(prefix, rows, initial=0):
    """A formset's management form plus its rows as ``prefix-i-field`` keys."""
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{key}": value for key, value in row.items()})
    return data


def vendor_form(vendor, **overrides):
    """The change form's own fields for an existing vendor, as saved unless overridden."""
    data = {name: getattr(vendor, name) or "" for name in ["name", "slug", "company", *BLANK]}
    data["lane"] = vendor.lane_id
    data["opened_revision"] = latest_version_id(vendor)  # as the page just opened carries it
    return data | overrides


def rows_on_page(response):
    """Every inline row as the change page renders it, i.e. what the browser sends back unchanged."""

    def sent(field, value):  # an empty multi-select sends nothing; an empty input sends ""
        if value is None:
            return [] if isinstance(field, forms.ModelMultipleChoiceField) else ""
        return value

    rows, initial = {}, {}
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        initial[formset.prefix] = formset.initial_form_count()
        rows[formset.prefix] = [
            {name: sent(field, form[name].value()) for name, field in form.fields.items()}
            for form in formset.forms
        ]
    return rows, initial


def post_vendor_page(client, vendor, *, edit=None, **fields):
    """GET the change page, let ``edit`` change its inline rows, POST it all back."""
    rows, initial = rows_on_page(client.get(change_url(vendor)))
    if edit:
        edit(rows)
    data = vendor_form(vendor, **fields)
    for prefix, found in rows.items():
        data.update(inline_rows(prefix, found, initial[prefix]))
    return client.post(change_url(vendor), data)


def comparison_change_url(comparison):
    return f"/admin/comparisons/comparison/{comparison.pk}/change/"


def comparison_form(comparison, **overrides):
    """The comparison change form's own fields, as saved unless overridden."""
    data = {
        name: getattr(comparison, name) or "" for name in ["title", "slug", "summary", "intro", "verdict"]
    }
    data["verified_on"] = comparison.verified_on.isoformat() if comparison.verified_on else ""
    data["sources"] = [source.pk for source in comparison.sources.all()]
    data["opened_revision"] = latest_version_id(comparison)
    return data | overrides
