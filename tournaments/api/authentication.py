"""Entry tokens (API.md "Tournaments"): `Authorization: Token <key>` with the token printed on an
entry's slip, acting for that entry of its tournament only. The tournaments' endpoints look a key
up among the entries first, then as the house does: staff keep their keys.

The board display (the big screen of the tournament area): `Authorization: Display <key>` with the
tournament's display key (`tournaments.services.new_display_key`), read-only and for its own
tournament's leaderboard only; a wrong key is `403 display_key_invalid`. No `?key=` on the API:
a key in a URL lands in access logs."""

from dataclasses import dataclass

from django.db import connection
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from casino.api.authentication import Principal, TokenAuthentication
from kernel.keys import key_matches, split_prefix
from tournaments import selectors

ENTRY_BY_PREFIX = (
    'SELECT "id", "tournament_id", "number", "key_hash" FROM "tournaments_entry" WHERE "key_prefix" = %s'
)


@dataclass(frozen=True)
class EntryPrincipal(Principal):
    """A patron's entry: no role, no terminal."""

    entry_id: int = 0
    tournament_id: int = 0
    number: int = 0

    @property
    def scope(self) -> str:
        return f"entry:{self.entry_id}"

    def __str__(self) -> str:
        return f"entry {self.number} of tournament {self.tournament_id}"


class EntryTokenAuthentication(TokenAuthentication):
    def _principal_for(self, key: str, *, changes: bool) -> Principal | None:
        prefix = split_prefix(key)
        found = None
        if prefix is not None:
            with connection.cursor() as cursor:
                cursor.execute(ENTRY_BY_PREFIX, [prefix])
                found = cursor.fetchone()
        if found is None:
            return super()._principal_for(key, changes=changes)
        entry_id, tournament_id, number, key_hash = found
        if not key_matches(key, key_hash):
            return None
        return EntryPrincipal(entry_id=entry_id, tournament_id=tournament_id, number=number)


@dataclass(frozen=True)
class DisplayPrincipal(Principal):
    """A tournament's board display: no role, no terminal, no entry."""

    tournament_id: int = 0

    @property
    def scope(self) -> str:
        return f"display:{self.tournament_id}"

    def __str__(self) -> str:
        return f"the board display of tournament {self.tournament_id}"


DISPLAY_KEY_MAX_LENGTH = 128


class DisplayKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Display"

    def authenticate(self, request: Request) -> tuple[Principal, str] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        key = header[1].decode("ascii", "replace") if len(header) == 2 else ""
        tournament = None
        if 0 < len(key) <= DISPLAY_KEY_MAX_LENGTH and key.isprintable():
            tournament = selectors.tournament_for_display_key(key=key)
        if tournament is None:
            raise exceptions.PermissionDenied("The display key is not valid.", code="display_key_invalid")
        return DisplayPrincipal(tournament_id=tournament.pk), key
