"""Reads of the skill games (STYLE.md §6): rows, and the engine state replayed from the deck orders
and the move log alone (RULES.md §3: state and score come from the log).

Every request on a game reads its row, and every move and changed poll its log: those two reads
are statements written once (`kernel.rows`), which costs a fraction of compiling the ORM's query
each time; the rest use the ORM."""

import datetime as dt
import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from django.db import connection
from django.db.models import QuerySet

from casino.engine.cards import Card, parse_card
from kernel.rows import Columns
from skill_games.models import Game, GameState, Move, Seat
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


def decks_of(game: Game) -> tuple[tuple[Card, ...], ...]:
    """The game's deck orders, one per game of the match, in the order they are played."""
    return tuple(tuple(parse_card(text) for text in deck) for deck in game.decks)


def reveal_of(game: Game, number: int) -> dict[str, Any]:
    """API.md's reveal of deck `number` (from 1): its order, salt and commitment."""
    return {
        "order": list(game.decks[number - 1]),
        "salt": game.salts[number - 1],
        "commitment": game.commitments[number - 1],
    }


def reveals_of(game: Game) -> list[dict[str, Any]]:
    """Every deck revealed so far, each with its `game_no` (API.md's `reveals`)."""
    return [{"game_no": n, **reveal_of(game, n)} for n in range(1, game.decks_revealed + 1)]


def last_reveal_of(game: Game) -> dict[str, Any] | None:
    """API.md's `reveal`: the last deck's, once the whole game (every game of the match) may be
    shown; None before."""
    return None if game.revealed_at is None else reveal_of(game, game.deal_count)


@functools.cache
def _game_columns() -> Columns[Game]:
    return Columns(Game, "g")


def game_row(*, game_id: int, lock: str = "") -> Game | None:
    """The game's row by its id, with `lock` (`FOR UPDATE`, ...) as the caller takes it."""
    columns = _game_columns()
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT {columns.sql} FROM {columns.table} WHERE "g"."id" = %s {lock}', [game_id])  # noqa: S608  (model metadata and the caller's lock clause)
        row = cursor.fetchone()
    return None if row is None else columns.build(row)


def get_game(*, game_id: int) -> Game | None:
    return game_row(game_id=game_id)


def list_moves(*, game_id: int) -> QuerySet[Move]:
    """The game's log, oldest first."""
    return Move.objects.filter(game_id=game_id).order_by("seq")


class Logged(Protocol):
    """What a replay reads of a log record (a `Move` has it)."""

    @property
    def seat(self) -> int: ...

    @property
    def move(self) -> dict[str, Any]: ...

    @property
    def elapsed_ms(self) -> int: ...

    @property
    def automatic(self) -> bool: ...


class LoggedMove(NamedTuple):
    seat: int
    move: dict[str, Any]
    elapsed_ms: int
    automatic: bool


def logged_moves(*, game_id: int) -> list[LoggedMove]:
    """The game's log as a replay reads it, oldest first."""
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT "seat", "move", "elapsed_ms", "automatic" FROM "skill_games_move" '
            'WHERE "game_id" = %s ORDER BY "seq"',
            [game_id],
        )
        rows = cursor.fetchall()
    return [
        LoggedMove(seat, move if isinstance(move, dict) else json.loads(move), at, automatic)
        for seat, move, at, automatic in rows
    ]


def seat_numbers(game: Game) -> list[int]:
    """A game's seats are numbered 1 to its settings' seat count from its creation on."""
    return list(range(1, adapter_of(game).seats(game.settings) + 1))


def seat_entries(game: Game) -> dict[int, int]:
    """A tournament game's seats and the entry (by number) at each; none for a practice game."""
    if game.tournament_id is None:
        return {}
    rows = Seat.objects.filter(game_id=game.pk, tournament_entry__isnull=False)
    return {
        number: entry for number, entry in rows.values_list("number", "tournament_entry") if entry is not None
    }


def is_due(game: Game, now: dt.datetime) -> bool:
    """Whether a deadline of the game, still being played, has come by `now`."""
    return game.state == GameState.PLAYING and game.due_at is not None and game.due_at <= now


def due_game_ids(*, now: dt.datetime) -> list[int]:
    """The games being played whose deadline has come (the beat task's work list)."""
    due = Game.objects.filter(state=GameState.PLAYING, due_at__lte=now).order_by("due_at", "pk")
    return list(due.values_list("pk", flat=True))


def replayed_move(adapter: Adapter[Any, Any], state: Any, move: Logged) -> Any:
    """The state after one logged move, replayed as it was logged (an automatic one as such)."""
    parsed = adapter.parse_move(move.move, seat=move.seat, at_ms=move.elapsed_ms, automatic=move.automatic)
    return adapter.apply_move(state, parsed)


def replay(game: Game, moves: Iterable[Logged]) -> Any:
    """The engine state from the deck orders and the log, before the clock is read."""
    adapter = adapter_of(game)
    state = adapter.new_game(decks_of(game), game.settings)
    for move in moves:
        state = replayed_move(adapter, state, move)
    return state


@dataclass(frozen=True)
class GameSnapshot:
    """A game as the API presents it: its row, seats, and engine state with the clock read."""

    game: Game
    seats: list[int]
    state: Any
    at: dt.datetime  # the server time the clock was read at
    tokens: dict[int, str] | None = None  # the seats' tokens, at creation only


def game_snapshot(*, game: Game, moves: Iterable[Logged], now: dt.datetime) -> GameSnapshot:
    state = replay(game, moves)
    clocked = adapter_of(game).advance_clock(state, now_ms=elapsed_ms(game, now)).state
    return GameSnapshot(game=game, seats=seat_numbers(game), state=clocked, at=now)


def get_game_snapshot(*, game_id: int, now: dt.datetime) -> GameSnapshot | None:
    game = get_game(game_id=game_id)
    if game is None:
        return None
    return game_snapshot(game=game, moves=logged_moves(game_id=game_id), now=now)


def list_games_started_between(*, start: dt.datetime, end: dt.datetime) -> QuerySet[Game]:
    """The games started in [start, end), in the order they started, with their seats (for the
    console's games of a gaming day)."""
    games = Game.objects.filter(started_at__gte=start, started_at__lt=end)
    return games.prefetch_related("seats").order_by("started_at", "pk")
