"""Who may read the audit trail: compliance staff only (DESIGN.md, Roles)."""

from typing import Any

from django.utils import timezone
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from audit.context import actor_from_principal
from audit.services import record_rejection

COMPLIANCE_ROLE = "compliance"


class IsCompliance(BasePermission):
    """A staff principal whose role is compliance. Terminals and other roles get 403,
    and the refusal is itself recorded in the audit trail."""

    message = "Only compliance staff may read the audit trail."

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        if principal is None or not getattr(principal, "is_authenticated", False):
            return False  # DRF answers 401
        terminal = getattr(principal, "terminal", None)
        if terminal is None and getattr(principal, "role", None) == COMPLIANCE_ROLE:
            return True
        who = (
            f"terminal {terminal.name}"
            if terminal is not None
            else f"role {getattr(principal, 'role', None) or 'none'}"
        )
        record_rejection(
            event_type="audit.access.denied",
            actor=actor_from_principal(principal),
            table_id=terminal.table_id if terminal is not None else None,
            detail=f"{request.method} {request.path}: {who} may not read the audit trail",
            occurred_at=timezone.now(),
        )
        return False
