"""A tournament's settings, checked as a whole (RULES.md §4 "Set-up", API.md "Tournaments").

`check_settings` reads the creation body as it came (any JSON) and either returns the settings or
raises `InvalidTournamentError` listing every field that is wrong. It never names a game: the
caller passes the `GameTerms` of each registered game, which say how the game is ranked, what an
entry that never starts a heat scores, whether the entries share one table, and how the game
checks its own settings.
"""

import datetime as dt
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from casino.engine.money import BASIS_POINTS
from kernel.errors import CodedError

NAME_MAX_LENGTH = 100
MAX_CENTS = 100_000_000_00  # $100 million: above any buy-in, fee or guarantee a floor would post
MAX_ENTRIES = 10_000
MAX_REENTRIES = 100
MAX_HEATS = 20
MAX_PLACES = 100
DEFAULT_START_WINDOW_S = 120
START_WINDOW_S_RANGE = (30, 3600)
FIELDS = (
    "name",
    "game",
    "buy_in_cents",
    "fee_cents",
    "added_cents",
    "guarantee_cents",
    "max_entries",
    "reentries",
    "registration_closes_at",
    "heats",
    "start_window_s",
    "deal",
    "prizes_bp",
    "settings",
)


class Deal(StrEnum):
    DUPLICATE = "duplicate"  # every game of a heat from one committed deck order
    INDIVIDUAL = "individual"  # each game its own deck


@dataclass(frozen=True, slots=True)
class FieldError:
    field: str
    message: str


class InvalidTournamentError(CodedError):
    """The settings are refused; `errors` names every field that is wrong (API.md: 422)."""

    code = "invalid_tournament"
    listed_without_field = True

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors = [
            {"field": error.field, "code": self.code, "message": error.message} for error in errors
        ]
        super().__init__("; ".join(error.message for error in errors), field=errors[0].field)


@dataclass(frozen=True, slots=True)
class GameTerms:
    """What a tournament needs to know of one skill game, from the game registry."""

    kind: str
    name: str
    lower_wins: bool  # Make 21: fewer cards collected is better
    no_show_score: int | None  # a solitaire game's score for a heat never started; None: a table
    table_seats: tuple[int, int] | None  # a table game's seats (low, high): the entries share it
    # The game's own settings for a tournament of `players` entries at a table (None: solitaire),
    # as stored; raises a `CodedError` naming the field.
    check_game_settings: Callable[[Mapping[str, Any], int | None], dict[str, Any]] = field(compare=False)

    @property
    def shares_a_table(self) -> bool:
        return self.table_seats is not None

    def entries_short(self, entries: int) -> int:
        """How many more entries a table game needs before its table can be dealt (0: enough, or
        a solitaire game). A table left short when its first heat starts is never dealt: only a
        cancellation ends the tournament, refunding every entry."""
        if self.table_seats is None:
            return 0
        return max(0, self.table_seats[0] - entries)


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    name: str
    game: str
    buy_in_cents: int
    fee_cents: int
    added_cents: int
    guarantee_cents: int
    max_entries: int
    reentries: int
    registration_closes_at: dt.datetime
    heats: tuple[dt.datetime, ...]  # each heat's start, in order
    start_window_s: int
    deal: Deal
    prizes_bp: tuple[int, ...]
    settings: dict[str, Any]  # the game's own, as its registry entry checked them

    @property
    def entry_cents(self) -> int:
        """What a patron pays at the cage for one entry: the buy-in and the fee."""
        return self.buy_in_cents + self.fee_cents

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "buy_in_cents": self.buy_in_cents,
            "fee_cents": self.fee_cents,
            "added_cents": self.added_cents,
            "guarantee_cents": self.guarantee_cents,
            "max_entries": self.max_entries,
            "reentries": self.reentries,
            "registration_closes_at": self.registration_closes_at.isoformat(),
            "heats": [{"starts_at": starts_at.isoformat()} for starts_at in self.heats],
            "start_window_s": self.start_window_s,
            "deal": self.deal.value,
            "prizes_bp": list(self.prizes_bp),
            "settings": dict(self.settings),
        }


def heat_window_closes_at(settings: TournamentSettings, heat: int) -> dt.datetime:
    """When heat `heat` (from 1) can no longer be started."""
    return settings.heats[heat - 1] + dt.timedelta(seconds=settings.start_window_s)


class _Checker:
    """Reads one body, collecting an error per wrong field."""

    def __init__(self, body: Mapping[str, Any]) -> None:
        self.body = body
        self.errors: list[FieldError] = []

    def fail(self, name: str, message: str) -> None:
        self.errors.append(FieldError(name, message))

    def integer(self, name: str, low: int, high: int, *, default: int | None = None) -> int | None:
        value = self.body.get(name)
        if value is None and default is not None:
            return default
        if type(value) is not int or not low <= value <= high:
            self.fail(name, f"{name} is a whole number from {low} to {high}, not {value!r}.")
            return None
        return value

    def cents(self, name: str, *, required: bool) -> int | None:
        return self.integer(name, 0, MAX_CENTS, default=None if required else 0)

    def moment(self, name: str, value: object) -> dt.datetime | None:
        if isinstance(value, str) and len(value) <= 40:
            try:
                moment = dt.datetime.fromisoformat(value)
            except ValueError:
                moment = None
            if moment is not None and moment.tzinfo is not None:
                return moment.astimezone(dt.UTC)
        self.fail(name, f"{name} is a date and time with its UTC offset (ISO 8601), not {value!r}.")
        return None


def _name(check: _Checker) -> str | None:
    name = check.body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX_LENGTH:
        check.fail("name", f"name is a text of 1 to {NAME_MAX_LENGTH} characters.")
        return None
    if any(not character.isprintable() for character in name):
        check.fail("name", "name holds a character that cannot be printed.")
        return None
    return name.strip()


def _game(check: _Checker, terms: Mapping[str, GameTerms]) -> GameTerms | None:
    kind = check.body.get("game")
    found = terms.get(kind) if isinstance(kind, str) else None
    if found is None:
        check.fail("game", f"game is one of {', '.join(sorted(terms))}, not {kind!r}.")
    return found


def _heats(check: _Checker, *, closes_at: dt.datetime | None) -> tuple[dt.datetime, ...] | None:
    heats = check.body.get("heats")
    if not isinstance(heats, list) or not 1 <= len(heats) <= MAX_HEATS:
        check.fail("heats", f'heats is a list of 1 to {MAX_HEATS} heats, each {{"starts_at"}}.')
        return None
    starts: list[dt.datetime] = []
    for index, heat in enumerate(heats):
        name = f"heats[{index}].starts_at"
        if not isinstance(heat, dict) or set(heat) != {"starts_at"}:
            check.fail(f"heats[{index}]", 'A heat is {"starts_at"} and nothing else.')
            return None
        moment = check.moment(name, heat["starts_at"])
        if moment is None:
            return None
        starts.append(moment)
    if closes_at is not None and starts[0] < closes_at:
        check.fail("heats[0].starts_at", "The first heat starts when registration has closed, or later.")
    return tuple(starts)


def _window(check: _Checker, heats: tuple[dt.datetime, ...] | None) -> int | None:
    low, high = START_WINDOW_S_RANGE
    window = check.integer("start_window_s", low, high, default=DEFAULT_START_WINDOW_S)
    if window is None or heats is None:
        return window
    for index, (before, after) in enumerate(itertools.pairwise(heats), start=1):
        if after < before + dt.timedelta(seconds=window):
            check.fail(
                f"heats[{index}].starts_at",
                "A heat starts once the start window of the heat before it has closed.",
            )
    return window


def _prizes(check: _Checker) -> tuple[int, ...] | None:
    prizes = check.body.get("prizes_bp")
    if (
        not isinstance(prizes, list)
        or not 1 <= len(prizes) <= MAX_PLACES
        or any(type(bp) is not int or not 1 <= bp <= BASIS_POINTS for bp in prizes)
    ):
        check.fail(
            "prizes_bp",
            f"prizes_bp lists 1 to {MAX_PLACES} places' shares in basis points, each 1 to {BASIS_POINTS}.",
        )
        return None
    if sum(prizes) != BASIS_POINTS:
        check.fail(
            "prizes_bp",
            f"The places' shares must add up to {BASIS_POINTS} basis points (100%); these add up to {sum(prizes)}.",
        )
        return None
    if any(after > before for before, after in itertools.pairwise(prizes)):
        check.fail("prizes_bp", "A place never pays more than the place above it.")
        return None
    return tuple(prizes)


def _table_limits(
    check: _Checker, terms: GameTerms, *, max_entries: int | None, reentries: int | None
) -> None:
    """A table game: as many entries as its seats, no re-entries (RULES.md §4, `make21`)."""
    if terms.table_seats is None:
        return
    low, high = terms.table_seats
    if max_entries is not None and not low <= max_entries <= high:
        check.fail("max_entries", f"{terms.name} seats {low} to {high} entries at one table.")
    if reentries:
        check.fail("reentries", f"{terms.name} takes no re-entries: one table, one seat each.")


def _game_settings(check: _Checker, terms: GameTerms, *, max_entries: int | None) -> dict[str, Any] | None:
    given = check.body.get("settings", {})
    if given is None:
        given = {}
    if not isinstance(given, dict):
        check.fail("settings", "settings is an object: the game's own settings.")
        return None
    players = None
    if terms.table_seats is not None:
        low, high = terms.table_seats
        # Checked as a full table when the maximum is itself refused (its own error says so).
        players = max_entries if max_entries is not None and low <= max_entries <= high else high
    try:
        return terms.check_game_settings(given, players)
    except CodedError as refused:
        check.fail(f"settings.{refused.field}" if refused.field else "settings", refused.detail)
        return None


def check_settings(body: object, *, terms: Mapping[str, GameTerms], now: dt.datetime) -> TournamentSettings:
    """The settings of a new tournament from its creation body; `InvalidTournamentError` lists
    every field that is wrong. Registration closes after `now`."""
    if not isinstance(body, dict):
        raise InvalidTournamentError([FieldError("", "A tournament is a JSON object of its settings.")])
    check = _Checker(body)
    for unknown in sorted(key for key in body if key not in FIELDS)[:10]:
        check.fail(str(unknown)[:100], f"A tournament has no setting {str(unknown)[:100]!r}.")
    game = _game(check, terms)
    max_entries = check.integer("max_entries", 1, MAX_ENTRIES)
    reentries = check.integer("reentries", 0, MAX_REENTRIES, default=0)
    closes_at = check.moment("registration_closes_at", body.get("registration_closes_at"))
    if closes_at is not None and closes_at <= now:
        check.fail("registration_closes_at", "Registration closes in the future.")
        closes_at = None
    heats = _heats(check, closes_at=closes_at)
    found: dict[str, Any] = {
        "name": _name(check),
        "game": None if game is None else game.kind,
        "buy_in_cents": check.cents("buy_in_cents", required=True),
        "fee_cents": check.cents("fee_cents", required=False),
        "added_cents": check.cents("added_cents", required=False),
        "guarantee_cents": check.cents("guarantee_cents", required=False),
        "max_entries": max_entries,
        "reentries": reentries,
        "registration_closes_at": closes_at,
        "heats": heats,
        "start_window_s": _window(check, heats),
        "deal": _deal(check),
        "prizes_bp": _prizes(check),
        "settings": None,
    }
    if game is not None:
        _table_limits(check, game, max_entries=max_entries, reentries=reentries)
        if game.shares_a_table and heats is not None and len(heats) != 1:
            check.fail("heats", f"{game.name} plays one match at one table: one heat.")
        found["settings"] = _game_settings(check, game, max_entries=max_entries)
    if check.errors:
        raise InvalidTournamentError(sorted(check.errors, key=lambda error: _order(error.field)))
    return TournamentSettings(**found)


def _order(field: str) -> int:
    """Errors are listed in the order of the body's fields (API.md), unknown fields first."""
    name = field.split(".")[0].split("[")[0]
    return FIELDS.index(name) + 1 if name in FIELDS else 0


def _deal(check: _Checker) -> Deal | None:
    value = check.body.get("deal")
    if isinstance(value, str) and value in set(Deal):
        return Deal(value)
    check.fail("deal", f"deal is one of {', '.join(Deal)}, not {value!r}.")
    return None


def settings_from_json(stored: Mapping[str, Any]) -> TournamentSettings:
    """Settings as `TournamentSettings.to_json` stored them (already checked)."""
    return TournamentSettings(
        name=stored["name"],
        game=stored["game"],
        buy_in_cents=stored["buy_in_cents"],
        fee_cents=stored["fee_cents"],
        added_cents=stored["added_cents"],
        guarantee_cents=stored["guarantee_cents"],
        max_entries=stored["max_entries"],
        reentries=stored["reentries"],
        registration_closes_at=dt.datetime.fromisoformat(stored["registration_closes_at"]),
        heats=tuple(dt.datetime.fromisoformat(heat["starts_at"]) for heat in stored["heats"]),
        start_window_s=stored["start_window_s"],
        deal=Deal(stored["deal"]),
        prizes_bp=tuple(stored["prizes_bp"]),
        settings=dict(stored["settings"]),
    )
