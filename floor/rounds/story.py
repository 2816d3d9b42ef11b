"""A tie-bonus round's story, rebuilt from what was stored: its facts, every card in dealing
order (who it went to, up or hole), every action with who and when, the wagers, the settlement
and the audit events of the round.

Where each card went is not stored: the engine routes a card to whoever the round needs next,
so the story replays the stored events one by one through the same engine and asks it before
each card. A stored event the engine refuses is shown as such, with the engine's reason.
"""

import dataclasses
import datetime as dt
from dataclasses import dataclass, field

from django.db.models import QuerySet

from audit.models import AuditEvent
from blackjack.engine import round as engine
from blackjack.mappers import rules_from_json
from blackjack.models import (
    OPEN_ROUND_STATES,
    EventKind,
    Round,
    RoundEvent,
    RoundSeat,
    RoundState,
    Settlement,
    SettlementLine,
    Wager,
)
from blackjack.selectors import list_round_events, opening_wagers, stored_round_events
from casino.engine.cards import parse_card
from casino.engine.errors import RuleError
from casino.engine.hands import BLACKJACK_TOTAL, is_blackjack, total_and_soft
from casino.side_bets import wager_kinds
from floor.rounds.audit_trail import subject_audit_events
from floor.rounds.cards import ShownCard, dealer_card_face, seat_and_hand


@dataclass(frozen=True)
class PlayStep:
    """One stored event: a card (to whom, which face) or a decision (by whom), who reported it."""

    number: int
    at: dt.datetime
    card: ShownCard | None
    recipient: str  # "Seat 2", "Seat 2, hand 1", "Dealer"; for an action, the seat and hand acting
    face: str  # "face up", "up card", "hole card", "drawn"; blank for actions
    action: str  # blank for cards
    amount_cents: int | None
    terminal: str  # the terminal that reported it; blank when the electronic shoe drew it
    dealer: str
    refused: str = ""  # the engine's reason, when replaying this stored event fails


@dataclass(frozen=True)
class SeatLine:
    seat: int
    player: str  # the patron, or the name the terminal gave; blank when the seat named nobody


@dataclass(frozen=True)
class FinalHand:
    owner: str
    cards: tuple[ShownCard, ...]
    total: int
    status: str


@dataclass
class RoundStory:
    round: Round
    number_in_shoe: int
    seats: list[SeatLine]
    steps: list[PlayStep]
    hands: list[FinalHand]
    wagers: list[Wager]
    settlement: Settlement | None
    lines: list[SettlementLine]
    audit_events: list[AuditEvent]
    paytable_pays: list[tuple[str, int]] = field(default_factory=list)


_ACTION_LABELS: dict[str, str] = {
    engine.Action.HIT: "hit",
    engine.Action.STAND: "stand",
    engine.Action.DOUBLE: "double down",
    engine.Action.SPLIT: "split",
    engine.Action.SURRENDER: "surrender",
    engine.Action.INSURANCE: "take insurance",
    engine.Action.DECLINE_INSURANCE: "decline insurance",
}


_KIND_ORDER = {str(kind): position for position, kind in enumerate(wager_kinds())}


def build_round_story(round_: Round) -> RoundStory:
    rows = list(list_round_events(round_=round_))
    closed = round_.state not in OPEN_ROUND_STATES
    steps, state = _steps(round_, rows)
    if not closed and (state is None or not engine.hole_card_visible(state)):
        steps = [_hide_hole_card(step) for step in steps]
    settlement = Settlement.objects.filter(round=round_).first()
    lines = list(settlement.lines.order_by("seat", "hand", "pk")) if settlement else []
    pays = round_.paytable.pays if isinstance(round_.paytable.pays, dict) else {}
    return RoundStory(
        round=round_,
        number_in_shoe=Round.objects.filter(shoe_id=round_.shoe_id, pk__lte=round_.pk).count(),
        seats=_seat_lines(round_),
        steps=steps,
        hands=_final_hands(state, round_closed=closed, voided=round_.state == RoundState.VOID)
        if state is not None
        else [],
        wagers=list(Wager.objects.filter(round=round_).order_by("placed_at", "seat", "hand", "pk")),
        settlement=settlement,
        lines=lines,
        audit_events=list(round_audit_events(round_)),
        paytable_pays=sorted(pays.items(), key=lambda item: _KIND_ORDER.get(item[0], len(_KIND_ORDER))),
    )


def round_audit_events(round_: Round) -> QuerySet[AuditEvent]:
    return subject_audit_events(
        table_id=round_.table_id,
        subject_type="round",
        subject_id=round_.pk,
        start=round_.opened_at,
        end=round_.settled_at or round_.voided_at,
    )


def replayed_state(round_: Round) -> engine.RoundState:
    """The round replayed anew from its opening seats, its house rules and its stored events, as
    it stood before it was settled or voided. Raises the engine's error for a refused event."""
    return engine.replay(
        seats=opening_wagers(round_.opening),
        rules=rules_from_json(round_.rules),
        events=stored_round_events(round_=round_),
    )


def _steps(round_: Round, rows: list[RoundEvent]) -> tuple[list[PlayStep], engine.RoundState | None]:
    state: engine.RoundState | None = engine.open_round(
        seats=opening_wagers(round_.opening), rules=rules_from_json(round_.rules)
    )
    steps = []
    for row in rows:
        recipient, face, refused = "", "", ""
        if state is not None:
            try:
                event = _engine_event(row)
                recipient, face = _who(state, event)
                state = engine.apply_event(state, event)
            except (RuleError, ValueError) as error:
                refused, state = str(error), None
        steps.append(
            PlayStep(
                number=row.number,
                at=row.created_at,
                card=ShownCard(row.card) if row.kind == EventKind.CARD else None,
                recipient=recipient,
                face=face,
                action=_ACTION_LABELS.get(row.action, row.action),
                amount_cents=row.amount_cents,
                terminal=row.terminal.name if row.terminal else "",
                dealer=row.dealer.name if row.dealer else "",
                refused=refused,
            )
        )
    return steps, state


def _engine_event(row: RoundEvent) -> engine.RoundEvent:
    if row.kind == EventKind.CARD:
        return engine.CardDealt(parse_card(row.card))
    if row.seat is None or row.hand is None:
        raise ValueError(f"action {row.number} names no seat or hand")
    return engine.ActionTaken(row.seat, row.hand, engine.Action(row.action), row.amount_cents)


def _hide_hole_card(step: PlayStep) -> PlayStep:
    if step.face != "hole card":
        return step
    return dataclasses.replace(step, card=None, face="hole card, face down until the dealer's turn")


def _who(state: engine.RoundState, event: engine.RoundEvent) -> tuple[str, str]:
    if isinstance(event, engine.ActionTaken):
        hands = len(state.seat(event.seat).hands) if _has_seat(state, event.seat) else 1
        return seat_and_hand(event.seat, event.hand, hands=hands), ""
    need = engine.needs(state)
    if isinstance(need, engine.CardToHand):
        return seat_and_hand(need.seat, need.hand, hands=len(state.seat(need.seat).hands)), "face up"
    if isinstance(need, engine.CardToDealer):
        return "Dealer", dealer_card_face(len(state.dealer_cards))
    return "", ""


def _has_seat(state: engine.RoundState, seat: int) -> bool:
    return any(s.seat == seat for s in state.seats)


def _seat_lines(round_: Round) -> list[SeatLine]:
    seats = RoundSeat.objects.filter(round=round_).select_related("patron").order_by("seat")
    return [
        SeatLine(seat.seat, str(seat.patron) if seat.patron is not None else seat.player) for seat in seats
    ]


def _final_hands(state: engine.RoundState, *, round_closed: bool, voided: bool) -> list[FinalHand]:
    """Every hand as it stands; while the round is open the dealer's hole card stays hidden until
    the table turns it over. A voided round's hands were never played out: each reads voided."""
    hands = [
        FinalHand(
            owner=seat_and_hand(seat.seat, h, hands=len(seat.hands)),
            cards=tuple(ShownCard(str(card)) for card in hand.cards),
            total=hand.total,
            status="voided" if voided else str(hand.status),
        )
        for seat in state.seats
        for h, hand in enumerate(seat.hands)
    ]
    dealer_cards = state.dealer_cards if round_closed else engine.dealer_view(state).cards
    total, _ = total_and_soft(dealer_cards)
    status = "bust" if total > BLACKJACK_TOTAL else ("blackjack" if is_blackjack(dealer_cards) else "")
    hands.append(FinalHand("Dealer", tuple(ShownCard(str(card)) for card in dealer_cards), total, status))
    return hands
