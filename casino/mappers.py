"""The only bridge between rows and engine values (STYLE.md §5)."""

from collections.abc import Iterable
from typing import Any

from bonus_tie.engine.kinds import WagerKind
from bonus_tie.engine.limits import KindLimit, SeatWagers, TableLimits
from bonus_tie.engine.paytable import Paytable
from bonus_tie.models import PaytableVersion
from casino.engine import round as engine_round
from casino.engine.cards import parse_card
from casino.engine.rules import DealerRule, HouseRules, Ratio
from casino.engine.shoe import Shoe as EngineShoe
from casino.engine.shoe import new_shoe
from casino.models import EventKind, Round, RoundEvent, RoundState, Shoe, Table, Wager, WagerSource


def house_rules_for(table: Table) -> HouseRules:
    return HouseRules(
        decks=table.decks,
        dealer=DealerRule.H17 if table.dealer_hits_soft_17 else DealerRule.S17,
        blackjack_pays=Ratio(table.blackjack_pays_num, table.blackjack_pays_den),
        double_after_split=table.double_after_split,
        max_hands=table.max_hands,
        split_by_value=table.split_by_value,
        surrender=table.surrender,
        insurance=table.insurance,
        penetration_percent=table.penetration_percent,
    )


def rules_to_json(rules: HouseRules) -> dict[str, Any]:
    return {
        "decks": rules.decks,
        "dealer": str(rules.dealer),
        "blackjack_pays": str(rules.blackjack_pays),
        "double_any_two": rules.double_any_two,
        "double_after_split": rules.double_after_split,
        "max_hands": rules.max_hands,
        "split_aces_one_card": rules.split_aces_one_card,
        "resplit_aces": rules.resplit_aces,
        "split_by_value": rules.split_by_value,
        "surrender": rules.surrender,
        "insurance": rules.insurance,
        "penetration_percent": rules.penetration_percent,
    }


def rules_from_json(data: dict[str, Any]) -> HouseRules:
    num, den = (int(part) for part in data["blackjack_pays"].split(":"))
    return HouseRules(
        decks=data["decks"],
        dealer=DealerRule(data["dealer"]),
        blackjack_pays=Ratio(num, den),
        double_any_two=data["double_any_two"],
        double_after_split=data["double_after_split"],
        max_hands=data["max_hands"],
        split_aces_one_card=data["split_aces_one_card"],
        resplit_aces=data["resplit_aces"],
        split_by_value=data["split_by_value"],
        surrender=data["surrender"],
        insurance=data["insurance"],
        penetration_percent=data["penetration_percent"],
    )


def table_limits_for(table: Table) -> TableLimits:
    return TableLimits(
        by_kind={
            WagerKind(limit.kind): KindLimit(min_cents=limit.min_cents, max_cents=limit.max_cents)
            for limit in table.limits.all()
        }
    )


def paytable_for(version: PaytableVersion) -> Paytable:
    return Paytable(
        version=version.version, pays={WagerKind(kind): int(pays) for kind, pays in version.pays.items()}
    )


def shoe_state(shoe: Shoe) -> EngineShoe:
    state = new_shoe(decks=shoe.decks)
    for text in shoe.dealt:
        state = state.draw(parse_card(text))
    return state


def seat_wagers(wagers: Iterable[Wager]) -> tuple[SeatWagers, ...]:
    by_seat: dict[int, dict[WagerKind, int]] = {}
    for wager in wagers:
        if wager.source == WagerSource.OPEN:
            by_seat.setdefault(wager.seat, {})[WagerKind(wager.kind)] = wager.amount_cents
    return tuple(
        SeatWagers(seat=seat, primary_cents=kinds.pop(WagerKind.PRIMARY), bonus_cents=kinds)
        for seat, kinds in sorted(by_seat.items())
    )


def engine_event(event: RoundEvent) -> engine_round.RoundEvent:
    if event.kind == EventKind.CARD:
        return engine_round.CardDealt(parse_card(event.card))
    if event.seat is None or event.hand is None:
        raise ValueError(f"action event {event.pk} has no seat or hand")
    return engine_round.ActionTaken(
        seat=event.seat,
        hand=event.hand,
        action=engine_round.Action(event.action),
        amount_cents=event.amount_cents,
    )


def round_state(
    round_: Round, *, wagers: Iterable[Wager], events: Iterable[RoundEvent]
) -> engine_round.RoundState:
    """Rebuild the round by replaying its stored events (they were accepted by the same engine)."""
    state = engine_round.replay(
        seats=seat_wagers(wagers),
        rules=rules_from_json(round_.rules),
        events=[engine_event(event) for event in events],
    )
    # Settling and voiding are rows of their own, not card or action events.
    if round_.state == RoundState.SETTLED:
        return engine_round.mark_settled(state)
    if round_.state == RoundState.VOID:
        return engine_round.void_round(state)
    return state
