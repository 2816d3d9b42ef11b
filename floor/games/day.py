"""The skill games of a gaming day on the console: every game started in it (casino local time,
the gaming day's cut), each with its state and score total as the API would show them now (a
game whose clock has run out reads finished even before the beat task has written its end)."""

import datetime as dt
from dataclasses import dataclass
from typing import Any

from casino.engine.errors import RuleError
from kernel.gaming_day import shift_bounds
from skill_games.models import Game, GameState
from skill_games.registry import game_for
from skill_games.selectors import adapter_of, game_snapshot, list_games_started_between, list_moves


@dataclass(frozen=True)
class DayGame:
    game: Game
    name: str
    seats: list[int]
    over: bool
    ended_at: dt.datetime | None  # when it ended, once over (by the row, or by its clock)
    total: Any  # the score total: the stored one once written, else the one replayed now

    @property
    def seat_totals(self) -> list[tuple[str, Any]]:
        """A total by seat (a Make 21 match's cards collected), seat 1 first; none for one number."""
        if not isinstance(self.total, dict):
            return []
        return sorted(self.total.items(), key=lambda item: int(item[0]) if str(item[0]).isdigit() else 0)


def day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of a gaming day: its day shift's start to the next day's."""
    return shift_bounds(day, "day")[0], shift_bounds(day + dt.timedelta(days=1), "day")[0]


def _row(game: Game, *, now: dt.datetime) -> DayGame:
    name = game_for(game.kind).name
    seats = sorted(seat.number for seat in game.seats.all())
    if game.state == GameState.FINISHED and game.score is not None:
        return DayGame(game, name, seats, True, game.finished_at, game.score.get("total"))
    adapter = adapter_of(game)
    try:
        state = game_snapshot(game=game, moves=list_moves(game_id=game.pk), now=now).state
    except (RuleError, ValueError, KeyError, TypeError):
        return DayGame(game, name, seats, False, None, None)
    end = adapter.end(state)
    ended_at = None if end is None else game.started_at + dt.timedelta(milliseconds=end.at_ms)
    return DayGame(game, name, seats, end is not None, ended_at, adapter.score(state).get("total"))


def games_of_day(*, day: dt.date, now: dt.datetime) -> list[DayGame]:
    start, end = day_bounds(day)
    return [_row(game, now=now) for game in list_games_started_between(start=start, end=end)]
