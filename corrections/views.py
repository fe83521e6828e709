"""“Suggest a correction”: a plain form on its own page, so the page it corrects stays cacheable."""

from typing import Protocol

from django.http import Http404
from django.shortcuts import redirect
from django.utils.cache import patch_cache_control
from django.views.generic import FormView

from infra.ratelimit import wait_seconds

from . import selectors, services
from .forms import CorrectionForm
from .selectors import Target

# How many corrections one address may send in an hour; more is a 429 that says when to retry.
CORRECTIONS_PER_HOUR = 5
HOUR = 3600


class FindsTarget(Protocol):
    """A selector: the live page at a slug, or None."""

    def __call__(self, *, slug: str) -> Target | None: ...


class CorrectionView(FormView):
    template_name = "corrections/correction_form.html"
    form_class = CorrectionForm
    find_target: FindsTarget  # each page's view names its selector

    def dispatch(self, request, *args, **kwargs):
        target = type(self).find_target(slug=kwargs["slug"])
        if target is None:
            raise Http404("No such published page.")
        self.target = target
        response = super().dispatch(request, *args, **kwargs)
        patch_cache_control(response, private=True, no_store=True)
        return response

    def get_initial(self):
        # "Suggest a correction" may name the part (?part=fact-12); anything else is ignored.
        asked = self.request.GET.get("part", "")
        return {"part": asked} if asked in dict(self.target.parts) else {}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "parts": self.target.parts}

    def get_context_data(self, **kwargs):
        return super().get_context_data(target=self.target, sent="sent" in self.request.GET, **kwargs)

    def form_valid(self, form):
        if form.is_spam:  # answered as if sent, so a bot learns nothing
            return redirect(f"{self.request.path}?sent")
        wait = wait_seconds(self.request, scope="corrections", limit=CORRECTIONS_PER_HOUR, window=HOUR)
        if wait:
            minutes = max(1, round(wait / 60))
            form.add_error(
                None,
                f"This address has sent {CORRECTIONS_PER_HOUR} corrections in the last hour, the most "
                f"we take. Please send this one in {minutes} minute{'s' if minutes != 1 else ''}; "
                "what you typed is kept below.",
            )
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(wait)
            return response
        data = form.cleaned_data
        services.submit_correction(
            target=self.target,
            part=data["part"],
            problem=data["problem"],
            source_url=data["source_url"],
            email=data["email"],
        )
        return redirect(f"{self.request.path}?sent")


class VendorCorrectionView(CorrectionView):
    find_target = staticmethod(selectors.vendor_target)


class ComparisonCorrectionView(CorrectionView):
    find_target = staticmethod(selectors.comparison_target)
