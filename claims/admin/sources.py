"""The sources' admin: the list with each source's last check, "Check this source now", what
cites a source (every citation table pointing at Source, whichever app declares it), and the
change pages' "Add a new source" dialog (``quick-add/``, JSON)."""

import functools
import operator

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import path as url_path
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join

from infra.admin_input import ValidatesInitial

from ..authoring import source_url_warnings
from ..models import QUOTE_MAX, Citation, Source, Support, Wording, normalise_url
from ..quotes import decompress_text, find_quote
from ..services import add_source
from ..source_checks import check_sources, describe


class SourceHealthFilter(admin.SimpleListFilter):
    title = "last check"
    parameter_name = "check"

    def lookups(self, request, model_admin):
        return [
            ("problem", "Failing or moved"),
            ("failed", "Failed the last check"),
            ("changed", "Page text changed"),
            ("quotes", "A quote not found"),
            ("never", "Never checked"),
        ]

    def queryset(self, request, queryset):
        filters: dict[str, dict[str, object]] = {
            "problem": {"problem_on__isnull": False},
            "failed": {"failures__gt": 0},
            "changed": {"text_changed_since__isnull": False},
            "never": {"checked_at__isnull": True},
        }
        value = self.value()
        if value == "quotes":  # the sources a citation quotes words their last check did not find
            missing = [
                Q(pk__in=rel.related_model.objects.filter(quote_found=False).values("source"))
                for rel in citation_relations()
            ]
            return queryset.filter(functools.reduce(operator.or_, missing))
        return queryset.filter(**filters[value]) if value in filters else queryset


@admin.register(Source)
class SourceAdmin(ValidatesInitial, admin.ModelAdmin):
    change_form_template = "admin/claims/source/change_form.html"
    list_display = ["title", "publisher", "url", "accessed_on", "last_check", "citation_count"]
    list_filter = [SourceHealthFilter, "accessed_on", "publisher"]
    search_fields = ["title", "publisher", "url", "archive_url"]
    readonly_fields = ["last_check", "final_url", "fingerprint", "failures", "quotes_on_page", "cited_by"]
    fieldsets = [
        (None, {"fields": ["title", "publisher", "url", "archive_url", "accessed_on", "notes"]}),
        ("Last check", {"fields": ["last_check", "final_url", "fingerprint", "failures", "quotes_on_page"]}),
        (None, {"fields": ["cited_by"]}),
    ]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        for warning in source_url_warnings(obj.url):  # saved all the same (claims/authoring.py)
            messages.warning(request, f"URL: {warning}")

    def get_urls(self):
        check = self.admin_site.admin_view(self.check_view)
        quick_add = self.admin_site.admin_view(self.quick_add_view)
        return [
            url_path("quick-add/", quick_add, name="claims_source_quick_add"),
            url_path("<path:object_id>/check/", check, name="claims_source_check"),
            *super().get_urls(),
        ]

    def get_search_results(self, request, queryset, search_term):
        """A pasted URL finds its source even when its case or trailing slash differ
        (``Source.objects.with_url``); any other term searches the fields as usual."""
        found = queryset.filter(pk__in=Source.objects.with_url(search_term).values("pk"))
        if normalise_url(search_term) and found.exists():
            return found, False
        return super().get_search_results(request, queryset, search_term)

    def quick_add_view(self, request):
        """The change pages' “Add a new source” dialog, in JSON: GET ``?url=`` names the
        source that URL already is (or null); POST creates one from title, publisher, URL and
        date accessed, unless its URL is already a source, which is then offered instead."""
        if request.method == "GET":
            if not self.has_view_or_change_permission(request):
                return JsonResponse({"error": "You may not look up sources."}, status=403)
            existing = Source.objects.with_url(request.GET.get("url", "")).first()
            return JsonResponse({"source": _as_choice(existing) if existing else None})
        if request.method != "POST":
            return JsonResponse({"error": "GET or POST only."}, status=405)
        if not self.has_add_permission(request):
            return JsonResponse({"error": "You may not add sources."}, status=403)
        evidence = QuickEvidenceForm(request.POST)
        if not evidence.is_valid():  # before anything else: a bad quote is said with the form's errors
            return JsonResponse({"errors": _errors(evidence)}, status=400)
        existing = Source.objects.with_url(request.POST.get("url", "")).first()
        if existing is not None:
            return JsonResponse({"exists": _as_choice(existing, evidence.cleaned_data)}, status=409)
        form = QuickSourceForm(request.POST)
        if not form.is_valid():
            return JsonResponse({"errors": _errors(form)}, status=400)
        source = add_source(**form.cleaned_data)
        self.log_addition(request, source, [{"added": {}}])
        return JsonResponse({"source": _as_choice(source, evidence.cleaned_data)}, status=201)

    def check_view(self, request, object_id):
        """“Check this source now”: one source, the same check as `manage.py check_sources`."""
        source = self.get_object(request, object_id)
        if source is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)  # type: ignore[attr-defined]  # Django's own, not in django-stubs
        if request.method != "POST" or not self.has_change_permission(request, source):
            raise PermissionDenied
        (outcome,) = check_sources(sources=[source])
        level = messages.WARNING if outcome.fetched.failed or source.problem_on else messages.SUCCESS
        self.message_user(request, f"Checked “{source}”: {describe(outcome)}.", level)
        return redirect(reverse("admin:claims_source_change", args=[source.pk]))

    @admin.display(description="last check", ordering="checked_at")
    def last_check(self, obj):
        """When, what came back, and what it means, in words."""
        if obj.checked_at is None:
            return "Never checked."
        found = f"HTTP {obj.check_status}" if not obj.check_error else obj.check_error
        notes = [text for text in (obj.problem_text, obj.text_changed_text) if text]
        when = date_format(timezone.localtime(obj.checked_at), "DATETIME_FORMAT")
        return f"{when}: {found}" + (f" ({'; '.join(notes)})" if notes else "")

    def get_queryset(self, request):
        counts = [
            Coalesce(
                Subquery(
                    relation.related_model.objects.filter(source=OuterRef("pk"))
                    .order_by()
                    .values("source")
                    .annotate(n=Count("pk"))
                    .values("n")
                ),
                0,
            )
            for relation in citation_relations()
        ]
        # The page texts are read only by a change page (quotes_on_page), not by the list.
        queryset = super().get_queryset(request).defer("page_text", "previous_page_text")
        return queryset.annotate(citation_count=sum(counts, Value(0)))

    @admin.display(description="citations", ordering="citation_count")
    def citation_count(self, obj):
        return obj.citation_count

    @admin.display(description="quotes on the page")
    def quotes_on_page(self, obj):
        """Each quote citing this source, what the last check found of it, and the page's words
        around it: where it was found, or, for one not found, where the previous text had it."""
        if obj.pk is None:
            return "Nothing yet."
        quotes = [
            citation
            for relation in citation_relations()
            for citation in relation.related_model.objects.filter(source=obj, wording=Wording.QUOTE)
            .exclude(quote="")
            .only("quote", "quote_found", "quote_checked_at", "quote_missing_at")
        ]
        if not quotes:
            return "No citation quotes this source."
        return format_html_join("", "{}", ((quote_passage(obj, citation),) for citation in quotes))

    @admin.display(description="cited by")
    def cited_by(self, obj):
        if obj.pk is None:
            return "Nothing yet."
        rows = [
            (_owner(citation.cited), citation._meta.verbose_name.removesuffix(" citation"), citation.cited)
            for relation in citation_relations()
            for citation in relation.related_model.objects.filter(source=obj).select_related(
                *_cited_paths(relation.related_model)
            )
        ]
        if not rows:
            return "Nothing: this source can be deleted."
        return format_html_join("", "<div>{}: {} — {}</div>", rows)


class QuickSourceForm(forms.ModelForm):
    """The fields the “Add a new source” dialog asks for."""

    class Meta:
        model = Source
        fields = ["title", "publisher", "url", "accessed_on"]


class QuickEvidenceForm(forms.Form):
    """What the dialog asks about the row's citation of the source: its words and its support.
    The row's form writes them when the page is saved (claims/admin/evidence.py)."""

    quote = forms.CharField(
        required=False,
        strip=True,
        max_length=QUOTE_MAX,
        error_messages={
            "max_length": f"A quote is at most {QUOTE_MAX} characters (this one is %(show_value)d)."
        },
    )
    support = forms.ChoiceField(
        required=False,
        choices=Support.choices,
        error_messages={"invalid_choice": "Choose full support, partial support or contradicts."},
    )


def quote_passage(source, citation):
    """One quote of ``source`` as its change page shows it (escaped: the page's words are not ours)."""
    texts = source.__dict__.setdefault("_texts", {})  # decompressed once per page
    if not texts:
        texts.update(now=decompress_text(source.page_text), before=decompress_text(source.previous_page_text))
    if citation.quote_found is None:
        state, found, where = "Not checked yet", None, ""
    elif citation.quote_found:
        state, found, where = "Found", find_quote(citation.quote, texts["now"]), "On the page"
    else:
        since = date_format(timezone.localtime(citation.quote_missing_at or citation.quote_checked_at))
        state, found, where = (
            f"Not found since {since}",
            find_quote(citation.quote, texts["before"]),
            "Before",
        )
    passage: str
    if found is not None and found.match:
        passage = format_html("{}: {} <mark>{}</mark> {}", where, found.before, found.match, found.after)
    elif found is not None and citation.quote_found is False:
        passage = "Not in the previous text either." if texts["before"] else "No earlier text was kept."
    else:
        passage = ""
    return format_html(
        '<div class="quote-check"><p>“{}” — {}</p><p class="help">{}</p></div>',
        citation.quote,
        state,
        passage,
    )


def _errors(form):
    return {name: [e["message"] for e in found] for name, found in form.errors.get_json_data().items()}


def _as_choice(source, evidence=None):
    """A source as the sources autocomplete names it (``id`` and ``text``), with its URL, and
    the evidence typed for the row's citation of it."""
    choice = {"id": str(source.pk), "text": str(source), "url": source.url}
    if evidence is not None:
        choice |= {"quote": evidence["quote"], "support": evidence["support"] or Support.FULL}
    return choice


def citation_relations():
    """Every citation table that points at Source, whichever app defines it."""
    return [rel for rel in Source._meta.related_objects if issubclass(rel.related_model, Citation)]


def _cited_paths(citation_model):
    """What naming a citation's row and its owner reads, joined in: one query per table."""
    cited = citation_model._meta.get_field("cited").related_model
    paths = ["cited"]
    for field in cited._meta.concrete_fields:
        if field.is_relation and field.name != "verified_by":
            paths.append(f"cited__{field.name}")
            if field.name == "criterion":
                paths.append("cited__criterion__comparison")
    return paths


def _owner(cited):
    """The vendor or comparison a cited row belongs to, for the editor's list."""
    for path in ("vendor", "comparison", "criterion.comparison"):
        owner = cited
        for name in path.split("."):
            owner = getattr(owner, name, None)
        if owner is not None:
            return owner
    return cited
