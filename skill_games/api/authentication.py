"""Seat tokens (API.md "Skill games"): `Authorization: Token <key>` as for terminals and staff,
the key acting on one seat of one game. The skill-game endpoints look a key up among the seats
first, then as the house does (`casino.api.authentication`): staff and terminals keep their keys."""

from dataclasses import dataclass

from django.db import connection

from casino.api.authentication import Principal, TokenAuthentication
from kernel.keys import key_matches, split_prefix

# Every request of a device runs it: written once rather than compiled by the ORM each time.
SEAT_BY_PREFIX = (
    'SELECT "id", "game_id", "number", "key_hash" FROM "skill_games_seat" WHERE "key_prefix" = %s'
)


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
        found = None
        if prefix is not None:
            with connection.cursor() as cursor:
                cursor.execute(SEAT_BY_PREFIX, [prefix])
                found = cursor.fetchone()
        if found is None:
            return super()._principal_for(key, changes=changes)
        seat_id, game_id, number, key_hash = found
        if not key_matches(key, key_hash):
            return None
        return SeatPrincipal(seat_id=seat_id, game_id=game_id, seat=number)
