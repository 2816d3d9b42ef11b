"""A round played at the table: the round engine and the shoe together, one call per terminal call.

Each function takes the round as it stands and the shoe it is dealt from, applies
what the terminal asked, keeps dealing from an electronic shoe while the round
needs cards, and returns a `Step`: the new state and everything that happened
(the events to store in order, the cards that left the shoe, a stake the action
added and the hand it belongs to, whether the cut card came out, whether the
shoe closes). The caller stores the step; it decides nothing about the game.
"""

from dataclasses import dataclass

from blackjack.engine import round as rounds
from blackjack.engine.round import Action, ActionTaken, CardDealt, RoundEvent, RoundPhase, RoundState
from casino.engine.cards import Card
from casino.engine.table_game import ElectronicShoeDealsError, ShoeInPlay

_SOURCE_OF_STAKE = {Action.DOUBLE: "double", Action.SPLIT: "split", Action.INSURANCE: "insurance"}


@dataclass(frozen=True, slots=True)
class StakePlaced:
    """A wager an action added: a double or split adds a primary stake, insurance its amount."""

    seat: int
    hand: int
    kind: str  # "primary" or "insurance"
    source: str  # "double", "split" or "insurance"
    cents: int


@dataclass(frozen=True, slots=True)
class Step:
    state: RoundState
    events: tuple[RoundEvent, ...]  # to store in this order after the round's earlier events
    cards_drawn: tuple[Card, ...]  # left the shoe, in order
    cut_card_reached: bool  # the shoe's penetration was reached by these cards
    stake: StakePlaced | None = None


@dataclass(frozen=True, slots=True)
class Closing:
    """A round settled or voided: its final state, and whether its shoe closes now."""

    state: RoundState
    close_shoe: bool


def open_round(*, state: RoundState, shoe: ShoeInPlay) -> Step:
    """A round just opened (`round.open_round`): deal its first cards from an electronic shoe."""
    return _dealt(state, shoe, events=(), drawn=())


def report_card(*, state: RoundState, shoe: ShoeInPlay, card: Card) -> Step:
    """A card the terminal saw dealt: it must be in the shoe and the round must need one."""
    if shoe.electronic:
        raise ElectronicShoeDealsError(
            "this round deals from an electronic shoe: the service draws every card", field="card"
        )
    after = rounds.apply_card(state, card)
    return _finish(after, shoe, events=(CardDealt(card),), drawn=(card,))


def take_action(
    *, state: RoundState, shoe: ShoeInPlay, seat: int, hand: int, action: str, amount_cents: int | None
) -> Step:
    """A player's decision; then an electronic shoe deals whatever the round needs next."""
    after = rounds.apply_action(state, seat=seat, hand=hand, action=action, amount_cents=amount_cents)
    event = ActionTaken(seat=seat, hand=hand, action=Action(action), amount_cents=amount_cents)
    step = _dealt(after, shoe, events=(event,), drawn=())
    added = rounds.stake_added(state, after)
    if not added:
        return step
    chosen = Action(action)
    stake = StakePlaced(
        seat=seat,
        # A split moves the second card to a new hand right after the one split.
        hand=hand + 1 if chosen is Action.SPLIT else hand,
        kind="insurance" if chosen is Action.INSURANCE else "primary",
        source=_SOURCE_OF_STAKE[chosen],
        cents=added,
    )
    return Step(step.state, step.events, step.cards_drawn, step.cut_card_reached, stake)


def settle(*, state: RoundState, cut_card_reached: bool) -> Closing:
    """The round is paid (settlement.settle says how); its shoe closes if the cut card came out."""
    return Closing(rounds.mark_settled(state), close_shoe=cut_card_reached)


def void(*, state: RoundState, cut_card_reached: bool) -> Closing:
    """The round is voided and every stake returned (settlement.void_settlement)."""
    return Closing(rounds.void_round(state), close_shoe=cut_card_reached)


def _dealt(
    state: RoundState, shoe: ShoeInPlay, *, events: tuple[RoundEvent, ...], drawn: tuple[Card, ...]
) -> Step:
    if shoe.upcoming is not None:
        upcoming = iter(shoe.upcoming)
        dealt: list[Card] = []
        while state.phase not in (RoundPhase.SETTLED, RoundPhase.VOID) and isinstance(
            rounds.needs(state), rounds.CardToHand | rounds.CardToDealer
        ):
            card = next(upcoming)
            state = rounds.apply_card(state, card)
            dealt.append(card)
        events = (*events, *(CardDealt(card) for card in dealt))
        drawn = (*drawn, *dealt)
    return _finish(state, shoe, events=events, drawn=drawn)


def _finish(
    state: RoundState, shoe: ShoeInPlay, *, events: tuple[RoundEvent, ...], drawn: tuple[Card, ...]
) -> Step:
    remaining = shoe.shoe
    for card in drawn:
        remaining = remaining.draw(card)
    reached = remaining.penetration_reached(percent=shoe.penetration_percent)
    return Step(state, events, drawn, reached)
