"""The skill games' use cases (RULES.md §3, API.md "Skill games"): create a game, play a move, let a
deadline act, re-score a game from its log.

Each write locks the game's row first (`skill_games.locks`), replays the log through the game's
engine (`skill_games.registry`), and writes the new log records and the game row in the caller's
transaction; the audit events go to the casino-wide chain, last: `skill_games.game.created` (the
settings and every deck's commitment, never an order or a salt), `.revealed` (one deck's order,
salt and commitment, as its game ends: a match of several games reveals each deck then, a
practice game only) and `.ended` (the end and the score). A deadline is applied under the same lock by whoever comes first (a
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
from casino.engine.shoe import commitment, verify_commitment
from casino.engine.table_game import NotYourTurnError
from kernel.errors import ConflictError, NotFoundError
from kernel.keys import new_api_key
from kernel.rows import Insert, Update, run_together
from skill_games import selectors
from skill_games.locks import lock_game
from skill_games.models import Game, GameState, Move, Seat
from skill_games.registry import Adapter, End, game_for
from skill_games.selectors import MS, GameSnapshot, adapter_of, elapsed_ms, reveal_of, to_ms

SALT_BYTES = 32
# What a move or the clock changes on the game's row; the committed deal never changes.
PLAYED_FIELDS = (
    "seq",
    "state",
    "due_at",
    "finished_at",
    "end_reason",
    "score",
    "decks_revealed",
    "revealed_at",
)


def shuffled_deck() -> tuple[Card, ...]:
    """One 52-card deck shuffled by the CSPRNG, as an electronic shoe is (RULES.md §1.1)."""
    cards = list(ALL_CARDS)
    secrets.SystemRandom().shuffle(cards)
    return tuple(cards)


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


@dataclass(frozen=True, slots=True)
class TournamentSeating:
    """A tournament's game: its tournament and heat, the entry (by number) at each seat in order,
    and whether its deck's reveal waits for the heat to close (a duplicate heat)."""

    tournament_id: int
    heat: int
    entries: tuple[int, ...]
    reveal_held: bool
    # Each seat's key as (prefix, SHA-256 hash), when the seats take their entries' own tokens (a
    # table dealt before its players come: each device already holds its entry's token).
    seat_keys: tuple[tuple[str, str], ...] = ()


@transaction.atomic(savepoint=False)
def create_game(
    *,
    kind: str,
    body: Mapping[str, Any],
    user_id: int | None,
    actor: AuditActor,
    now: dt.datetime,
    deck: Sequence[Card] | None = None,
    decks: Sequence[Sequence[Card]] = (),
    tournament: TournamentSeating | None = None,
) -> GameSnapshot:
    """A game of `kind` with the settings in `body`: one deck per game of its match shuffled (or
    the first ones given, `decks` or `deck`: a duplicate heat's, or a test's), each committed to
    and every commitment published, one token per seat (returned once, stored hashed). A practice
    game, or a tournament's (`tournament`)."""
    adapter = game_for(kind).adapter
    game_settings = adapter.check_settings(body)
    given = [tuple(order) for order in decks] or ([tuple(deck)] if deck is not None else [])
    count = adapter.decks(game_settings)
    orders = [*given, *(shuffled_deck() for _ in range(count - len(given)))][:count]
    state = adapter.new_game(orders, game_settings)  # refuses a deck that is not one full deck
    salts = [secrets.token_bytes(SALT_BYTES) for _ in orders]
    started = to_ms(now)
    game = Game(
        kind=kind,
        started_at=started,
        settings=game_settings,
        decks=[[str(card) for card in order] for order in orders],
        salts=[salt.hex() for salt in salts],
        commitments=[commitment(order, salt) for order, salt in zip(orders, salts, strict=True)],
        created_by_id=user_id,
        created_at=now,
    )
    if tournament is not None:
        game.tournament_id, game.tournament_heat = tournament.tournament_id, tournament.heat
        game.reveal_held = tournament.reveal_held
    ends = adapter.ends_at_ms(state)
    game.ends_at = None if ends is None else _moment(game, ends)
    _schedule(game, adapter, state)
    game.save()
    tokens: dict[int, str] = {}
    seats = []
    given_keys = () if tournament is None else tournament.seat_keys
    for number in range(1, adapter.seats(game_settings) + 1):
        if given_keys:
            prefix, key_hash = given_keys[number - 1]
        else:
            key = new_api_key()
            tokens[number], prefix, key_hash = key.key, key.prefix, key.key_hash
        entry = None if tournament is None else tournament.entries[number - 1]
        seats.append(
            Seat(
                game=game,
                number=number,
                key_prefix=prefix,
                key_hash=key_hash,
                tournament_entry=entry,
                created_at=now,
            )
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
            "commitment": game.commitments[0],  # the game in play's
            "commitments": list(game.commitments),  # one a game of the match, in order
            "started_at": started.isoformat(),
            "ends_at": None if game.ends_at is None else game.ends_at.isoformat(),
            "tournament": None
            if tournament is None
            else {
                "id": tournament.tournament_id,
                "heat": tournament.heat,
                "entries": list(tournament.entries),
            },
        },
        at=now,
    )
    return GameSnapshot(game=game, seats=sorted(tokens), state=state, at=now, tokens=tokens)


@transaction.atomic(savepoint=False)
def reveal_held_game(*, game_id: int, actor: AuditActor, now: dt.datetime) -> bool:
    """Reveal every deck of a finished game whose reveal was held (a duplicate heat, once it has
    closed); whether it revealed anything (a second call finds it done)."""
    game = lock_game(game_id=game_id)
    if game is None or game.state != GameState.FINISHED or game.revealed_at is not None:
        return False
    game.reveal_held = False
    _reveal(game, game.deal_count, actor=actor, at=now)
    game.revealed_at = now
    game.save(update_fields=["reveal_held", "decks_revealed", "revealed_at"])
    return True


# --- the end, the clock ------------------------------------------------------------------------


def _reveal(game: Game, upto: int, *, actor: AuditActor, at: dt.datetime) -> None:
    """The decks of the games that have ended, up to deck `upto`, revealed one by one (unless held:
    a duplicate heat's deck is revealed when the heat closes, RULES.md §4)."""
    if game.reveal_held:
        return
    while game.decks_revealed < upto:
        game.decks_revealed += 1
        after = {"game_no": game.decks_revealed, **reveal_of(game, game.decks_revealed)}
        _record(game, event_type="skill_games.game.revealed", actor=actor, after=after, at=at)


def _moved(game: Game, adapter: Adapter[Any, Any], after: Any, *, at_ms: int, actor: AuditActor) -> None:
    """After an accepted move (or one the clock made): the decks of the games it ended are revealed,
    while the match goes on (its last deck is revealed with its end, `_finish`)."""
    if adapter.end(after) is None:
        _reveal(game, adapter.games_ended(after), actor=actor, at=_moment(game, at_ms))


def _finish(game: Game, adapter: Adapter[Any, Any], state: Any, end: End, *, actor: AuditActor) -> None:
    """The game is over: its final score and end are written, and (a practice game) every deck not
    yet revealed is. The game row is locked by the caller."""
    finished_at = _moment(game, end.at_ms)
    score = adapter.score(state)
    game.state = GameState.FINISHED
    game.finished_at = finished_at
    game.end_reason = end.ending.value
    game.score = score
    game.due_at = None
    after = {"end": end.ending.value, "finished_at": finished_at.isoformat(), "score": score, "seq": game.seq}
    _record(game, event_type="skill_games.game.ended", actor=actor, after=after, at=finished_at)
    if not game.reveal_held:
        _reveal(game, game.deal_count, actor=actor, at=finished_at)
        game.revealed_at = finished_at


def _ended(game: Game, adapter: Adapter[Any, Any], state: Any, *, actor: AuditActor) -> None:
    """The game row after the engine's state: finished with its score if it ended, else its next
    deadline."""
    end = adapter.end(state)
    if end is not None:
        _finish(game, adapter, state, end, actor=actor)
    else:
        _schedule(game, adapter, state)


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
    end it brought, written on the row (a game already over: the state at its end, nothing to
    write)."""
    adapter = adapter_of(game)
    clocked = adapter.advance_clock(state, now_ms=elapsed_ms(game, now))
    if game.state != GameState.PLAYING:
        return clocked.state, []
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
        _moved(game, adapter, after, at_ms=move.at_ms, actor=actor)
        before = after
    _ended(game, adapter, clocked.state, actor=actor)
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
    clock): game over, clock, `expected_seq`, seat, cards, the rest. The first two are the game's
    own (`Adapter.late_refusal`: for Make 21, the seat whose turn just timed out is `time_up` while
    the clock's move for it is the last in the log; any other seat goes on to `not_your_turn`). A
    refused move changes nothing; an accepted one is logged with the server's receive time, after
    any move the clock made for a seat before it."""
    game = lock_game(game_id=game_id)
    if game is None:
        raise NotFoundError("not_found", f"No game {game_id}.")
    adapter = adapter_of(game)
    state = selectors.replay(game, selectors.logged_moves(game_id=game.pk))
    state, automatic = _let_clock_act(game, state, now=now, actor=actor)
    late = adapter.late_refusal(state, seat=seat)
    if late is not None:
        raise late
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
    _moved(game, adapter, after, at_ms=at_ms, actor=actor)
    _ended(game, adapter, after, actor=actor)
    _write(game, [*automatic, logged])
    return GameSnapshot(game=game, seats=selectors.seat_numbers(game), state=after, at=now)


# --- re-scoring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rescore:
    game_id: int
    score: dict[str, Any]  # recomputed from the deck orders and the log alone
    stored: dict[str, Any] | None  # the final score written when the game ended
    commitment_holds: bool  # each stored order and its salt hash to the deck's published commitment

    @property
    def matches(self) -> bool:
        return self.stored is not None and self.stored == self.score and self.commitment_holds


def rescore_game(*, game_id: int, now: dt.datetime) -> Rescore:
    """The game's score replayed from its deck orders and log alone (the clock read at its end, or
    at `now` while it is played), against the score it ended with."""
    game = selectors.get_game(game_id=game_id)
    if game is None:
        raise NotFoundError("not_found", f"No game {game_id}.")
    snapshot = selectors.game_snapshot(
        game=game, moves=selectors.logged_moves(game_id=game_id), now=game.finished_at or now
    )
    holds = all(
        verify_commitment(order, bytes.fromhex(salt), published)
        for order, salt, published in zip(selectors.decks_of(game), game.salts, game.commitments, strict=True)
    )
    return Rescore(
        game_id=game.pk,
        score=adapter_of(game).score(snapshot.state),
        stored=game.score,
        commitment_holds=holds,
    )
