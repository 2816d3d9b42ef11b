"""The skill games the kit runs, registered once by the apps that define them.

The kit (models, services, API, the beat task, `rescore_game`) asks here about a game's kind and
never names one: a game app registers a `SkillGame` from its `AppConfig.ready()` with an
`Adapter` over its pure engine. The adapter works on the engine's own state and move values; the
kit keeps them opaque and only stores what the adapter gives it as JSON.

Built for more than one seat and more than one game a match (Make 21): seats are numbered from 1,
`seat_to_move` says which seat the game waits for, `advance_clock` may make automatic moves for a
seat (logged as such, and replayed as such), `late_refusal` says who is refused `time_up` or
`game_over`, and `view` takes the caller, a seat or staff, so a game hides each hand from everyone
but its seat. A match is dealt from one deck per game (`decks`), all shuffled and committed when it
is created; `games_ended` and `game_no` tell the kit which decks it may reveal and which one is in
play.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from casino.engine.cards import Card
from casino.engine.errors import RuleError
from kernel.errors import CodedError

__all__ = [
    "STAFF",
    "Adapter",
    "Caller",
    "Clocked",
    "End",
    "Ending",
    "GameOverError",
    "InvalidGameSettingsError",
    "SkillGame",
    "TimeUpError",
    "TournamentPlay",
    "game_for",
    "games",
    "kinds",
    "no_settings_but",
    "register",
]

State = TypeVar("State")
Move = TypeVar("Move")


class InvalidGameSettingsError(CodedError):
    """Settings a game does not take, or out of their range (API.md: 422)."""

    code = "invalid_game_settings"


class GameOverError(RuleError):
    """The game had ended by its own last move (API.md: 409)."""

    code = "game_over"


class TimeUpError(RuleError):
    """A deadline acted before the move came (API.md: 409)."""

    code = "time_up"


class Ending(StrEnum):
    PLAYED = "played"  # the game ended by its own last move: a later move is `game_over`
    TIME_UP = "time_up"  # a deadline ended it: a later move is `time_up`


@dataclass(frozen=True, slots=True)
class End:
    ending: Ending
    at_ms: int  # when it ended, in ms since the game started (the deadline's time for TIME_UP)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who reads or moves: one seat of the game, or staff (`seat` None), who see no hidden card."""

    seat: int | None = None


STAFF = Caller()


@dataclass(frozen=True, slots=True)
class Clocked(Generic[State]):
    """The state once the clock has acted up to a moment, and the moves it made for the seats
    (each `(seat, move)`, logged as automatic at its own `at_ms`)."""

    state: State
    automatic: tuple[tuple[int, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentPlay:
    """How a tournament ranks the game and what it scores an entry that never plays (RULES.md §4)."""

    lower_wins: bool  # fewer is better (Make 21's cards collected); else higher is better
    # A solitaire game's score for a heat an entry never started; None for a table game.
    no_show_score: int | None
    # A table game's seats (fewest, most): the entries share one game, one seat each.
    table_seats: tuple[int, int] | None = None


class Adapter(Protocol[State, Move]):
    """One game's engine as the kit drives it. Every method is pure: no clock, no I/O."""

    tournament: TournamentPlay

    def tournament_settings(self, body: Mapping[str, Any], *, players: int | None) -> dict[str, Any]:
        """The game's settings for a tournament from the tournament's `settings` body; a table
        game's `players` are the entries seated, not a setting. Raises `InvalidGameSettingsError`."""

    def seat_score(self, score: Mapping[str, Any], *, seat: int) -> int:
        """A seat's tournament score from the game's final score (as `score` gives it)."""

    def check_settings(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The game's settings from the creation body (its own fields only; None for absent
        ones), stored as JSON; raises `InvalidGameSettingsError`."""

    # Whether the game's answers list `reveals`, one per game of the match that has ended.
    shows_reveals: bool

    def seats(self, settings: Mapping[str, Any]) -> int:
        """How many seats a game with these settings has."""

    def decks(self, settings: Mapping[str, Any]) -> int:
        """How many decks a game with these settings is dealt from: one per game of the match."""

    def new_game(self, decks: Sequence[Sequence[Card]], settings: Mapping[str, Any]) -> State:
        """The game dealt from its decks (`decks(settings)` of them, in the order they are played)."""

    def parse_move(self, body: Mapping[str, Any], *, seat: int, at_ms: int, automatic: bool = False) -> Move:
        """An engine move from a move body (the API's, or a logged record's with its `automatic`
        flag, so that a move the clock made replays as such); raises a `RuleError` for a move the
        game does not have or a field it needs (`move_not_allowed`), or cards that are not the
        seat's (`card_not_in_hand`)."""

    def record(self, move: Move) -> dict[str, Any]:
        """The move as the log stores it: `{"move": name, ...its fields}`."""

    def log_fields(self, record: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
        """A log record's move fields and outcome as the API's log shows them (`outcome` and
        whatever else the game's records carry)."""

    def apply_move(self, state: State, move: Move) -> State:
        """The next state, or a `RuleError` (nothing changed)."""

    def advance_clock(self, state: State, *, now_ms: int) -> "Clocked[State]": ...

    def next_deadline_ms(self, state: State) -> int | None:
        """When the clock acts next (ms since the start), None once the game is over."""

    def ends_at_ms(self, state: State) -> int | None:
        """When the game ends at the latest (API.md's `ends_at`), None if no clock ends it."""

    def end(self, state: State) -> End | None:
        """How and when the game ended; None while it is played."""

    def late_refusal(self, state: State, *, seat: int) -> CodedError | None:
        """Why a move from `seat` comes too late, the clock read: the game is over (`game_over`), or
        a deadline acted first for that seat (`time_up`); None when it is not late."""

    def games_ended(self, state: State) -> int:
        """How many of the match's games (its first decks) have ended."""

    def game_no(self, state: State) -> int:
        """The game of the match in play (the last one once the match is over), from 1."""

    def seat_to_move(self, state: State) -> int | None:
        """The seat in `needs`; None when the game waits for nobody."""

    def outcome(self, before: State, after: State, move: Move) -> dict[str, Any]:
        """What an accepted move did, as the log shows it to everyone: never a hidden card."""

    def view(self, state: State, caller: Caller) -> dict[str, Any]:
        """`needs`, `board`, `score` (and what else the game shows) as `caller` may see them. A
        `needs.deadline` is in ms since the start: the kit shows it as a time."""

    def hands(self, state: State) -> dict[int, list[str]]:
        """Each seat's hidden cards in the game in play, for staff once its deck is revealed
        (a game that deals no hand: none)."""

    def score(self, state: State) -> dict[str, Any]:
        """The score as API.md shows it (with its `total`)."""


@dataclass(frozen=True, slots=True)
class SkillGame:
    kind: str  # the API's `game`: "attack", "squares"
    name: str  # as people read it: "Blackjack Attack"
    adapter: Adapter[Any, Any] = field(compare=False)


_GAMES: dict[str, SkillGame] = {}


def register(game: SkillGame) -> None:
    """Called once per game from its app's `AppConfig.ready()`."""
    if _GAMES.setdefault(game.kind, game) != game:
        raise RuntimeError(f"Skill game {game.kind!r} is registered twice.")


def game_for(kind: str) -> SkillGame:
    game = _GAMES.get(kind)
    if game is None:
        raise LookupError(f"No skill game {kind!r} is registered.")
    return game


def games() -> list[SkillGame]:
    return [_GAMES[kind] for kind in kinds()]


def kinds() -> list[str]:
    return sorted(_GAMES)


class OneSeatAdapter:
    """What the one-seat games with one clock (Attack, Squares) share, read off their engine
    states' common shape: `finished`, `ended` (a `StrEnum` with a `TIME_UP` member),
    `ended_at_ms` and `deadline_ms`. The game's own adapter adds its moves and views."""

    seat = 1
    shows_reveals = False
    name: ClassVar[str]  # the game as people read it
    # Each move by name: its engine class, and the one field it names with its range (or None).
    moves: ClassVar[dict[str, tuple[type[Any], str | None, str]]]
    refusal: ClassVar[type[CodedError]]  # the engine's `move_not_allowed`

    def parse_move(self, body: Mapping[str, Any], *, seat: int, at_ms: int, automatic: bool = False) -> Any:
        name = body.get("move")
        found = self.moves.get(str(name))
        if found is None:
            raise self.refusal(f"{self.name}'s moves are {', '.join(self.moves)}, not {name!r}")
        kind, field, span = found
        if field is None:
            return kind(at_ms=at_ms, seat=seat)
        value = body.get(field)
        if value is None:
            raise self.refusal(f"{name} names a {field}, {span}", field=field)
        return kind(**{field: value}, at_ms=at_ms, seat=seat)

    def record(self, move: Any) -> dict[str, Any]:
        field = self.moves[move.kind][1]
        return {"move": move.kind} if field is None else {"move": move.kind, field: getattr(move, field)}

    def log_fields(self, record: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
        return {**record, "outcome": dict(outcome)}

    def seats(self, settings: Mapping[str, Any]) -> int:
        return 1

    def tournament_settings(self, body: Mapping[str, Any], *, players: int | None) -> dict[str, Any]:
        return self.check_settings(body)  # type: ignore[attr-defined]

    def seat_score(self, score: Mapping[str, Any], *, seat: int) -> int:
        return int(score["total"])

    def decks(self, settings: Mapping[str, Any]) -> int:
        return 1

    def games_ended(self, state: Any) -> int:
        return 0 if state.ended is None else 1

    def game_no(self, state: Any) -> int:
        return 1

    def hands(self, state: Any) -> dict[int, list[str]]:
        return {}

    def next_deadline_ms(self, state: Any) -> int | None:
        return None if state.finished else int(state.deadline_ms)

    def ends_at_ms(self, state: Any) -> int | None:
        return int(state.deadline_ms)

    def end(self, state: Any) -> End | None:
        if state.ended is None:
            return None
        ending = Ending.TIME_UP if state.ended == Ending.TIME_UP.value else Ending.PLAYED
        return End(ending, int(state.ended_at_ms))

    def late_refusal(self, state: Any, *, seat: int) -> CodedError | None:
        """Once the game is over, a move is `time_up` if the clock ended it, else `game_over`."""
        end = self.end(state)
        if end is None:
            return None
        if end.ending is Ending.TIME_UP:
            return TimeUpError("The clock ran out: the game is over.", field="at")
        return GameOverError("The game is over: its last move has been played.")

    def seat_to_move(self, state: Any) -> int | None:
        return None if state.finished else self.seat

    def no_settings_but(self, body: Mapping[str, Any], *allowed: str) -> None:
        no_settings_but(self.name, body, *allowed)


def no_settings_but(name: str, body: Mapping[str, Any], *allowed: str) -> None:
    """Refuses every setting in `body` but `allowed` (a body lists only the settings given) for the
    game `name`."""
    extra = sorted(key for key, value in body.items() if value is not None and key not in allowed)
    if extra:
        raise InvalidGameSettingsError(f"{name} takes no setting {extra[0]!r}.", field=extra[0])
