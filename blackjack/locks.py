"""The blackjack round's row locks, in the house's order: table, then shoe, then round
(`casino.locks`, STYLE.md §8). A round change costs one round trip to lock what it changes."""

import datetime as dt
import functools
from typing import Any, NamedTuple, cast

from django.db import OperationalError, connection
from django.db.models import Model

from blackjack.models import EVENT_COLUMNS, OPEN_ROUND_STATES, Round, RoundEvent
from casino.locks import LATEST_COUNT_COLUMNS, LatestCount, latest_count_join, lock_table, table_busy
from casino.models import RuleChangeStatus, Shoe, Table, TableRuleChange
from kernel.errors import ForbiddenError, NotFoundError
from kernel.rows import Columns, split_row


class LockedForNewRound(NamedTuple):
    table: Table
    latest_count: LatestCount | None
    shoe: Shoe | None  # the open shoe, with its table
    round_open: bool
    rule_change_due: bool = False  # an approved limit or house-rule change whose time has come


class _NewRoundLock:
    """The statement that locks a table and its open shoe for a new round, written once per
    process, with the table's latest count, whether the table has a round open and whether an
    approved rule change is due (`casino.services.rule_changes`)."""

    def __init__(self) -> None:
        self.shoe = Columns(Shoe, "s")
        self.table = Columns(Table, "t")
        self.sql = (
            f"SELECT {self.shoe.sql}, {self.table.sql}, {LATEST_COUNT_COLUMNS}, EXISTS ("  # noqa: S608  (model metadata only)
            f'SELECT 1 FROM "{Round._meta.db_table}" AS "r" '
            'WHERE "r"."table_id" = "s"."table_id" AND "r"."state" = ANY(%s)), EXISTS ('
            f'SELECT 1 FROM "{TableRuleChange._meta.db_table}" AS "rc" WHERE "rc"."table_id" = "s"."table_id" '
            'AND "rc"."status" = %s AND "rc"."effective_at" <= %s) '
            f'FROM {self.shoe.table} JOIN {self.table.table} ON "t"."id" = "s"."table_id" '
            f"{latest_count_join('t')} "
            'WHERE "s"."table_id" = %s AND "s"."closed_at" IS NULL FOR UPDATE OF "t", "s" NOWAIT'
        )

    def run(self, *, table_id: int, now: dt.datetime) -> LockedForNewRound | None:
        with connection.cursor() as cursor:
            states = [str(state) for state in OPEN_ROUND_STATES]
            cursor.execute(self.sql, [states, RuleChangeStatus.APPROVED.value, now, table_id])
            row = cursor.fetchone()
        if row is None:
            return None
        *columns, count_kind, count_day, count_shift, round_open, rule_change_due = row
        shoe, table = split_row(columns, self.shoe, self.table)
        shoe.table = table
        count = LatestCount.of(count_kind, count_day, count_shift)
        return LockedForNewRound(table, count, shoe, round_open, rule_change_due)


@functools.cache
def _new_round_lock() -> _NewRoundLock:
    return _NewRoundLock()


def lock_table_for_new_round(*, table_id: int, now: dt.datetime) -> LockedForNewRound:
    """The table and its open shoe, locked in one statement (table, then shoe), for a new round,
    with the table's latest count, whether it has a round open and whether an approved rule
    change is due at `now`. Without an open shoe, the table alone (the refusal's path costs more
    statements)."""
    try:
        locked = _new_round_lock().run(table_id=table_id, now=now)
    except OperationalError as exc:
        raise table_busy() from exc
    if locked is not None:
        return locked
    table, count = lock_table(table_id=table_id)
    round_open = Round.objects.filter(table_id=table_id, state__in=OPEN_ROUND_STATES).exists()
    return LockedForNewRound(table, count, None, round_open)


class LockedRound(NamedTuple):
    round: Round  # with its table, shoe and paytable
    events: list[list[Any]]  # its stored events in order, as `EVENT_COLUMNS`
    latest_count: LatestCount | None  # its table's latest count


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
            f"{LATEST_COUNT_COLUMNS}, "
            f'(SELECT json_agg(json_build_array({", ".join(f"e.{c}" for c in EVENT_COLUMNS)}) ORDER BY e."number") '
            f'FROM "{events}" AS e WHERE e."round_id" = "r"."id") '
            f"FROM {self.round.table} "
            f'JOIN {self.table.table} ON "t"."id" = "r"."table_id" '
            f'JOIN {self.shoe.table} ON "s"."id" = "r"."shoe_id" '
            f'JOIN {self.paytable.table} ON "p"."id" = "r"."paytable_id" '
            f"{latest_count_join('t')} "
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
        *columns, count_kind, count_day, count_shift, events = row
        round_, table, shoe, paytable = split_row(columns, self.round, self.table, self.shoe, self.paytable)
        round_.table, round_.shoe, round_.paytable = table, shoe, paytable
        return LockedRound(round_, events or [], LatestCount.of(count_kind, count_day, count_shift))


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
        raise table_busy() from exc
    if locked is None:
        if table_id is not None and Round.objects.filter(pk=round_id).exists():
            raise ForbiddenError("other_table", "A terminal acts on its own table's rounds only.")
        raise NotFoundError("not_found", f"No round {round_id}.")
    return locked
