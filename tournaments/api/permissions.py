"""Who may call the tournaments' endpoints (API.md "Tournaments"; DESIGN.md, Roles). An entry's
token acts on its own tournament only: anything else is 403 `other_tournament`."""

from typing import Any, ClassVar

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from casino.api.authentication import Principal
from casino.models import StaffRole
from tournaments.api.authentication import DisplayPrincipal, EntryPrincipal


class _TournamentPermission(BasePermission):
    """Staff with one of `roles` (any role when empty); an entry of the tournament in the path when
    `entries_may`; the tournament's board display when `displays_may`."""

    code = "role_not_allowed"
    roles: ClassVar[tuple[str, ...]] = ()
    entries_may = False
    displays_may = False

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        if isinstance(principal, DisplayPrincipal):
            if principal.tournament_id != view.kwargs.get("tournament_id"):
                raise PermissionDenied(
                    "A display key reads its own tournament only.", code="display_key_invalid"
                )
            return self.displays_may
        if isinstance(principal, EntryPrincipal):
            if principal.tournament_id != view.kwargs.get("tournament_id"):
                raise PermissionDenied(
                    "An entry's token acts on its own tournament only.", code="other_tournament"
                )
            return self.entries_may
        if not isinstance(principal, Principal) or principal.role is None:
            return False
        return not self.roles or principal.has_role(*self.roles)


class Staff(_TournamentPermission):
    message = "Only staff may make this call."


class Director(_TournamentPermission):
    message = "Only the tournament director may make this call."
    roles = (StaffRole.TOURNAMENT_DIRECTOR,)


class CageCashier(_TournamentPermission):
    message = "Only a cage cashier may make this call."
    roles = (StaffRole.CAGE_CASHIER,)


class SecondPerson(_TournamentPermission):
    message = "Only a pit boss or compliance may approve."
    roles = (StaffRole.PIT_BOSS, StaffRole.COMPLIANCE)


class StaffEntryOrDisplay(_TournamentPermission):
    message = "Only staff, the tournament's entries and its board display may make this call."
    entries_may = True
    displays_may = True


class EntryOnly(_TournamentPermission):
    message = "A heat's game is started with the entry's token."
    code = "entry_only"
    entries_may = True
    roles = ("-",)  # no staff role starts an entry's game
