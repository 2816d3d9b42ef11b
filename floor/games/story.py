"""A skill game's story on the console, replayed from what is stored: the deck orders and the move
log, through the game's own engine (`skill_games.registry`), one move at a time.

Each step shows what the move did (the outcome the log keeps), the board after it and the score's
parts, as staff may see them (`STAFF`: no card the rules keep hidden, so no undealt card, no
Squares bottom card, no Make 21 hand). Once a game of the match has ended and its deck is
revealed, the story shows that deck, and each seat's hand at every step of that game (what the
reveal lets anyone replay). A stored move the engine refuses is shown as such, with the engine's
reason.
"""

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone

from casino.engine.errors import RuleError
from floor.rounds.cards import ShownCard
from skill_games.models import Game, GameState, Move
from skill_games.registry import STAFF, Adapter, game_for
from skill_games.selectors import adapter_of, decks_of, elapsed_ms, list_moves, replayed_move, reveals_of

_CARD = re.compile(r"[2-9TJQKA][SHDC]")


def shown(value: Any) -> Any:
    """A board or an outcome as the page shows it: every card code (`TD`) a `ShownCard`."""
    if isinstance(value, Mapping):
        return {key: shown(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [shown(item) for item in value]
    if isinstance(value, str) and _CARD.fullmatch(value):
        return ShownCard(value)
    return value


# The rules' own names for the parts of a score (RULES.md §3.1), where plain words would lose them.
_NAMED_PARTS = {
    "catch_21": "Catch 21",
    "black_jack_attack": "Black Jack Attack",
    "five_card_charlie": "Five Card Charlie",
    "no_bust_bonus": "No-Bust bonus",
}


def label_of(key: str) -> str:
    """`time_bonus` -> `Time bonus`; the rules' named plays as the rules name them."""
    if key in _NAMED_PARTS:
        return _NAMED_PARTS[key]
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def elapsed_text(ms: int) -> str:
    """Milliseconds since the start as `m:ss.mmm` (`83456` -> `1:23.456`)."""
    minutes, rest = divmod(ms, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{minutes}:{seconds:02d}.{millis:03d}"


def _key_text(key: Any) -> str:
    return f"seat {key}" if str(key).isdigit() else label_of(str(key)).lower()


def value_text(value: Any) -> str:
    """A part's value in words: a number as it is, a list joined (`none` when empty), a mapping by
    seat or by name (`seat 1: 20, seat 2: 14`; nested ones in brackets)."""
    if isinstance(value, Mapping):
        return ", ".join(
            f"{_key_text(key)}: "
            + (f"({value_text(item)})" if isinstance(item, Mapping) else value_text(item))
            for key, item in value.items()
        )
    if isinstance(value, list | tuple):
        return ("; " if any(isinstance(item, Mapping) for item in value) else ", ").join(
            value_text(item) for item in value
        ) or "none"
    return str(value)


@dataclass(frozen=True)
class Part:
    """One part of an outcome or a score: its label and value (a card, a number, a list, a mapping
    by seat)."""

    key: str
    label: str
    value: Any

    @property
    def is_card(self) -> bool:
        return isinstance(self.value, ShownCard)

    @property
    def is_list(self) -> bool:
        return isinstance(self.value, list)

    @property
    def cards(self) -> list[ShownCard]:
        """The value's cards, when it is a list of cards (a Make 21 play's)."""
        if self.is_list and self.value and all(isinstance(item, ShownCard) for item in self.value):
            return list(self.value)
        return []

    @property
    def text(self) -> str:
        return value_text(self.value)


def parts_of(values: Mapping[str, Any] | None, *, words: bool = False) -> list[Part]:
    """Each value as the page shows it; with `words`, a name such as `catch_21` as `catch 21`."""
    return [
        Part(key, label_of(key), value.replace("_", " ") if words and isinstance(value, str) else value)
        for key, value in ((key, shown(value)) for key, value in (values or {}).items())
    ]


def _field_text(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


def move_text(record: Mapping[str, Any]) -> str:
    """A logged move as staff read it: `place, column 2`, `cash in`, `play, cards 4C 2D, pile P1`."""
    fields = ", ".join(
        f"{label_of(key).lower()} {_field_text(value)}" for key, value in record.items() if key != "move"
    )
    name = str(record.get("move", "?")).replace("_", " ")
    return f"{name}, {fields}" if fields else name


@dataclass(frozen=True)
class Step:
    """One logged move: who, when (server time and since the start), what it did, and the board and
    score after it (None when the stored move does not replay)."""

    seq: int
    seat: int
    move: str
    at: dt.datetime
    elapsed: str
    automatic: bool
    outcome: list[Part]
    board: dict[str, Any] | None
    score: list[Part]
    refused: str = ""
    hands: dict[int, list[ShownCard]] | None = None  # each seat's, once its game's deck is revealed


@dataclass(frozen=True)
class RevealedDeck:
    game_no: int
    cards: list[ShownCard]


@dataclass(frozen=True)
class GameStory:
    game: Game
    name: str  # the game as people read it: "Blackjack Attack"
    seats: list[int]
    over: bool  # finished, by its last move or by the clock (read now)
    start_board: dict[str, Any]
    start_hands: dict[int, list[ShownCard]] | None
    steps: list[Step]
    board: dict[str, Any] | None  # now, or at the end
    hands: dict[int, list[ShownCard]] | None  # then
    score: list[Part]
    total: Any
    decks: list[RevealedDeck]  # each deck revealed so far, whole
    problem: str = ""  # why the log stops replaying

    @property
    def total_text(self) -> str:
        return "-" if self.total is None else value_text(self.total)

    @property
    def commitments(self) -> list[tuple[int, str]]:
        """Each game's commitment, published at the start: (game_no, commitment)."""
        return list(enumerate(self.game.commitments, start=1))

    @property
    def board_templates(self) -> list[str]:
        """The game's own board template, else the generic one."""
        return [f"floor/games/boards/{self.game.kind}.html", "floor/games/boards/generic.html"]


def _view(adapter: Adapter[Any, Any], state: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    view = adapter.view(state, STAFF)
    return shown(view.get("board") or {}), view.get("score") or {}


def _hands(game: Game, adapter: Adapter[Any, Any], state: Any) -> dict[int, list[ShownCard]] | None:
    """Each seat's hand, once the deck of the game in play is revealed (None before; a game that
    deals no hand: none either)."""
    if adapter.game_no(state) > game.decks_revealed:
        return None
    return {seat: [ShownCard(code) for code in cards] for seat, cards in adapter.hands(state).items()} or None


def build_game_story(game: Game, *, now: dt.datetime | None = None) -> GameStory:
    """Replay the game's log one move at a time, from the deck orders, as staff may see it; the
    clock is read at the game's end (or `now` while it is played)."""
    adapter = adapter_of(game)
    moves: list[Move] = list(list_moves(game_id=game.pk))
    state = adapter.new_game(decks_of(game), game.settings)
    start_board, _ = _view(adapter, state)
    start_hands = _hands(game, adapter, state)
    steps: list[Step] = []
    problem = ""
    for move in moves:
        step = Step(
            seq=move.seq,
            seat=move.seat,
            move=move_text(move.move),
            at=move.received_at,
            elapsed=elapsed_text(move.elapsed_ms),
            automatic=move.automatic,
            # What the move did, less what its record already says (a Make 21 play's cards and pile).
            outcome=parts_of(
                {key: value for key, value in move.outcome.items() if move.move.get(key, ...) != value},
                words=True,
            ),
            board=None,
            score=[],
        )
        if problem:
            steps.append(replace(step, refused="not replayed"))
            continue
        try:
            state = replayed_move(adapter, state, move)
        except (RuleError, ValueError, KeyError, TypeError) as refused:
            problem = f"Move {move.seq} does not replay: {refused}"
            steps.append(replace(step, refused=str(refused)))
            continue
        after, score_after = _view(adapter, state)
        steps.append(
            replace(step, board=after, score=parts_of(score_after), hands=_hands(game, adapter, state))
        )
    read_at = game.finished_at or now or timezone.now()
    board: dict[str, Any] | None = None
    hands = None
    score: dict[str, Any] = {}
    over = game.state == GameState.FINISHED
    if not problem:
        state = adapter.advance_clock(state, now_ms=elapsed_ms(game, read_at)).state
        board, score = _view(adapter, state)
        hands = _hands(game, adapter, state)
        over = over or adapter.end(state) is not None
    return GameStory(
        game=game,
        name=game_for(game.kind).name,
        seats=sorted(seat.number for seat in game.seats.all()),
        over=over,
        start_board=start_board,
        start_hands=start_hands,
        steps=steps,
        board=board,
        hands=hands,
        score=parts_of(score),
        total=score.get("total"),
        decks=[
            RevealedDeck(reveal["game_no"], [ShownCard(code) for code in reveal["order"]])
            for reveal in reveals_of(game)
        ],
        problem=problem,
    )
