"""Hypothesis strategies for engine values (STYLE.md item 16)."""

import random
from dataclasses import dataclass
from typing import Protocol

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from blackjack.engine.round import (
    Action,
    ActionNeed,
    ActionTaken,
    CardDealt,
    CardToDealer,
    CardToHand,
    InsuranceNeed,
    RoundEvent,
    RoundState,
    SettleNeed,
    apply_action,
    apply_card,
    needs,
    open_round,
)
from blackjack.engine.rules import BLACKJACK_3_TO_2, BLACKJACK_6_TO_5, DealerRule, HouseRules
from blackjack.engine.wagers import SeatWagers
from bonus_tie.engine.kinds import BONUS_KINDS, LEFT_SIDE, RIGHT_SIDE
from casino.engine import money
from casino.engine.cards import ALL_CARDS, Card
from casino.engine.money import Ratio
from casino.engine.shoe import Shoe, new_shoe, shuffle_order
from casino.engine.side_bet import SideBetKind

MAX_PRIMARY_CENTS = 1_000_000


def cents(max_value: int = 10_000_000) -> st.SearchStrategy[int]:
    return st.integers(min_value=0, max_value=max_value)


def ratios() -> st.SearchStrategy[Ratio]:
    return st.builds(Ratio, st.integers(0, 500), st.integers(1, 10))


@composite
def prorations(draw: DrawFn) -> tuple[list[tuple[tuple[int, ...], int]], int]:
    """Bonus winnings keyed (seat, kind order), and an aggregate limit."""
    keys = draw(
        st.lists(st.tuples(st.integers(1, 7), st.integers(0, 7)), min_size=1, max_size=56, unique=True)
    )
    winnings: list[tuple[tuple[int, ...], int]] = [(key, draw(st.integers(1, 5_000_000))) for key in keys]
    limit = draw(st.integers(0, sum(c for _, c in winnings) + 10))
    return winnings, limit


def cards() -> st.SearchStrategy[Card]:
    return st.sampled_from(ALL_CARDS)


@composite
def house_rules(draw: DrawFn) -> HouseRules:
    return HouseRules(
        decks=draw(st.sampled_from((6, 8))),
        dealer=draw(st.sampled_from(tuple(DealerRule))),
        blackjack_pays=draw(st.sampled_from((BLACKJACK_3_TO_2, BLACKJACK_6_TO_5))),
        double_any_two=draw(st.booleans()),
        double_after_split=draw(st.booleans()),
        max_hands=draw(st.integers(2, 4)),
        split_aces_one_card=draw(st.booleans()),
        resplit_aces=draw(st.booleans()),
        split_by_value=draw(st.booleans()),
        surrender=draw(st.booleans()),
        insurance=draw(st.booleans()),
    )


_CHOICE_BITS = st.integers(0, 255)


@composite
def seat_wagers(draw: DrawFn, seat: int, max_primary_cents: int = MAX_PRIMARY_CENTS) -> SeatWagers:
    """A primary and bonus wagers of any kinds that respect both half-primary side limits."""
    primary = draw(st.integers(1, max_primary_cents))
    side = money.side_limit(primary)
    chosen = draw(_CHOICE_BITS)  # one bit per bonus kind, in table order
    bonus: dict[SideBetKind, int] = {}
    room = {"left": side, "right": side}
    for bit, kind in enumerate(BONUS_KINDS):
        group = "left" if kind in LEFT_SIDE else "right"
        if chosen >> bit & 1 and room[group] > 0:
            bonus[kind] = draw(st.integers(1, room[group]))
            room[group] -= bonus[kind]
    return SeatWagers(seat=seat, primary_cents=primary, bonus_cents=bonus)


@composite
def round_seats(draw: DrawFn) -> tuple[SeatWagers, ...]:
    numbers = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    return tuple(draw(seat_wagers(n)) for n in numbers)


_CARD_INDEX = st.integers(0, len(ALL_CARDS) - 1)


def card_from(shoe: Shoe, start: int) -> Card:
    """The card at `start` in `ALL_CARDS` order, or the next one the shoe still holds."""
    for step in range(len(ALL_CARDS)):
        card = ALL_CARDS[(start + step) % len(ALL_CARDS)]
        if shoe.count(card):
            return card
    raise AssertionError("the shoe is empty")


@composite
def shoe_cards(draw: DrawFn, shoe: Shoe) -> Card:
    """A card the shoe still holds."""
    return card_from(shoe, draw(_CARD_INDEX))


@dataclass(frozen=True)
class PlayedRound:
    rules: HouseRules
    seats: tuple[SeatWagers, ...]
    events: tuple[RoundEvent, ...]
    states: tuple[RoundState, ...]  # after open_round, then after each event
    shoe_before: Shoe
    shoe_after: Shoe

    @property
    def final(self) -> RoundState:
        return self.states[-1]


class Chooser(Protocol):
    """Where a driven round gets its random choices from (Hypothesis draws or a seeded RNG)."""

    def card(self, shoe: Shoe) -> Card: ...
    def action(self, allowed: tuple[Action, ...]) -> Action: ...
    def insurance(self, max_cents: int) -> int | None: ...


def drive_round(rules: HouseRules, seats: tuple[SeatWagers, ...], shoe: Shoe, choose: Chooser) -> PlayedRound:
    """Play a legal round from open to ready_to_settle; fail if `needs` is ever None on the way."""
    state = open_round(seats=seats, rules=rules)
    states = [state]
    events: list[RoundEvent] = []
    shoe_before = shoe
    while not isinstance(need := needs(state), SettleNeed):
        event: RoundEvent
        if isinstance(need, CardToHand | CardToDealer):
            card = choose.card(shoe)
            shoe = shoe.draw(card)
            event = CardDealt(card)
            state = apply_card(state, card)
        elif isinstance(need, ActionNeed):
            event = ActionTaken(need.seat, need.hand, choose.action(need.allowed))
            state = apply_action(state, seat=need.seat, hand=need.hand, action=event.action)
        elif isinstance(need, InsuranceNeed):
            amount = choose.insurance(need.max_cents) if need.max_cents else None
            action = Action.DECLINE_INSURANCE if amount is None else Action.INSURANCE
            event = ActionTaken(need.seat, 0, action, amount)
            state = apply_action(state, seat=need.seat, hand=0, action=action, amount_cents=amount)
        else:
            raise AssertionError(f"needs() is {need!r} before settlement")
        events.append(event)
        states.append(state)
    return PlayedRound(rules, seats, tuple(events), tuple(states), shoe_before, shoe)


def _part_dealt(shoe: Shoe, cards: int, seed: int) -> Shoe:
    for card in shuffle_order(decks=shoe.decks, rng=random.Random(seed))[:cards]:
        shoe = shoe.draw(card)
    return shoe


class _Draws:
    def __init__(self, draw: DrawFn) -> None:
        self.draw = draw

    def card(self, shoe: Shoe) -> Card:
        return self.draw(shoe_cards(shoe))

    def action(self, allowed: tuple[Action, ...]) -> Action:
        return self.draw(st.sampled_from(allowed))

    def insurance(self, max_cents: int) -> int | None:
        return self.draw(st.none() | st.integers(1, max_cents))


@composite
def played_rounds(draw: DrawFn) -> PlayedRound:
    """A legal round, every choice a Hypothesis draw (so failures shrink to small rounds).

    The shoe may have dealt part of itself already, so late-shoe rounds come up too.
    """
    rules = draw(house_rules())
    shoe = _part_dealt(
        new_shoe(decks=rules.decks), draw(st.sampled_from((0, 0, 100, 250))), draw(st.integers())
    )
    return drive_round(rules, draw(round_seats()), shoe, _Draws(draw))


class _Seeded:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def card(self, shoe: Shoe) -> Card:
        return card_from(shoe, self.rng.randrange(len(ALL_CARDS)))

    def action(self, allowed: tuple[Action, ...]) -> Action:
        return self.rng.choice(allowed)

    def insurance(self, max_cents: int) -> int | None:
        return None if self.rng.random() < 0.5 else self.rng.randint(1, max_cents)


def seeded_round(seed: int) -> PlayedRound:
    """A legal round whose every choice (rules, seats, wagers, cards, actions) comes from `seed`."""
    rng = random.Random(seed)
    rules = HouseRules(
        decks=rng.choice((6, 8)),
        dealer=rng.choice(tuple(DealerRule)),
        blackjack_pays=rng.choice((BLACKJACK_3_TO_2, BLACKJACK_6_TO_5)),
        double_any_two=rng.random() < 0.8,
        double_after_split=rng.random() < 0.8,
        max_hands=rng.randint(2, 4),
        split_aces_one_card=rng.random() < 0.8,
        resplit_aces=rng.random() < 0.3,
        split_by_value=rng.random() < 0.8,
        surrender=rng.random() < 0.5,
        insurance=rng.random() < 0.8,
    )
    seats = []
    for number in sorted(rng.sample(range(1, 8), rng.randint(1, 7))):
        primary = rng.choice((1, 5, 2501, rng.randint(1, MAX_PRIMARY_CENTS)))
        bonus: dict[SideBetKind, int] = {}
        for side in (LEFT_SIDE, RIGHT_SIDE):
            left = money.side_limit(primary)
            for kind in BONUS_KINDS:
                if kind in side and left and rng.random() < 0.5:
                    bonus[kind] = rng.randint(1, left)
                    left -= bonus[kind]
        seats.append(SeatWagers(seat=number, primary_cents=primary, bonus_cents=bonus))
    shoe = _part_dealt(new_shoe(decks=rules.decks), rng.choice((0, 0, 100, 250)), rng.randrange(2**32))
    return drive_round(rules, tuple(seats), shoe, _Seeded(rng))


def seeded_rounds() -> st.SearchStrategy[PlayedRound]:
    """Legal rounds from one drawn seed each: cheap enough to run thousands in the suite."""
    return st.builds(seeded_round, st.integers(0, 2**64 - 1))
