"""“Import facts, chips, events and scores from CSV” and “Export as CSV” on a vendor's change page.

Upload, then a preview of every row (new, changed, unchanged or error), then Confirm: only
the confirmation writes (vendors/importing.py). Between the two the file travels in the
page itself, signed, so the confirmation applies exactly the file that was previewed.
Editors and Publishers (the change permission on the vendor) may do both; others get 403.

Built on Django's csv module and forms rather than django-import-export: its current release
(4.4.3, Oct 2026) declares Django 4.2 to 5.2, not 6.1, and it imports one model per resource
from that model's list, where this imports four kinds of row into one vendor's working copy,
matched row by row, with the workflow's revision and unpublished-changes state.
"""

from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.text import get_valid_filename

from infra.tabular import CONTENT_TYPE

from ..importing import (
    COLUMNS,
    MAX_BYTES,
    MAX_ROWS,
    ImportChanged,
    ImportFileError,
    export_csv,
    plan_import,
    read_csv,
)
from ..services import import_rows

if TYPE_CHECKING:
    from django.contrib import admin

    from ..models import Vendor

    class VendorAdminPart(admin.ModelAdmin[Vendor]):
        """To the type checker, the admin ImportsCSV is mixed into."""

else:
    VendorAdminPart = object

SALT = "vendors.import"
PREVIEW_MAX_AGE = 60 * 60  # a preview left open longer is uploaded again


class ImportForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        help_text=f"UTF-8 CSV, at most {MAX_BYTES // 1_000_000} MB and {MAX_ROWS:,} rows, "
        f"with the columns {', '.join(COLUMNS)}. Nothing is saved until you confirm the preview.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size / 1_000_000:.1f} MB: the limit is {MAX_BYTES // 1_000_000} MB "
                f"({MAX_ROWS:,} rows). Split it into smaller files."
            )
        data = upload.read(MAX_BYTES + 1)
        try:
            self.rows = read_csv(data)
        except ImportFileError as error:
            raise forms.ValidationError(str(error)) from error
        self.text = data.decode("utf-8-sig")
        self.filename = get_valid_filename(upload.name)[:100] or "upload.csv"
        return upload


class ConfirmForm(forms.Form):
    payload = forms.CharField(widget=forms.HiddenInput)
    digest = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, vendor, **kwargs):
        super().__init__(*args, **kwargs)
        self.vendor = vendor

    def clean_payload(self):
        try:
            payload = signing.loads(self.cleaned_data["payload"], salt=SALT, max_age=PREVIEW_MAX_AGE)
        except signing.BadSignature as error:
            raise forms.ValidationError("This preview has expired: upload the file again.") from error
        if payload.get("vendor") != self.vendor.pk:
            raise forms.ValidationError("This preview is of another vendor: upload the file again.")
        return payload


class ImportsCSV(VendorAdminPart):
    """For the VendorAdmin: the import and export pages of one vendor."""

    import_template = "admin/vendors/vendor/import.html"

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/import/",
                self.admin_site.admin_view(self.import_view),
                name="{}_{}_import".format(*info),
            ),
            path(
                "<path:object_id>/export/",
                self.admin_site.admin_view(self.export_view),
                name="{}_{}_export".format(*info),
            ),
            *super().get_urls(),
        ]

    def _vendor_to_change(self, request, object_id):
        vendor = self.get_object(request, unquote(object_id))
        if vendor is None:
            raise Http404("No such vendor.")
        if not self.has_change_permission(request, vendor):
            raise PermissionDenied
        return vendor

    def export_view(self, request, object_id):
        vendor = self._vendor_to_change(request, object_id)
        response = HttpResponse(export_csv(vendor=vendor), content_type=CONTENT_TYPE)
        response["Content-Disposition"] = f'attachment; filename="{vendor.slug}.csv"'
        return response

    def import_view(self, request, object_id):
        vendor = self._vendor_to_change(request, object_id)
        change_url = reverse(
            f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_change", args=[vendor.pk]
        )
        form, plan, confirm = ImportForm(), None, None
        if request.method == "POST" and "payload" in request.POST:
            confirm = ConfirmForm(request.POST, vendor=vendor)
            if confirm.is_valid():
                payload = confirm.cleaned_data["payload"]
                rows = read_csv(payload["csv"].encode())
                try:
                    plan = import_rows(
                        vendor=vendor,
                        rows=rows,
                        filename=payload["name"],
                        user=request.user,
                        expected_digest=confirm.cleaned_data["digest"],
                    )
                except (ImportChanged, ImportFileError) as error:
                    messages.warning(request, str(error))
                    plan = plan_import(vendor=vendor, rows=rows, filename=payload["name"])
                    confirm = self._confirm_form(vendor, payload["csv"], payload["name"], plan)
                else:
                    messages.success(
                        request,
                        f"Imported {len(plan.to_write)} rows from {plan.filename}: {plan.count('new')} new, "
                        f"{plan.count('changed')} changed, {plan.count('unchanged')} unchanged. "
                        "Visitors still see the live version until a publisher publishes the changes.",
                    )
                    return HttpResponseRedirect(change_url)
        elif request.method == "POST":
            form = ImportForm(request.POST, request.FILES)
            if form.is_valid():
                plan = plan_import(vendor=vendor, rows=form.rows, filename=form.filename)
                confirm = self._confirm_form(vendor, form.text, form.filename, plan)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Import facts, chips, events and scores into {vendor}",
            "subtitle": None,
            "opts": self.opts,
            "original": vendor,
            "change_url": change_url,
            "form": form,
            "plan": plan,
            "confirm": confirm,
            "columns": COLUMNS,
            "max_rows": MAX_ROWS,
            "max_megabytes": MAX_BYTES // 1_000_000,
        }
        return TemplateResponse(request, self.import_template, context)

    def _confirm_form(self, vendor, text, filename, plan):
        payload = signing.dumps(
            {"vendor": vendor.pk, "name": filename, "csv": text}, salt=SALT, compress=True
        )
        return ConfirmForm(initial={"payload": payload, "digest": plan.digest}, vendor=vendor)
