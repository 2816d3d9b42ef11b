"""A special-card round played at the table: one engine call per terminal call.

`open_round` starts the match's next round; `play` takes the round's stored events and one
request (`ReportCard` or `TakeAction`), rebuilds the round by replay, applies the request,
keeps dealing from an electronic shoe while the round needs cards (the caller passes the
shoe's upcoming cards, read only as far as the round draws them) and returns a `Step`: the
new state, the events to store after the earlier ones, the cards that left the shoe, whether
the cut card came out and, when the dealer's hand became final, the round applied to the match
(outcomes, points-ledger entries, specials used, winners and eliminated). The caller stores
the step; it decides nothing about the game.

The shoe is blackjack's (`casino.engine.table_game.ShoeInPlay`): the same decks, counts, reported
and electronic modes and cut card.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from casino.engine.cards import Card
from casino.engine.shoe import ShuffleRng
from casino.engine.table_game import ElectronicShoeDealsError, ShoeInPlay
from specials.engine import round as rounds
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
    AceDeclared,
    Action,
    ActionTaken,
    CardToDealer,
    CardToSeat,
    RoundEvent,
    RoundPhase,
    RoundState,
)
from specials.engine.special_cards import SpecialDeck

__all__ = [
    "ElectronicShoeDealsError",
    "ReportCard",
    "Request",
    "ShoeInPlay",
    "Step",
    "TakeAction",
    "open_round",
    "play",
    "start_match",
]


@dataclass(frozen=True, slots=True)
class ReportCard:
    """A card the terminal saw dealt from a reported shoe."""

    card: Card


@dataclass(frozen=True, slots=True)
class TakeAction:
    """A seat's `hit`, `stand`, `declare_ace` (with `value`) or `use_special` (with `discard`
    for a SWAP)."""

    seat: int
    action: str
    value: int | None = None
    discard: Card | None = None


Request = ReportCard | TakeAction


@dataclass(frozen=True, slots=True)
class Step:
    state: RoundState
    events: tuple[RoundEvent, ...]  # to store in this order after the round's earlier events
    cards_drawn: tuple[Card, ...]  # left the shoe, in order
    cut_card_reached: bool  # the shoe's penetration was reached (it closes after the round)
    settlement: RoundSettlement | None = None  # the round finished in this step


def start_match(
    *, players: Sequence[PlayerRequest], thresholds: Thresholds, deck: SpecialDeck, rng: ShuffleRng
) -> MatchState:
    """A new match (`match.open_match`): thresholds checked, special cards dealt, start balances."""
    return open_match(players=players, thresholds=thresholds, deck=deck, rng=rng)


def open_round(*, match: MatchState, shoe: ShoeInPlay) -> Step:
    """The match's next round; an electronic shoe deals until someone must declare or act."""
    state = rounds.open_round(seats=round_entries(match))
    return _dealt(match, state, shoe, events=(), drawn=())


def play(*, match: MatchState, events: Iterable[RoundEvent], request: Request, shoe: ShoeInPlay) -> Step:
    """One request on the round whose stored events are `events` (`match` as the round opened)."""
    state = rounds.replay(seats=round_entries(match), events=events)
    if isinstance(request, ReportCard):
        if shoe.electronic:
            raise ElectronicShoeDealsError(
                "this round deals from an electronic shoe: the service draws every card", field="card"
            )
        event = rounds.card_event(state, request.card)
        after = rounds.apply_card(state, request.card)
        return _finish(match, after, shoe, events=(event,), drawn=(request.card,))
    after = rounds.apply_action(
        state, seat=request.seat, action=request.action, value=request.value, discard=request.discard
    )
    taken: RoundEvent
    if request.action == Action.DECLARE_ACE:
        taken = AceDeclared(request.seat, rounds.check_ace_value(request.value))
    else:
        taken = ActionTaken(request.seat, Action(request.action), request.discard)
    return _dealt(match, after, shoe, events=(taken,), drawn=())


def _dealt(
    match: MatchState,
    state: RoundState,
    shoe: ShoeInPlay,
    *,
    events: tuple[RoundEvent, ...],
    drawn: tuple[Card, ...],
) -> Step:
    if shoe.upcoming is not None:
        upcoming = iter(shoe.upcoming)
        dealt: list[RoundEvent] = []
        cards: list[Card] = []
        while isinstance(rounds.needs(state), CardToSeat | CardToDealer):
            card = next(upcoming)
            dealt.append(rounds.card_event(state, card))
            state = rounds.apply_card(state, card)
            cards.append(card)
        events = (*events, *dealt)
        drawn = (*drawn, *cards)
    return _finish(match, state, shoe, events=events, drawn=drawn)


def _finish(
    match: MatchState,
    state: RoundState,
    shoe: ShoeInPlay,
    *,
    events: tuple[RoundEvent, ...],
    drawn: tuple[Card, ...],
) -> Step:
    remaining = shoe.shoe
    for card in drawn:
        remaining = remaining.draw(card)
    reached = remaining.penetration_reached(percent=shoe.penetration_percent)
    settlement = settle_round(match, state) if state.phase is RoundPhase.FINISHED else None
    return Step(state, events, drawn, reached, settlement)
