"""A refused move as the models say the service must refuse it (API.md: status and code), and the
checks every move goes through first, in RULES.md §3's order; what a game shows."""

import datetime as dt
import random
from abc import ABC, abstractmethod
from typing import Any


def stamp(moment: dt.datetime) -> str:
    """A time as the API writes it: UTC with milliseconds."""
    utc = moment.astimezone(dt.UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


class Refused(Exception):
    def __init__(self, status: int, code: str) -> None:
        super().__init__(f"{status} {code}")
        self.status, self.code = status, code


def check_first(body: dict[str, object], *, ended: str | None, seq: int) -> None:
    """Game over (the game ended by its own last move), then the clock (a deadline ended it), then
    (API.md) an `expected_seq` the game has moved past."""
    if ended == "time_up":
        raise Refused(409, "time_up")
    if ended is not None:
        raise Refused(409, "game_over")
    if "expected_seq" in body and body["expected_seq"] != seq:
        raise Refused(409, "stale_game")


class Shown(ABC):
    """What the service shows of a game (API.md), from a model's own `needs`, `board`, `score`."""

    seq: int
    ended: str | None

    @abstractmethod
    def needs(self) -> dict[str, Any] | None:
        """The game's `needs` as API.md shapes it."""

    @abstractmethod
    def board(self) -> dict[str, Any]:
        """The game's `board` as API.md shapes it."""

    @abstractmethod
    def score(self) -> dict[str, Any]:
        """The game's `score` as API.md shapes it."""

    def game(self) -> dict[str, Any]:
        return {
            "state": "playing" if self.ended is None else "finished",
            "seq": self.seq,
            "needs": self.needs(),
            "board": self.board(),
            "score": self.score(),
        }


def squares_choice(empty: list[int], filled: list[int], rng: random.Random) -> dict[str, Any]:
    """A Squares player's move: mostly the game's own (place, then cash in a full square, swapping
    now and then), sometimes one the rules refuse."""
    r = rng.random()
    if r < 0.02:
        return {"move": rng.choice(("undo", "hit"))}
    if r < 0.05:
        return {"move": "place", "position": rng.choice([*filled, 0, 10])}
    if r < 0.08:
        return {"move": "swap", "position": rng.choice([*empty, 0, 10] if empty else [0, 10])}
    if r < 0.10:
        return {"move": "cash_in"}  # refused while a position is empty
    if r < 0.22 and filled:
        return {"move": "swap", "position": rng.choice(filled)}  # refused once 7 swaps are used
    if not empty:
        return {"move": "cash_in"}
    return {"move": "place", "position": rng.choice(empty)}
