"""The rules of Blackjack Squares (RULES.md §3.2), one function each: no state, no clock, no I/O.

A square is nine positions, 1-9 row by row (`1 2 3 / 4 5 6 / 7 8 9`), each a card or None. Its six
lines (three rows, three columns) are each a hand. Card values are the blackjack engine's
(`casino.engine.cards`): 2-9 face value, T J Q K ten, an Ace 1 or 11.
"""

from collections.abc import Sequence

from casino.engine.cards import Card
from casino.engine.errors import RuleError

__all__ = [
    "DEFAULT_LIMIT_S",
    "LIMIT_S_RANGE",
    "LINES",
    "LINE_CARDS",
    "POSITIONS",
    "SQUARES_PER_GAME",
    "SWAPS_PER_GAME",
    "UNCASHED_SQUARE_SCORE",
    "InvalidGameSettingsError",
    "best_reading",
    "can_cash_in",
    "check_limit_s",
    "final_squares",
    "game_score",
    "line_cards",
    "line_value",
    "readings",
    "square_score",
    "swaps_left",
]

TWENTY_ONE = 21
POSITIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9)
LINE_CARDS = 3
LINES: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("row1", (1, 2, 3)),
    ("row2", (4, 5, 6)),
    ("row3", (7, 8, 9)),
    ("col1", (1, 4, 7)),
    ("col2", (2, 5, 8)),
    ("col3", (3, 6, 9)),
)
SWAPS_PER_GAME = 7
SQUARES_PER_GAME = 5
UNCASHED_SQUARE_SCORE = -126  # a square not cashed in at the time limit: six lines of 21, negated
DEFAULT_LIMIT_S = 30 * 60
LIMIT_S_RANGE = (60, 7200)


class InvalidGameSettingsError(RuleError):
    code = "invalid_game_settings"


def check_limit_s(limit_s: object) -> int:
    """The game's time limit in seconds [decided: the seed has none]: a tournament setting, 60 to
    7200, 30 minutes by default (API.md)."""
    low, high = LIMIT_S_RANGE
    if type(limit_s) is not int or not low <= limit_s <= high:
        raise InvalidGameSettingsError(
            f"limit_s is {low} to {high} seconds, not {limit_s!r}", field="limit_s"
        )
    return limit_s


# --- lines -----------------------------------------------------------------------------------


def readings(cards: Sequence[Card]) -> tuple[int, ...]:
    """Every total the cards can read, each Ace 1 or 11, lowest first."""
    hard = sum(card.value for card in cards)
    aces = sum(1 for card in cards if card.is_ace)
    return tuple(hard + 10 * elevens for elevens in range(aces + 1))


def best_reading(cards: Sequence[Card]) -> int:
    """The reading closest to 21 [decided: the player gets the best reading], each line on its own;
    of two equally close (`A A 4`: 16 or 26) the lower. A line not yet full shows the same."""
    return min(readings(cards), key=lambda total: (abs(TWENTY_ONE - total), total))


def line_value(total: int) -> int:
    """A full line totalling 21 (a Blackjack hand [decided: three cards, no selecting]) scores +21;
    any other -|21 - total| (16: -5, 22: -1)."""
    return TWENTY_ONE if total == TWENTY_ONE else -abs(TWENTY_ONE - total)


def line_cards(positions: Sequence[Card | None], line: Sequence[int]) -> tuple[Card, ...]:
    """The cards on a line's positions (1-9), the empty ones left out."""
    return tuple(card for card in (positions[p - 1] for p in line) if card is not None)


# --- squares and the game --------------------------------------------------------------------


def can_cash_in(positions: Sequence[Card | None]) -> bool:
    """`cash_in` only with all nine positions filled [decided]."""
    return all(card is not None for card in positions)


def square_score(positions: Sequence[Card | None]) -> int:
    """A full square is the sum of its six lines' values (126 at most, -78 at least)."""
    if not can_cash_in(positions):
        raise ValueError("only a full square has a score")
    return sum(line_value(best_reading(line_cards(positions, line))) for _, line in LINES)


def swaps_left(swaps_used: int) -> int:
    """Seven swaps a game, not a square [decided]; unused ones are worth nothing."""
    return SWAPS_PER_GAME - swaps_used


def final_squares(cashed: Sequence[int]) -> tuple[int, ...]:
    """The five squares' scores when the time limit ends the game: every square not cashed in, the
    one on the table too (full or not), scores -126 [decided], so stalling never pays."""
    return (*cashed, *(UNCASHED_SQUARE_SCORE,) * (SQUARES_PER_GAME - len(cashed)))


def game_score(squares: Sequence[int]) -> int:
    """The game is the sum of its squares (630 at most)."""
    return sum(squares)
