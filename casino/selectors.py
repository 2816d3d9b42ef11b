"""Reads (STYLE.md §6): querysets for lists, engine snapshots for services and views."""

from dataclasses import dataclass

from bonus_tie.models import PaytableStatus, PaytableVersion
from casino.engine.round import RoundState
from casino.mappers import round_state
from casino.models import OPEN_ROUND_STATES, Round, RoundSeat, Settlement, SettlementLine, Shoe, Table


@dataclass(frozen=True)
class RoundSnapshot:
    round: Round
    state: RoundState
    players: dict[int, str]
    settlement: Settlement | None
    lines: list[SettlementLine]


def get_round_snapshot(*, round_id: int) -> RoundSnapshot | None:
    round_ = Round.objects.select_related("paytable").filter(pk=round_id).first()
    if round_ is None:
        return None
    return snapshot_of(round_)


def snapshot_of(round_: Round) -> RoundSnapshot:
    state = round_state(
        round_,
        wagers=round_.wagers.order_by("pk"),
        events=round_.events.order_by("number"),
    )
    settlement = Settlement.objects.filter(round=round_).first()
    lines = list(settlement.lines.order_by("seat", "pk")) if settlement else []
    players = {seat.seat: seat.player for seat in RoundSeat.objects.filter(round=round_)}
    return RoundSnapshot(round=round_, state=state, players=players, settlement=settlement, lines=lines)


def get_open_round(*, table: Table) -> Round | None:
    return Round.objects.filter(table=table, state__in=OPEN_ROUND_STATES).first()


def get_open_shoe(*, table: Table) -> Shoe | None:
    return Shoe.objects.filter(table=table, closed_at__isnull=True).first()


def get_current_paytable() -> PaytableVersion | None:
    """The newest approved version: a table uses it from its next round."""
    return PaytableVersion.objects.filter(status=PaytableStatus.APPROVED).order_by("-version").first()
