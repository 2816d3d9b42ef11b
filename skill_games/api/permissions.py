"""Who may call the skill-game endpoints (API.md "Skill games"; DESIGN.md, Roles). A seat token
acts on its own game only: anything else is 403 `other_game`."""

from typing import Any

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from casino.api.authentication import Principal
from casino.models import StaffRole
from skill_games.api.authentication import SeatPrincipal

# Practice games are created by a pit boss, an admin or the tournament director (API.md).
CREATOR_ROLES = (StaffRole.PIT_BOSS, StaffRole.ADMIN, StaffRole.TOURNAMENT_DIRECTOR)


class _SkillGamePermission(BasePermission):
    """A seat token on another game (or on no game: creating one) is 403 `other_game`; a seat of
    the game in the path may call when `seats_may`; staff when `staff_may`."""

    code = "role_not_allowed"
    seats_may = True

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        if isinstance(principal, SeatPrincipal):
            if principal.game_id != view.kwargs.get("game_id"):
                raise PermissionDenied("A seat token acts on its own game only.", code="other_game")
            return self.seats_may
        return isinstance(principal, Principal) and self.staff_may(principal)

    def staff_may(self, principal: Principal) -> bool:
        return principal.role is not None


class CreatesPracticeGames(_SkillGamePermission):
    message = "Only a pit boss, an admin or the tournament director may create a practice game."

    def staff_may(self, principal: Principal) -> bool:
        return principal.has_role(*CREATOR_ROLES)


class SeatOfTheGameOrStaff(_SkillGamePermission):
    """A seat of the game in the path, or any staff member (who see no hidden card)."""

    message = "Only the game's seats and staff may make this call."


class SeatOfTheGame(_SkillGamePermission):
    """Moves come from the game's own seats (the one in `needs`; the service checks which)."""

    message = "Only a seat of the game moves: staff watch."
    code = "seat_only"

    def staff_may(self, principal: Principal) -> bool:
        return False
