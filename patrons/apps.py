from django.apps import AppConfig


class PatronsConfig(AppConfig):
    name = "patrons"
    verbose_name = "Patrons"
    default_auto_field = "django.db.models.BigAutoField"
