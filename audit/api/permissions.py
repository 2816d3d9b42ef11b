"""Who may read the audit trail: compliance staff only (DESIGN.md, Roles)."""

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from audit.context import COMPLIANCE_ROLE


class IsCompliance(BasePermission):
    """A staff principal whose role is compliance. Terminals and other roles get 403;
    the API's exception handler records every 403 in the audit trail."""

    message = "Only compliance staff may read the audit trail."

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        if principal is None or not getattr(principal, "is_authenticated", False):
            return False  # DRF answers 401
        terminal = getattr(principal, "terminal", None)
        return terminal is None and getattr(principal, "role", None) == COMPLIANCE_ROLE
