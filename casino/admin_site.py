"""The admin site: who may enter it at all (DESIGN.md, Roles).

Admins configure the casino here: casinos, pits, tables, terminals, dealers and staff. Compliance
enters only for what it has nowhere else: the audit trail with its gaming-day export, the
configuration history, and the paytable decisions (each page says so itself). Every other role
works on the floor console (/floor/), scoped by pit in `floor.access`: a floor supervisor, pit
boss, cage cashier or count team member is no staff of this site, and is refused here even when
flagged `is_staff` by hand.
"""

from typing import Any

from django.contrib.admin import AdminSite
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from casino.models import StaffRole
from casino.services.provisioning import ADMIN_SITE_ROLES


def admin_site_role(user: Any) -> str | None:
    """The role this user enters the admin site with (a superuser is an admin), or None: the user
    is signed out, inactive, not flagged staff, or of a role that works on the floor console."""
    if not (getattr(user, "is_authenticated", False) and user.is_active and user.is_staff):
        return None
    if user.is_superuser:
        return StaffRole.ADMIN
    profile = getattr(user, "staff", None)
    role = profile.role if profile is not None else None
    return role if role in ADMIN_SITE_ROLES else None


class BackOfficeAuthenticationForm(AdminAuthenticationForm):
    """The admin site's sign-in refuses whoever the site would refuse, with the same words as a
    wrong password: a floor role flagged `is_staff` by hand gets no session from it."""

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if admin_site_role(user) is None:
            raise ValidationError(
                self.error_messages["invalid_login"],
                code="invalid_login",
                params={"username": self.username_field.verbose_name},
            )


class BackOfficeAdminSite(AdminSite):
    login_form = BackOfficeAuthenticationForm
    site_header = "Casino table-games back office"
    site_title = "Casino table-games back office"
    index_title = "Configuration and audit"

    def has_permission(self, request: HttpRequest) -> bool:
        return admin_site_role(request.user) is not None
