from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino floor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Load the Celery app with Django, so @shared_task binds to it. It is not
        # imported from casino/__init__.py: the pure engine lives in this package.
        from casino import celery  # noqa: F401
        from casino.api import openapi_extensions  # noqa: F401
