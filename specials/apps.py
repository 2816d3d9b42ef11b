from django.apps import AppConfig


class SpecialsConfig(AppConfig):
    name = "specials"
    default_auto_field = "django.db.models.BigAutoField"
