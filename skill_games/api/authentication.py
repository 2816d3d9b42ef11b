"""Seat tokens (API.md "Skill games"): `Authorization: Token <key>` as for terminals and staff,
the key acting on one seat of one game. The skill-game endpoints look a key up among the seats
first, then as the house does (`casino.api.authentication`): staff and terminals keep their keys."""

from dataclasses import dataclass

from casino.api.authentication import Principal, TokenAuthentication
from kernel.keys import key_matches, split_prefix
from skill_games.models import Seat


@dataclass(frozen=True)
class SeatPrincipal(Principal):
    """A player's device: one seat of one game, no role, no terminal."""

    seat_id: int = 0
    game_id: int = 0
    seat: int = 0

    @property
    def scope(self) -> str:
        return f"seat:{self.seat_id}"

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id}"


class SeatTokenAuthentication(TokenAuthentication):
    def _principal_for(self, key: str, *, changes: bool) -> Principal | None:
        prefix = split_prefix(key)
        found = None if prefix is None else Seat.objects.filter(key_prefix=prefix).first()
        if found is None:
            return super()._principal_for(key, changes=changes)
        if not key_matches(key, found.key_hash):
            return None
        return SeatPrincipal(seat_id=found.pk, game_id=found.game_id, seat=found.number)
