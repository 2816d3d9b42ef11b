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
import functools
from typing import Any, NamedTuple, cast

from django.db import OperationalError, connection
from django.db.models import Model, OuterRef, Q, Subquery

from casino.models import (
    EVENT_COLUMNS,
    OPEN_ROUND_STATES,
    ChipSlip,
    Dealer,
    Round,
    RoundEvent,
    RuleChangeStatus,
    Shoe,
    SlipKind,
    Table,
    TableInventory,
    TableRuleChange,
    Terminal,
)
from kernel.errors import ConflictError, ForbiddenError, NotFoundError
from kernel.rows import Columns, split_row


def _busy() -> ConflictError:
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
_LATEST_COUNT_COLUMNS = '"c"."kind", "c"."gaming_day", "c"."shift"'


def _latest_count_join(table_alias: str) -> str:
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
        raise _busy() from exc
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


def lock_slip(*, kind: SlipKind, slip_id: int) -> tuple[LockedTable, ChipSlip]:
    """A fill or credit slip with its table (table, then slip)."""
    table_id = ChipSlip.objects.filter(pk=slip_id, kind=kind).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError("not_found", f"No {kind} {slip_id}.")
    locked = lock_table(table_id=table_id)
    return locked, ChipSlip.objects.select_for_update(of=("self",)).get(pk=slip_id)


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
            f"SELECT {self.shoe.sql}, {self.table.sql}, {_LATEST_COUNT_COLUMNS}, EXISTS ("  # noqa: S608  (model metadata only)
            f'SELECT 1 FROM "{Round._meta.db_table}" AS "r" '
            'WHERE "r"."table_id" = "s"."table_id" AND "r"."state" = ANY(%s)), EXISTS ('
            f'SELECT 1 FROM "{TableRuleChange._meta.db_table}" AS "rc" WHERE "rc"."table_id" = "s"."table_id" '
            'AND "rc"."status" = %s AND "rc"."effective_at" <= %s) '
            f'FROM {self.shoe.table} JOIN {self.table.table} ON "t"."id" = "s"."table_id" '
            f"{_latest_count_join('t')} "
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
        raise _busy() from exc
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
            f"{_LATEST_COUNT_COLUMNS}, "
            f'(SELECT json_agg(json_build_array({", ".join(f"e.{c}" for c in EVENT_COLUMNS)}) ORDER BY e."number") '
            f'FROM "{events}" AS e WHERE e."round_id" = "r"."id") '
            f"FROM {self.round.table} "
            f'JOIN {self.table.table} ON "t"."id" = "r"."table_id" '
            f'JOIN {self.shoe.table} ON "s"."id" = "r"."shoe_id" '
            f'JOIN {self.paytable.table} ON "p"."id" = "r"."paytable_id" '
            f"{_latest_count_join('t')} "
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
        raise _busy() from exc
    if locked is None:
        if table_id is not None and Round.objects.filter(pk=round_id).exists():
            raise ForbiddenError("other_table", "A terminal acts on its own table's rounds only.")
        raise NotFoundError("not_found", f"No round {round_id}.")
    return locked
