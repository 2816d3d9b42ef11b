"""Hypothesis strategies for the special-card engine: whole matches played by random legal steps."""

import random
from dataclasses import dataclass
from typing import Protocol

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from casino.engine.cards import Card
from casino.engine.shoe import Shoe, new_shoe
from specials.engine.match import (
    MatchState,
    PlayerRequest,
    RoundSettlement,
    Thresholds,
    open_match,
    round_entries,
    settle_round,
)
from specials.engine.round import (
    ACE_VALUES,
    AceDeclared,
    Action,
    ActionNeed,
    ActionTaken,
    CardToDealer,
    CardToSeat,
    DeclareAceNeed,
    HeldCard,
    RoundEvent,
    RoundPhase,
    RoundState,
    SeatEntry,
    apply_action,
    apply_card,
    card_event,
    needs,
    open_round,
)
from specials.engine.special_cards import SpecialCard, SpecialDeck
from tests.strategies import card_from, shoe_cards

PENETRATION_PERCENT = 75
MAX_ROUNDS = 60  # a match that has not ended by then is checked as it stands


@composite
def thresholds(draw: DrawFn) -> Thresholds:
    """The defaults, or narrow ones so that matches end within a few rounds."""
    if draw(st.booleans()):
        return Thresholds()
    lose = draw(st.integers(-3, 3))
    start = draw(st.integers(lose + 1, lose + 3))
    win = draw(st.integers(start + 1, start + 3))
    return Thresholds(start_points=start, win_points=win, lose_points=lose)


@composite
def player_requests(draw: DrawFn) -> tuple[PlayerRequest, ...]:
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    return tuple(PlayerRequest(seat, draw(st.none() | st.sampled_from(SpecialCard))) for seat in seats)


@dataclass(frozen=True)
class PlayedRound:
    entries: tuple[SeatEntry, ...]
    events: tuple[RoundEvent, ...]
    states: tuple[RoundState, ...]  # after open_round, then after each event
    settlement: RoundSettlement

    @property
    def final(self) -> RoundState:
        return self.states[-1]


@dataclass(frozen=True)
class PlayedMatch:
    opened: MatchState
    rounds: tuple[PlayedRound, ...]

    @property
    def final(self) -> MatchState:
        return self.rounds[-1].settlement.match if self.rounds else self.opened

    @property
    def matches(self) -> tuple[MatchState, ...]:
        """The match as it opened, then after each round."""
        return (self.opened, *(played.settlement.match for played in self.rounds))


class Chooser(Protocol):
    """Where a driven match gets its random choices from (Hypothesis draws or a seeded RNG)."""

    def card(self, shoe: Shoe) -> Card: ...
    def action(self, allowed: tuple[Action, ...]) -> Action: ...
    def ace_value(self) -> int: ...
    def discard(self, cards: tuple[HeldCard, ...]) -> Card: ...


def drive_round(match: MatchState, shoe: Shoe, choose: Chooser) -> tuple[PlayedRound, Shoe]:
    """Play the match's next round by random legal steps until it finishes by itself."""
    entries = round_entries(match)
    state = open_round(seats=entries)
    states = [state]
    events: list[RoundEvent] = []
    while (need := needs(state)) is not None:
        event: RoundEvent
        if isinstance(need, CardToSeat | CardToDealer):
            card = choose.card(shoe)
            shoe = shoe.draw(card)
            event = card_event(state, card)
            state = apply_card(state, card)
        elif isinstance(need, DeclareAceNeed):
            event = AceDeclared(need.seat, choose.ace_value())
            state = apply_action(state, seat=need.seat, action=Action.DECLARE_ACE, value=event.value)
        else:
            assert isinstance(need, ActionNeed)
            action = choose.action(need.allowed)
            hand = state.seat(need.seat)
            discard = None
            if action is Action.USE_SPECIAL and hand.special is SpecialCard.SWAP:
                discard = choose.discard(hand.cards)
            event = ActionTaken(need.seat, action, discard)
            state = apply_action(state, seat=need.seat, action=action, discard=discard)
        events.append(event)
        states.append(state)
    assert state.phase is RoundPhase.FINISHED
    played = PlayedRound(entries, tuple(events), tuple(states), settle_round(match, state))
    if shoe.penetration_reached(percent=PENETRATION_PERCENT):
        shoe = new_shoe(decks=shoe.decks)
    return played, shoe


def drive_match(
    match: MatchState, shoe: Shoe, choose: Chooser, *, max_rounds: int = MAX_ROUNDS
) -> PlayedMatch:
    rounds: list[PlayedRound] = []
    current = match
    while not current.finished and len(rounds) < max_rounds:
        played, shoe = drive_round(current, shoe, choose)
        rounds.append(played)
        current = played.settlement.match
    return PlayedMatch(match, tuple(rounds))


class Draws:
    def __init__(self, draw: DrawFn) -> None:
        self.draw = draw

    def card(self, shoe: Shoe) -> Card:
        return self.draw(shoe_cards(shoe))

    def action(self, allowed: tuple[Action, ...]) -> Action:
        return self.draw(st.sampled_from(allowed))

    def ace_value(self) -> int:
        return self.draw(st.sampled_from(ACE_VALUES))

    def discard(self, cards: tuple[HeldCard, ...]) -> Card:
        return self.draw(st.sampled_from(cards)).card


class Seeded:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def card(self, shoe: Shoe) -> Card:
        return card_from(shoe, self.rng.randrange(52))

    def action(self, allowed: tuple[Action, ...]) -> Action:
        return self.rng.choice(allowed)

    def ace_value(self) -> int:
        return self.rng.choice(ACE_VALUES)

    def discard(self, cards: tuple[HeldCard, ...]) -> Card:
        return self.rng.choice(cards).card


@composite
def played_matches(draw: DrawFn) -> PlayedMatch:
    """A whole match, every choice a Hypothesis draw (so failures shrink to small matches)."""
    match = open_match(
        players=draw(player_requests()),
        thresholds=draw(thresholds()),
        deck=SpecialDeck(),
        rng=random.Random(draw(st.integers(0, 2**32))),
    )
    return drive_match(match, new_shoe(decks=draw(st.sampled_from((6, 8)))), Draws(draw), max_rounds=8)


def seeded_match(seed: int) -> PlayedMatch:
    """A whole match whose every choice (players, thresholds, specials, cards, actions) comes from `seed`."""
    rng = random.Random(seed)
    if rng.random() < 0.5:
        limits = Thresholds()
    else:
        lose = rng.randint(-3, 3)
        start = rng.randint(lose + 1, lose + 3)
        limits = Thresholds(
            start_points=start, win_points=rng.randint(start + 1, start + 3), lose_points=lose
        )
    seats = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
    players = [PlayerRequest(seat, rng.choice((None, None, *SpecialCard))) for seat in seats]
    swap = rng.randint(0, 7)
    deck = SpecialDeck(swap=swap, plus_one=7 - swap + rng.randint(0, 3))  # enough for seven players
    match = open_match(players=players, thresholds=limits, deck=deck, rng=rng)
    return drive_match(match, new_shoe(decks=rng.choice((6, 8))), Seeded(rng))


def seeded_matches() -> st.SearchStrategy[PlayedMatch]:
    """Whole matches from one drawn seed each: cheap enough to run hundreds in the suite."""
    return st.builds(seeded_match, st.integers(0, 2**64 - 1))
