"""What the API shows of a match of Make 21 (API.md "Skill games"), built from the state alone and
for one caller: a seat (1-n) or staff (None).

Hidden information (RULES.md §3.3): a hand is shown to its seat only, staff included; collections
and the draw pile as sizes; the moves allowed only to the seat that moves (a `double` or `extend`
among them would reveal a hand). A move's record carries the cards played, never a drawn card.
Times are ms since the match started (the kit turns them into timestamps).
"""

from typing import NotRequired, TypedDict, cast

from make21.engine.game import Make21State, MoveRecord
from make21.engine.rules import PILES, Pile, SetLock, can_double, can_extend, judge, shown_total

__all__ = [
    "BoardView",
    "GameScoreView",
    "LastView",
    "NeedsView",
    "PileView",
    "RecordView",
    "ScoreView",
    "SeatView",
    "allowed_moves",
    "board",
    "describe",
    "hand",
    "needs",
    "record",
    "score",
    "set_mode",
]


class NeedsView(TypedDict):
    seat: int
    mode: str  # normal, set_mode
    pile: str | None  # the set-mode pile that faces the seat
    deadline: int  # ms since the match started
    moves: NotRequired[list[str]]  # in the answers of the seat that moves only


class PileView(TypedDict):
    pile: str
    cards: list[str]
    total: int  # the shown total
    set_mode: dict[str, str] | None


class SeatView(TypedDict):
    seat: int
    hand_size: int
    collected: int  # this game's


class LastView(TypedDict):
    """A move as the board's `last` shows it: the move's own fields (`cards` but for a take,
    `pile` for a play), what it did, and who took how many."""

    seat: int
    move: str
    cards: NotRequired[list[str]]
    pile: NotRequired[str | None]
    outcome: str
    taken_by: int | None
    cards_taken: int
    automatic: bool


class RecordView(LastView):
    """A move as the log shows it: the board's `last`, and the game of the match it was in."""

    game_no: int


class BoardView(TypedDict):
    game_no: int
    games: int
    dealer: int
    draw_pile: int
    piles: list[PileView]
    seats: list[SeatView]
    last: LastView | None


class GameScoreView(TypedDict):
    game_no: int
    collected: dict[str, int]


class ScoreView(TypedDict):
    games: list[GameScoreView]
    total: dict[str, int]
    winners: list[int]
    losers: list[int]


def allowed_moves(state: Make21State) -> tuple[str, ...]:
    """The moves the seat to move may make: `extend` (when some of its cards extend the pile) and
    `take` facing a set-mode pile; else `play`, and `double` when some of its cards make one."""
    if state.to_move is None:
        return ()
    held = state.hand(state.to_move)
    facing = state.facing
    if facing is not None:
        pile = state.piles[PILES.index(facing)]
        return ("extend", "take") if can_extend(held, pile) else ("take",)
    return ("play", "double") if can_double(held, state.piles) else ("play",)


def needs(state: Make21State, seat: int | None) -> NeedsView | None:
    """What the match waits for: the seat to move, its mode (and the set-mode pile facing it) and its
    deadline; the moves allowed only when `seat` is that seat. None once the match is over."""
    deadline = state.deadline_ms
    if state.to_move is None or deadline is None:
        return None
    facing = state.facing
    shown: NeedsView = {
        "seat": state.to_move,
        "mode": "normal" if facing is None else "set_mode",
        "pile": facing,
        "deadline": deadline,
    }
    if seat == state.to_move:
        shown["moves"] = list(allowed_moves(state))
    return shown


def set_mode(lock: SetLock | None) -> dict[str, str] | None:
    """`null`, `{"kind": "flush", "suit": "S"}`, `{"kind": "rank", "rank": "K"}` or `{"kind": "run"}`."""
    if lock is None:
        return None
    shown = {"kind": lock.kind.value}
    if lock.suit is not None:
        shown["suit"] = lock.suit.value
    if lock.rank is not None:
        shown["rank"] = lock.rank.value
    return shown


def _pile(name: str, pile: Pile) -> PileView:
    return {
        "pile": name,
        "cards": [str(card) for card in pile.cards],
        "total": shown_total(pile.cards),
        "set_mode": set_mode(pile.lock),
    }


def last(move: MoveRecord) -> LastView:
    """A move as the board's `last` shows it: the move's own fields, what it did, who took."""
    shown: LastView = {
        "seat": move.seat,
        "move": move.move,
        "outcome": move.outcome.value,
        "taken_by": move.taken_by,
        "cards_taken": move.cards_taken,
        "automatic": move.automatic,
    }
    if move.move != "take":
        shown["cards"] = [str(card) for card in move.cards]
    if move.move == "play":
        shown["pile"] = move.pile
    return shown


def record(move: MoveRecord) -> RecordView:
    """A move as the log shows it: as `last` does, with its game of the match."""
    return cast(RecordView, {**last(move), "game_no": move.game_no})


def board(state: Make21State) -> BoardView:
    """The public board: the game in play (the last one once the match is over), its dealer, the
    draw pile's size, the piles, each seat's hand size and cards collected this game, and the last
    move's record."""
    latest = state.last  # shown while it is a move of the game in play: a new deal starts afresh
    return {
        "game_no": state.game_no,
        "games": state.match.games,
        "dealer": state.dealer,
        "draw_pile": len(state.draw_pile),
        "piles": [_pile(name, pile) for name, pile in zip(PILES, state.piles, strict=True)],
        "seats": [
            {"seat": seat, "hand_size": len(held), "collected": len(collected)}
            for seat, (held, collected) in enumerate(
                zip(state.hands, state.collections, strict=True), start=1
            )
        ],
        "last": None if latest is None or latest.game_no != state.game_no else last(latest),
    }


def hand(state: Make21State, seat: int) -> list[str]:
    """The seat's own cards, card 1 (held longest) first: for that seat's answers only."""
    return [str(card) for card in state.hand(seat)]


def score(state: Make21State) -> ScoreView:
    """Each game's collected cards per seat (the game in play so far too), each seat's total over
    the match, and the winners and losers once the last game has ended (`rules.judge`)."""
    played: list[tuple[int, dict[int, int]]] = [
        (result.game_no, result.collected) for result in state.results
    ]
    if not state.finished:
        played.append((state.game_no, state.collected))
    seats = range(1, state.match.players + 1)
    total = {seat: sum(collected[seat] for _, collected in played) for seat in seats}
    winners, losers = judge(total) if state.finished else ((), ())
    return {
        "games": [
            {"game_no": game_no, "collected": {str(seat): count for seat, count in collected.items()}}
            for game_no, collected in played
        ],
        "total": {str(seat): count for seat, count in total.items()},
        "winners": list(winners),
        "losers": list(losers),
    }


def describe(state: Make21State, seat: int | None) -> dict[str, object]:
    """The engine's part of the API's game as `seat` (None: staff) may see it: state, seq, needs,
    board, the seat's own hand (a seat's answers only) and score."""
    shown: dict[str, object] = {
        "state": "finished" if state.finished else "playing",
        "seq": state.seq,
        "needs": needs(state, seat),
        "board": board(state),
    }
    if seat is not None:
        shown["hand"] = hand(state, seat)
    shown["score"] = score(state)
    return shown
