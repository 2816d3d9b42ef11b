from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit trail"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from audit.refusals import record_security_refusal
        from kernel.problems import on_refusal

        on_refusal(record_security_refusal)
