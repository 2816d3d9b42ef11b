"""Reads (STYLE.md §6): querysets for lists, engine snapshots for services and views."""

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from casino.engine import round as engine
from casino.engine.cards import Card, parse_card
from casino.engine.shoe import shoe_after
from casino.engine.table import ShoeInPlay
from casino.engine.wagers import SeatWagers
from casino.mappers import rules_from_json
from casino.models import (
    EVENT_COLUMNS,
    OPEN_ROUND_STATES,
    ChipSlip,
    EventKind,
    Round,
    RoundEvent,
    RoundState,
    Settlement,
    SettlementLine,
    Shoe,
    ShoeMode,
    Table,
    TableInventory,
)
from casino.side_bets import registered

# A round's events, read to show it: written once rather than compiled by the ORM each time
# (a round call reads them with its lock, casino.locks.lock_round).
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


def shoe_in_play(shoe: Shoe, *, penetration_percent: int) -> ShoeInPlay:
    dealt: list[Card] = [parse_card(text) for text in shoe.dealt]
    upcoming: Iterator[Card] | None = None
    if shoe.mode == ShoeMode.ELECTRONIC and shoe.order is not None:
        upcoming = map(parse_card, itertools.islice(shoe.order, len(dealt), None))
    return ShoeInPlay(
        shoe=shoe_after(decks=shoe.decks, dealt=dealt),
        penetration_percent=penetration_percent,
        upcoming=upcoming,
    )


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


def get_open_shoe(*, table: Table) -> Shoe | None:
    return Shoe.objects.filter(table=table, closed_at__isnull=True).first()


def get_slip(*, slip_id: int) -> ChipSlip:
    """A fill or credit with who requested, approved and voided it, as staff and terminals see it."""
    return ChipSlip.objects.select_related(
        "requested_by_terminal", "requested_by_dealer", "requested_by_user", "approved_by", "void__voided_by"
    ).get(pk=slip_id)


def get_inventory(*, inventory_id: int) -> TableInventory:
    """An opener or closer with the people who counted it and its chip transfer."""
    return TableInventory.objects.select_related("dealer", "supervisor", "transfer").get(pk=inventory_id)
