"""A round of the special-card points game as an event-sourced state machine (RULES.md §2).

`open_round` gives the first state; each dealt card (`apply_card`) and each declaration or
decision (`apply_action`) gives the next one, never changing the old. `needs` says what the
round waits for (API.md): a card for a seat or the dealer, an Ace declaration, or a seat's
action with the actions allowed. The events are `CardDealt`, `AceDeclared` and `ActionTaken`:
replaying the stored ones in order (`replay`) rebuilds the state exactly.

Cards, their values and the dealer's soft counting are the blackjack engine's
(`casino.engine.cards`, `casino.engine.hands`); what differs is here, one rule per function:
players' Aces are declared (`must_declare_ace`, `check_ace_value`), 21 or more ends a turn
(`turn_is_over`), the special cards (`allowed_actions`, `plus_one_allowed`, `card_to_discard`),
the dealer's draw (`dealer_must_draw`, `dealer_plays`) and the outcome (`outcome_for`,
`points_delta`).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from casino.engine.cards import Card
from casino.engine.errors import RuleError
from casino.engine.hands import BLACKJACK_TOTAL, hand_total
from casino.engine.seats import DuplicateSeatError, SeatsRequiredError, check_seat_number
from casino.engine.table_game import (
    ActionNotAllowedError,
    NoActionExpectedError,
    NoCardExpectedError,
    NotYourTurnError,
)
from specials.engine.special_cards import SpecialCard

__all__ = [
    "ACE_VALUES",
    "DEALER_STANDS_AT",
    "AceDeclared",
    "AceValueRequiredError",
    "Action",
    "ActionNeed",
    "ActionNotAllowedError",
    "ActionTaken",
    "CardDealt",
    "CardNotInHandError",
    "CardToDealer",
    "CardToSeat",
    "DealerView",
    "DeclareAceNeed",
    "HeldCard",
    "InvalidAceValueError",
    "Need",
    "NoActionExpectedError",
    "NoCardExpectedError",
    "NotYourTurnError",
    "Result",
    "RoundEvent",
    "RoundNotFinishedError",
    "RoundPhase",
    "RoundState",
    "SeatEntry",
    "SeatHand",
    "SeatStatus",
    "SpecialAlreadyUsedError",
    "UnexpectedFieldError",
    "allowed_actions",
    "apply_action",
    "apply_card",
    "apply_event",
    "card_event",
    "card_to_discard",
    "check_ace_value",
    "deal_target",
    "dealer_must_draw",
    "dealer_plays",
    "dealer_view",
    "describe_round",
    "hole_card_visible",
    "is_bust",
    "must_declare_ace",
    "needs",
    "open_round",
    "outcome_for",
    "player_total",
    "plus_one_allowed",
    "points_delta",
    "replay",
    "results",
    "turn_is_over",
]

ACE_VALUES = (1, 11)
DEALER_STANDS_AT = 17


class RoundPhase(StrEnum):
    DEALING = "dealing"
    PLAYING = "playing"
    DEALER = "dealer"
    FINISHED = "finished"


class SeatStatus(StrEnum):
    PLAYING = "playing"
    STOOD = "stood"
    BUST = "bust"


class Action(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DECLARE_ACE = "declare_ace"
    USE_SPECIAL = "use_special"


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    DRAW = "draw"


class AceValueRequiredError(RuleError):
    code = "ace_value_required"


class InvalidAceValueError(RuleError):
    code = "invalid_ace_value"


class SpecialAlreadyUsedError(RuleError):
    code = "special_already_used"


class CardNotInHandError(RuleError):
    code = "card_not_in_hand"


class UnexpectedFieldError(RuleError):
    """A `value` sent with something other than an Ace declaration, or a `discard` with
    something other than a `SWAP`."""

    code = "validation_error"


class RoundNotFinishedError(RuleError):
    code = "round_not_finished"


# --- state -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeldCard:
    """A card in a player's hand; `value` is None while it is an Ace waiting to be declared."""

    card: Card
    value: int | None


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """A seat as a round opens: its special card and whether the match has already used it."""

    seat: int
    special: SpecialCard
    special_used: bool = False


@dataclass(frozen=True, slots=True)
class SeatHand:
    seat: int
    special: SpecialCard
    special_used: bool  # in an earlier round of the match or in this one
    cards: tuple[HeldCard, ...] = ()
    discarded: tuple[Card, ...] = ()  # taken out of the hand by a SWAP, kept on record
    plus_one: bool = False
    status: SeatStatus = SeatStatus.PLAYING
    awaiting_card: bool = False  # after a hit or a SWAP, until the card comes

    @property
    def total(self) -> int:
        return player_total(self.cards, plus_one=self.plus_one)

    @property
    def used_special_this_round(self) -> bool:
        return self.plus_one or bool(self.discarded)


@dataclass(frozen=True, slots=True)
class RoundState:
    phase: RoundPhase
    seats: tuple[SeatHand, ...]  # in seat order
    dealer_cards: tuple[Card, ...] = ()
    turn: int | None = None  # index into seats of the seat playing its turn (phase PLAYING)
    declaring: int | None = None  # index into seats of a seat that must declare an Ace first

    def seat(self, number: int) -> SeatHand:
        for hand in self.seats:
            if hand.seat == number:
                return hand
        raise KeyError(number)


# --- the rules, one function each ------------------------------------------------------------


def must_declare_ace(card: Card) -> bool:
    """An Ace that reaches a player's hand waits for the player to declare it 1 or 11."""
    return card.is_ace


def check_ace_value(value: object) -> int:
    """The declared value of an Ace: 1 or 11, nothing else."""
    if type(value) is not int or value not in ACE_VALUES:
        raise InvalidAceValueError(f"an Ace is declared as 1 or 11, not {value!r}", field="value")
    return value


def player_total(cards: Iterable[HeldCard], *, plus_one: bool) -> int:
    """Declared values (an undeclared Ace counts nothing yet), plus one for a PLUS_ONE used."""
    return sum(held.value or 0 for held in cards) + (1 if plus_one else 0)


def turn_is_over(total: int) -> bool:
    """21 or more ends the player's turn at once: 21 stands, over 21 busts."""
    return total >= BLACKJACK_TOTAL


def is_bust(total: int) -> bool:
    return total > BLACKJACK_TOTAL


def plus_one_allowed(total: int) -> bool:
    """PLUS_ONE only while the hand is 20 or less, so it never busts a hand by itself."""
    return total < BLACKJACK_TOTAL


def allowed_actions(hand: SeatHand) -> tuple[Action, ...]:
    """What a seat may do on its turn: hit, stand and, once per match, its special card."""
    if hand.special_used:
        return (Action.HIT, Action.STAND)
    if hand.special is SpecialCard.PLUS_ONE and not plus_one_allowed(hand.total):
        return (Action.HIT, Action.STAND)
    return (Action.HIT, Action.STAND, Action.USE_SPECIAL)


def card_to_discard(cards: Sequence[HeldCard], discard: Card | None) -> int:
    """The position of the card a SWAP names; of two equal cards, the one dealt first."""
    if discard is None:
        raise CardNotInHandError("a SWAP names the card to discard", field="discard")
    for position, held in enumerate(cards):
        if held.card == discard:
            return position
    hand = " ".join(str(held.card) for held in cards)
    raise CardNotInHandError(f"{discard} is not in the hand ({hand})", field="discard")


def deal_target(*, seats: int, dealt: int) -> int | None:
    """Where the deal's next card goes (an index into seats; None: the dealer).

    Blackjack's order: one card to each seat from seat 1 upward, the dealer's up card, a
    second card to each seat, the dealer's hole card.
    """
    if dealt < seats:
        return dealt
    if dealt == seats:
        return None
    if dealt <= 2 * seats:
        return dealt - seats - 1
    return None


def dealer_must_draw(cards: Sequence[Card]) -> bool:
    """The dealer draws until the total, Aces counted soft, is at least 17, then stands."""
    return hand_total(cards) < DEALER_STANDS_AT


def dealer_plays(seats: Iterable[SeatHand]) -> bool:
    """The dealer draws only when some player has not busted."""
    return any(hand.status is not SeatStatus.BUST for hand in seats)


def outcome_for(*, player_total: int, dealer_total: int) -> Result:
    """A player over 21 loses; a dealer over 21 loses to everyone else; else the higher total
    wins and equal totals draw. A two-card 21 has no special standing."""
    if is_bust(player_total):
        return Result.LOSE
    if is_bust(dealer_total) or player_total > dealer_total:
        return Result.WIN
    if player_total < dealer_total:
        return Result.LOSE
    return Result.DRAW


_POINTS = {Result.WIN: 1, Result.LOSE: -1, Result.DRAW: 0}


def points_delta(result: Result) -> int:
    """A win adds one point, a loss takes one, a draw changes nothing."""
    return _POINTS[result]


def results(state: RoundState) -> tuple[tuple[int, Result], ...]:
    """(seat, result) for every seat of a finished round, in seat order."""
    if state.phase is not RoundPhase.FINISHED:
        raise RoundNotFinishedError(
            f"the round is {state.phase}: outcomes come when the dealer's hand is final"
        )
    dealer_total = hand_total(state.dealer_cards)
    return tuple(
        (hand.seat, outcome_for(player_total=hand.total, dealer_total=dealer_total)) for hand in state.seats
    )


# --- needs -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardToSeat:
    kind: ClassVar[str] = "card"
    seat: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "to": {"seat": self.seat}}


@dataclass(frozen=True, slots=True)
class CardToDealer:
    kind: ClassVar[str] = "card"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "to": "dealer"}


@dataclass(frozen=True, slots=True)
class DeclareAceNeed:
    kind: ClassVar[str] = "declare_ace"
    seat: int
    card: Card

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class ActionNeed:
    kind: ClassVar[str] = "action"
    seat: int
    allowed: tuple[Action, ...]

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "allowed": [str(action) for action in self.allowed]}


Need = CardToSeat | CardToDealer | DeclareAceNeed | ActionNeed
_CARD_TO_DEALER = CardToDealer()


def needs(state: RoundState) -> Need | None:
    """What the round waits for next; None once it is finished."""
    if state.declaring is not None:
        hand = state.seats[state.declaring]
        return DeclareAceNeed(hand.seat, _undeclared(hand).card)
    phase = state.phase
    if phase is RoundPhase.DEALING:
        target = deal_target(seats=len(state.seats), dealt=_dealt_in_deal(state))
        return _CARD_TO_DEALER if target is None else CardToSeat(state.seats[target].seat)
    if phase is RoundPhase.PLAYING:
        hand = state.seats[_turn(state)]
        if hand.awaiting_card:
            return CardToSeat(hand.seat)
        return ActionNeed(hand.seat, allowed_actions(hand))
    if phase is RoundPhase.DEALER:
        return _CARD_TO_DEALER
    return None


# --- transitions -----------------------------------------------------------------------------


def open_round(*, seats: Sequence[SeatEntry]) -> RoundState:
    """A round for these seats, waiting for the first card of the deal."""
    if not seats:
        raise SeatsRequiredError("a round needs at least one player", field="players")
    numbers = [check_seat_number(entry.seat) for entry in seats]
    if len(set(numbers)) != len(numbers):
        raise DuplicateSeatError(f"a seat is listed twice: {sorted(numbers)}", field="players")
    ordered = sorted(seats, key=lambda entry: entry.seat)
    hands = tuple(SeatHand(entry.seat, entry.special, entry.special_used) for entry in ordered)
    return RoundState(RoundPhase.DEALING, hands)


def apply_card(state: RoundState, card: Card) -> RoundState:
    """Route a dealt card to whoever `needs` it; refused while an Ace waits for its value."""
    if state.declaring is not None:
        hand = state.seats[state.declaring]
        raise AceValueRequiredError(
            f"seat {hand.seat} must declare the Ace {_undeclared(hand).card} as 1 or 11 before the next card",
            field="card",
        )
    phase = state.phase
    if phase is RoundPhase.DEALING:
        return _deal(state, card)
    if phase is RoundPhase.PLAYING:
        s = _turn(state)
        if state.seats[s].awaiting_card:
            return _card_to_turn(state, s, card)
    elif phase is RoundPhase.DEALER:
        dealer_cards = (*state.dealer_cards, card)
        final = not dealer_must_draw(dealer_cards)
        return RoundState(RoundPhase.FINISHED if final else phase, state.seats, dealer_cards)
    raise NoCardExpectedError(f"the round is {phase} and expects no card now", field="card")


def apply_action(
    state: RoundState,
    *,
    seat: object,
    action: object,
    value: object = None,
    discard: Card | None = None,
) -> RoundState:
    """A seat's Ace declaration or decision; refused (state unchanged) unless `needs` asks for it."""
    if state.declaring is not None:
        hand = state.seats[state.declaring]
        _check_turn(hand.seat, seat, action)
        if action != Action.DECLARE_ACE:
            raise AceValueRequiredError(
                f"seat {hand.seat} must first declare the Ace {_undeclared(hand).card} as 1 or 11",
                field="action",
            )
        _check_no_discard(discard)
        return _declare(state, check_ace_value(value))
    need = needs(state)
    if not isinstance(need, ActionNeed):
        expected = "nothing more" if need is None else f"a {need.kind}"
        raise NoActionExpectedError(f"the round is {state.phase} and waits for {expected}, not an action")
    _check_turn(need.seat, seat, action)
    s = _turn(state)
    hand = state.seats[s]
    if action == Action.USE_SPECIAL and hand.special_used:
        raise SpecialAlreadyUsedError(
            f"seat {hand.seat} has already used its {hand.special} in this match", field="action"
        )
    chosen = _check_allowed(action, need.allowed)
    if value is not None:
        raise UnexpectedFieldError("value is only for declare_ace", field="value")
    if chosen is Action.USE_SPECIAL and hand.special is SpecialCard.SWAP:
        return _swap(state, s, card_to_discard(hand.cards, discard))
    _check_no_discard(discard)
    if chosen is Action.HIT:
        return _with_hand(state, s, _changed(hand, cards=hand.cards, status=hand.status, awaiting_card=True))
    if chosen is Action.STAND:
        return _next_turn(
            _with_hand(state, s, _changed(hand, cards=hand.cards, status=SeatStatus.STOOD)), s + 1
        )
    return _after_total_changed(_with_hand(state, s, replace(hand, plus_one=True, special_used=True)), s)


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardDealt:
    card: Card
    seat: int | None  # the seat it went to; None: the dealer


@dataclass(frozen=True, slots=True)
class AceDeclared:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class ActionTaken:
    seat: int
    action: Action  # hit, stand or use_special
    discard: Card | None = None  # the card a SWAP took out of the hand


RoundEvent = CardDealt | AceDeclared | ActionTaken


def card_event(state: RoundState, card: Card) -> CardDealt:
    """The event recording `card` dealt to whoever needs it now (checked by `apply_event`)."""
    need = needs(state)
    return CardDealt(card, need.seat if isinstance(need, CardToSeat) else None)


def apply_event(state: RoundState, event: RoundEvent) -> RoundState:
    if isinstance(event, CardDealt):
        need = needs(state)
        if isinstance(need, CardToSeat | CardToDealer):
            to = need.seat if isinstance(need, CardToSeat) else None
            if to != event.seat:
                raise NoCardExpectedError(
                    f"{event.card} is recorded for {_recipient(event.seat)}, but the round deals to "
                    f"{_recipient(to)}",
                    field="card",
                )
        return apply_card(state, event.card)
    if isinstance(event, AceDeclared):
        return apply_action(state, seat=event.seat, action=Action.DECLARE_ACE, value=event.value)
    return apply_action(state, seat=event.seat, action=event.action, discard=event.discard)


def replay(*, seats: Sequence[SeatEntry], events: Iterable[RoundEvent]) -> RoundState:
    state = open_round(seats=seats)
    for event in events:
        state = apply_event(state, event)
    return state


# --- views -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealerView:
    cards: tuple[Card, ...]
    total: int
    bust: bool


def hole_card_visible(state: RoundState) -> bool:
    """The hole card is turned over for the dealer's turn, or when the round ends without one."""
    return state.phase in (RoundPhase.DEALER, RoundPhase.FINISHED)


def dealer_view(state: RoundState) -> DealerView:
    """The dealer's hand as the table sees it (no hole card until it is turned over)."""
    cards = state.dealer_cards if hole_card_visible(state) else state.dealer_cards[:1]
    total = hand_total(cards)
    return DealerView(cards, total, is_bust(total))


def describe_round(state: RoundState) -> dict[str, object]:
    """The engine's part of the API's round: state, needs, dealer and seats."""
    need = needs(state)
    dealer = dealer_view(state)
    return {
        "state": str(state.phase),
        "needs": None if need is None else need.to_dict(),
        "dealer": {"cards": [str(card) for card in dealer.cards], "total": dealer.total, "bust": dealer.bust},
        "seats": [
            {
                "seat": hand.seat,
                "cards": [{"card": str(held.card), "value": held.value} for held in hand.cards],
                "discarded": [str(card) for card in hand.discarded],
                "plus_one": hand.plus_one,
                "total": hand.total,
                "status": str(hand.status),
            }
            for hand in state.seats
        ],
    }


# --- internals -------------------------------------------------------------------------------


def _recipient(seat: int | None) -> str:
    return "the dealer" if seat is None else f"seat {seat}"


def _turn(state: RoundState) -> int:
    if state.turn is None:
        raise RuntimeError(f"a {state.phase} round without a turn")  # cannot happen: transitions set it
    return state.turn


def _declaring(state: RoundState) -> int:
    if state.declaring is None:
        raise RuntimeError("no Ace to declare")  # cannot happen: apply_action checked it
    return state.declaring


def _undeclared(hand: SeatHand) -> HeldCard:
    for held in hand.cards:
        if held.value is None:
            return held
    raise RuntimeError(f"seat {hand.seat} has no Ace to declare")  # cannot happen: `declaring` says so


def _dealt_in_deal(state: RoundState) -> int:
    return sum(len(hand.cards) for hand in state.seats) + len(state.dealer_cards)


def _with_hand(state: RoundState, s: int, hand: SeatHand) -> RoundState:
    seats = (*state.seats[:s], hand, *state.seats[s + 1 :])
    return RoundState(state.phase, seats, state.dealer_cards, state.turn, state.declaring)


def _changed(
    hand: SeatHand, *, cards: tuple[HeldCard, ...], status: SeatStatus, awaiting_card: bool = False
) -> SeatHand:
    """The hand with new cards and status (the hot path, so no `dataclasses.replace`)."""
    return SeatHand(
        hand.seat,
        hand.special,
        hand.special_used,
        cards,
        hand.discarded,
        hand.plus_one,
        status,
        awaiting_card,
    )


def _status(hand: SeatHand) -> SeatStatus:
    return _status_at(hand.total)


def _status_at(total: int) -> SeatStatus:
    if is_bust(total):
        return SeatStatus.BUST
    return SeatStatus.STOOD if turn_is_over(total) else SeatStatus.PLAYING


def _given(hand: SeatHand, card: Card) -> SeatHand:
    """The hand with `card` added at its end (an Ace undeclared) and its status brought up to date."""
    if must_declare_ace(card):
        return _changed(hand, cards=(*hand.cards, HeldCard(card, None)), status=hand.status)
    cards = (*hand.cards, HeldCard(card, card.value))
    return _changed(hand, cards=cards, status=_status_at(player_total(cards, plus_one=hand.plus_one)))


def _deal(state: RoundState, card: Card) -> RoundState:
    target = deal_target(seats=len(state.seats), dealt=_dealt_in_deal(state))
    if target is None:
        dealt = RoundState(state.phase, state.seats, (*state.dealer_cards, card))
        return _next_turn(dealt, 0) if len(dealt.dealer_cards) == 2 else dealt
    seats = (*state.seats[:target], _given(state.seats[target], card), *state.seats[target + 1 :])
    return RoundState(
        state.phase, seats, state.dealer_cards, None, target if must_declare_ace(card) else None
    )


def _card_to_turn(state: RoundState, s: int, card: Card) -> RoundState:
    seats = (*state.seats[:s], _given(state.seats[s], card), *state.seats[s + 1 :])
    if must_declare_ace(card):
        return RoundState(state.phase, seats, state.dealer_cards, state.turn, s)
    return _after_total_changed(RoundState(state.phase, seats, state.dealer_cards, state.turn), s)


def _declare(state: RoundState, value: int) -> RoundState:
    s = _declaring(state)
    hand = state.seats[s]
    cards = tuple(HeldCard(held.card, value) if held.value is None else held for held in hand.cards)
    declared = _changed(hand, cards=cards, status=_status_at(player_total(cards, plus_one=hand.plus_one)))
    seats = (*state.seats[:s], declared, *state.seats[s + 1 :])
    after = RoundState(state.phase, seats, state.dealer_cards, state.turn)
    if state.phase is RoundPhase.DEALING:
        return after  # the deal goes on; a seat at 21 or over is already finished
    return _after_total_changed(after, s)


def _after_total_changed(state: RoundState, s: int) -> RoundState:
    """The turn goes on unless the hand reached 21 or more."""
    hand = state.seats[s]
    status = _status(hand)
    if status is SeatStatus.PLAYING:
        return state
    return _next_turn(_with_hand(state, s, _changed(hand, cards=hand.cards, status=status)), s + 1)


def _swap(state: RoundState, s: int, position: int) -> RoundState:
    hand = state.seats[s]
    swapped = replace(
        hand,
        cards=(*hand.cards[:position], *hand.cards[position + 1 :]),
        discarded=(*hand.discarded, hand.cards[position].card),
        special_used=True,
        awaiting_card=True,
    )
    return _with_hand(state, s, swapped)


def _next_turn(state: RoundState, s: int) -> RoundState:
    """The round with the turn at the first seat still playing at or after index `s`, else the
    dealer's turn (or the end, when the dealer has nothing to play for or already stands)."""
    seats = state.seats
    while s < len(seats):
        if seats[s].status is SeatStatus.PLAYING:
            return RoundState(RoundPhase.PLAYING, seats, state.dealer_cards, s)
        s += 1
    if dealer_plays(seats) and dealer_must_draw(state.dealer_cards):
        return RoundState(RoundPhase.DEALER, seats, state.dealer_cards)
    return RoundState(RoundPhase.FINISHED, seats, state.dealer_cards)


def _check_turn(need_seat: int, seat: object, action: object) -> None:
    if type(seat) is not int or seat != need_seat:
        raise NotYourTurnError(
            f"{action} for seat {seat}, but it is the turn of seat {need_seat}", field="seat"
        )


def _check_allowed(action: object, allowed: tuple[Action, ...]) -> Action:
    for candidate in allowed:
        if candidate == action:
            return candidate
    raise ActionNotAllowedError(f"{action!r} is not allowed now", allowed=allowed)


def _check_no_discard(discard: Card | None) -> None:
    if discard is not None:
        raise UnexpectedFieldError("discard is only for a SWAP", field="discard")
