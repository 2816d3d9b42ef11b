from django.apps import AppConfig


class KernelConfig(AppConfig):
    name = "kernel"
    verbose_name = "API kernel"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from kernel import openapi_extensions  # noqa: F401  (registers the schema extension)
