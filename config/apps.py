from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project shell as an app, for the commands that run the whole service (`run_service`) and
    load the demo casino (`seed_demo`): they start or use every app."""

    name = "config"
    verbose_name = "Service"
