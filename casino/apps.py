from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps

# Rule errors are 422, except where API.md names another status.
RULE_ERROR_STATUS = {"not_ready_to_settle": 409}


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino floor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from casino.engine.errors import RuleError
        from kernel.problems import render_errors_of

        render_errors_of(RuleError, status_of=lambda error: RULE_ERROR_STATUS.get(error.code, 422))


class BackOfficeAdminConfig(admin_apps.AdminConfig):
    """The admin app with the back office's own site: admins configure, compliance audits, no one
    else enters (casino.admin_site). Named in INSTALLED_APPS in place of django.contrib.admin."""

    default = False  # not the casino app's own configuration
    default_site = "casino.admin_site.BackOfficeAdminSite"
