"""Entry tokens (API.md "Tournaments"): `Authorization: Token <key>` with the token printed on an
entry's slip, acting for that entry of its tournament only. The tournaments' endpoints look a key
up among the entries first, then as the house does: staff keep their keys."""

from dataclasses import dataclass

from django.db import connection

from casino.api.authentication import Principal, TokenAuthentication
from kernel.keys import key_matches, split_prefix

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
