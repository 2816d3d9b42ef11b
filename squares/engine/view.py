"""What the API shows of a game of Blackjack Squares (API.md "Skill games"): `needs`, `board` and
`score`, built from the state alone.

The board never shows a card the rules have not turned face up: the square on the table and the
deck's top card (the current card); the bottom card stays hidden until a swap brings it in.
"""

from dataclasses import dataclass
from typing import TypedDict

from squares.engine.game import SEAT, EndReason, SquaresState
from squares.engine.rules import (
    LINE_CARDS,
    LINES,
    POSITIONS,
    best_reading,
    can_cash_in,
    final_squares,
    game_score,
    line_cards,
    line_value,
)

__all__ = ["LineView", "SquaresBoard", "SquaresNeeds", "SquaresScore", "board", "describe", "needs", "score"]


class LineView(TypedDict):
    line: str  # row1 row2 row3 col1 col2 col3
    positions: list[int]
    total: int  # the best reading of the cards on it, full or not
    value: int | None  # once its three positions are filled


class SquaresBoard(TypedDict):
    square: int | None
    current: str | None
    cards_left: int
    swaps_left: int
    positions: list[str | None]
    lines: list[LineView]


@dataclass(frozen=True, slots=True)
class SquaresNeeds:
    moves: tuple[str, ...]
    positions: tuple[int, ...]  # empty positions `place` may fill
    swappable: tuple[int, ...]  # positions `swap` may take a card from
    seat: int = SEAT

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "moves": list(self.moves),
            "positions": list(self.positions),
            "swappable": list(self.swappable),
        }


def needs(state: SquaresState) -> SquaresNeeds | None:
    """The moves allowed now: `place` on an empty position, `swap` of a card while swaps are left,
    `cash_in` of a full square; None once the game is over."""
    if state.finished:
        return None
    empty = tuple(p for p, card in zip(POSITIONS, state.positions, strict=True) if card is None)
    filled = tuple(p for p, card in zip(POSITIONS, state.positions, strict=True) if card is not None)
    swappable = filled if state.swaps_left > 0 else ()
    moves = tuple(
        move
        for move, allowed in (
            ("place", bool(empty)),
            ("swap", bool(swappable)),
            ("cash_in", can_cash_in(state.positions)),
        )
        if allowed
    )
    return SquaresNeeds(moves, empty, swappable)


@dataclass(frozen=True, slots=True)
class SquaresScore:
    squares: tuple[int, ...]  # the squares cashed in; at the time limit, every one of the five
    total: int

    def to_dict(self) -> dict[str, object]:
        return {"squares": list(self.squares), "total": self.total}


def score(state: SquaresState) -> SquaresScore:
    """The sum of the squares cashed in; at the time limit every square not cashed in, the one on
    the table too, scores -126."""
    squares = final_squares(state.cashed) if state.ended is EndReason.TIME_UP else state.cashed
    return SquaresScore(squares, game_score(squares))


def board(state: SquaresState) -> SquaresBoard:
    """The visible board: the square's number, the current card (none once the game is over), the
    cards and swaps left, the nine positions and the six lines (a line's value once it is full)."""
    current = None if state.finished else state.current_card
    lines: list[LineView] = []
    for name, line in LINES:
        cards = line_cards(state.positions, line)
        total = best_reading(cards)
        lines.append(
            {
                "line": name,
                "positions": list(line),
                "total": total,
                "value": line_value(total) if len(cards) == LINE_CARDS else None,
            }
        )
    return {
        "square": state.square,
        "current": None if current is None else str(current),
        "cards_left": state.cards_left,
        "swaps_left": state.swaps_left,
        "positions": [None if card is None else str(card) for card in state.positions],
        "lines": lines,
    }


def describe(state: SquaresState) -> dict[str, object]:
    """The engine's part of the API's game: state, seq, needs, board and score."""
    need = needs(state)
    return {
        "state": "finished" if state.finished else "playing",
        "ended": None if state.ended is None else str(state.ended),
        "seq": state.seq,
        "needs": None if need is None else need.to_dict(),
        "board": board(state),
        "score": score(state).to_dict(),
    }
