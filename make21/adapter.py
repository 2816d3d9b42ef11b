"""Make 21 as the skill-game kit drives it (`skill_games.registry.Adapter`): its engine
(`make21.engine`) behind the kit's calls, and its settings, moves, log records and views as API.md
shows them (RULES.md §3.3).

- Settings: `players` 2-5 (required: a table has no default size [decided]), `games` 1-20 (one
  per seat unless told), `turn_limit_s` 5-600 (60 unless told). A seat per player; a deck per game.
- Moves: `{"move": "play", "cards": [...], "pile": "P1" | "P2"}`, `double` and `extend` with their
  `cards`, `take`. A field the move does not take is `move_not_allowed` [decided: Attack and
  Squares ignore one, but a card or a pile sent with the wrong move is a mistake worth naming]; a
  text that is no card is `card_not_in_hand` (it is not a card of that hand), checked after the
  seat as every card is; the rest is the engine's, in its order (cards, then the pile, then
  legality).
- A logged move replays with its `automatic` flag: the engine takes a clock's move only as such.
- A log record carries the cards played, the pile, the outcome, who took how many cards and the
  game of the match; never a drawn card. Each seat's answers show its own `hand`; `needs.moves`
  goes to the seat that moves only; staff see no hand.
- The match ends by the clock (`time_up`) when its last move was one the clock made, else by its
  own last move (`game_over`). There is no overall limit (`ends_at` null); the next deadline is the
  turn clock's.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from casino.engine.cards import Card, parse_card
from casino.engine.errors import RuleError
from make21.engine import game as engine
from make21.engine import view
from make21.engine.game import (
    CardNotInHandError,
    Double,
    Extend,
    GameOverError,
    Make21Move,
    Make21State,
    MoveNotAllowedError,
    Play,
    Take,
    TimeUpError,
)
from make21.engine.rules import (
    DEFAULT_TURN_LIMIT_S,
    PLAYERS_RANGE,
    TURN_LIMIT_S_RANGE,
    check_games,
    check_players,
)
from skill_games.registry import (
    Caller,
    Clocked,
    End,
    Ending,
    InvalidGameSettingsError,
    TournamentPlay,
    no_settings_but,
)

KIND = "make21"
NAME = "Make 21"
SETTINGS = ("players", "games", "turn_limit_s")
# Each move by name, and the fields it takes besides `move`.
MOVES: dict[str, tuple[str, ...]] = {
    Play.kind: ("cards", "pile"),
    Double.kind: ("cards",),
    Extend.kind: ("cards",),
    Take.kind: (),
}
# What a record shows besides the move's own fields (the kit logs `seat` and `automatic` itself).
_OWN_FIELDS = ("seat", "move", "automatic")


def check_turn_limit_s(turn_limit_s: object) -> int:
    """The turn limit, 5-600 seconds (API.md)."""
    low, high = TURN_LIMIT_S_RANGE
    if type(turn_limit_s) is not int or not low <= turn_limit_s <= high:
        raise InvalidGameSettingsError(
            f"turn_limit_s is {low} to {high} seconds, not {turn_limit_s!r}", field="turn_limit_s"
        )
    return turn_limit_s


def _cards(value: object) -> tuple[Card, ...]:
    """The cards a move names (none when it names none); a text that is no card is no card of the
    seat's hand."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise MoveNotAllowedError("cards is a list of one or two cards, such as ['6D']", field="cards")
    try:
        return tuple(parse_card(text) for text in value)
    except RuleError:
        raise CardNotInHandError(
            "the seat may play only cards it holds, written like 'AS' or 'TD'", field="cards"
        ) from None


class Make21Adapter:
    shows_reveals = True
    # One table of the entries; a seat's score is the cards it collected: fewer is better.
    tournament = TournamentPlay(lower_wins=True, no_show_score=None, table_seats=PLAYERS_RANGE)

    def tournament_settings(self, body: Mapping[str, Any], *, players: int | None) -> dict[str, Any]:
        """`games` and `turn_limit_s` as a practice match takes them; the players are the entries."""
        no_settings_but(NAME, body, "games", "turn_limit_s")
        return self.check_settings({**body, "players": players})

    def seat_score(self, score: Mapping[str, Any], *, seat: int) -> int:
        return int(score["total"][str(seat)])

    def check_settings(self, body: Mapping[str, Any]) -> dict[str, Any]:
        no_settings_but(NAME, body, *SETTINGS)
        players = body.get("players")
        if players is None:
            raise InvalidGameSettingsError("Make 21 needs its number of players, 2-5.", field="players")
        players = check_players(players)
        games = body.get("games")
        turn_limit_s = body.get("turn_limit_s")
        return {
            "players": players,
            "games": check_games(players if games is None else games),
            "turn_limit_s": check_turn_limit_s(
                DEFAULT_TURN_LIMIT_S if turn_limit_s is None else turn_limit_s
            ),
        }

    def seats(self, settings: Mapping[str, Any]) -> int:
        return int(settings["players"])

    def decks(self, settings: Mapping[str, Any]) -> int:
        return int(settings["games"])

    def new_game(self, decks: Sequence[Sequence[Card]], settings: Mapping[str, Any]) -> Make21State:
        return engine.new_match(
            decks,
            players=settings["players"],
            games=settings["games"],
            turn_limit_ms=settings["turn_limit_s"] * 1000,
        )

    def parse_move(
        self, body: Mapping[str, Any], *, seat: int, at_ms: int, automatic: bool = False
    ) -> Make21Move:
        name = body.get("move")
        if not isinstance(name, str) or name not in MOVES:
            raise MoveNotAllowedError(f"Make 21's moves are {', '.join(MOVES)}, not {name!r}")
        extra = sorted(key for key in body if key != "move" and key not in MOVES[name])
        if extra:
            raise MoveNotAllowedError(f"{name} takes no {extra[0]}", field=extra[0])
        if name == Take.kind:
            return Take(seat=seat, at_ms=at_ms, automatic=automatic)
        cards = _cards(body.get("cards"))
        if name == Play.kind:
            pile = body.get("pile")
            return Play(cards, "" if pile is None else str(pile), seat=seat, at_ms=at_ms, automatic=automatic)
        kind = Double if name == Double.kind else Extend
        return kind(cards, seat=seat, at_ms=at_ms, automatic=automatic)

    def record(self, move: Make21Move) -> dict[str, Any]:
        if isinstance(move, Take):
            return {"move": move.kind}
        cards = [str(card) for card in move.cards]
        if isinstance(move, Play):
            return {"move": move.kind, "cards": cards, "pile": move.pile}
        return {"move": move.kind, "cards": cards}

    def log_fields(self, record: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
        """The record as the board's `last` shows a move: its game, cards, pile, outcome (by name)
        and who took how many cards."""
        return {**record, **outcome}

    def apply_move(self, state: Make21State, move: Make21Move) -> Make21State:
        return engine.apply_move(state, move)

    def advance_clock(self, state: Make21State, *, now_ms: int) -> Clocked[Make21State]:
        advanced = engine.advance_clock(state, now_ms=now_ms)
        return Clocked(advanced.state, tuple((move.seat, move) for move in advanced.automatic))

    def next_deadline_ms(self, state: Make21State) -> int | None:
        return state.deadline_ms

    def ends_at_ms(self, state: Make21State) -> int | None:
        return None

    def end(self, state: Make21State) -> End | None:
        if state.ended_at_ms is None:
            return None
        return End(Ending.TIME_UP if state.ended_by_clock else Ending.PLAYED, state.ended_at_ms)

    def late_refusal(self, state: Make21State, *, seat: int) -> RuleError | None:
        """The engine's own first checks (game over, then the clock) on a probe `take` from the seat
        at the last move's time: the seat whose turn the clock just played is `time_up` while that
        move is the last in the log, and once the match is over; anyone else then `game_over`."""
        try:
            engine.apply_move(state, Take(seat=seat, at_ms=state.last_at_ms))
        except (GameOverError, TimeUpError) as late:
            return late
        except RuleError:
            return None
        return None

    def games_ended(self, state: Make21State) -> int:
        return len(state.results)

    def game_no(self, state: Make21State) -> int:
        return state.game_no

    def seat_to_move(self, state: Make21State) -> int | None:
        return state.to_move

    def outcome(self, before: Make21State, after: Make21State, move: Make21Move) -> dict[str, Any]:
        """The move's record as everyone sees it (`view.record`): cards played, never one drawn."""
        shown = view.record(after.log[-1])
        return {key: value for key, value in shown.items() if key not in _OWN_FIELDS}

    def view(self, state: Make21State, caller: Caller) -> dict[str, Any]:
        """The public board and score; `needs.moves` and the seat's own `hand` in its answers only."""
        shown = view.describe(state, caller.seat)
        return {key: shown[key] for key in ("needs", "board", "hand", "score") if key in shown}

    def hands(self, state: Make21State) -> dict[int, list[str]]:
        return {seat: view.hand(state, seat) for seat in range(1, state.match.players + 1)}

    def score(self, state: Make21State) -> dict[str, Any]:
        return dict(view.score(state))
