"""Row locks, in one documented order: table, then shoe or chip slip, then round (STYLE.md §8).

Every write path of a table takes its locks here and nowhere else. A terminal's own row
(dealer sign-in and sign-out) is locked alone, never with a table's. Terminal
paths lock with NOWAIT: a table is a serial process, so a second request that
finds it busy answers 409 `table_busy` at once rather than queueing. The locks
of one request are taken by one statement where they can be, so a round
change costs one round trip to lock what it changes.
"""

import functools
from typing import Any, NamedTuple, cast

from django.db import OperationalError, connection
from django.db.models import Model

from casino.models import (
    EVENT_COLUMNS,
    OPEN_ROUND_STATES,
    ChipSlip,
    Round,
    RoundEvent,
    Shoe,
    SlipKind,
    Table,
    Terminal,
)
from kernel.errors import ConflictError, ForbiddenError, NotFoundError
from kernel.rows import Columns, split_row


def _busy() -> ConflictError:
    return ConflictError("table_busy", "Another request is changing this table right now; retry shortly.")


def lock_table(*, table_id: int) -> Table:
    try:
        table = Table.objects.select_for_update(nowait=True, of=("self",)).filter(pk=table_id).first()
    except OperationalError as exc:
        raise _busy() from exc
    if table is None:
        raise NotFoundError("not_found", f"No table {table_id}.")
    return table


def lock_open_shoe(*, table: Table) -> Shoe | None:
    """The open shoe of a table whose row the caller has locked."""
    return Shoe.objects.select_for_update(of=("self",)).filter(table=table, closed_at__isnull=True).first()


def lock_shoe(*, table: Table, shoe_id: int) -> Shoe:
    """A shoe of a table whose row the caller has locked."""
    shoe = Shoe.objects.select_for_update(of=("self",)).filter(pk=shoe_id, table=table).first()
    if shoe is None:
        raise NotFoundError("not_found", f"No shoe {shoe_id} at this table.")
    return shoe


def lock_slip(*, kind: SlipKind, slip_id: int) -> tuple[Table, ChipSlip]:
    """A fill or credit slip with its table (table, then slip)."""
    table_id = ChipSlip.objects.filter(pk=slip_id, kind=kind).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError("not_found", f"No {kind} {slip_id}.")
    table = lock_table(table_id=table_id)
    return table, ChipSlip.objects.select_for_update(of=("self",)).get(pk=slip_id)


def lock_terminal(*, terminal_id: int) -> Terminal:
    """A terminal's row with its table and signed-in dealer read alongside."""
    return (
        Terminal.objects.select_for_update(of=("self",)).select_related("dealer", "table").get(pk=terminal_id)
    )


class _NewRoundLock:
    """The statement that locks a table and its open shoe for a new round, written once per
    process, with whether the table has a round open."""

    def __init__(self) -> None:
        self.shoe = Columns(Shoe, "s")
        self.table = Columns(Table, "t")
        self.sql = (
            f"SELECT {self.shoe.sql}, {self.table.sql}, EXISTS ("  # noqa: S608  (model metadata only)
            f'SELECT 1 FROM "{Round._meta.db_table}" AS "r" '
            'WHERE "r"."table_id" = "s"."table_id" AND "r"."state" = ANY(%s)) '
            f'FROM {self.shoe.table} JOIN {self.table.table} ON "t"."id" = "s"."table_id" '
            'WHERE "s"."table_id" = %s AND "s"."closed_at" IS NULL FOR UPDATE OF "t", "s" NOWAIT'
        )

    def run(self, *, table_id: int) -> tuple[Shoe, bool] | None:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [[str(state) for state in OPEN_ROUND_STATES], table_id])
            row = cursor.fetchone()
        if row is None:
            return None
        *columns, round_open = row
        shoe, table = split_row(columns, self.shoe, self.table)
        shoe.table = table
        return shoe, round_open


@functools.cache
def _new_round_lock() -> _NewRoundLock:
    return _NewRoundLock()


def lock_table_for_new_round(*, table_id: int) -> Shoe:
    """The table and its open shoe, locked in one statement (table, then shoe), for a new round.

    Refuses a table with a round still open (409 `round_in_progress`) or no open shoe
    (409 `no_open_shoe`)."""
    try:
        locked = _new_round_lock().run(table_id=table_id)
    except OperationalError as exc:
        raise _busy() from exc
    if locked is None:
        if Round.objects.filter(table_id=table_id, state__in=OPEN_ROUND_STATES).exists():
            raise ConflictError("round_in_progress", "The table already has an open round.")
        raise ConflictError("no_open_shoe", "The table has no open shoe; open one first.")
    shoe, round_open = locked
    if round_open:
        raise ConflictError("round_in_progress", "The table already has an open round.")
    return shoe


class LockedRound(NamedTuple):
    round: Round  # with its table, shoe and paytable
    events: list[list[Any]]  # its stored events in order, as `EVENT_COLUMNS`


class _RoundLock:
    """The statement that locks a round with its table and shoe, written once per process."""

    def __init__(self) -> None:
        self.round = Columns(Round, "r")
        self.table = Columns(Table, "t")
        self.shoe = Columns(Shoe, "s")
        self.paytable = Columns(
            cast("type[Model]", Round.paytable.field.related_model), "p"
        )  # named by string: a side-bet app
        events = RoundEvent._meta.db_table
        select = (
            f"SELECT {self.round.sql}, {self.table.sql}, {self.shoe.sql}, {self.paytable.sql}, "  # noqa: S608  (model metadata only)
            f'(SELECT json_agg(json_build_array({", ".join(f"e.{c}" for c in EVENT_COLUMNS)}) ORDER BY e."number") '
            f'FROM "{events}" AS e WHERE e."round_id" = "r"."id") '
            f"FROM {self.round.table} "
            f'JOIN {self.table.table} ON "t"."id" = "r"."table_id" '
            f'JOIN {self.shoe.table} ON "s"."id" = "r"."shoe_id" '
            f'JOIN {self.paytable.table} ON "p"."id" = "r"."paytable_id" '
            'WHERE "r"."id" = %s'
        )
        lock = ' FOR UPDATE OF "t", "s", "r" NOWAIT'
        self.any_table = select + lock
        self.of_table = select + ' AND "r"."table_id" = %s' + lock

    def run(self, *, round_id: int, table_id: int | None) -> LockedRound | None:
        with connection.cursor() as cursor:
            if table_id is None:
                cursor.execute(self.any_table, [round_id])
            else:
                cursor.execute(self.of_table, [round_id, table_id])
            row = cursor.fetchone()
        if row is None:
            return None
        *columns, events = row
        round_, table, shoe, paytable = split_row(columns, self.round, self.table, self.shoe, self.paytable)
        round_.table, round_.shoe, round_.paytable = table, shoe, paytable
        return LockedRound(round_, events or [])


@functools.cache
def _round_lock() -> _RoundLock:
    return _RoundLock()


def lock_round(*, round_id: int, table_id: int | None = None) -> LockedRound:
    """A round with its table and shoe, locked in one statement (table, shoe, round), its
    paytable and stored events read alongside. With `table_id`, only a round of that table
    (403 `other_table`)."""
    try:
        locked = _round_lock().run(round_id=round_id, table_id=table_id)
    except OperationalError as exc:
        raise _busy() from exc
    if locked is None:
        if table_id is not None and Round.objects.filter(pk=round_id).exists():
            raise ForbiddenError("other_table", "A terminal acts on its own table's rounds only.")
        raise NotFoundError("not_found", f"No round {round_id}.")
    return locked
