from django.apps import AppConfig


class BonusTieConfig(AppConfig):
    name = "bonus_tie"
    default_auto_field = "django.db.models.BigAutoField"
