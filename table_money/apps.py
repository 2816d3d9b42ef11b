from django.apps import AppConfig


class TableMoneyConfig(AppConfig):
    name = "table_money"
    verbose_name = "Table money"
    default_auto_field = "django.db.models.BigAutoField"
