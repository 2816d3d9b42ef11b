from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "history"
    verbose_name = "Configuration history"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from audit.dbroles import register_append_only_app

        register_append_only_app(self.label)
