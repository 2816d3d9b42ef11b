"""A match of Make 21 as an event-sourced state machine (RULES.md §3.3).

A match is its settings (players 2-5, games, the turn limit), one deck order per game (52 cards,
the first on top; each game has its own shuffle and commitment, so the caller passes them all, game
1's first) and its move log. Each move carries its seat and the server's receive time, `at_ms`, in
milliseconds since the match started; `apply_move` checks one move and gives the next state (never
changing the old one), `advance_clock` lets the turn clock move for the seats, and `replay`
rebuilds the state from the decks and the log alone.

The games follow each other: the moment one ends (every hand empty; the piles discarded), the next
is dealt and its turn clock starts. The turn clock starts when the match starts and again at each
logged move, so a deadline is always the last move's time plus the turn limit. At a deadline the
server moves for the seat (`automatic_move`), logged as automatic at the deadline's time; deadlines
chain when nobody moves. An automatic move in a log replays as the one the rules make there.

Refusals follow RULES.md §3, checked in its order: game over (`game_over`), clock (`time_up`, and
`move_out_of_order` for a receive time before the last move's), seat (`not_your_turn`), cards
(`card_not_in_hand`: distinct cards from that hand), then the rest (`move_not_allowed`, with the
reason). A refused move changes nothing.
"""

from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import ClassVar

from casino.engine.cards import Card
from casino.engine.errors import RuleError
from casino.engine.shoe import is_full_shoe
from casino.engine.table_game import NotYourTurnError
from make21.engine.rules import (
    DEFAULT_TURN_LIMIT_S,
    PILES,
    Outcome,
    Pile,
    SetLock,
    automatic_move,
    check_games,
    check_players,
    check_turn_limit_ms,
    deal,
    dealer_of,
    double_outcome,
    draw_up,
    extend_outcome,
    first_player,
    game_over,
    legal_double,
    legal_extend,
    legal_play,
    next_player,
    play_outcome,
    previous_player,
    purity_set,
    shown_total,
    taker,
)

__all__ = [
    "DECK_SIZE",
    "Advanced",
    "CardNotInHandError",
    "Double",
    "Extend",
    "GameOverError",
    "GameResult",
    "InvalidDeckError",
    "Make21Move",
    "Make21State",
    "Match",
    "MoveNotAllowedError",
    "MoveOutOfOrderError",
    "MoveRecord",
    "NotYourTurnError",
    "Play",
    "Take",
    "TimeUpError",
    "advance_clock",
    "apply_move",
    "automatic",
    "check_deck",
    "new_match",
    "replay",
]

DECK_SIZE = 52
_EMPTY_PILES = (Pile(), Pile())


class InvalidDeckError(RuleError):
    code = "invalid_deck"


class GameOverError(RuleError):
    """The match had ended by its own last move."""

    code = "game_over"


class TimeUpError(RuleError):
    """The move came at or after the seat's deadline: the deadline acted first."""

    code = "time_up"


class MoveOutOfOrderError(RuleError):
    """A receive time before the previous move's (the log is the server's, so never in order)."""

    code = "move_out_of_order"


class CardNotInHandError(RuleError):
    """A card the seat does not hold, or the same card twice."""

    code = "card_not_in_hand"


class MoveNotAllowedError(RuleError):
    code = "move_not_allowed"

    def __init__(self, reason: str, *, field: str | None = "move") -> None:
        super().__init__(reason, field=field)
        self.reason = reason


# --- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Move:
    """Who moves and when: the seat, and the server's receive time in ms since the match started."""

    _: KW_ONLY
    seat: int
    at_ms: int
    automatic: bool = False  # made by the server at the seat's deadline


@dataclass(frozen=True, slots=True)
class _CardsMove(_Move):
    cards: tuple[Card, ...]  # one or two cards from the seat's hand


@dataclass(frozen=True, slots=True)
class Play(_CardsMove):
    """One card on P1 or P2, or two cards on one pile: `Play(cards, pile, seat=, at_ms=)`."""

    kind: ClassVar[str] = "play"
    pile: str  # "P1" or "P2"


@dataclass(frozen=True, slots=True)
class Double(_CardsMove):
    """One or two cards "to the center", on both piles at once."""

    kind: ClassVar[str] = "double"


@dataclass(frozen=True, slots=True)
class Extend(_CardsMove):
    """One or two cards on the set-mode pile that faces the seat."""

    kind: ClassVar[str] = "extend"


@dataclass(frozen=True, slots=True)
class Take(_Move):
    """The set-mode pile that faces the seat goes to its collection."""

    kind: ClassVar[str] = "take"


Make21Move = Play | Double | Extend | Take


# --- state -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """The match's settings and its deck orders, one a game (game 1's first)."""

    players: int
    games: int
    turn_limit_ms: int
    decks: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """What an accepted move did, as the log shows it to everyone: never a drawn card."""

    game_no: int
    seat: int
    move: str  # play, double, extend, take
    cards: tuple[Card, ...]  # the cards played (none for a take)
    pile: str | None  # the pile played on, extended or taken; None for a double
    outcome: Outcome
    taken_by: int | None  # the seat that took the pile(s) the move touched
    cards_taken: int
    automatic: bool
    at_ms: int


def _counts(collections: tuple[tuple[Card, ...], ...]) -> dict[int, int]:
    return {seat: len(cards) for seat, cards in enumerate(collections, start=1)}


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: each seat's collection (seat 1 first) and the cards left in the piles."""

    game_no: int
    dealer: int
    collections: tuple[tuple[Card, ...], ...]
    discarded: tuple[Card, ...]

    @property
    def collected(self) -> dict[int, int]:
        return _counts(self.collections)


@dataclass(frozen=True, slots=True)
class Make21State:
    """The match: its settings, the game in play (the last one once the match is over), the games
    already played and the log. Seats are 1-n; `hands` and `collections` list seat 1 first."""

    match: Match
    game_no: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # each the one held longest first: card 1 is hand[0]
    draw_pile: tuple[Card, ...]  # its top card first
    piles: tuple[Pile, Pile]  # P1, P2
    collections: tuple[tuple[Card, ...], ...]  # this game's
    to_move: int | None  # the seat in `needs`; None once the match is over
    previous: int  # the previous player: who took the turn before (the dealer on a game's first)
    results: tuple[GameResult, ...] = ()  # the games played out, the last one too once the match is over
    log: tuple[MoveRecord, ...] = ()  # every accepted move of the match, automatic ones included
    last_at_ms: int = 0  # the last move's receive time (or the match's start): the turn clock's start

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def finished(self) -> bool:
        return self.to_move is None

    @property
    def deadline_ms(self) -> int | None:
        """When the clock moves for the seat in `needs`; None once the match is over."""
        return None if self.finished else self.last_at_ms + self.match.turn_limit_ms

    @property
    def ended_at_ms(self) -> int | None:
        return self.last_at_ms if self.finished else None

    @property
    def last(self) -> MoveRecord | None:
        return self.log[-1] if self.log else None

    @property
    def timed_out_seat(self) -> int | None:
        """The seat the clock moved for last, while that automatic move is the last in the log."""
        last = self.last
        return last.seat if last is not None and last.automatic else None

    @property
    def ended_by_clock(self) -> bool:
        """The match's last move was an automatic one (a later move from its seat is `time_up`)."""
        return self.finished and self.timed_out_seat is not None

    @property
    def facing(self) -> str | None:
        """The set-mode pile that faces the seat to move (there is at most one), by name."""
        for name, pile in zip(PILES, self.piles, strict=True):
            if pile.lock is not None:
                return name
        return None

    @property
    def collected(self) -> dict[int, int]:
        """Cards collected this game, by seat."""
        return _counts(self.collections)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return self.hands[seat - 1]


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """One 52-card deck, each card once; the first is the top card."""
    order = tuple(deck)
    if len(order) != DECK_SIZE or not is_full_shoe(order, decks=1):
        raise InvalidDeckError("a game is dealt from one 52-card deck, each card once", field="deck")
    return order


def _dealt(
    match: Match, game_no: int, results: tuple[GameResult, ...], log: tuple[MoveRecord, ...], at_ms: int
) -> Make21State:
    """Game `game_no` dealt from its deck at `at_ms`: its turn clock starts then."""
    dealer = dealer_of(game_no, match.players)
    hands, draw_pile = deal(match.decks[game_no - 1], dealer=dealer, players=match.players)
    return Make21State(
        match,
        game_no,
        dealer,
        hands,
        draw_pile,
        _EMPTY_PILES,
        ((),) * match.players,
        first_player(dealer, match.players),
        previous_player(None, dealer=dealer),
        results,
        log,
        at_ms,
    )


def new_match(
    decks: Sequence[Sequence[Card]],
    *,
    players: int,
    games: int | None = None,
    turn_limit_ms: int = DEFAULT_TURN_LIMIT_S * 1000,
) -> Make21State:
    """A match of `games` games (one per seat unless told, so every seat deals once) at a table of
    `players`, game 1 dealt at once from `decks[0]`: `decks` holds one deck order per game, in the
    order they are played."""
    players = check_players(players)
    games = check_games(players if games is None else games)
    if len(decks) != games:
        raise InvalidDeckError(
            f"a match of {games} game(s) takes {games} deck(s), not {len(decks)}", field="deck"
        )
    match = Match(
        players, games, check_turn_limit_ms(turn_limit_ms), tuple(check_deck(deck) for deck in decks)
    )
    return _dealt(match, 1, (), (), 0)


# --- the checks, in the rules' order ---------------------------------------------------------


def _check_turn(state: Make21State, move: Make21Move) -> None:
    """Game over, then the clock, then the seat."""
    if state.finished:
        if not move.automatic and move.seat == state.timed_out_seat:
            raise TimeUpError(f"seat {move.seat}'s turn timed out: the server moved for it", field="at")
        raise GameOverError("the match is over: its last game has been played out")
    deadline = state.last_at_ms + state.match.turn_limit_ms
    if type(move.at_ms) is not int or move.at_ms < state.last_at_ms:
        raise MoveOutOfOrderError(
            f"a move received at {move.at_ms!r} ms, before the previous one", field="at"
        )
    if move.automatic:
        if move != automatic(state):
            raise MoveNotAllowedError("an automatic move is the one the rules make at the seat's deadline")
        return
    if move.at_ms >= deadline:
        if move.seat == state.to_move:
            raise TimeUpError(f"seat {move.seat}'s turn timed out at {deadline} ms", field="at")
        raise NotYourTurnError(f"seat {state.to_move} is to move, not seat {move.seat}", field="seat")
    if move.seat == state.timed_out_seat and move.seat != state.to_move:
        raise TimeUpError(f"seat {move.seat}'s turn timed out: the server moved for it", field="at")
    if move.seat != state.to_move:
        raise NotYourTurnError(f"seat {state.to_move} is to move, not seat {move.seat}", field="seat")


def _check_cards(state: Make21State, move: Play | Double | Extend) -> tuple[Card, ...]:
    """Distinct cards from the seat's hand, one or two of them."""
    hand, cards = state.hand(move.seat), tuple(move.cards)
    if any(card not in hand for card in cards) or len(set(cards)) != len(cards):
        raise CardNotInHandError(
            f"seat {move.seat} may play only distinct cards it holds, not {_names(cards)}", field="cards"
        )
    if not cards:
        raise MoveNotAllowedError(f"{move.kind} one or two cards", field="cards")
    return cards


def _check_normal_turn(state: Make21State) -> None:
    """A set-mode pile that faces the seat allows only `extend` and `take`: no play on the other
    pile, no `double` [decided: the seed's §6 wins over the aside in its §7]."""
    facing = state.facing
    if facing is not None:
        raise MoveNotAllowedError(f"{facing} is in set-mode and faces you: extend it or take it")


def _check_set_mode(state: Make21State) -> tuple[int, SetLock]:
    """`extend` and `take` are for the set-mode pile that faces the seat: its index and lock."""
    for i, pile in enumerate(state.piles):
        if pile.lock is not None:
            return i, pile.lock
    raise MoveNotAllowedError("no set-mode pile faces you: play or double")


def _names(cards: Iterable[object]) -> str:
    return " ".join(map(str, cards)) or "no card"


# --- moves -----------------------------------------------------------------------------------


def _pile_index(name: object) -> int:
    if name not in PILES:
        raise MoveNotAllowedError(f"there is no pile {name!r}: the piles are P1 and P2", field="pile")
    return PILES.index(str(name))


def _with(
    items: tuple[tuple[Card, ...], ...], seat: int, value: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*items[: seat - 1], value, *items[seat:])


def _play(state: Make21State, move: Play) -> Make21State:
    """`play`: one card on either pile, or two on one pile that make a set (`legal_play`)."""
    cards = _check_cards(state, move)
    i = _pile_index(move.pile)
    _check_normal_turn(state)
    pile = state.piles[i].cards
    if not legal_play(pile, cards):
        raise MoveNotAllowedError(
            f"two cards go on a pile only to make a set: {_names(pile)} with {_names(cards)} reads "
            f"{shown_total((*pile, *cards))}, not 21, and is no purity set",
            field="cards",
        )
    outcome = play_outcome(pile, cards)
    after = (*pile, *cards)
    lock = purity_set(after) if outcome is Outcome.SET_MODE else None
    piles = (Pile(after, lock), state.piles[1]) if i == 0 else (state.piles[0], Pile(after, lock))
    return _resolve(state, move, cards, piles, (i,), outcome, move.pile)


def _double(state: Make21State, move: Double) -> Make21State:
    """`double`: one or two cards to the center, a legal Double 21 (`legal_double`)."""
    cards = _check_cards(state, move)
    _check_normal_turn(state)
    first, second = state.piles
    if not legal_double(state.piles, cards):
        if not first.cards or not second.cards:
            raise MoveNotAllowedError("a double needs cards on both piles", field="cards")
        raise MoveNotAllowedError(
            f"{_names(cards)} does not make both {_names(first.cards)} and {_names(second.cards)} exactly 21",
            field="cards",
        )
    # The bridge is counted once: it goes with P1 and is taken or discarded with both piles.
    piles = (Pile((*first.cards, *cards)), second)
    return _resolve(state, move, cards, piles, (0, 1), double_outcome(cards), None)


def _describe_lock(lock: SetLock) -> str:
    if lock.suit is not None:
        return f"a {lock.kind} of {lock.suit}"
    if lock.rank is not None:
        return f"a {lock.kind} set of {lock.rank}"
    return f"a {lock.kind}"


def _extend(state: Make21State, move: Extend) -> Make21State:
    """`extend` the set-mode pile that faces the seat with one or two cards (`legal_extend`)."""
    cards = _check_cards(state, move)
    i, lock = _check_set_mode(state)
    pile = state.piles[i]
    if not legal_extend(pile, cards):
        raise MoveNotAllowedError(
            f"{PILES[i]} must stay {_describe_lock(lock)}: {_names(cards)} does not extend it", field="cards"
        )
    after = Pile((*pile.cards, *cards), lock)
    piles = (after, state.piles[1]) if i == 0 else (state.piles[0], after)
    return _resolve(state, move, cards, piles, (i,), extend_outcome(pile.cards, cards), PILES[i])


def _take(state: Make21State, move: Take) -> Make21State:
    """`take`: the set-mode pile goes to the seat's collection and empties; the turn is over."""
    i, _ = _check_set_mode(state)
    return _resolve(state, move, (), state.piles, (i,), Outcome.TAKE, PILES[i])


def _resolve(
    state: Make21State,
    move: Make21Move,
    cards: tuple[Card, ...],
    piles: tuple[Pile, Pile],
    touched: tuple[int, ...],
    outcome: Outcome,
    pile_name: str | None,
) -> Make21State:
    """The state after an accepted move: the seat draws back up, the pile(s) it touched go to whoever
    takes them (`taker`, after the draw, since it decides who has cards), the log gains the move's
    record; the game ends once every hand is empty (the next one is dealt at once)."""
    seat = move.seat
    held = state.hand(seat)
    hand, draw_pile = draw_up(tuple(card for card in held if card not in cards), state.draw_pile)
    hands = _with(state.hands, seat, hand)
    following = next_player([len(h) for h in hands], seat)
    took = taker(outcome, mover=seat, previous=state.previous, following=following)
    collections, taken = state.collections, 0
    if took is not None:
        gathered = tuple(card for i in touched for card in piles[i].cards)
        taken = len(gathered)
        collections = _with(collections, took, (*collections[took - 1], *gathered))
        piles = (Pile() if 0 in touched else piles[0], Pile() if 1 in touched else piles[1])
    record = MoveRecord(
        state.game_no, seat, move.kind, cards, pile_name, outcome, took, taken, move.automatic, move.at_ms
    )
    log, results = (*state.log, record), state.results
    if game_over([len(h) for h in hands]):
        discarded = tuple(card for pile in piles for card in pile.cards)
        results = (*results, GameResult(state.game_no, state.dealer, collections, discarded))
        if state.game_no < state.match.games:
            return _dealt(state.match, state.game_no + 1, results, log, move.at_ms)
        piles = _EMPTY_PILES  # discarded; the match is over (`following` is None)
    return Make21State(
        state.match,
        state.game_no,
        state.dealer,
        hands,
        draw_pile,
        piles,
        collections,
        following,
        seat,
        results,
        log,
        move.at_ms,
    )


def apply_move(state: Make21State, move: Make21Move) -> Make21State:
    """The state after `move`, or a `RuleError` and nothing changed."""
    _check_turn(state, move)
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, Double):
        return _double(state, move)
    if isinstance(move, Extend):
        return _extend(state, move)
    if isinstance(move, Take):
        return _take(state, move)
    raise MoveNotAllowedError(f"Make 21's moves are play, double, extend and take, not {move!r}")


# --- the clock -------------------------------------------------------------------------------


def automatic(state: Make21State) -> Make21Move:
    """The move the server makes for the seat in `needs` at its deadline (`rules.automatic_move`)."""
    seat, deadline = state.to_move, state.deadline_ms
    if seat is None or deadline is None:
        raise GameOverError("the match is over: the clock makes no move")
    chosen = automatic_move(state.hand(seat), state.piles)
    if chosen.card is None or chosen.pile is None:
        return Take(seat=seat, at_ms=deadline, automatic=True)
    return Play((chosen.card,), chosen.pile, seat=seat, at_ms=deadline, automatic=True)


@dataclass(frozen=True, slots=True)
class Advanced:
    """The state once the clock has acted up to a moment, and the automatic moves it made (each
    with its seat and its deadline's time), in order."""

    state: Make21State
    automatic: tuple[Make21Move, ...] = ()


def advance_clock(state: Make21State, *, now_ms: int) -> Advanced:
    """Every deadline up to `now_ms` acts, without a request: the server moves for the seat at its
    deadline, and the next seat's clock starts then, so deadlines chain when nobody moves."""
    made: list[Make21Move] = []
    while (deadline := state.deadline_ms) is not None and now_ms >= deadline:
        move = automatic(state)
        state = apply_move(state, move)
        made.append(move)
    return Advanced(state, tuple(made))


def replay(
    decks: Sequence[Sequence[Card]],
    moves: Iterable[Make21Move],
    *,
    players: int,
    games: int | None = None,
    turn_limit_ms: int = DEFAULT_TURN_LIMIT_S * 1000,
    now_ms: int,
) -> Make21State:
    """The state from the deck orders, the settings and the move log (automatic moves included)
    alone, the clock read at `now_ms`."""
    state = new_match(decks, players=players, games=games, turn_limit_ms=turn_limit_ms)
    for move in moves:
        state = apply_move(state, move)
    return advance_clock(state, now_ms=now_ms).state
