"""The skill games' use cases (RULES.md §3, API.md "Skill games"): create a game, play a move, let a
deadline act, re-score a game from its log.

Each write locks the game's row first (`skill_games.locks`), replays the log through the game's
engine (`skill_games.registry`), and writes the new log record and the game row in the caller's
transaction; the audit events (`skill_games.game.created`, `.ended`, `.revealed`) go to the
casino-wide chain, last. A deadline is applied under the same lock by whoever comes first (a
request, `apply_due_deadline`, or the beat task, `finish_due_games`): the next one finds the game
already over, so it acts exactly once.
"""

import datetime as dt
import functools
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.engine.cards import ALL_CARDS, Card
from casino.engine.errors import RuleError
from casino.engine.shoe import commitment, verify_commitment
from casino.engine.table_game import NotYourTurnError
from kernel.errors import ConflictError, NotFoundError
from kernel.keys import new_api_key
from kernel.rows import Insert, Update, run_together
from skill_games import selectors
from skill_games.locks import lock_game
from skill_games.models import Game, GameState, Move, Seat
from skill_games.registry import Adapter, End, Ending, game_for
from skill_games.selectors import MS, GameSnapshot, adapter_of, elapsed_ms, to_ms

SALT_BYTES = 32
# What a move or the clock changes on the game's row; the committed deal never changes.
PLAYED_FIELDS = ("seq", "state", "due_at", "finished_at", "end_reason", "score", "revealed_at")


class GameOverError(RuleError):
    """The game had ended by its own last move (API.md: 409)."""

    code = "game_over"


class TimeUpError(RuleError):
    """A deadline ended the game before the move came (API.md: 409)."""

    code = "time_up"


def shuffled_deck() -> tuple[Card, ...]:
    """One 52-card deck shuffled by the CSPRNG, as an electronic shoe is (RULES.md §1.1)."""
    cards = list(ALL_CARDS)
    secrets.SystemRandom().shuffle(cards)
    return tuple(cards)


def reveal_of(game: Game) -> dict[str, Any] | None:
    """API.md's reveal, once the game's deck may be shown."""
    if game.revealed_at is None:
        return None
    return {"order": list(game.deck_order), "salt": game.salt_hex, "commitment": game.commitment}


def _record(
    game: Game, *, event_type: str, actor: AuditActor, after: dict[str, Any], at: dt.datetime
) -> None:
    record_event(
        event_type=event_type,
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="skill_game",
        subject_id=str(game.pk),
        subject_label=f"{game_for(game.kind).name} game {game.pk}",
        after=after,
        occurred_at=at,
    )


def _moment(game: Game, at_ms: int) -> dt.datetime:
    return game.started_at + at_ms * MS


def _schedule(game: Game, adapter: Adapter[Any, Any], state: Any) -> None:
    due = adapter.next_deadline_ms(state)
    game.due_at = None if due is None else _moment(game, due)


# --- creating a game ---------------------------------------------------------------------------


@transaction.atomic(savepoint=False)
def create_game(
    *,
    kind: str,
    body: Mapping[str, Any],
    user_id: int | None,
    actor: AuditActor,
    now: dt.datetime,
    deck: Sequence[Card] | None = None,
) -> GameSnapshot:
    """A practice game of `kind` with the settings in `body`: its deck shuffled (or `deck`, for a
    test), the commitment published, one token per seat (returned once, stored hashed)."""
    adapter = game_for(kind).adapter
    game_settings = adapter.check_settings(body)
    order = tuple(deck) if deck is not None else shuffled_deck()
    state = adapter.new_game(order, game_settings)  # refuses a deck that is not one full deck
    salt = secrets.token_bytes(SALT_BYTES)
    started = to_ms(now)
    game = Game(
        kind=kind,
        started_at=started,
        settings=game_settings,
        deck_order=[str(card) for card in order],
        salt_hex=salt.hex(),
        commitment=commitment(order, salt),
        created_by_id=user_id,
        created_at=now,
    )
    ends = adapter.ends_at_ms(state)
    game.ends_at = None if ends is None else _moment(game, ends)
    _schedule(game, adapter, state)
    game.save()
    tokens: dict[int, str] = {}
    seats = []
    for number in range(1, adapter.seats(game_settings) + 1):
        key = new_api_key()
        tokens[number] = key.key
        seats.append(
            Seat(game=game, number=number, key_prefix=key.prefix, key_hash=key.key_hash, created_at=now)
        )
    Seat.objects.bulk_create(seats)
    _record(
        game,
        event_type="skill_games.game.created",
        actor=actor,
        after={
            "game": kind,
            "settings": game_settings,
            "seats": len(seats),
            "commitment": game.commitment,
            "started_at": started.isoformat(),
            "ends_at": None if game.ends_at is None else game.ends_at.isoformat(),
        },
        at=now,
    )
    return GameSnapshot(game=game, seats=sorted(tokens), state=state, at=now, tokens=tokens)


# --- the end, the clock ------------------------------------------------------------------------


def _finish(game: Game, adapter: Adapter[Any, Any], state: Any, end: End, *, actor: AuditActor) -> None:
    """The game is over: its final score and end are written, and (a practice game) its deck is
    revealed. The game row is locked by the caller."""
    finished_at = _moment(game, end.at_ms)
    score = adapter.score(state)
    game.state = GameState.FINISHED
    game.finished_at = finished_at
    game.end_reason = end.ending.value
    game.score = score
    game.due_at = None
    after = {"end": end.ending.value, "finished_at": finished_at.isoformat(), "score": score, "seq": game.seq}
    _record(game, event_type="skill_games.game.ended", actor=actor, after=after, at=finished_at)
    if game.tournament_id is None:  # a heat's deck is revealed when the heat closes (RULES.md §4)
        game.revealed_at = finished_at
        _record(
            game,
            event_type="skill_games.game.revealed",
            actor=actor,
            after={"order": list(game.deck_order), "salt": game.salt_hex, "commitment": game.commitment},
            at=finished_at,
        )


def _log(
    game: Game, *, seat: int, record: dict[str, Any], at_ms: int, automatic: bool, outcome: dict[str, Any]
) -> Move:
    game.seq += 1
    return Move(
        game=game,
        seq=game.seq,
        seat=seat,
        move=record,
        received_at=_moment(game, at_ms),
        elapsed_ms=at_ms,
        automatic=automatic,
        outcome=outcome,
    )


@functools.cache
def _insert_move() -> Insert[Move]:
    return Insert(Move, ("game", "seq", "seat", "move", "received_at", "elapsed_ms", "automatic", "outcome"))


@functools.cache
def _update_game() -> Update[Game]:
    return Update(Game, PLAYED_FIELDS)


def _write(game: Game, logged: Sequence[Move]) -> None:
    """The new log records and the game row's new state, in one statement."""
    statements = (
        [_insert_move().statement([_insert_move().row_of(move) for move in logged])] if logged else []
    )
    values = [getattr(game, name) for name in PLAYED_FIELDS]
    run_together([*statements, _update_game().statement(game.pk, values)])


def _let_clock_act(game: Game, state: Any, *, now: dt.datetime, actor: AuditActor) -> tuple[Any, list[Move]]:
    """What the clock did up to `now` on a locked game: its automatic moves (to be logged) and the
    end it brought, written on the row."""
    adapter = adapter_of(game)
    if game.state != GameState.PLAYING:
        return state, []
    clocked = adapter.advance_clock(state, now_ms=elapsed_ms(game, now))
    logged: list[Move] = []
    before = state
    for seat, move in clocked.automatic:
        after = adapter.apply_move(before, move)
        outcome = adapter.outcome(before, after, move)
        logged.append(
            _log(
                game,
                seat=seat,
                record=adapter.record(move),
                at_ms=move.at_ms,
                automatic=True,
                outcome=outcome,
            )
        )
        before = after
    end = adapter.end(clocked.state)
    if end is not None:
        _finish(game, adapter, clocked.state, end, actor=actor)
    else:
        _schedule(game, adapter, clocked.state)
    return clocked.state, logged


@transaction.atomic(savepoint=False)
def apply_due_deadline(
    *, game_id: int, now: dt.datetime, actor: AuditActor, skip_locked: bool = False
) -> bool:
    """Let the game's clock act if a deadline has come (RULES.md §3: a deadline acts without a
    request). Under the game row's lock, so it acts once: whoever comes second finds it done.
    Whether anything changed."""
    probe = Game.objects.filter(pk=game_id, state=GameState.PLAYING, due_at__lte=now).exists()
    if not probe:
        return False
    game = lock_game(game_id=game_id, skip_locked=skip_locked)
    if game is None or game.state != GameState.PLAYING or game.due_at is None or game.due_at > now:
        return False
    state = selectors.replay(game, selectors.logged_moves(game_id=game.pk))
    seq = game.seq
    _, logged = _let_clock_act(game, state, now=now, actor=actor)
    _write(game, logged)
    return game.seq != seq or game.state == GameState.FINISHED


# --- a move ------------------------------------------------------------------------------------


@transaction.atomic(savepoint=False)
def play_move(
    *,
    game_id: int,
    seat: int,
    body: Mapping[str, Any],
    expected_seq: int | None,
    actor: AuditActor,
    now: dt.datetime,
) -> GameSnapshot:
    """One move from `seat`, checked in RULES.md §3's order (API.md adds `expected_seq` after the
    clock): game over, clock, `expected_seq`, seat, cards, the rest. A refused move changes
    nothing; an accepted one is logged with the server's receive time."""
    game = lock_game(game_id=game_id)
    if game is None:
        raise NotFoundError("not_found", f"No game {game_id}.")
    adapter = adapter_of(game)
    state = selectors.replay(game, selectors.logged_moves(game_id=game.pk))
    state, automatic = _let_clock_act(game, state, now=now, actor=actor)
    end = adapter.end(state)
    ending = end.ending if end is not None else Ending(game.end_reason) if game.end_reason else None
    if ending is Ending.TIME_UP:
        raise TimeUpError("The clock ran out: the game is over.", field="at")
    if ending is not None:
        raise GameOverError("The game is over: its last move has been played.")
    if automatic:
        # The clock moved for a seat since the last request: that is the move this one is late for.
        raise TimeUpError("The turn's clock ran out: a move was made for the seat.", field="at")
    if expected_seq is not None and expected_seq != game.seq:
        raise ConflictError(
            "stale_game",
            f"The game is at seq {game.seq}, not {expected_seq}: it has moved on.",
            field="expected_seq",
        )
    if adapter.seat_to_move(state) != seat:
        raise NotYourTurnError(f"Seat {seat} is not the one to move.", field="seat")
    at_ms = elapsed_ms(game, now)
    move = adapter.parse_move(body, seat=seat, at_ms=at_ms)
    after = adapter.apply_move(state, move)
    logged = _log(
        game,
        seat=seat,
        record=adapter.record(move),
        at_ms=at_ms,
        automatic=False,
        outcome=adapter.outcome(state, after, move),
    )
    end = adapter.end(after)
    if end is not None:
        _finish(game, adapter, after, end, actor=actor)
    else:
        _schedule(game, adapter, after)
    _write(game, [logged])
    return GameSnapshot(game=game, seats=selectors.seat_numbers(game), state=after, at=now)


# --- re-scoring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rescore:
    game_id: int
    score: dict[str, Any]  # recomputed from the deck order and the log alone
    stored: dict[str, Any] | None  # the final score written when the game ended
    commitment_holds: bool  # the stored order and salt hash to the published commitment

    @property
    def matches(self) -> bool:
        return self.stored is not None and self.stored == self.score and self.commitment_holds


def rescore_game(*, game_id: int, now: dt.datetime) -> Rescore:
    """The game's score replayed from its deck order and log alone (the clock read at its end, or
    at `now` while it is played), against the score it ended with."""
    game = selectors.get_game(game_id=game_id)
    if game is None:
        raise NotFoundError("not_found", f"No game {game_id}.")
    snapshot = selectors.game_snapshot(
        game=game, moves=selectors.logged_moves(game_id=game_id), now=game.finished_at or now
    )
    holds = verify_commitment(selectors.deck_of(game), bytes.fromhex(game.salt_hex), game.commitment)
    return Rescore(
        game_id=game.pk,
        score=adapter_of(game).score(snapshot.state),
        stored=game.score,
        commitment_holds=holds,
    )
