"""The rules of Make 21 (RULES.md §3.3), one function each: no state, no clock, no I/O.

A pile is the tuple of its cards, bottom first (`Pile` adds its set-mode lock). Seats are numbered
1-n clockwise; a hand is the tuple of a seat's cards, the one held longest first (of two drawn
together, the first drawn first), so card 1 is `hand[0]`. Card values are the blackjack engine's
(`casino.engine.cards`): 2-9 face value, T J Q K ten, an Ace 1 (its other readings are here).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations_with_replacement, permutations, product

from casino.engine.cards import RANKS, Card, Rank, Suit
from casino.engine.errors import RuleError

__all__ = [
    "DEFAULT_TURN_LIMIT_S",
    "GAMES_RANGE",
    "HAND_SIZE",
    "PILES",
    "PLAYERS_RANGE",
    "TURN_LIMIT_S_RANGE",
    "TWENTY_ONE",
    "AutomaticMove",
    "InvalidGameSettingsError",
    "Outcome",
    "Pile",
    "SetKind",
    "SetLock",
    "ace_values",
    "automatic_move",
    "busts",
    "can_double",
    "can_extend",
    "check_games",
    "check_players",
    "check_turn_limit_ms",
    "deal",
    "dealer_of",
    "double_makes_21",
    "double_outcome",
    "draw_up",
    "extend_outcome",
    "first_player",
    "game_over",
    "hard_total",
    "is_flush",
    "is_rank_set",
    "is_run",
    "is_seven",
    "judge",
    "keeps_lock",
    "legal_double",
    "legal_extend",
    "legal_play",
    "makes_21",
    "next_player",
    "play_outcome",
    "previous_player",
    "purity_set",
    "readings",
    "shown_total",
    "taker",
]

TWENTY_ONE = 21
HAND_SIZE = 2
PILES = ("P1", "P2")
SET_SIZE = 3  # a purity set is the whole pile, 3 cards or more
PLAYERS_RANGE = (2, 5)
GAMES_RANGE = (1, 20)
TURN_LIMIT_S_RANGE = (5, 600)
DEFAULT_TURN_LIMIT_S = 60

_ACE = (1, 11)
_ACE_IN_A_PAIR_OF_ACES = (1, 10, 11)
_ACE_LOW = 1
_ACE_HIGH = len(RANKS) + 1  # above the King
_POSITION = {rank: number for number, rank in enumerate(RANKS, start=1)}  # A 1, 2 2, ..., K 13


# --- settings --------------------------------------------------------------------------------


class InvalidGameSettingsError(RuleError):
    code = "invalid_game_settings"


def _check_range(value: object, span: tuple[int, int], name: str, what: str) -> int:
    low, high = span
    if type(value) is not int or not low <= value <= high:
        raise InvalidGameSettingsError(f"{what} is {low}-{high}, not {value!r}", field=name)
    return value


def check_players(players: object) -> int:
    """Two to five players, seats 1-n."""
    return _check_range(players, PLAYERS_RANGE, "players", "a Make 21 table's number of players")


def check_games(games: object) -> int:
    """A match is 1-20 games (API.md); one per seat unless told (RULES.md)."""
    return _check_range(games, GAMES_RANGE, "games", "a Make 21 match's number of games")


def check_turn_limit_ms(turn_limit_ms: object) -> int:
    """The turn limit, a table setting of 5-600 seconds (API.md), 60 unless told [decided]."""
    low, high = TURN_LIMIT_S_RANGE
    return _check_range(
        turn_limit_ms, (low * 1000, high * 1000), "turn_limit_ms", "a Make 21 turn limit in ms"
    )


# --- card values and readings ----------------------------------------------------------------


def is_seven(card: Card) -> bool:
    return card.rank is Rank.SEVEN


def hard_total(pile: Sequence[Card]) -> int:
    """2-9 face value, T J Q K ten, every Ace 1."""
    return sum(card.value for card in pile)


def _pair_of_aces(pile: Sequence[Card]) -> bool:
    return len(pile) == 2 and pile[0].is_ace and pile[1].is_ace


def ace_values(pile: Sequence[Card]) -> tuple[int, ...]:
    """What an Ace in the pile may read: 1 or 11, or 10 too in a pile of exactly two Aces (so
    `A A` reads 21)."""
    return _ACE_IN_A_PAIR_OF_ACES if _pair_of_aces(pile) else _ACE


def _totals(cards: Sequence[Card], values: tuple[int, ...]) -> frozenset[int]:
    """Every total of `cards` with each Ace read as one of `values`."""
    rest, aces = 0, 0
    for card in cards:  # an Ace's `value` is 1
        if card.value == 1:
            aces += 1
        else:
            rest += card.value
    return frozenset(rest + sum(read) for read in combinations_with_replacement(values, aces))


def readings(pile: Sequence[Card]) -> frozenset[int]:
    """Every total the pile may read: Aces are never fixed; each is read afresh at each turn."""
    return _totals(pile, ace_values(pile))


def busts(pile: Sequence[Card]) -> bool:
    """Over 21 with every Ace as 1: the server reads the Aces for the player [decided]."""
    return hard_total(pile) > TWENTY_ONE


def makes_21(pile: Sequence[Card]) -> bool:
    """Some reading of the pile is exactly 21 [decided: the server reads the Aces for the player]."""
    return TWENTY_ONE in readings(pile)


def shown_total(pile: Sequence[Card]) -> int:
    """The highest reading up to 21; when every reading is over 21 (a set-mode pile may be), the
    all-Aces-1 total. An empty pile shows 0."""
    return max((total for total in readings(pile) if total <= TWENTY_ONE), default=hard_total(pile))


# --- purity sets -----------------------------------------------------------------------------


class SetKind(StrEnum):
    FLUSH = "flush"
    RANK = "rank"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class SetLock:
    """What a set-mode pile is locked to: a flush and its suit, a rank set and its rank, or a run."""

    kind: SetKind
    suit: Suit | None = None
    rank: Rank | None = None


@dataclass(frozen=True, slots=True)
class Pile:
    """P1 or P2: its cards, bottom first, and its lock while in set-mode."""

    cards: tuple[Card, ...] = ()
    lock: SetLock | None = None

    @property
    def set_mode(self) -> bool:
        return self.lock is not None


def is_flush(pile: Sequence[Card]) -> bool:
    """Every card of one suit."""
    return len({card.suit for card in pile}) == 1


def is_rank_set(pile: Sequence[Card]) -> bool:
    """Every card of one rank."""
    return len({card.rank for card in pile}) == 1


def _contiguous(positions: list[int]) -> bool:
    positions.sort()
    return positions == list(range(positions[0], positions[0] + len(positions)))


def is_run(pile: Sequence[Card]) -> bool:
    """Contiguous ranks with no repeats, any suits; the Ace low (`A 2 3`) or high (`J Q K A`),
    never both: `K A 2` is not a run."""
    if not pile:
        return False
    low = [_POSITION[card.rank] for card in pile]
    if _contiguous(low):
        return True
    return _ACE_LOW in low and _contiguous([_ACE_HIGH if p == _ACE_LOW else p for p in low])


def purity_set(pile: Sequence[Card]) -> SetLock | None:
    """The purity set the whole pile makes, 3 cards or more, as the lock it enters set-mode with:
    a flush (its suit), a rank set (its rank) or a run; a flush that is also a run locks as a
    flush. None when it makes none."""
    if len(pile) < SET_SIZE:
        return None
    if is_flush(pile):
        return SetLock(SetKind.FLUSH, suit=pile[0].suit)
    if is_rank_set(pile):
        return SetLock(SetKind.RANK, rank=pile[0].rank)
    if is_run(pile):
        return SetLock(SetKind.RUN)
    return None


def keeps_lock(lock: SetLock, pile: Sequence[Card]) -> bool:
    """The pile, extended, is still its locked type: all the locked suit, all the locked rank, or
    one run (extended at either end, or both ends with two cards). Chance sets are not locked in:
    a flush may break its run."""
    if lock.kind is SetKind.FLUSH:
        return all(card.suit is lock.suit for card in pile)
    if lock.kind is SetKind.RANK:
        return all(card.rank is lock.rank for card in pile)
    return is_run(pile)


# --- which moves are legal -------------------------------------------------------------------


def legal_play(pile: Sequence[Card], cards: Sequence[Card]) -> bool:
    """`play` on a pile with no set-mode pile facing the player: one card is always legal (a 7 or
    a bust too, even when a safe play exists [decided: the seed's §8 voluntary bust wins over
    §5a]); two cards only if the pile with both is a set, a Hit 21 or a purity set (a 7 may be one
    of them)."""
    if len(cards) == 1:
        return True
    after = (*pile, *cards)
    return makes_21(after) or purity_set(after) is not None


def double_makes_21(first: Sequence[Card], second: Sequence[Card], bridge: Sequence[Card]) -> bool:
    """The bridge added to each pile makes both exactly 21, a bridge Ace read the same on both (the
    piles' own Aces are read freely, each pile on its own)."""
    fixed = sum(card.value for card in bridge if not card.is_ace)
    aces = sum(1 for card in bridge if card.is_ace)
    for read in product(_ACE_IN_A_PAIR_OF_ACES, repeat=aces):
        needed = TWENTY_ONE - fixed - sum(read)
        if all(_reads_with_bridge(pile, bridge, read, needed) for pile in (first, second)):
            return True
    return False


def _reads_with_bridge(
    pile: Sequence[Card], bridge: Sequence[Card], read: tuple[int, ...], needed: int
) -> bool:
    values = ace_values((*pile, *bridge))
    return all(value in values for value in read) and needed in _totals(pile, values)


def legal_double(piles: Sequence[Pile], bridge: Sequence[Card]) -> bool:
    """`double`, one or two cards to the center: both piles non-empty [decided], neither in
    set-mode, and the card(s) make both exactly 21 (`double_makes_21`)."""
    first, second = piles
    if not first.cards or not second.cards or first.set_mode or second.set_mode:
        return False
    return double_makes_21(first.cards, second.cards, bridge)


def legal_extend(pile: Pile, cards: Sequence[Card]) -> bool:
    """`extend` a set-mode pile with one or two cards: the pile must then still be its locked type
    (`keeps_lock`); a 7 only as such a card."""
    return pile.lock is not None and keeps_lock(pile.lock, (*pile.cards, *cards))


def _plays(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The one- and two-card plays a hand can make (two cards in either order)."""
    return [(card,) for card in hand] + list(permutations(hand, 2))


def can_double(hand: Sequence[Card], piles: Sequence[Pile]) -> bool:
    """Some one or two cards of the hand make a legal `double`."""
    return any(legal_double(piles, bridge) for bridge in _plays(hand))


def can_extend(hand: Sequence[Card], pile: Pile) -> bool:
    """Some one or two cards of the hand make a legal `extend` of the set-mode pile."""
    return any(legal_extend(pile, cards) for cards in _plays(hand))


# --- what a move does ------------------------------------------------------------------------


class Outcome(StrEnum):
    """What an accepted move did (API.md's `outcome`)."""

    STAYS = "stays"  # the card(s) stay
    SEVEN = "seven"  # the previous player takes every pile the play touched
    HIT_21 = "hit_21"  # the next player takes the pile
    DOUBLE_21 = "double_21"  # the next player takes both piles and the bridge
    SET_MODE = "set_mode"  # the pile enters set-mode, facing the next player
    EXTENDED = "extended"  # the set-mode pile stays in set-mode, facing the next player
    BUST = "bust"  # the mover takes the pile
    TAKE = "take"  # the mover takes the set-mode pile


def play_outcome(pile: Sequence[Card], cards: Sequence[Card]) -> Outcome:
    """What `play` of `cards` on `pile` does, the first that applies: the 7 effect; Hit 21; a purity
    set (set-mode: a set beats a bust); a bust (over 21 with every Ace 1); else the cards stay. Two
    cards are judged on the pile with both: a 21 reached by the first card alone does not count."""
    after = (*pile, *cards)
    if any(is_seven(card) for card in cards):
        return Outcome.SEVEN
    if makes_21(after):
        return Outcome.HIT_21
    if purity_set(after) is not None:
        return Outcome.SET_MODE
    if busts(after):
        return Outcome.BUST
    return Outcome.STAYS


def double_outcome(bridge: Sequence[Card]) -> Outcome:
    """A legal `double` is a Double 21, unless a 7 in the bridge: then the 7 effect."""
    return Outcome.SEVEN if any(is_seven(card) for card in bridge) else Outcome.DOUBLE_21


def extend_outcome(pile: Sequence[Card], cards: Sequence[Card]) -> Outcome:
    """What a legal `extend` does: a 7 sends the pile to the previous player, 21 is a Hit 21, else
    it stays in set-mode (over 21 or not) for the next player."""
    if any(is_seven(card) for card in cards):
        return Outcome.SEVEN
    if makes_21((*pile, *cards)):
        return Outcome.HIT_21
    return Outcome.EXTENDED


def taker(outcome: Outcome, *, mover: int, previous: int, following: int | None) -> int | None:
    """Who takes the pile(s) a move touched: the previous player after a 7; the next player
    (`following`) after a Hit 21 or a Double 21, at once, no extension (nobody when no hand holds a
    card: the piles stay and are discarded); the mover after a bust or a take; nobody otherwise."""
    if outcome is Outcome.SEVEN:
        return previous
    if outcome in (Outcome.HIT_21, Outcome.DOUBLE_21):
        return following
    if outcome in (Outcome.BUST, Outcome.TAKE):
        return mover
    return None


# --- seats, the deal, the turn order ---------------------------------------------------------


def dealer_of(game_no: int, players: int) -> int:
    """Game 1's dealer is seat n; the button then moves one seat clockwise a game."""
    return (players + game_no - 2) % players + 1


def first_player(dealer: int, players: int) -> int:
    """The dealer's left plays first, then clockwise."""
    return dealer % players + 1


def deal(
    deck: Sequence[Card], *, dealer: int, players: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Two cards each, one at a time from the dealer's left [decided]; the rest is the draw pile.
    Gives the hands (seat 1 first, each in the order dealt) and the draw pile (its top first)."""
    order = [(first_player(dealer, players) - 1 + i) % players for i in range(players)]
    hands: list[tuple[Card, ...]] = [()] * players
    for round_no in range(HAND_SIZE):
        for i, seat_index in enumerate(order):
            hands[seat_index] = (*hands[seat_index], deck[round_no * players + i])
    return tuple(hands), tuple(deck[HAND_SIZE * players :])


def draw_up(hand: tuple[Card, ...], draw_pile: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """After the turn the player draws back up to 2 from the draw pile's top, as long as it lasts."""
    count = min(max(HAND_SIZE - len(hand), 0), len(draw_pile))
    return (*hand, *draw_pile[:count]), draw_pile[count:]


def next_player(hand_sizes: Sequence[int], mover: int) -> int | None:
    """Whoever takes the next turn: clockwise from the mover, empty hands skipped, so it can be the
    mover (alone with cards); None when no hand holds a card."""
    players = len(hand_sizes)
    for step in range(1, players + 1):
        seat = (mover - 1 + step) % players + 1
        if hand_sizes[seat - 1] > 0:
            return seat
    return None


def previous_player(last_mover: int | None, *, dealer: int) -> int:
    """Whoever took the turn before; on a game's first turn, the dealer [decided]."""
    return dealer if last_mover is None else last_mover


def game_over(hand_sizes: Sequence[int]) -> bool:
    """The game ends when every hand is empty (the draw pile is then empty too); cards left in the
    piles, set-mode or not, are discarded."""
    return not any(hand_sizes)


def judge(collected: Mapping[int, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Winners and losers by collected cards: fewest wins, most loses, ties share; if all tie, all
    win and none loses [decided]. A match is judged on each seat's sum over its games."""
    fewest, most = min(collected.values()), max(collected.values())
    winners = tuple(sorted(seat for seat, count in collected.items() if count == fewest))
    losers = (
        () if fewest == most else tuple(sorted(seat for seat, count in collected.items() if count == most))
    )
    return winners, losers


# --- the clock -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AutomaticMove:
    """The move the server makes at a deadline: `take` (no card), or `play` of `card` on `pile`."""

    move: str  # "take" or "play"
    card: Card | None = None
    pile: str | None = None


def automatic_move(hand: Sequence[Card], piles: Sequence[Pile]) -> AutomaticMove:
    """At the deadline: `take` if a set-mode pile faces the player; else the first play that does not
    bust of card 1 on P1, P2, card 2 on P1, P2 (card 1: held longer; of two drawn together, the
    first drawn); else card 1 on P1."""
    if any(pile.set_mode for pile in piles):
        return AutomaticMove("take")
    for card, (name, pile) in product(hand[:HAND_SIZE], zip(PILES, piles, strict=True)):
        if play_outcome(pile.cards, (card,)) is not Outcome.BUST:
            return AutomaticMove("play", card, name)
    return AutomaticMove("play", hand[0], PILES[0])
