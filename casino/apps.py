from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino floor"
    default_auto_field = "django.db.models.BigAutoField"


class BackOfficeAdminConfig(admin_apps.AdminConfig):
    """The admin app with the back office's own site: admins configure, compliance audits, no one
    else enters (casino.admin_site). Named in INSTALLED_APPS in place of django.contrib.admin."""

    default = False  # not the casino app's own configuration
    default_site = "casino.admin_site.BackOfficeAdminSite"
