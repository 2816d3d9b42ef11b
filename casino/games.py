"""The games the house's tables run, registered once by the apps that define them.

The house (shoes, table sessions, rule changes, provisioning, reports, the console) asks here
about a table's game and never names one: adding a game is registering it, from its app's
`AppConfig.ready()`. Blackjack registers from `casino.apps`, the special-card points game from
`specials.apps`.
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from casino.models import Table
from kernel.errors import ConflictError

__all__ = [
    "Game",
    "PlayOnFloor",
    "RoundSearch",
    "check_table_game",
    "game_for",
    "games",
    "handles_money",
    "play_in_progress",
    "register",
]


@dataclass(frozen=True, slots=True)
class PlayOnFloor:
    """A table's play in progress as the live floor's card shows it: a sentence, with a link to the
    console's page of the round being dealt, if one is."""

    before: str  # "#7, 3 rounds played; "
    link: str = ""  # "/floor/rounds/specials/41/"
    link_text: str = ""  # "round 4"
    after: str = ""  # ", dealing"
    dealing: bool = False  # a round is being dealt now


@dataclass(frozen=True, slots=True)
class RoundSearch:
    """How the console's round search finds one of the game's rounds by its number."""

    kind: str  # the search form's value: "round"
    label: str  # as staff read it: "Blackjack round"
    path: str  # the console page of a round, "/floor/rounds/{}/"
    table_of_round: Callable[[int], int | None]  # the round's table (for the viewer's access), or None


@dataclass(frozen=True, slots=True)
class Game:
    kind: str  # `Table.game`
    code: str  # as operators type it: `provision_table --game tie_bonus`
    name: str  # as staff read it: "tie-bonus blackjack"
    seats: range  # the seat numbers of its tables: casino.engine.seats.SEAT_NUMBERS for both table games
    rule_fields: tuple[str, ...]  # the house-rule fields of the table a rule change may set
    # Whether a round of this game is being played at the table: a shoe or the table is not
    # closed under it.
    has_play_in_progress: Callable[[Table], bool]
    # Refuses a value a rule change may not give one of `rule_fields` (a RuleError).
    check_rule: Callable[[str, object], None]
    floor_label: str  # what the live floor's card calls the game's play: "Round", "Match"
    # The play in progress at each of these tables (by id), for the live floor's cards.
    plays_on_floor: Callable[[Sequence[int]], Mapping[int, PlayOnFloor]]
    round_search: RoundSearch
    # Whether its tables take money: drop, fills, credits, win and hold, wager limits and house
    # rules are shown for them, and a hold outside the expected range is an alert and a table to
    # investigate. A points game's tables take none.
    handles_money: bool
    # The console's table page shows the game's play in this template (of the console's templates),
    # with what `table_play` reads of the table.
    table_template: str
    table_play: Callable[[Table], Mapping[str, object]]


def handles_money(kind: str) -> bool:
    """Whether tables of the game `kind` take money (a hold figure means something there)."""
    return game_for(kind).handles_money


_GAMES: dict[str, Game] = {}


def register(game: Game) -> None:
    if game.kind in _GAMES and _GAMES[game.kind] != game:
        raise RuntimeError(f"Game {game.kind!r} is registered twice.")
    _GAMES[game.kind] = game


def game_for(kind: str) -> Game:
    try:
        return _GAMES[kind]
    except KeyError:
        raise LookupError(f"No game {kind!r} is registered.") from None


def games() -> Iterator[Game]:
    return iter(sorted(_GAMES.values(), key=lambda game: game.kind))


def play_in_progress(table: Table) -> bool:
    """Whether the table's game has a round in play (any game, asked through the registry)."""
    return game_for(table.game).has_play_in_progress(table)


def check_table_game(table: Table, kind: str) -> None:
    """A game's call at a table that runs another game is refused (409 `wrong_game`)."""
    if table.game != kind:
        raise ConflictError("wrong_game", f"Table {table.name} does not run {game_for(kind).name}.")
