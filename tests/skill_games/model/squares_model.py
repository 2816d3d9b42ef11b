"""An independent model of Blackjack Squares, written from RULES.md §3.2 (and API.md "Skill games")
alone.

It shares no code with `squares.engine` nor with any other app module: plain lists of card strings
and integers. `SquaresModel.move` says what the service must answer to one move received at a
given time (accepted, or refused with a status and a code); `game`, `records` and `tick` say what
the service must show.
"""

from dataclasses import dataclass, field
from typing import Any

from tests.skill_games.model.common import Refused, Shown, check_first

SQUARES, SWAPS, POSITIONS = 5, 7, tuple(range(1, 10))
LINES = (
    ("row1", (1, 2, 3)),
    ("row2", (4, 5, 6)),
    ("row3", (7, 8, 9)),
    ("col1", (1, 4, 7)),
    ("col2", (2, 5, 8)),
    ("col3", (3, 6, 9)),
)
UNCASHED = -126


def reading(cards: list[str]) -> int:
    """The reading of a line's cards closest to 21, each Ace 1 or 11 on its own; of two equally
    close readings, the lower."""
    base = sum(1 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0]) for c in cards)
    aces = sum(c[0] == "A" for c in cards)
    readings = [base + 10 * k for k in range(aces + 1)]
    return min(readings, key=lambda r: (abs(21 - r), r))


def line_value(total: int) -> int:
    return 21 if total == 21 else -abs(21 - total)


def line_cards(positions: list[str | None], line: tuple[int, ...]) -> list[str]:
    return [card for card in (positions[p - 1] for p in line) if card is not None]


def square_score(positions: list[str | None]) -> int:
    """The sum of the six lines' values (a full square)."""
    return sum(line_value(reading(line_cards(positions, line))) for _, line in LINES)


@dataclass
class SquaresModel(Shown):
    deck: list[str]
    limit_s: int = 1800
    top: int = 0  # the current card's deck index (face up)
    bottom: int = 51  # the bottom card's deck index (hidden until a swap brings it in)
    positions: list[str | None] = field(default_factory=lambda: [None] * 9)
    swaps_used: int = 0
    cashed: list[int] = field(default_factory=list)
    seq: int = 0
    ended: str | None = None  # "cashed_out" | "time_up"
    records: list[dict[str, Any]] = field(default_factory=list)

    def tick(self, now_ms: int) -> None:
        """At the limit the game ends by itself."""
        if self.ended is None and now_ms >= self.limit_s * 1000:
            self.ended = "time_up"

    def empty(self) -> list[int]:
        return [p for p in POSITIONS if self.positions[p - 1] is None]

    def filled(self) -> list[int]:
        return [p for p in POSITIONS if self.positions[p - 1] is not None]

    def move(self, body: dict[str, Any], at_ms: int) -> None:
        """Apply one move received at `at_ms`, or raise `Refused` (and change nothing)."""
        self.tick(at_ms)
        check_first(body, ended=self.ended, seq=self.seq)
        kind, position = body.get("move"), body.get("position")
        if kind == "place" and position in self.empty() and type(position) is int:
            card = self.deck[self.top]
            self.top += 1
            self.positions[position - 1] = card
            self._log({"move": "place", "position": position}, at_ms, {"card": card})
        elif (
            kind == "swap" and self.swaps_used < SWAPS and position in self.filled() and type(position) is int
        ):
            out, card = self.positions[position - 1], self.deck[self.bottom]
            self.bottom -= 1
            self.swaps_used += 1
            self.positions[position - 1] = card
            self._log({"move": "swap", "position": position}, at_ms, {"out": out, "in": card})
        elif kind == "cash_in" and not self.empty():
            score = square_score(self.positions)
            self.cashed.append(score)
            self._log({"move": "cash_in"}, at_ms, {"square": len(self.cashed), "score": score})
            self.positions = [None] * 9
            if len(self.cashed) == SQUARES:
                self.ended = "cashed_out"
        else:
            raise Refused(422, "move_not_allowed")

    def _log(self, move: dict[str, Any], at_ms: int, outcome: dict[str, Any]) -> None:
        self.seq += 1
        self.records.append(
            {"seq": self.seq, "seat": 1, **move, "elapsed_ms": at_ms, "automatic": False, "outcome": outcome}
        )

    # --- what the service shows -------------------------------------------------------------

    def score(self) -> dict[str, Any]:
        squares = list(self.cashed)
        if self.ended == "time_up":
            squares += [UNCASHED] * (SQUARES - len(squares))
        return {"squares": squares, "total": sum(squares)}

    def needs(self) -> dict[str, Any] | None:
        if self.ended is not None:
            return None
        swappable = self.filled() if self.swaps_used < SWAPS else []
        moves = [
            move
            for move, allowed in (
                ("place", bool(self.empty())),
                ("swap", bool(swappable)),
                ("cash_in", not self.empty()),
            )
            if allowed
        ]
        return {"seat": 1, "moves": moves, "positions": self.empty(), "swappable": swappable}

    def board(self) -> dict[str, Any]:
        lines = []
        for name, line in LINES:
            cards = line_cards(self.positions, line)
            total = reading(cards)
            lines.append(
                {
                    "line": name,
                    "positions": list(line),
                    "total": total,
                    "value": line_value(total) if len(cards) == 3 else None,
                }
            )
        return {
            "square": len(self.cashed) + 1 if len(self.cashed) < SQUARES else None,
            "current": self.deck[self.top] if self.ended is None and self.top <= self.bottom else None,
            "cards_left": self.bottom - self.top + 1,
            "swaps_left": SWAPS - self.swaps_used,
            "positions": list(self.positions),
            "lines": lines,
        }
