from django.apps import AppConfig


class ClaimsConfig(AppConfig):
    """The citation kernel: sources and their checks, citations with their evidence, the stale
    and verified rules, Markdown and the citation formats. It knows no content app and no
    workflow: vendors, chips and comparisons build on it."""

    name = "claims"
    verbose_name = "Sources and evidence"
