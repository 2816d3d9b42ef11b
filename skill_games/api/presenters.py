"""The skill games as the API shows them (API.md "Skill games"): plain dicts from the snapshots
and log rows, each as the caller may see it."""

import datetime as dt
from collections.abc import Iterable
from typing import Any

from skill_games.models import Game, GameState, Move
from skill_games.registry import Caller
from skill_games.selectors import GameSnapshot, adapter_of
from skill_games.services import reveal_of


def timestamp(moment: dt.datetime) -> str:
    """UTC with milliseconds: `2026-11-26T20:00:00.000Z`."""
    utc = moment.astimezone(dt.UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


def game_payload(snapshot: GameSnapshot, caller: Caller) -> dict[str, Any]:
    game, adapter = snapshot.game, adapter_of(snapshot.game)
    over = game.state == GameState.FINISHED or adapter.end(snapshot.state) is not None
    tokens = snapshot.tokens or {}
    seats = [{"seat": n, "token": tokens[n]} if n in tokens else {"seat": n} for n in snapshot.seats]
    return {
        "id": game.pk,
        "game": game.kind,
        "state": GameState.FINISHED.value if over else GameState.PLAYING.value,
        "seq": game.seq,
        "started_at": timestamp(game.started_at),
        "ends_at": None if game.ends_at is None else timestamp(game.ends_at),
        "server_time": timestamp(snapshot.at),
        "commitment": game.commitment,
        "reveal": reveal_of(game),
        "tournament": None,
        **adapter.view(snapshot.state, caller),
        "seats": seats,
    }


def version_tag(game: Game, caller: Caller) -> str:
    """A weak ETag for what `game_payload` shows this caller of the game as its row stands: the
    answer changes only with a move (`seq`), the end, the reveal, or who asks. Weak, because
    `server_time` moves on between two equal answers."""
    seat = "staff" if caller.seat is None else f"seat{caller.seat}"
    revealed = "" if game.revealed_at is None else f".r{int(game.revealed_at.timestamp() * 1000)}"
    return f'W/"g{game.pk}.{game.seq}.{game.state}{revealed}.{seat}"'


def move_payload(move: Move) -> dict[str, Any]:
    """A log record: the move's fields, when the server got it, what it did (no hidden card: the
    adapters log only cards already face up)."""
    return {
        "seq": move.seq,
        "seat": move.seat,
        **move.move,
        "at": timestamp(move.received_at),
        "elapsed_s": move.elapsed_ms / 1000,
        "automatic": move.automatic,
        "outcome": move.outcome,
    }


def log_payload(moves: Iterable[Move]) -> list[dict[str, Any]]:
    return [move_payload(move) for move in moves]
