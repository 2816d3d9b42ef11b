"""Row locks, in one documented order: table, then shoe or chip slip, then round (STYLE.md §8).

Every write path of a table takes its locks here and nowhere else. A terminal's own row
(dealer sign-in and sign-out) is locked alone, never with a table's; a sign-in locks the
dealer's row before any terminal's. Terminal
paths lock with NOWAIT: a table is a serial process, so a second request that
finds it busy answers 409 `table_busy` at once rather than queueing. The locks
of one request are taken by one statement where they can be, so a round
change costs one round trip to lock what it changes.

Each table lock also reads the table's latest count (opener or closer), which with the table's
`is_active` says whether it may deal and take money (`casino.services.table_state`).
"""

import datetime as dt
from typing import NamedTuple

from django.db import OperationalError
from django.db.models import OuterRef, Q, Subquery

from casino.models import Dealer, Shoe, Table, TableInventory, Terminal
from kernel.errors import ConflictError, NotFoundError


def table_busy() -> ConflictError:
    return ConflictError("table_busy", "Another request is changing this table right now; retry shortly.")


class LatestCount(NamedTuple):
    """A table's latest counted inventory: an opener (open for that shift) or a closer (closed)."""

    kind: str
    gaming_day: dt.date
    shift: str

    @classmethod
    def of(cls, kind: str | None, gaming_day: dt.date | None, shift: str | None) -> "LatestCount | None":
        if kind is None or gaming_day is None or shift is None:
            return None  # never counted
        return cls(kind, gaming_day, shift)


class LockedTable(NamedTuple):
    table: Table
    latest_count: LatestCount | None


# Counts are written one at a time under the table's lock: the highest id is the latest.
_INVENTORY = TableInventory._meta.db_table
LATEST_COUNT_COLUMNS = '"c"."kind", "c"."gaming_day", "c"."shift"'


def latest_count_join(table_alias: str) -> str:
    return (
        f'LEFT JOIN LATERAL (SELECT "kind", "gaming_day", "shift" FROM "{_INVENTORY}" '  # noqa: S608  (model metadata only)
        f'WHERE "table_id" = "{table_alias}"."id" ORDER BY "id" DESC LIMIT 1) AS "c" ON TRUE'
    )


def lock_table(*, table_id: int) -> LockedTable:
    """A table's row, locked, with its latest count read by the same statement."""
    latest = TableInventory.objects.filter(table=OuterRef("pk")).order_by("-pk")
    try:
        table = (
            Table.objects.select_for_update(nowait=True, of=("self",))
            .annotate(
                count_kind=Subquery(latest.values("kind")[:1]),
                count_gaming_day=Subquery(latest.values("gaming_day")[:1]),
                count_shift=Subquery(latest.values("shift")[:1]),
            )
            .filter(pk=table_id)
            .first()
        )
    except OperationalError as exc:
        raise table_busy() from exc
    if table is None:
        raise NotFoundError("not_found", f"No table {table_id}.")
    count = LatestCount.of(table.count_kind, table.count_gaming_day, table.count_shift)
    return LockedTable(table, count)


def lock_open_shoe(*, table: Table) -> Shoe | None:
    """The open shoe of a table whose row the caller has locked."""
    return Shoe.objects.select_for_update(of=("self",)).filter(table=table, closed_at__isnull=True).first()


def lock_shoe(*, table: Table, shoe_id: int) -> Shoe:
    """A shoe of a table whose row the caller has locked."""
    shoe = Shoe.objects.select_for_update(of=("self",)).filter(pk=shoe_id, table=table).first()
    if shoe is None:
        raise NotFoundError("not_found", f"No shoe {shoe_id} at this table.")
    return shoe


def lock_terminal(*, terminal_id: int) -> Terminal:
    """A terminal's row with its table and signed-in dealer read alongside."""
    return (
        Terminal.objects.select_for_update(of=("self",)).select_related("dealer", "table").get(pk=terminal_id)
    )


def lock_dealer(*, dealer_id: int) -> Dealer:
    try:
        return Dealer.objects.select_for_update(of=("self",)).get(pk=dealer_id)
    except Dealer.DoesNotExist:
        raise NotFoundError("not_found", f"There is no dealer {dealer_id}.") from None


class LockedForSignIn(NamedTuple):
    dealer: Dealer | None  # the badge's dealer, if there is one
    terminal: Terminal  # the terminal signing in, with its table and current dealer
    elsewhere: Terminal | None  # the other terminal that dealer is signed in at, with its table


def lock_for_sign_in(*, terminal_id: int, badge: str) -> LockedForSignIn:
    """A sign-in locks the badge's dealer first, then (in pk order) the terminal and the one the
    dealer is signed in at now, so two sign-ins of one dealer at two terminals never deadlock."""
    dealer = Dealer.objects.select_for_update(of=("self",)).filter(badge=badge).first()
    signed_in_there = Q(dealer_id=dealer.pk) if dealer is not None else Q(pk__in=[])
    terminals = list(
        Terminal.objects.select_for_update(of=("self",))
        .select_related("dealer", "table")
        .filter(Q(pk=terminal_id) | signed_in_there)
        .order_by("pk")
    )
    terminal = next(row for row in terminals if row.pk == terminal_id)
    elsewhere = next((row for row in terminals if row.pk != terminal_id), None)
    return LockedForSignIn(dealer=dealer, terminal=terminal, elsewhere=elsewhere)
