"""Reads of the skill games (STYLE.md §6): rows, and the engine state replayed from the deck order
and the move log alone (RULES.md §3: state and score come from the log)."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from casino.engine.cards import Card, parse_card
from skill_games.models import Game, GameState, Move
from skill_games.registry import Adapter, game_for

MS = dt.timedelta(milliseconds=1)


def to_ms(moment: dt.datetime) -> dt.datetime:
    """`moment` cut to whole milliseconds: the log's resolution."""
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def elapsed_ms(game: Game, moment: dt.datetime) -> int:
    """Milliseconds from the game's start to `moment` (0 before it)."""
    return max(0, (to_ms(moment) - game.started_at) // MS)


def adapter_of(game: Game) -> Adapter[Any, Any]:
    return game_for(game.kind).adapter


def deck_of(game: Game) -> tuple[Card, ...]:
    return tuple(parse_card(text) for text in game.deck_order)


def get_game(*, game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


def list_moves(*, game_id: int) -> QuerySet[Move]:
    """The game's log, oldest first."""
    return Move.objects.filter(game_id=game_id).order_by("seq")


def seat_numbers(*, game_id: int) -> list[int]:
    return list(Game.objects.get(pk=game_id).seats.order_by("number").values_list("number", flat=True))


def due_game_ids(*, now: dt.datetime) -> list[int]:
    """The games being played whose deadline has come (the beat task's work list)."""
    due = Game.objects.filter(state=GameState.PLAYING, due_at__lte=now).order_by("due_at", "pk")
    return list(due.values_list("pk", flat=True))


def replay(game: Game, moves: Iterable[Move]) -> Any:
    """The engine state from the deck order and the log, before the clock is read."""
    adapter = adapter_of(game)
    state = adapter.new_game(deck_of(game), game.settings)
    for move in moves:
        state = adapter.apply_move(
            state, adapter.parse_move(move.move, seat=move.seat, at_ms=move.elapsed_ms)
        )
    return state


@dataclass(frozen=True)
class GameSnapshot:
    """A game as the API presents it: its row, seats, and engine state with the clock read."""

    game: Game
    seats: list[int]
    state: Any
    at: dt.datetime  # the server time the clock was read at
    tokens: dict[int, str] | None = None  # the seats' tokens, at creation only


def game_snapshot(*, game: Game, moves: Iterable[Move], now: dt.datetime) -> GameSnapshot:
    state = replay(game, moves)
    clocked = adapter_of(game).advance_clock(state, now_ms=elapsed_ms(game, now)).state
    return GameSnapshot(game=game, seats=seat_numbers(game_id=game.pk), state=clocked, at=now)


def get_game_snapshot(*, game_id: int, now: dt.datetime) -> GameSnapshot | None:
    game = get_game(game_id=game_id)
    if game is None:
        return None
    return game_snapshot(game=game, moves=list_moves(game_id=game_id), now=now)


def list_games_started_between(*, start: dt.datetime, end: dt.datetime) -> QuerySet[Game]:
    """The games started in [start, end), in the order they started, with their seats (for the
    console's games of a gaming day)."""
    games = Game.objects.filter(started_at__gte=start, started_at__lt=end)
    return games.prefetch_related("seats").order_by("started_at", "pk")
