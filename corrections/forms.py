from django import forms
from django.core.validators import URLValidator

from .models import PROBLEM_MAX_LENGTH


class CorrectionForm(forms.Form):
    """What a reader sends. ``website`` is a honeypot: hidden from people, filled by bots."""

    part = forms.ChoiceField(label="Which part is wrong?")
    problem = forms.CharField(
        label="What is wrong?",
        min_length=10,
        max_length=PROBLEM_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=f"What the page says, and what it should say. At most {PROBLEM_MAX_LENGTH:,} characters.",
    )
    source_url = forms.URLField(
        label="A source that says otherwise",
        max_length=500,
        assume_scheme="https",
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="The address of the page where you read it (https://…).",
    )
    email = forms.EmailField(
        label="Your e-mail (optional)",
        required=False,
        help_text="Only to tell you what we did; never shown or shared.",
    )
    website = forms.CharField(label="Leave this field empty", required=False)

    def __init__(self, *args, parts, **kwargs):
        super().__init__(*args, **kwargs)
        part = self.fields["part"]
        assert isinstance(part, forms.ChoiceField)
        part.choices = [("", "Choose…"), *parts]
        self.fields["website"].widget.attrs.update(autocomplete="off", tabindex="-1")

    @property
    def is_spam(self):
        return bool(self.cleaned_data.get("website"))
