from django.apps import AppConfig


class BonusTieConfig(AppConfig):
    name = "bonus_tie"
    verbose_name = "Tie bonus"
    default_auto_field = "django.db.models.BigAutoField"
