"""The skill games the kit runs, registered once by the apps that define them.

The kit (models, services, API, the beat task, `rescore_game`) asks here about a game's kind and
never names one: a game app registers a `SkillGame` from its `AppConfig.ready()` with an
`Adapter` over its pure engine. The adapter works on the engine's own state and move values; the
kit keeps them opaque and only stores what the adapter gives it as JSON.

Built for more than one seat (Make 21): seats are numbered from 1, `seat_to_move` says which seat
the game waits for, `advance_clock` may make automatic moves for a seat (logged as such), and
`view` takes the caller, a seat or staff, so a game hides each hand from everyone but its seat.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from casino.engine.cards import Card
from kernel.errors import CodedError

__all__ = [
    "STAFF",
    "Adapter",
    "Caller",
    "Clocked",
    "End",
    "Ending",
    "InvalidGameSettingsError",
    "SkillGame",
    "game_for",
    "games",
    "kinds",
    "register",
]

State = TypeVar("State")
Move = TypeVar("Move")


class InvalidGameSettingsError(CodedError):
    """Settings a game does not take, or out of their range (API.md: 422)."""

    code = "invalid_game_settings"


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


class Adapter(Protocol[State, Move]):
    """One game's engine as the kit drives it. Every method is pure: no clock, no I/O."""

    def check_settings(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The game's settings from the creation body (its own fields only; None for absent
        ones), stored as JSON; raises `InvalidGameSettingsError`."""

    def seats(self, settings: Mapping[str, Any]) -> int:
        """How many seats a game with these settings has."""

    def new_game(self, deck: Sequence[Card], settings: Mapping[str, Any]) -> State: ...

    def parse_move(self, body: Mapping[str, Any], *, seat: int, at_ms: int) -> Move:
        """An engine move from a move body (the API's or a logged record's); raises a `RuleError`
        (`move_not_allowed`) for a move the game does not have or a field it needs."""

    def record(self, move: Move) -> dict[str, Any]:
        """The move as the log stores it: `{"move": name, ...its fields}`."""

    def apply_move(self, state: State, move: Move) -> State:
        """The next state, or a `RuleError` (nothing changed)."""

    def advance_clock(self, state: State, *, now_ms: int) -> "Clocked[State]": ...

    def next_deadline_ms(self, state: State) -> int | None:
        """When the clock acts next (ms since the start), None once the game is over."""

    def ends_at_ms(self, state: State) -> int | None:
        """When the game ends at the latest (API.md's `ends_at`), None if no clock ends it."""

    def end(self, state: State) -> End | None:
        """How and when the game ended; None while it is played."""

    def seat_to_move(self, state: State) -> int | None:
        """The seat in `needs`; None when the game waits for nobody."""

    def outcome(self, before: State, after: State, move: Move) -> dict[str, Any]:
        """What an accepted move did, as the log shows it to everyone: never a hidden card."""

    def view(self, state: State, caller: Caller) -> dict[str, Any]:
        """`needs`, `board`, `score` (and what else the game shows) as `caller` may see them."""

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
    name: ClassVar[str]  # the game as people read it
    # Each move by name: its engine class, and the one field it names with its range (or None).
    moves: ClassVar[dict[str, tuple[type[Any], str | None, str]]]
    refusal: ClassVar[type[CodedError]]  # the engine's `move_not_allowed`

    def parse_move(self, body: Mapping[str, Any], *, seat: int, at_ms: int) -> Any:
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

    def seats(self, settings: Mapping[str, Any]) -> int:
        return 1

    def next_deadline_ms(self, state: Any) -> int | None:
        return None if state.finished else int(state.deadline_ms)

    def ends_at_ms(self, state: Any) -> int | None:
        return int(state.deadline_ms)

    def end(self, state: Any) -> End | None:
        if state.ended is None:
            return None
        ending = Ending.TIME_UP if state.ended == Ending.TIME_UP.value else Ending.PLAYED
        return End(ending, int(state.ended_at_ms))

    def seat_to_move(self, state: Any) -> int | None:
        return None if state.finished else self.seat

    def no_settings_but(self, body: Mapping[str, Any], *allowed: str) -> None:
        """Refuses every setting in `body` but `allowed` (a body lists only the settings given)."""
        extra = sorted(key for key, value in body.items() if value is not None and key not in allowed)
        if extra:
            raise InvalidGameSettingsError(f"{self.name} takes no setting {extra[0]!r}.", field=extra[0])
