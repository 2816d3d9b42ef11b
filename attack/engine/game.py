"""A game of Blackjack Attack as an event-sourced state machine (RULES.md §3.1).

A game is its deck order (52 cards, the first on top) and its move log. Each move carries the
server's receive time, `at_ms`, in milliseconds since the game was created; `apply_move` checks
one move and gives the next state (never changing the old one), `advance_clock` lets the
300-second clock act, and `replay(deck, moves, now_ms)` rebuilds the state from the log alone.

Refusals follow RULES.md §3, checked in its order: game over (`game_over`), clock (`time_up`),
seat (`not_your_turn`), then the move itself (`move_not_allowed`, with the reason). A refused move
changes nothing: a move refused `time_up` leaves the state as it was, and the
caller reads the ended game with `advance_clock(state, now_ms=...)`, the deadline having acted
first.

What Undo restores is one value, `Play`: the current card, the columns, the tally, the streak and
the cards that have left play. `AttackState.undo_to` holds the `Play` before the last placement,
one level only.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from attack.engine.rules import (
    CLOCK_MS,
    COLUMNS,
    Tally,
    legal_columns,
    placement_outcome,
    streak_bonus,
    tally_after,
)
from casino.engine.cards import Card
from casino.engine.errors import RuleError
from casino.engine.shoe import is_full_shoe
from casino.engine.table_game import NotYourTurnError

__all__ = [
    "DECK_SIZE",
    "SEAT",
    "AttackMove",
    "AttackState",
    "EndReason",
    "GameOverError",
    "InvalidDeckError",
    "MoveNotAllowedError",
    "MoveOutOfOrderError",
    "NotYourTurnError",
    "Place",
    "Play",
    "TimeUpError",
    "Undo",
    "advance_clock",
    "apply_move",
    "check_deck",
    "new_game",
    "place",
    "replay",
    "undo",
]

DECK_SIZE = 52
SEAT = 1  # the one player


class InvalidDeckError(RuleError):
    code = "invalid_deck"


class GameOverError(RuleError):
    """The game had ended by its own last move."""

    code = "game_over"


class TimeUpError(RuleError):
    """The move came at or after the deadline: the deadline acted first."""

    code = "time_up"


class MoveOutOfOrderError(RuleError):
    """A receive time before the previous move's (the log is the server's, so never in order)."""

    code = "move_out_of_order"


class MoveNotAllowedError(RuleError):
    code = "move_not_allowed"

    def __init__(self, reason: str, *, field: str | None = "move") -> None:
        super().__init__(reason, field=field)
        self.reason = reason


class EndReason(StrEnum):
    DECK_PLAYED_OUT = "deck_played_out"
    TIME_UP = "time_up"


# --- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    kind: ClassVar[str] = "place"
    column: int
    at_ms: int
    seat: int = SEAT


@dataclass(frozen=True, slots=True)
class Undo:
    kind: ClassVar[str] = "undo"
    at_ms: int
    seat: int = SEAT


AttackMove = Place | Undo


# --- state -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Everything a placement changes and Undo restores."""

    current: int  # deck index of the current card; 52 once the deck is played out
    columns: tuple[tuple[Card, ...], ...]  # columns 1-4, bottom card first
    tally: Tally
    streak: bool  # the last play scored, so a scoring play now earns the streak bonus
    gone: tuple[Card, ...]  # cards that have left play (cleared or bust), in that order


@dataclass(frozen=True, slots=True)
class AttackState:
    deck: tuple[Card, ...]
    play: Play
    undo_to: Play | None = None  # the play before the last placement, while Undo may take it back
    seen: int = 0  # the highest deck index ever turned face up (an undone placement's next card)
    seq: int = 0  # accepted moves
    last_at_ms: int = 0
    ended: EndReason | None = None
    ended_at_ms: int | None = None

    @property
    def deadline_ms(self) -> int:
        """The clock: 300 s from the game's creation, whatever happens."""
        return CLOCK_MS

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def current_card(self) -> Card | None:
        """The draw pile's top card; None once the deck is played out."""
        return self.deck[self.play.current] if self.play.current < DECK_SIZE else None

    @property
    def cards_left(self) -> int:
        """The draw pile, the current card included: 52 at the start, 0 at the end."""
        return DECK_SIZE - self.play.current

    @property
    def can_undo(self) -> bool:
        return self.undo_to is not None and not self.finished


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """One 52-card deck, each card once; the first is the top card."""
    order = tuple(deck)
    if len(order) != DECK_SIZE or not is_full_shoe(order, decks=1):
        raise InvalidDeckError("a game is dealt from one 52-card deck, each card once", field="deck")
    return order


def new_game(deck: Sequence[Card]) -> AttackState:
    """Four empty columns, the deck's top card current, the clock at 300 s."""
    empty: tuple[Card, ...] = ()
    return AttackState(check_deck(deck), Play(0, (empty,) * len(COLUMNS), Tally(), False, ()))


# --- the clock -------------------------------------------------------------------------------


def advance_clock(state: AttackState, *, now_ms: int) -> AttackState:
    """At 0:00 the game ends by itself, with the points so far and no bonus [decided: "the entire
    game" is the whole deck]."""
    if state.finished or now_ms < CLOCK_MS:
        return state
    return AttackState(
        state.deck, state.play, None, state.seen, state.seq, state.last_at_ms, EndReason.TIME_UP, CLOCK_MS
    )


def _check_move(state: AttackState, *, at_ms: int, seat: int) -> None:
    """RULES.md §3's order: game over, clock, seat (the cards and the rest are the move's own)."""
    if state.ended is EndReason.DECK_PLAYED_OUT:
        raise GameOverError("the game is over: the last card has been placed")
    if state.ended is EndReason.TIME_UP:
        raise TimeUpError("the 300-second clock has run out: the game is over", field="at")
    if type(at_ms) is not int or at_ms < state.last_at_ms:
        raise MoveOutOfOrderError(f"a move received at {at_ms!r} ms, before the previous one", field="at")
    if at_ms >= CLOCK_MS:
        raise TimeUpError("the 300-second clock has run out: the game is over", field="at")
    if seat != SEAT:
        raise NotYourTurnError(f"Blackjack Attack has one seat, not seat {seat}", field="seat")


# --- moves -----------------------------------------------------------------------------------


def place(state: AttackState, *, column: int, at_ms: int, seat: int = SEAT) -> AttackState:
    """`place` n: the current card goes on column n, if n is legal (`legal_columns`); what it does
    is `placement_outcome`. Placing the last card ends the game."""
    _check_move(state, at_ms=at_ms, seat=seat)
    play = state.play
    card = state.deck[play.current]
    legal = legal_columns(play.columns, card)
    if type(column) is not int or column not in legal:
        if type(column) is not int or column not in COLUMNS:
            raise MoveNotAllowedError(f"there is no column {column!r}: columns are 1-4", field="column")
        raise MoveNotAllowedError(
            f"{card} may not go on column {column}: it fits column(s) {', '.join(map(str, legal))}, "
            "and a card may bust only when it fits nowhere",
            field="column",
        )
    i = column - 1
    outcome = placement_outcome(play.columns[i], card)
    tally = tally_after(play.tally, outcome, streak=streak_bonus(after_a_score=play.streak, outcome=outcome))
    after = (*play.columns[i], card)
    columns = (*play.columns[:i], () if outcome.clears else after, *play.columns[i + 1 :])
    gone = (*play.gone, *after) if outcome.clears else play.gone
    current = play.current + 1
    new_play = Play(current, columns, tally, outcome.scores, gone)
    seq = state.seq + 1
    if current == DECK_SIZE:
        return AttackState(
            state.deck, new_play, None, state.seen, seq, at_ms, EndReason.DECK_PLAYED_OUT, at_ms
        )
    return AttackState(state.deck, new_play, play, max(state.seen, current), seq, at_ms)


def undo(state: AttackState, *, at_ms: int, seat: int = SEAT) -> AttackState:
    """`undo` takes back the last placement: the card goes back on top, columns, points, streak and
    busts are as before. One level only, no limit on how many; the clock runs on; none after the
    end [decided]. The card the undone placement turned up stays known (`AttackState.seen`)."""
    _check_move(state, at_ms=at_ms, seat=seat)
    if state.undo_to is None:
        reason = (
            "nothing to undo: no card placed yet" if state.seq == 0 else "Undo takes back one placement only"
        )
        raise MoveNotAllowedError(reason)
    return AttackState(state.deck, state.undo_to, None, state.seen, state.seq + 1, at_ms)


def apply_move(state: AttackState, move: AttackMove) -> AttackState:
    if isinstance(move, Place):
        return place(state, column=move.column, at_ms=move.at_ms, seat=move.seat)
    return undo(state, at_ms=move.at_ms, seat=move.seat)


def replay(deck: Sequence[Card], moves: Iterable[AttackMove], *, now_ms: int) -> AttackState:
    """The state from the deck order and the move log alone, the clock read at `now_ms`."""
    state = new_game(deck)
    for move in moves:
        state = apply_move(state, move)
    return advance_clock(state, now_ms=now_ms)
