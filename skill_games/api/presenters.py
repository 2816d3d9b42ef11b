"""The skill games as the API shows them (API.md "Skill games"): plain dicts from the snapshots
and log rows, each as the caller may see it."""

import datetime as dt
from collections.abc import Iterable
from typing import Any

from skill_games.models import Game, GameState, Move
from skill_games.registry import Adapter, Caller
from skill_games.selectors import MS, GameSnapshot, adapter_of, last_reveal_of, reveals_of, seat_entries


def timestamp(moment: dt.datetime) -> str:
    """UTC with milliseconds: `2026-11-26T20:00:00.000Z`."""
    utc = moment.astimezone(dt.UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


def _view(game: Game, adapter: Adapter[Any, Any], state: Any, caller: Caller) -> dict[str, Any]:
    """The game's own part of the answer, its `needs.deadline` (ms since the start) as a time."""
    view = adapter.view(state, caller)
    needs = view.get("needs")
    if isinstance(needs, dict) and isinstance(needs.get("deadline"), int):
        view["needs"] = {**needs, "deadline": timestamp(game.started_at + needs["deadline"] * MS)}
    return view


def _tournament_of(snapshot: GameSnapshot, caller: Caller) -> dict[str, Any] | None:
    """`{id, heat, entry}` for a tournament's game: the caller's seat's entry (the only seat's in
    a solitaire game; None for staff at a table)."""
    game = snapshot.game
    if game.tournament_id is None:
        return None
    entries = seat_entries(game)
    seat = caller.seat if caller.seat is not None else (1 if len(entries) == 1 else None)
    return {"id": game.tournament_id, "heat": game.tournament_heat, "entry": entries.get(seat or 0)}


def game_payload(snapshot: GameSnapshot, caller: Caller) -> dict[str, Any]:
    """The game as `caller` may see it: `commitment` is the game in play's (of a match's decks);
    `reveal` the last deck's once the whole game has ended (and may be shown), and a match's
    answers list `reveals` too, one for each of its games that has ended."""
    game, adapter = snapshot.game, adapter_of(snapshot.game)
    over = game.state == GameState.FINISHED or adapter.end(snapshot.state) is not None
    tokens = snapshot.tokens or {}
    seats = [{"seat": n, "token": tokens[n]} if n in tokens else {"seat": n} for n in snapshot.seats]
    payload = {
        "id": game.pk,
        "game": game.kind,
        "state": GameState.FINISHED.value if over else GameState.PLAYING.value,
        "seq": game.seq,
        "started_at": timestamp(game.started_at),
        "ends_at": None if game.ends_at is None else timestamp(game.ends_at),
        "server_time": timestamp(snapshot.at),
        "commitment": game.commitments[adapter.game_no(snapshot.state) - 1],
        "reveal": last_reveal_of(game),
        "tournament": _tournament_of(snapshot, caller),
        **_view(game, adapter, snapshot.state, caller),
        "seats": seats,
    }
    if adapter.shows_reveals:
        payload["reveals"] = reveals_of(game)
    return payload


def version_tag(game: Game, caller: Caller) -> str:
    """A weak ETag for what `game_payload` shows this caller of the game as its row stands: the
    answer changes only with a move (`seq`), the end, the reveal, or who asks. Weak, because
    `server_time` moves on between two equal answers."""
    seat = "staff" if caller.seat is None else f"seat{caller.seat}"
    revealed = "" if game.revealed_at is None else f".r{int(game.revealed_at.timestamp() * 1000)}"
    revealed += f".d{game.decks_revealed}" if game.decks_revealed else ""
    return f'W/"g{game.pk}.{game.seq}.{game.state}{revealed}.{seat}"'


def move_payload(move: Move, adapter: Adapter[Any, Any]) -> dict[str, Any]:
    """A log record: the move's fields, when the server got it, what it did (no hidden card: the
    adapters log only cards already face up), as the game shows its records."""
    return {
        **adapter.log_fields(move.move, move.outcome),
        "seq": move.seq,
        "seat": move.seat,
        "at": timestamp(move.received_at),
        "elapsed_s": move.elapsed_ms / 1000,
        "automatic": move.automatic,
    }


def log_payload(game: Game, moves: Iterable[Move]) -> list[dict[str, Any]]:
    adapter = adapter_of(game)
    return [move_payload(move, adapter) for move in moves]
