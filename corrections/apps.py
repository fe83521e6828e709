from django.apps import AppConfig


class CorrectionsConfig(AppConfig):
    """Readers' corrections: a form on every profile and comparison, a queue for editors."""

    name = "corrections"
    demo_loader = "corrections.demo.load"
