"""Reads of blackjack rounds (STYLE.md §6): querysets for lists, engine snapshots for services
and views."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import QuerySet, Sum

from blackjack.engine import round as engine
from blackjack.engine.wagers import SeatWagers
from blackjack.mappers import rules_from_json
from blackjack.models import (
    EVENT_COLUMNS,
    OPEN_ROUND_STATES,
    EventKind,
    Round,
    RoundEvent,
    RoundState,
    Settlement,
    SettlementLine,
)
from casino.engine.cards import parse_card
from casino.games import PlayOnFloor
from casino.models import LedgerEntry, Table
from casino.side_bets import registered
from kernel.formatting import local_time

# A round's events, read to show it: written once rather than compiled by the ORM each time
# (a round call reads them with its lock, blackjack.locks.lock_round).
_EVENTS_OF_ROUND = (
    f'SELECT {", ".join(EVENT_COLUMNS)} FROM "{RoundEvent._meta.db_table}" '  # noqa: S608  (constants only)
    'WHERE "round_id" = %s ORDER BY "number"'
)


@dataclass(frozen=True)
class RoundSnapshot:
    round: Round
    state: engine.RoundState
    players: dict[int, str]
    settlement: Settlement | None
    lines: Sequence[SettlementLine]
    events_stored: int = 0  # card and action events so far: the next one is numbered one more


def opening_wagers(opening: Iterable[dict[str, Any]]) -> tuple[SeatWagers, ...]:
    side_bet_kinds = {str(kind): kind for adapter in registered() for kind in adapter.side_bet.kinds}
    return tuple(
        SeatWagers(
            seat=seat["seat"],
            primary_cents=seat["primary_cents"],
            bonus_cents={side_bet_kinds[kind]: cents for kind, cents in seat["bonus_cents"].items()},
        )
        for seat in opening
    )


def _engine_event(
    kind: str, card: str, seat: int | None, hand: int | None, action: str, amount: int | None
) -> engine.RoundEvent:
    if kind == EventKind.CARD:
        return engine.CardDealt(parse_card(card))
    if seat is None or hand is None:
        raise ValueError("an action event has no seat or hand")
    return engine.ActionTaken(seat=seat, hand=hand, action=engine.Action(action), amount_cents=amount)


def round_state(
    round_: Round, *, events: Sequence[Sequence[Any]] | None = None
) -> tuple[engine.RoundState, int]:
    """The round rebuilt by replaying its stored events, and how many there are: `events` when
    the caller read them (as `EVENT_COLUMNS`, in order), else one query.

    They were accepted by the same engine; settling and voiding are rows of their own."""
    rows = events
    if rows is None:
        with connection.cursor() as cursor:
            cursor.execute(_EVENTS_OF_ROUND, [round_.pk])
            rows = cursor.fetchall()
    state = engine.replay(
        seats=opening_wagers(round_.opening),
        rules=rules_from_json(round_.rules),
        events=[_engine_event(*row) for row in rows],
    )
    if round_.state == RoundState.SETTLED:
        state = engine.mark_settled(state)
    elif round_.state == RoundState.VOID:
        state = engine.void_round(state)
    return state, len(rows)


def players_of(round_: Round) -> dict[int, str]:
    return {seat["seat"]: seat["player"] for seat in round_.opening}


def get_round_snapshot(*, round_id: int) -> RoundSnapshot | None:
    round_ = Round.objects.select_related("paytable").filter(pk=round_id).first()
    if round_ is None:
        return None
    return snapshot_of(round_)


def snapshot_of(round_: Round) -> RoundSnapshot:
    state, stored = round_state(round_)
    settlement = (
        Settlement.objects.filter(round=round_).first() if round_.state == RoundState.SETTLED else None
    )
    lines = list(settlement.lines.order_by("seat", "pk")) if settlement else []
    return RoundSnapshot(
        round=round_,
        state=state,
        players=players_of(round_),
        settlement=settlement,
        lines=lines,
        events_stored=stored,
    )


def get_open_round(*, table: Table) -> Round | None:
    return Round.objects.select_related("paytable").filter(table=table, state__in=OPEN_ROUND_STATES).first()


def list_recent_rounds(*, table: Table, limit: int) -> QuerySet[Round]:
    """The table's latest rounds, newest first, with their dealer and who voided them."""
    return Round.objects.select_related("dealer", "voided_by").filter(table=table).order_by("-pk")[:limit]


RECENT_ROUNDS_AT_TABLE = 15


def table_play(table: Table) -> dict[str, object]:
    """What the console's table page shows of the table's blackjack: the round in play and the
    latest rounds."""
    return {
        "open_round": get_open_round(table=table),
        "rounds": list_recent_rounds(table=table, limit=RECENT_ROUNDS_AT_TABLE),
        "open_round_states": OPEN_ROUND_STATES,
    }


def stored_round_events(*, round_: Round) -> list[engine.RoundEvent]:
    """The round's stored card and action events, in order, as the engine's (to replay them anew)."""
    with connection.cursor() as cursor:
        cursor.execute(_EVENTS_OF_ROUND, [round_.pk])
        rows = cursor.fetchall()
    return [_engine_event(*row) for row in rows]


def list_round_events(*, round_: Round) -> QuerySet[RoundEvent]:
    """The round's events in order, with the terminal and dealer that reported each."""
    return RoundEvent.objects.filter(round=round_).select_related("terminal", "dealer").order_by("number")


def list_recent_rounds_of_tables(*, tables: QuerySet[Table], limit: int) -> QuerySet[Round]:
    """The newest rounds of `tables`, newest first, with table, dealer and settlement."""
    return (
        Round.objects.filter(table__in=tables)
        .select_related("table", "dealer", "settlement")
        .order_by("-opened_at", "-pk")[:limit]
    )


def round_ledger_cents(*, round_: Round) -> dict[tuple[str, str], int]:
    """The round's ledger movements summed by (movement kind, account kind), in cents."""
    totals = (
        LedgerEntry.objects.filter(transaction__round=round_)
        .values_list("transaction__kind", "account__kind")
        .annotate(cents=Sum("amount_cents"))
    )
    return {(movement, account): cents for movement, account, cents in totals}


def get_round_at_table(*, table: Table, round_id: int) -> Round | None:
    return Round.objects.select_related("dealer").filter(pk=round_id, table=table).first()


def plays_on_floor(table_ids: Sequence[int]) -> dict[int, PlayOnFloor]:
    """The round being dealt at each of these tables, as the live floor's card shows it."""
    rows = Round.objects.filter(table_id__in=table_ids, state__in=OPEN_ROUND_STATES).only(
        "id", "table_id", "state", "opened_at"
    )
    return {
        row.table_id: PlayOnFloor(
            before="",
            link=f"/floor/rounds/{row.pk}/",
            link_text=f"Round {row.pk}",
            after=f", {row.get_state_display()}, opened {local_time(row.opened_at)}",
            dealing=True,
        )
        for row in rows
    }


def table_of_round(round_id: int) -> int | None:
    return Round.objects.filter(pk=round_id).values_list("table_id", flat=True).first()
