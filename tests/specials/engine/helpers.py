"""Small builders for the special-card engine's example tests: seats, scripted deals and actions."""

from collections.abc import Callable, MutableSequence
from typing import Any

from casino.engine.cards import Card, parse_card
from casino.engine.errors import RuleError
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
    ActionNeed,
    RoundPhase,
    RoundState,
    SeatEntry,
    apply_action,
    apply_card,
    needs,
    open_round,
)
from specials.engine.special_cards import SpecialCard, SpecialDeck


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def card(text: str) -> Card:
    return parse_card(text)


def seat(number: int, special: str = "SWAP", *, used: bool = False) -> SeatEntry:
    return SeatEntry(number, SpecialCard(special), used)


def opened(*seats: SeatEntry) -> RoundState:
    """A round for `seats` (default: seat 1 holding an unused SWAP), before the first card."""
    return open_round(seats=seats or (seat(1),))


def deal(state: RoundState, text: str) -> RoundState:
    """Apply the cards in `text` ("8S 9H 7C") one by one, in order."""
    for dealt in cards(text):
        state = apply_card(state, dealt)
    return state


def started(deal_text: str, *seats: SeatEntry) -> RoundState:
    return deal(opened(*seats), deal_text)


def act(state: RoundState, seat: int, action: str, *, discard: str | None = None) -> RoundState:
    return apply_action(state, seat=seat, action=action, discard=None if discard is None else card(discard))


def declare(state: RoundState, seat: int, value: int) -> RoundState:
    return apply_action(state, seat=seat, action="declare_ace", value=value)


def stand_all(state: RoundState) -> RoundState:
    """Every seat whose turn comes stands (cards the dealer needs must be dealt afterwards)."""
    while isinstance(need := needs(state), ActionNeed):
        state = act(state, need.seat, "stand")
    return state


def refused(call: Callable[[], object]) -> RuleError:
    """The rule error `call` raises (the test fails if it raises none)."""
    try:
        call()
    except RuleError as error:
        return error
    raise AssertionError("no rule error was raised")


class _NoShuffle:
    def shuffle(self, x: MutableSequence[Any]) -> None:
        pass


NO_SHUFFLE = _NoShuffle()


def match_of(*specials: str, start: int = 5, win: int = 10, lose: int = 0) -> MatchState:
    """A match with one player per special given, seated 1, 2, ... (`match_of("SWAP", "PLUS_ONE")`)."""
    players = [PlayerRequest(n, SpecialCard(s)) for n, s in enumerate(specials or ("SWAP",), start=1)]
    return open_match(
        players=players,
        thresholds=Thresholds(start_points=start, win_points=win, lose_points=lose),
        deck=SpecialDeck(),
        rng=NO_SHUFFLE,
    )


def round_of(match: MatchState, deal_text: str, dealer_draws: str = "") -> RoundState:
    """The match's next round: `deal_text` dealt, every seat stands, `dealer_draws` to the dealer."""
    state = stand_all(deal(open_round(seats=round_entries(match)), deal_text))
    state = deal(state, dealer_draws)
    assert state.phase is RoundPhase.FINISHED, state
    return state


def settled(match: MatchState, deal_text: str, dealer_draws: str = "") -> RoundSettlement:
    return settle_round(match, round_of(match, deal_text, dealer_draws))


def error_code(call: Callable[[], object]) -> str:
    """The code of the rule error `call` raises, or "" when it raises none."""
    try:
        call()
    except RuleError as error:
        return error.code
    return ""
