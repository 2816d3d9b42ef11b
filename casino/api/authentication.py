"""`Authorization: Token <key>` for terminals and staff (API.md, Authentication)."""

import datetime as dt
import functools
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from casino.models import Dealer, StaffRole, StaffToken, Table, Terminal
from casino.services.terminals import SESSION_SEEN_EVERY, session_idle_cutoff, session_is_live
from kernel.keys import hash_key, key_matches, split_prefix
from kernel.rows import Columns, split_row


@dataclass(frozen=True)
class Principal:
    """Who is calling: a terminal (bound to its table) or a staff member with a role."""

    terminal: Terminal | None = None
    user: AbstractBaseUser | None = None
    role: str | None = None

    is_authenticated = True

    @property
    def scope(self) -> str:
        return f"terminal:{self.terminal.pk}" if self.terminal else f"user:{self.user.pk if self.user else 0}"

    @property
    def is_terminal(self) -> bool:
        return self.terminal is not None

    def has_role(self, *roles: str) -> bool:
        return self.role in roles

    def __str__(self) -> str:
        return self.terminal.name if self.terminal else str(self.user)


class _TerminalLookup:
    """Every call looks its terminal up: one statement written once per process (kernel.rows).

    The same statement moves the idle clock of the dealer's session when the call may change
    something (a POST with the terminal's own key, a live session, last moved a minute ago or
    more): the update runs beside the read, which still sees the row as it was.
    """

    def __init__(self) -> None:
        self.terminal = Columns(Terminal, "term")
        self.table = Columns(Table, "tab")
        self.dealer = Columns(Dealer, "dealer")
        terminals = Terminal._meta.db_table
        self.sql = (
            f'WITH "seen" AS (UPDATE "{terminals}" SET "dealer_seen_at" = %(now)s '  # noqa: S608  (model metadata only)
            'WHERE "key_prefix" = %(prefix)s AND "key_hash" = %(key_hash)s AND %(changes)s '
            'AND "dealer_id" IS NOT NULL AND "dealer_seen_at" > %(idle_cutoff)s '
            'AND "dealer_seen_at" <= %(seen_before)s RETURNING "id") '
            f"SELECT {self.terminal.sql}, {self.table.sql}, {self.dealer.sql} FROM {self.terminal.table} "
            f'JOIN {self.table.table} ON "tab"."id" = "term"."table_id" '
            f'LEFT JOIN {self.dealer.table} ON "dealer"."id" = "term"."dealer_id" '
            'WHERE "term"."key_prefix" = %(prefix)s'
        )

    def run(self, key: str, prefix: str, *, changes: bool, now: dt.datetime) -> Terminal | None:
        params: dict[str, str | bool | dt.datetime] = {
            "prefix": prefix,
            "key_hash": hash_key(key),
            "changes": changes,
            "now": now,
            "idle_cutoff": session_idle_cutoff(now=now),
            "seen_before": now - SESSION_SEEN_EVERY,
        }
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        terminal, table, dealer = split_row(row, self.terminal, self.table, self.dealer)
        terminal.table, terminal.dealer = table, dealer
        if not session_is_live(terminal, now=now):
            # Expired: the terminal acts with no dealer until one signs in again.
            terminal.dealer, terminal.dealer_signed_in_at, terminal.dealer_seen_at = None, None, None
        return terminal


@functools.cache
def _terminal_lookup() -> _TerminalLookup:
    return _TerminalLookup()


def _terminal_by_prefix(key: str, prefix: str, *, changes: bool) -> Terminal | None:
    return _terminal_lookup().run(key, prefix, changes=changes, now=timezone.now())


SUPERVISOR_ROLES = (StaffRole.FLOOR_SUPERVISOR, StaffRole.PIT_BOSS, StaffRole.ADMIN)


class TokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Principal, str] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("The Authorization header must be `Token <key>`.")
        try:
            key = header[1].decode()
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("The token is not valid.") from exc
        principal = self._principal_for(key, changes=request.method not in SAFE_METHODS)
        if principal is None:
            raise exceptions.AuthenticationFailed("The token is not valid.")
        return principal, key

    def authenticate_header(self, request: Request) -> str:
        return self.keyword

    def _principal_for(self, key: str, *, changes: bool) -> Principal | None:
        prefix = split_prefix(key)
        if prefix is None:
            return None
        terminal = _terminal_by_prefix(key, prefix, changes=changes)
        if terminal is not None:
            if terminal.is_active and key_matches(key, terminal.key_hash):
                return Principal(terminal=terminal)
            return None
        token = StaffToken.objects.select_related("user", "user__staff").filter(key_prefix=prefix).first()
        if token is None or not token.is_active or not token.user.is_active:
            return None
        if not key_matches(key, token.key_hash):
            return None
        role = getattr(getattr(token.user, "staff", None), "role", None)
        return Principal(user=token.user, role=role)
