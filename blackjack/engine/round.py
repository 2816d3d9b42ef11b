"""A blackjack round as an event-sourced state machine (RULES.md §1.2).

`open_round` gives the first state; each dealt card (`apply_card`) and each
decision (`apply_action`) gives the next one, never changing the old. `needs`
says what the round waits for (API.md). The events are `CardDealt`,
`ActionTaken`, `Settled` and `Voided`: replaying the stored ones in order
through `apply_event` (or `replay`) from `open_round` rebuilds the state exactly,
since every transition is a pure function of the state and the event.
"""

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from blackjack.engine.rules import DealerRule, HouseRules, dealer_must_draw
from blackjack.engine.wagers import SeatWagers
from casino.engine import money
from casino.engine.cards import Card
from casino.engine.errors import RuleError
from casino.engine.hands import BLACKJACK_TOTAL, is_blackjack, is_natural, total_and_soft
from casino.engine.seats import DuplicateSeatError, SeatsRequiredError
from casino.engine.table_game import (
    ActionNotAllowedError,
    NoActionExpectedError,
    NoCardExpectedError,
    NotYourTurnError,
)
from casino.engine.wager_kinds import Kind, WagerKind

__all__ = [
    "Action",
    "ActionNeed",
    "ActionNotAllowedError",
    "ActionTaken",
    "CardDealt",
    "CardToDealer",
    "CardToHand",
    "DealerView",
    "Hand",
    "HandStatus",
    "InsuranceNeed",
    "Need",
    "NoActionExpectedError",
    "NoCardExpectedError",
    "NotReadyToSettleError",
    "NotYourTurnError",
    "RoundClosedError",
    "RoundEvent",
    "RoundPhase",
    "RoundState",
    "SeatState",
    "SeatWagers",
    "SettleNeed",
    "Settled",
    "Voided",
    "apply_action",
    "apply_card",
    "apply_event",
    "dealer_view",
    "hole_card_visible",
    "mark_settled",
    "needs",
    "open_round",
    "replay",
    "stake_added",
    "staked_cents",
    "void_round",
    "wagers_of",
]


class RoundPhase(StrEnum):
    DEALING = "dealing"
    INSURANCE = "insurance"
    PLAYING = "playing"
    DEALER = "dealer"
    READY_TO_SETTLE = "ready_to_settle"
    SETTLED = "settled"
    VOID = "void"


class HandStatus(StrEnum):
    PLAYING = "playing"
    STOOD = "stood"
    BUST = "bust"
    BLACKJACK = "blackjack"
    SURRENDERED = "surrendered"


class Action(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURANCE = "insurance"
    DECLINE_INSURANCE = "decline_insurance"


class NotReadyToSettleError(RuleError):
    code = "not_ready_to_settle"


class RoundClosedError(RuleError):
    code = "round_closed"


# --- state -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hand:
    """One player hand. `stake_cents` is its primary stake, a double included."""

    cards: tuple[Card, ...]
    stake_cents: int
    total: int = 0
    soft: bool = False
    status: HandStatus = HandStatus.PLAYING
    doubled: bool = False
    from_split: bool = False
    split_from_aces: bool = False
    awaiting_card: bool = False  # after hit or double, until the card comes

    @property
    def blackjack(self) -> bool:
        return is_natural(cards=len(self.cards), total=self.total, from_split=self.from_split)

    @property
    def bust(self) -> bool:
        return self.total > BLACKJACK_TOTAL


@dataclass(frozen=True, slots=True)
class SeatState:
    wagers: SeatWagers
    hands: tuple[Hand, ...]
    insurance_cents: int | None = None  # None: not asked (yet); 0: declined

    @property
    def seat(self) -> int:
        return self.wagers.seat


@dataclass(frozen=True, slots=True)
class RoundState:
    rules: HouseRules
    phase: RoundPhase
    seats: tuple[SeatState, ...]  # in seat order
    dealer_cards: tuple[Card, ...] = ()
    # (index into seats, hand) of whoever is next: the seat dealt to (None: the dealer) while
    # dealing, the seat asked while insurance, the hand played while playing; None otherwise.
    turn: tuple[int, int] | None = None

    def seat(self, number: int) -> SeatState:
        for seat in self.seats:
            if seat.seat == number:
                return seat
        raise KeyError(number)


# --- needs -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardToHand:
    kind: ClassVar[str] = "card"
    seat: int
    hand: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "to": {"seat": self.seat, "hand": self.hand}}


@dataclass(frozen=True, slots=True)
class CardToDealer:
    kind: ClassVar[str] = "card"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "to": "dealer"}


@dataclass(frozen=True, slots=True)
class ActionNeed:
    kind: ClassVar[str] = "action"
    seat: int
    hand: int
    allowed: tuple[Action, ...]

    def to_dict(self) -> dict[str, object]:
        allowed = [str(action) for action in self.allowed]
        return {"kind": self.kind, "seat": self.seat, "hand": self.hand, "allowed": allowed}


@dataclass(frozen=True, slots=True)
class InsuranceNeed:
    kind: ClassVar[str] = "insurance"
    seat: int
    max_cents: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "max_cents": self.max_cents}


@dataclass(frozen=True, slots=True)
class SettleNeed:
    kind: ClassVar[str] = "settle"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind}


Need = CardToHand | CardToDealer | ActionNeed | InsuranceNeed | SettleNeed
# Needs are immutable values, so the few distinct ones are shared rather than rebuilt.
_card_to_hand = functools.cache(CardToHand)
_action_need = functools.cache(ActionNeed)
_CARD_TO_DEALER = CardToDealer()
_SETTLE = SettleNeed()
_INSURANCE_CHOICES = (Action.INSURANCE, Action.DECLINE_INSURANCE)
_FINISHED = (HandStatus.BUST, HandStatus.SURRENDERED, HandStatus.BLACKJACK)  # nothing for the dealer to beat


def needs(state: RoundState) -> Need | None:
    """What the round waits for next; None once settled or void."""
    phase = state.phase
    if phase is RoundPhase.PLAYING:
        s, h = _turn(state)
        seat = state.seats[s]
        hand = seat.hands[h]
        if hand.awaiting_card or len(hand.cards) < 2:
            return _card_to_hand(seat.seat, h)
        return _action_need(seat.seat, h, _allowed(state.rules, seat, hand))
    if phase is RoundPhase.DEALING:
        # While dealing, `turn` is the seat the next card goes to; None means the dealer.
        if state.turn is None:
            return _CARD_TO_DEALER
        return _card_to_hand(state.seats[state.turn[0]].seat, 0)
    if phase is RoundPhase.DEALER:
        return _CARD_TO_DEALER
    if phase is RoundPhase.INSURANCE:
        seat = state.seats[_turn(state)[0]]
        return InsuranceNeed(seat.seat, money.half_floor(seat.wagers.primary_cents))
    if phase is RoundPhase.READY_TO_SETTLE:
        return _SETTLE
    return None


def _allowed(rules: HouseRules, seat: SeatState, hand: Hand) -> tuple[Action, ...]:
    cards = hand.cards
    # A split Ace under the one-card rule is only still playing when it drew an Ace it may re-split.
    one_card_ace = hand.split_from_aces and rules.split_aces_one_card
    allowed = [Action.STAND] if one_card_ace else [Action.HIT, Action.STAND]
    if len(cards) != 2:
        return tuple(allowed)
    if (
        not one_card_ace
        and (rules.double_any_two or hand.total in (9, 10, 11))
        and (rules.double_after_split or not hand.from_split)
    ):
        allowed.append(Action.DOUBLE)
    first, second = cards
    pair = first.rank is second.rank or (rules.split_by_value and first.value == second.value == 10)
    if (
        pair
        and len(seat.hands) < rules.max_hands
        and not (first.is_ace and hand.from_split and not rules.resplit_aces)
    ):
        allowed.append(Action.SPLIT)
    if rules.surrender and len(seat.hands) == 1:
        allowed.append(Action.SURRENDER)
    return tuple(allowed)


# --- transitions -----------------------------------------------------------------------------


def open_round(*, seats: Sequence[SeatWagers], rules: HouseRules) -> RoundState:
    """A round with its wagers placed, waiting for the first card (limits are checked before)."""
    if not seats:
        raise SeatsRequiredError("a round needs at least one seat with a primary wager", field="seats")
    numbers = [wagers.seat for wagers in seats]
    if len(set(numbers)) != len(numbers):
        raise DuplicateSeatError(f"a seat is listed twice: {sorted(numbers)}", field="seats")
    ordered = sorted(seats, key=lambda wagers: wagers.seat)
    return RoundState(
        rules=rules,
        phase=RoundPhase.DEALING,
        seats=tuple(SeatState(w, (_new_hand((), w.primary_cents),)) for w in ordered),
        turn=(0, 0),
    )


def apply_card(state: RoundState, card: Card) -> RoundState:
    """Route a dealt card to whoever `needs` it; NoCardExpectedError if nobody does."""
    phase = state.phase
    if phase is RoundPhase.PLAYING:
        s, h = _turn(state)
        hand = state.seats[s].hands[h]
        if hand.awaiting_card or len(hand.cards) < 2:
            return _after_player_card(state, s, h, hand, card)
    elif phase is RoundPhase.DEALING:
        return _deal(state, card)
    elif phase is RoundPhase.DEALER:
        dealer_cards = (*state.dealer_cards, card)
        done = not _dealer_must_draw(dealer_cards, state.rules)
        return RoundState(
            state.rules, RoundPhase.READY_TO_SETTLE if done else phase, state.seats, dealer_cards, None
        )
    raise NoCardExpectedError(f"the round is {phase} and expects no card now", field="card")


def apply_action(
    state: RoundState, *, seat: int, hand: int, action: Action | str, amount_cents: int | None = None
) -> RoundState:
    """Apply a player's decision for the seat and hand that `needs` names."""
    need = needs(state)
    if isinstance(need, InsuranceNeed):
        allowed = _INSURANCE_CHOICES if need.max_cents else _INSURANCE_CHOICES[1:]
        _check_turn(need.seat, 0, seat, hand, action=action)
        chosen = _check_allowed(action, allowed)
        if chosen is Action.INSURANCE:
            taken = _check_insurance_amount(amount_cents, need.max_cents)
        else:
            _check_no_amount(amount_cents)
            taken = 0
        return _after_insurance(state, taken)
    if isinstance(need, ActionNeed):
        _check_turn(need.seat, need.hand, seat, hand, action=action)
        chosen = _check_allowed(action, need.allowed)
        _check_no_amount(amount_cents)
        return _play(state, chosen)
    expected = "nothing more" if need is None else f"a {need.kind}"
    raise NoActionExpectedError(f"the round is {state.phase} and waits for {expected}, not an action")


def mark_settled(state: RoundState) -> RoundState:
    if state.phase is not RoundPhase.READY_TO_SETTLE:
        raise NotReadyToSettleError(f"the round is {state.phase}, not ready_to_settle")
    return _with_phase(state, RoundPhase.SETTLED, None)


def void_round(state: RoundState) -> RoundState:
    """Void an open round; every wager staked so far is returned (settlement.void_settlement)."""
    if state.phase in (RoundPhase.SETTLED, RoundPhase.VOID):
        raise RoundClosedError(f"the round is already {state.phase}")
    return _with_phase(state, RoundPhase.VOID, None)


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardDealt:
    card: Card


@dataclass(frozen=True, slots=True)
class ActionTaken:
    seat: int
    hand: int
    action: Action
    amount_cents: int | None = None


@dataclass(frozen=True, slots=True)
class Settled:
    pass


@dataclass(frozen=True, slots=True)
class Voided:
    pass


RoundEvent = CardDealt | ActionTaken | Settled | Voided


def apply_event(state: RoundState, event: RoundEvent) -> RoundState:
    if isinstance(event, CardDealt):
        return apply_card(state, event.card)
    if isinstance(event, ActionTaken):
        return apply_action(
            state, seat=event.seat, hand=event.hand, action=event.action, amount_cents=event.amount_cents
        )
    if isinstance(event, Settled):
        return mark_settled(state)
    return void_round(state)


def replay(*, seats: Sequence[SeatWagers], rules: HouseRules, events: Iterable[RoundEvent]) -> RoundState:
    state = open_round(seats=seats, rules=rules)
    for event in events:
        state = apply_event(state, event)
    return state


# --- money staked ----------------------------------------------------------------------------


def staked_cents(state: RoundState) -> int:
    """Everything staked in the round so far: primaries (splits, doubles), insurance, bonus wagers."""
    return money.sum_cents(
        cents
        for seat in state.seats
        for cents in (
            *(hand.stake_cents for hand in seat.hands),
            seat.insurance_cents or 0,
            *seat.wagers.bonus_cents.values(),
        )
    )


def stake_added(before: RoundState, after: RoundState) -> int:
    """The stake a transition added (a double or split adds a primary, insurance its amount)."""
    return staked_cents(after) - staked_cents(before)


# --- views -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealerView:
    cards: tuple[Card, ...]
    total: int
    soft: bool
    blackjack: bool
    bust: bool


def hole_card_visible(state: RoundState) -> bool:
    """The hole card is turned over for the dealer's turn (or a dealer Blackjack at the peek)."""
    return state.phase in (RoundPhase.DEALER, RoundPhase.READY_TO_SETTLE, RoundPhase.SETTLED)


def dealer_view(state: RoundState) -> DealerView:
    """The dealer's hand as the table sees it (no hole card until it is turned over)."""
    cards = state.dealer_cards if hole_card_visible(state) else state.dealer_cards[:1]
    total, soft = total_and_soft(cards)
    blackjack = is_natural(cards=len(cards), total=total)
    return DealerView(cards, total, soft, blackjack, total > BLACKJACK_TOTAL)


def wagers_of(seat: SeatState) -> tuple[tuple[Kind, int], ...]:
    """A seat's wagers as placed: the primary, each side wager and any insurance."""
    placed: list[tuple[Kind, int]] = [(WagerKind.PRIMARY, seat.wagers.primary_cents)]
    placed += seat.wagers.bonus_cents.items()
    if seat.insurance_cents:
        placed.append((WagerKind.INSURANCE, seat.insurance_cents))
    return tuple(placed)


# --- internals -------------------------------------------------------------------------------


def _new_hand(cards: tuple[Card, ...], stake_cents: int, *, split_from_aces: bool | None = None) -> Hand:
    """A fresh hand; `split_from_aces` is given (True or False) for the two hands of a split."""
    total, soft = total_and_soft(cards)
    from_split = split_from_aces is not None
    return Hand(cards, stake_cents, total, soft, from_split=from_split, split_from_aces=bool(split_from_aces))


def _with_status(hand: Hand, status: HandStatus) -> Hand:
    return Hand(
        hand.cards, hand.stake_cents, hand.total, hand.soft, status, hand.doubled, hand.from_split,
        hand.split_from_aces, hand.awaiting_card,
    )  # fmt: skip


def _awaiting(hand: Hand, stake_cents: int, *, doubled: bool) -> Hand:
    return Hand(
        hand.cards, stake_cents, hand.total, hand.soft, hand.status, doubled, hand.from_split,
        hand.split_from_aces, True,
    )  # fmt: skip


def _replace_hand(seats: tuple[SeatState, ...], s: int, h: int, hand: Hand) -> tuple[SeatState, ...]:
    seat = seats[s]
    hands = seat.hands
    return (
        *seats[:s],
        SeatState(seat.wagers, (*hands[:h], hand, *hands[h + 1 :]), seat.insurance_cents),
        *seats[s + 1 :],
    )


def _with_phase(state: RoundState, phase: RoundPhase, turn: tuple[int, int] | None) -> RoundState:
    return RoundState(state.rules, phase, state.seats, state.dealer_cards, turn)


def _deal(state: RoundState, card: Card) -> RoundState:
    # Seat 1 up, the dealer's up card, seat 1 up again, the dealer's hole card.
    rules, seats = state.rules, state.seats
    if state.turn is not None:
        s = state.turn[0]
        stake = seats[s].hands[0].stake_cents
        cards = (*seats[s].hands[0].cards, card)
        total, soft = total_and_soft(cards)
        # A natural is finished from the deal.
        status = HandStatus.BLACKJACK if is_natural(cards=len(cards), total=total) else HandStatus.PLAYING
        seats = _replace_hand(seats, s, 0, Hand(cards, stake, total, soft, status))
        return RoundState(
            rules, state.phase, seats, state.dealer_cards, (s + 1, 0) if s + 1 < len(seats) else None
        )
    dealer_cards = (*state.dealer_cards, card)
    dealt = RoundState(rules, state.phase, seats, dealer_cards, (0, 0))
    return _after_deal(dealt) if len(dealer_cards) == 2 else dealt


def _after_deal(state: RoundState) -> RoundState:
    if state.rules.insurance and state.dealer_cards[0].is_ace:
        return _with_phase(state, RoundPhase.INSURANCE, (0, 0))
    return _peek(state)


def _after_insurance(state: RoundState, taken_cents: int) -> RoundState:
    s = _turn(state)[0]
    seat = state.seats[s]
    seats = (*state.seats[:s], SeatState(seat.wagers, seat.hands, taken_cents), *state.seats[s + 1 :])
    answered = RoundState(state.rules, state.phase, seats, state.dealer_cards, (s + 1, 0))
    return answered if s + 1 < len(seats) else _peek(answered)


def _peek(state: RoundState) -> RoundState:
    up = state.dealer_cards[0]
    if (up.is_ace or up.is_ten_value) and is_blackjack(state.dealer_cards):
        # Dealer Blackjack ends the round before anyone acts.
        seats = tuple(
            SeatState(
                seat.wagers, tuple(_stand_unless_blackjack(h) for h in seat.hands), seat.insurance_cents
            )
            for seat in state.seats
        )
        return RoundState(state.rules, RoundPhase.READY_TO_SETTLE, seats, state.dealer_cards, None)
    return _next_turn(state.rules, state.seats, state.dealer_cards, 0, 0)


def _stand_unless_blackjack(hand: Hand) -> Hand:
    return hand if hand.status is HandStatus.BLACKJACK else _with_status(hand, HandStatus.STOOD)


def _next_turn(
    rules: HouseRules, seats: tuple[SeatState, ...], dealer_cards: tuple[Card, ...], s: int, h: int
) -> RoundState:
    """The round with the turn at the first hand still playing at or after (s, h), else the dealer's."""
    while s < len(seats):
        hands = seats[s].hands
        while h < len(hands):
            if hands[h].status is HandStatus.PLAYING:
                return RoundState(rules, RoundPhase.PLAYING, seats, dealer_cards, (s, h))
            h += 1
        s, h = s + 1, 0
    nothing_to_beat = all(hand.status in _FINISHED for seat in seats for hand in seat.hands)
    if nothing_to_beat or not _dealer_must_draw(dealer_cards, rules):
        return RoundState(rules, RoundPhase.READY_TO_SETTLE, seats, dealer_cards, None)
    return RoundState(rules, RoundPhase.DEALER, seats, dealer_cards, None)


def _dealer_must_draw(cards: tuple[Card, ...], rules: HouseRules) -> bool:
    total, soft = total_and_soft(cards)
    return dealer_must_draw(total, soft=soft, hits_soft_17=rules.dealer is DealerRule.H17)


def _after_player_card(state: RoundState, s: int, h: int, hand: Hand, card: Card) -> RoundState:
    rules, seats = state.rules, state.seats
    cards = (*hand.cards, card)
    total, soft = total_and_soft(cards)
    if total > BLACKJACK_TOTAL:
        status = HandStatus.BUST
    elif total == BLACKJACK_TOTAL or hand.doubled:
        status = HandStatus.STOOD
    elif hand.split_from_aces and rules.split_aces_one_card and len(cards) == 2:
        re_split = rules.resplit_aces and card.is_ace and len(seats[s].hands) < rules.max_hands
        status = HandStatus.PLAYING if re_split else HandStatus.STOOD
    else:
        status = HandStatus.PLAYING
    dealt = Hand(
        cards, hand.stake_cents, total, soft, status, hand.doubled, hand.from_split, hand.split_from_aces
    )
    seats = _replace_hand(seats, s, h, dealt)
    if status is HandStatus.PLAYING:
        return RoundState(rules, RoundPhase.PLAYING, seats, state.dealer_cards, state.turn)
    return _next_turn(rules, seats, state.dealer_cards, s, h + 1)


def _play(state: RoundState, action: Action) -> RoundState:
    s, h = _turn(state)
    rules, seats = state.rules, state.seats
    seat = seats[s]
    hand = seat.hands[h]
    if action is Action.HIT or action is Action.DOUBLE:
        doubled = action is Action.DOUBLE
        stake = (
            money.sum_cents((hand.stake_cents, seat.wagers.primary_cents)) if doubled else hand.stake_cents
        )
        seats = _replace_hand(seats, s, h, _awaiting(hand, stake, doubled=doubled))
        return RoundState(rules, RoundPhase.PLAYING, seats, state.dealer_cards, state.turn)
    if action is Action.SPLIT:
        aces = hand.cards[0].is_ace
        kept = _new_hand(hand.cards[:1], hand.stake_cents, split_from_aces=aces)
        moved = _new_hand(hand.cards[1:], seat.wagers.primary_cents, split_from_aces=aces)
        split = SeatState(
            seat.wagers, (*seat.hands[:h], kept, moved, *seat.hands[h + 1 :]), seat.insurance_cents
        )
        seats = (*seats[:s], split, *seats[s + 1 :])
        return RoundState(rules, RoundPhase.PLAYING, seats, state.dealer_cards, state.turn)
    status = HandStatus.STOOD if action is Action.STAND else HandStatus.SURRENDERED
    seats = _replace_hand(seats, s, h, _with_status(hand, status))
    return _next_turn(rules, seats, state.dealer_cards, s, h + 1)


def _turn(state: RoundState) -> tuple[int, int]:
    if state.turn is None:
        raise RuntimeError(f"a {state.phase} round without a turn")  # cannot happen: transitions set it
    return state.turn


def _check_turn(need_seat: int, need_hand: int, seat: int, hand: int, *, action: object) -> None:
    if type(seat) is not int or type(hand) is not int or seat != need_seat or hand != need_hand:
        raise NotYourTurnError(
            f"{action} for seat {seat} hand {hand}, but it is the turn of seat {need_seat} hand {need_hand}",
            field="seat",
        )


def _check_allowed(action: object, allowed: tuple[Action, ...]) -> Action:
    for candidate in allowed:
        if candidate == action:
            return candidate
    raise ActionNotAllowedError(f"{action!r} is not allowed now", allowed=allowed)


def _check_insurance_amount(amount_cents: object, max_cents: int) -> int:
    if amount_cents is None:
        raise money.InvalidAmountError("insurance needs amount_cents", field="amount_cents")
    amount = money.check_cents(amount_cents)
    if not 1 <= amount <= max_cents:
        raise money.InvalidAmountError(
            f"insurance is 1 to {max_cents} cents (half the primary), not {amount}", field="amount_cents"
        )
    return amount


def _check_no_amount(amount_cents: object) -> None:
    if amount_cents is not None:
        raise money.InvalidAmountError("amount_cents is only for insurance", field="amount_cents")
