from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = "Reports"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from casino.services.report_refresh import stored_shifts_from
        from reports.selectors import stored_shifts

        stored_shifts_from(stored_shifts)
