"""A game of Blackjack Squares as an event-sourced state machine (RULES.md §3.2).

A game is its deck order (52 cards, the first on top), its time limit and its move log. Each move
carries the server's receive time, `at_ms`, in milliseconds since the game was created;
`apply_move` checks one move and gives the next state (never changing the old one),
`advance_clock` lets the time limit act, and `replay(deck, moves, now_ms=..., limit_s=...)`
rebuilds the state from the log alone.

`place` takes the deck's top card, `swap` its bottom card: the deck is `deck[top:bottom + 1]`.
45 placements and at most 7 swaps use 52 cards, so the deck never runs short
(`cards_left == placements_left + swaps_left` at every step).

Refusals follow RULES.md §3, checked in its order: game over (`game_over`), clock (`time_up`),
seat (`not_your_turn`), then the move itself (`move_not_allowed`, with the reason). A refused move
changes nothing: a move refused `time_up` leaves the state as it was, and the
caller reads the ended game with `advance_clock(state, now_ms=...)`, the deadline having acted
first.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from casino.engine.cards import Card
from casino.engine.errors import RuleError
from casino.engine.shoe import is_full_shoe
from casino.engine.table_game import NotYourTurnError
from squares.engine.rules import (
    DEFAULT_LIMIT_S,
    POSITIONS,
    SQUARES_PER_GAME,
    can_cash_in,
    check_limit_s,
    square_score,
    swaps_left,
)

__all__ = [
    "DECK_SIZE",
    "PLACEMENTS_PER_GAME",
    "SEAT",
    "CashIn",
    "EndReason",
    "GameOverError",
    "InvalidDeckError",
    "MoveNotAllowedError",
    "MoveOutOfOrderError",
    "NotYourTurnError",
    "Place",
    "SquaresMove",
    "SquaresState",
    "Swap",
    "TimeUpError",
    "advance_clock",
    "apply_move",
    "cash_in",
    "check_deck",
    "new_game",
    "place",
    "replay",
    "swap",
]

DECK_SIZE = 52
SEAT = 1  # the one player
PLACEMENTS_PER_GAME = SQUARES_PER_GAME * len(POSITIONS)  # 45
_EMPTY_SQUARE: tuple[Card | None, ...] = (None,) * len(POSITIONS)


class InvalidDeckError(RuleError):
    code = "invalid_deck"


class GameOverError(RuleError):
    """The game had ended by its own last move (the fifth cash-in)."""

    code = "game_over"


class TimeUpError(RuleError):
    """The move came at or after the time limit: the limit acted first."""

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
    CASHED_OUT = "cashed_out"  # the fifth cash-in
    TIME_UP = "time_up"


# --- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    kind: ClassVar[str] = "place"
    position: int
    at_ms: int
    seat: int = SEAT


@dataclass(frozen=True, slots=True)
class Swap:
    kind: ClassVar[str] = "swap"
    position: int
    at_ms: int
    seat: int = SEAT


@dataclass(frozen=True, slots=True)
class CashIn:
    kind: ClassVar[str] = "cash_in"
    at_ms: int
    seat: int = SEAT


SquaresMove = Place | Swap | CashIn


# --- state -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SquaresState:
    deck: tuple[Card, ...]
    limit_ms: int
    top: int = 0  # deck index of the current card (face up)
    bottom: int = DECK_SIZE - 1  # deck index of the bottom card (hidden until a swap brings it in)
    positions: tuple[Card | None, ...] = _EMPTY_SQUARE  # the square on the table, 1-9
    swaps_used: int = 0
    discarded: tuple[Card, ...] = ()  # swapped out, out of play
    cashed: tuple[int, ...] = ()  # the scores of the squares cashed in
    cashed_cards: tuple[Card, ...] = ()  # their cards, out of play
    seq: int = 0  # accepted moves
    last_at_ms: int = 0
    ended: EndReason | None = None
    ended_at_ms: int | None = None

    @property
    def deadline_ms(self) -> int:
        return self.limit_ms

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def cards_left(self) -> int:
        return self.bottom - self.top + 1

    @property
    def current_card(self) -> Card | None:
        """The deck's top card, face up; None when the deck is empty."""
        return self.deck[self.top] if self.cards_left > 0 else None

    @property
    def square(self) -> int | None:
        """The number (1-5) of the square on the table; None after the fifth cash-in."""
        number = len(self.cashed) + 1
        return number if number <= SQUARES_PER_GAME else None

    @property
    def placements_left(self) -> int:
        return PLACEMENTS_PER_GAME - self.top

    @property
    def swaps_left(self) -> int:
        return swaps_left(self.swaps_used)


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """One 52-card deck, each card once; the first is the top card."""
    order = tuple(deck)
    if len(order) != DECK_SIZE or not is_full_shoe(order, decks=1):
        raise InvalidDeckError("a game is dealt from one 52-card deck, each card once", field="deck")
    return order


def new_game(deck: Sequence[Card], *, limit_s: int = DEFAULT_LIMIT_S) -> SquaresState:
    """An empty first square, the deck's top card face up, 7 swaps, the clock at `limit_s`."""
    return SquaresState(check_deck(deck), check_limit_s(limit_s) * 1000)


# --- the clock -------------------------------------------------------------------------------


def advance_clock(state: SquaresState, *, now_ms: int) -> SquaresState:
    """At the limit the game ends by itself (its score is `rules.final_squares`)."""
    if state.finished or now_ms < state.limit_ms:
        return state
    return replace(state, ended=EndReason.TIME_UP, ended_at_ms=state.limit_ms)


def _check_move(state: SquaresState, *, at_ms: int, seat: int) -> None:
    """RULES.md §3's order: game over, clock, seat (the cards and the rest are the move's own)."""
    if state.ended is EndReason.CASHED_OUT:
        raise GameOverError("the game is over: five squares have been cashed in")
    if state.ended is EndReason.TIME_UP:
        raise TimeUpError("the time limit has been reached: the game is over", field="at")
    if type(at_ms) is not int or at_ms < state.last_at_ms:
        raise MoveOutOfOrderError(f"a move received at {at_ms!r} ms, before the previous one", field="at")
    if at_ms >= state.limit_ms:
        raise TimeUpError("the time limit has been reached: the game is over", field="at")
    if seat != SEAT:
        raise NotYourTurnError(f"Blackjack Squares has one seat, not seat {seat}", field="seat")


def _check_position(position: int) -> int:
    if type(position) is not int or position not in POSITIONS:
        raise MoveNotAllowedError(f"there is no position {position!r}: positions are 1-9", field="position")
    return position - 1


# --- moves -----------------------------------------------------------------------------------


def place(state: SquaresState, *, position: int, at_ms: int, seat: int = SEAT) -> SquaresState:
    """`place` n: the deck's top card goes on empty position n."""
    _check_move(state, at_ms=at_ms, seat=seat)
    i = _check_position(position)
    if state.positions[i] is not None:
        raise MoveNotAllowedError(f"position {position} already holds {state.positions[i]}", field="position")
    card = state.deck[state.top]
    positions = (*state.positions[:i], card, *state.positions[i + 1 :])
    return _moved(state, at_ms, top=state.top + 1, positions=positions)


def swap(state: SquaresState, *, position: int, at_ms: int, seat: int = SEAT) -> SquaresState:
    """`swap` n, any time: n holds a card and fewer than 7 swaps were used in the game. The card
    leaves play and the deck's bottom card takes its place [decided: 7 a game; the card is
    discarded, not put under the deck]."""
    _check_move(state, at_ms=at_ms, seat=seat)
    if state.swaps_left <= 0:
        raise MoveNotAllowedError("all 7 swaps of the game have been used")
    i = _check_position(position)
    out = state.positions[i]
    if out is None:
        raise MoveNotAllowedError(f"position {position} is empty: a swap takes out a card", field="position")
    positions = (*state.positions[:i], state.deck[state.bottom], *state.positions[i + 1 :])
    return _moved(
        state,
        at_ms,
        bottom=state.bottom - 1,
        positions=positions,
        swaps_used=state.swaps_used + 1,
        discarded=(*state.discarded, out),
    )


def cash_in(state: SquaresState, *, at_ms: int, seat: int = SEAT) -> SquaresState:
    """`cash_in`, with all nine positions filled [decided]: the square is scored, its cards leave
    play, an empty square starts. The fifth cash-in ends the game."""
    _check_move(state, at_ms=at_ms, seat=seat)
    positions = state.positions
    if not can_cash_in(positions):
        empty = [p for p, card in zip(POSITIONS, positions, strict=True) if card is None]
        raise MoveNotAllowedError(f"a square is cashed in full: position(s) {empty} are empty")
    cashed = (*state.cashed, square_score(positions))
    done = len(cashed) == SQUARES_PER_GAME
    return _moved(
        state,
        at_ms,
        positions=_EMPTY_SQUARE,
        cashed=cashed,
        cashed_cards=(*state.cashed_cards, *(card for card in positions if card is not None)),
        ended=EndReason.CASHED_OUT if done else None,
        ended_at_ms=at_ms if done else None,
    )


def _moved(state: SquaresState, at_ms: int, **changes: object) -> SquaresState:
    """The state after an accepted move received at `at_ms`."""
    return replace(state, seq=state.seq + 1, last_at_ms=at_ms, **changes)  # type: ignore[arg-type]


def apply_move(state: SquaresState, move: SquaresMove) -> SquaresState:
    if isinstance(move, Place):
        return place(state, position=move.position, at_ms=move.at_ms, seat=move.seat)
    if isinstance(move, Swap):
        return swap(state, position=move.position, at_ms=move.at_ms, seat=move.seat)
    return cash_in(state, at_ms=move.at_ms, seat=move.seat)


def replay(
    deck: Sequence[Card], moves: Iterable[SquaresMove], *, now_ms: int, limit_s: int = DEFAULT_LIMIT_S
) -> SquaresState:
    """The state from the deck order, the time limit and the move log alone, the clock read at
    `now_ms`."""
    state = new_game(deck, limit_s=limit_s)
    for move in moves:
        state = apply_move(state, move)
    return advance_clock(state, now_ms=now_ms)
