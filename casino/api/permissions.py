"""Who may call what (DESIGN.md, Roles). Refusals are 403 with a stable code."""

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from casino.api.authentication import SUPERVISOR_ROLES, Principal


def _principal(request: Request) -> Principal | None:
    user = request.user
    return user if isinstance(user, Principal) else None


class IsTerminal(BasePermission):
    message = "Only a dealer terminal may make this call."
    code = "terminal_only"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = _principal(request)
        return principal is not None and principal.is_terminal


class DealerSignedIn(BasePermission):
    message = "A dealer must be signed in at this terminal."
    code = "dealer_not_signed_in"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = _principal(request)
        return (
            principal is not None
            and principal.terminal is not None
            and principal.terminal.dealer_id is not None
        )


class IsSupervisor(BasePermission):
    message = "Only a floor supervisor, pit boss or admin may make this call."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = _principal(request)
        return principal is not None and principal.has_role(*SUPERVISOR_ROLES)


class IsTerminalOrStaff(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        principal = _principal(request)
        return principal is not None and (principal.is_terminal or principal.role is not None)
