"""An independent model of Make 21, written from RULES.md §3 and §3.3 (and API.md "Skill games")
alone.

It shares no code with `make21.engine` nor with any other app module: plain lists of card strings
(`"KH"`, `"7S"`) and integers. A `Make21Model` is one match: `games` games at one table of
`players` seats, one 52-card deck per game (its first card on top). `move` says what the service
must answer to one move from one seat received at a given time (accepted, or refused with a status
and a code); `game`, `records` and `tick` say what the service must show. Times are milliseconds
since the match's start (the driver turns them into the API's timestamps and seconds).

Where RULES.md and API.md leave a detail open, the model reads it so (to be reconciled with the
service):
1. `board.seats[].collected` counts the seat's collection in the game in play; the match's sums
   are in `score`.
2. `board.last` is the game in play's last record without `seq`, `game_no` and its time; `null`
   before the game's first move (so also just after the next game is dealt). Once the match has
   ended, the last game's last record.
3. `score.games` lists every game dealt so far, the one in play with its collections so far
   (zeros just after its deal); `total` is their sum; `winners`/`losers` are `[]` until the last
   game ends, then the seats in ascending order.
4. `needs.moves` lists, in the order play, double, extend, take: with no set-mode pile `play`
   always and `double` when the hand holds a legal double; facing a set-mode pile `extend` when
   the hand holds a legal extension and `take` always. `needs` is `null` once the match has ended.
5. A record's move fields are the move's own: `cards` and `pile` for `play`, `cards` for `double`
   and `extend` (no pile: the set-mode pile is the only one), none for `take`; cards in the order
   sent.
6. `taken_by`/`cards_taken` name the seat that collected and how many cards; `null`/`0` for
   `stays`, `set_mode`, `extended`, and for a `hit_21`/`double_21` that nobody is left to take
   (the pile stays and is discarded with the game).
7. The piles are discarded at each game's end: the next game's board, and the last game's once the
   match is over, shows them empty (the game's last move in `last` says what it did).
8. Once the match has ended a move is `409 game_over` from every seat, even the one whose turn
   timed out into the last record ("Checks run in this order: game over, clock").
9. `409 time_up` answers the seat of the last record while that record is automatic, even when
   that seat is to move again (alone with cards) or the record ended a game.
10. Malformed moves: what the API's input checks refuse is `400 validation_error` before any rule
    (`malformed`: a `move`, `cards` or `pile` of the wrong JSON type, a null one, or over its
    length); then, after the seat, an unknown `move`, or a field the move does not take (`pile` on
    a double or an extend, `cards` on a take), is `move_not_allowed` (its cards are not looked
    at); an empty list of cards or a pile other than `"P1"`/`"P2"` is `move_not_allowed`; a card
    named twice or not held is `card_not_in_hand` (so three cards always are: a hand holds at
    most two). Fields no skill game knows are not looked at.
11. The mover draws back up to 2 before the next player is found (a take leaves the hand as it
    was: full, or the draw pile is empty); that is who takes a Hit 21 and whom a set faces.
12. At a deadline "not a bust" counts a 7 (outcome `seven`) as not a bust; only one-card plays are
    tried, in the order card 1 on P1, card 1 on P2, card 2 on P1, card 2 on P2.
13. `seq` rises by one per logged move (automatic ones too); dealing the next game is part of the
    move that ended the previous one, not a change of its own.
14. Aces: in a pile of exactly two Aces each reads 1, 10 or 11. A bridge Ace takes one value for
    both piles, 10 only where that pile is then exactly two Aces.
15. A two-card double puts both cards on both piles (the seed's "treated as if applied to each
    pile"); its taker collects P1, P2 and the bridge, each card once.
16. A hand lists its cards in the order received: card 1 (held longer) first, of two drawn
    together the first drawn first.
"""

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any

from tests.skill_games.model.common import Refused, Shown

PILES = ("P1", "P2")
ORDER = "A23456789TJQK"  # an Ace low; a run may also end high with it (J Q K A)
HAND = 2

Lock = dict[str, str]  # {"kind": "flush", "suit": "S"} | {"kind": "rank", "rank": "K"} | {"kind": "run"}


# --- cards and piles --------------------------------------------------------------------------


def value(card: str) -> int:
    """A card's value with an Ace as 1: 2-9 face value, T J Q K 10."""
    rank = card[0]
    if rank == "A":
        return 1
    return 10 if rank in "TJQK" else int(rank)


def low_total(cards: list[str]) -> int:
    """The total with every Ace as 1 (a pile over 21 so busts)."""
    return sum(value(card) for card in cards)


def ace_pair(cards: list[str]) -> bool:
    """A pile of exactly two Aces, where an Ace may also read 10 (`A A` is 21)."""
    return len(cards) == 2 and all(card[0] == "A" for card in cards)


def card_readings(card: str, pair: bool) -> tuple[int, ...]:
    if card[0] == "A":
        return (1, 10, 11) if pair else (1, 11)
    return (value(card),)


def sums(cards: list[str], pair: bool) -> set[int]:
    """Every total of `cards`, each Ace read on its own (10 too when `pair`)."""
    return {sum(values) for values in product(*(card_readings(card, pair) for card in cards))}


def readings(cards: list[str]) -> set[int]:
    return sums(cards, ace_pair(cards))


def makes_21(cards: list[str]) -> bool:
    return bool(cards) and 21 in readings(cards)


def shown_total(cards: list[str]) -> int:
    """The highest reading up to 21; when every reading is over 21, the all-Aces-1 total."""
    return max((r for r in readings(cards) if r <= 21), default=low_total(cards))


def is_run(cards: list[str]) -> bool:
    """Contiguous ranks, no repeats, any suits; an Ace low (A 2 3) or high (J Q K A), no wrap."""
    ranks = [card[0] for card in cards]
    if len(set(ranks)) != len(ranks):
        return False
    for ace in (1, 14):
        places = [ace if rank == "A" else ORDER.index(rank) + 1 for rank in ranks]
        if max(places) - min(places) == len(places) - 1:
            return True
    return False


def purity(cards: list[str]) -> Lock | None:
    """The set a whole pile of 3 or more cards forms, as locked: a flush (also when a run), one
    rank, or a run; None when it forms none."""
    if len(cards) < 3:
        return None
    if len({card[1] for card in cards}) == 1:
        return {"kind": "flush", "suit": cards[0][1]}
    if len({card[0] for card in cards}) == 1:
        return {"kind": "rank", "rank": cards[0][0]}
    if is_run(cards):
        return {"kind": "run"}
    return None


def is_set(cards: list[str]) -> bool:
    """A Hit 21 or a purity set: what a two-card play must make."""
    return makes_21(cards) or purity(cards) is not None


def play_outcome(pile: list[str], cards: list[str]) -> str:
    """The outcome of `cards` played on a pile not in set-mode, the first that applies."""
    whole = [*pile, *cards]
    if any(card[0] == "7" for card in cards):
        return "seven"
    if makes_21(whole):
        return "hit_21"
    if purity(whole) is not None:
        return "set_mode"
    if low_total(whole) > 21:
        return "bust"
    return "stays"


def extends(pile: list[str], lock: Lock, cards: list[str]) -> bool:
    """Whether `cards` added to a set-mode pile keep its locked type (a 7 only as such a card)."""
    if lock["kind"] == "flush":
        return all(card[1] == lock["suit"] for card in cards)
    if lock["kind"] == "rank":
        return all(card[0] == lock["rank"] for card in cards)
    return is_run([*pile, *cards])


def double_ok(first: list[str], second: list[str], bridge: list[str]) -> bool:
    """Both piles non-empty and the bridge on each makes both exactly 21, each bridge Ace read the
    same on both (10 only where that pile is then exactly two Aces)."""
    if not first or not second:
        return False
    for values in product(*(card_readings(card, True) for card in bridge)):
        if all(_bridged_21(pile, bridge, values) for pile in (first, second)):
            return True
    return False


def _bridged_21(pile: list[str], bridge: list[str], values: tuple[int, ...]) -> bool:
    pair = ace_pair([*pile, *bridge])
    if not pair and any(card[0] == "A" and v == 10 for card, v in zip(bridge, values, strict=True)):
        return False
    return 21 - sum(values) in sums(pile, pair)


def card_choices(hand: list[str]) -> list[list[str]]:
    """The cards a move may use: one card, or two."""
    return [[card] for card in hand] + [list(pair) for pair in combinations(hand, 2)]


def judge(collected: dict[str, int]) -> tuple[list[int], list[int]]:
    """Winners and losers: fewest collected cards win, most lose, ties share; all tie, all win and
    none loses."""
    fewest, most = min(collected.values()), max(collected.values())
    winners = sorted(int(seat) for seat, n in collected.items() if n == fewest)
    if fewest == most:
        return winners, []
    return winners, sorted(int(seat) for seat, n in collected.items() if n == most)


# --- the match --------------------------------------------------------------------------------


# The fields each move takes (API.md); another move field sent with it is `move_not_allowed`.
OWN_FIELDS: dict[str, set[str]] = {
    "play": {"cards", "pile"},
    "double": {"cards"},
    "extend": {"cards"},
    "take": set(),
}


def malformed(body: dict[str, Any]) -> bool:
    """What the API refuses as `400 validation_error` before any rule is asked (its input checks,
    the same for every skill game): `move` not a text (up to 32 characters); `cards` not a list
    of at most 52 texts of up to 8 characters; `pile` not a text of up to 8 characters; a whole
    number field (`expected_seq`, `column`, `position`) that is not one. A text is taken as sent,
    blank or not: the rules judge it."""
    move = body.get("move")
    if not isinstance(move, str) or len(move) > 32:
        return True
    if "cards" in body:
        cards = body["cards"]
        if not isinstance(cards, list) or len(cards) > 52:
            return True
        if not all(isinstance(card, str) and len(card) <= 8 for card in cards):
            return True
    if "pile" in body and (not isinstance(body["pile"], str) or len(body["pile"]) > 8):
        return True
    numbers = (body.get(name) for name in ("expected_seq", "column", "position"))
    return any(n is not None and (type(n) is not int) for n in numbers)


@dataclass
class Make21Model(Shown):
    decks: list[list[str]]
    players: int
    games: int
    turn_limit_ms: int
    game_no: int = field(default=0, init=False)
    hands: list[list[str]] = field(default_factory=list, init=False)  # seat n at index n - 1
    draw: list[str] = field(default_factory=list, init=False)  # top first
    piles: dict[str, list[str]] = field(default_factory=dict, init=False)
    locks: dict[str, Lock | None] = field(default_factory=dict, init=False)
    collections: list[list[str]] = field(default_factory=list, init=False)  # the game in play's
    mover: int | None = field(default=None, init=False)
    previous: int = field(default=0, init=False)
    clock_from: int = field(default=0, init=False)  # when the turn clock last started
    finished: list[dict[str, Any]] = field(default_factory=list, init=False)  # games ended
    seq: int = field(default=0, init=False)
    ended: str | None = field(default=None, init=False)  # "match_over"
    records: list[dict[str, Any]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        assert 2 <= self.players <= 5
        assert len(self.decks) == self.games >= 1
        for deck in self.decks:
            assert len(deck) == len(set(deck)) == 52
        self._deal(0)

    # --- seats and turns ----------------------------------------------------------------------

    def dealer(self, game_no: int | None = None) -> int:
        """Game 1's dealer is seat n, then the button moves one seat clockwise a game."""
        number = self.game_no if game_no is None else game_no
        return (self.players - 1 + number - 1) % self.players + 1

    def after(self, seat: int) -> int:
        return seat % self.players + 1

    def next_player(self, seat: int) -> int | None:
        """Whoever takes the next turn after `seat`: clockwise, empty hands skipped, `seat` itself
        last; None when every hand is empty."""
        for step in range(1, self.players + 1):
            candidate = (seat - 1 + step) % self.players + 1
            if self.hands[candidate - 1]:
                return candidate
        return None

    def set_pile(self) -> str | None:
        """The pile in set-mode (it faces the player to move), if any."""
        return next((pile for pile in PILES if self.locks[pile] is not None), None)

    def deadline(self) -> int | None:
        return None if self.ended is not None else self.clock_from + self.turn_limit_ms

    def _deal(self, at_ms: int) -> None:
        """The next game: 2 cards each, one at a time from the dealer's left; the rest is the draw
        pile; the dealer's left plays first, the dealer counts as the previous player."""
        self.game_no += 1
        deck = self.decks[self.game_no - 1]
        dealer = self.dealer()
        self.hands = [[] for _ in range(self.players)]
        order = [(dealer - 1 + step) % self.players + 1 for step in range(1, self.players + 1)]
        for index, seat in enumerate(order * HAND):
            self.hands[seat - 1].append(deck[index])
        self.draw = list(deck[HAND * self.players :])
        self.piles = {pile: [] for pile in PILES}
        self.locks = {pile: None for pile in PILES}
        self.collections = [[] for _ in range(self.players)]
        self.mover = self.after(dealer)
        self.previous = dealer
        self.clock_from = at_ms

    # --- time ---------------------------------------------------------------------------------

    def tick(self, now_ms: int) -> None:
        """Every deadline up to `now_ms` acts, each at its own time: the server moves for the
        player, and the next turn's clock starts then (deadlines chain)."""
        while (deadline := self.deadline()) is not None and deadline <= now_ms:
            self._automatic(deadline)

    def automatic_move(self) -> dict[str, Any]:
        """What the server plays at the mover's deadline: `take` facing a set-mode pile; else the
        first play that is not a bust of card 1 on P1, P2, card 2 on P1, P2; else card 1 on P1."""
        assert self.mover is not None
        if self.set_pile() is not None:
            return {"move": "take"}
        hand = self.hands[self.mover - 1]
        for card in hand[:HAND]:
            for pile in PILES:
                if play_outcome(self.piles[pile], [card]) != "bust":
                    return {"move": "play", "cards": [card], "pile": pile}
        return {"move": "play", "cards": [hand[0]], "pile": "P1"}

    def _automatic(self, at_ms: int) -> None:
        assert self.mover is not None
        body = self.automatic_move()
        self._check_move(body, self.mover)  # the server's own move is a legal one
        self._apply(body, self.mover, at_ms, automatic=True)

    # --- moves --------------------------------------------------------------------------------

    def move(self, body: dict[str, Any], seat: int, at_ms: int) -> None:
        """Apply one move from `seat` received at `at_ms`, or raise `Refused` (and change nothing
        but what the deadlines up to `at_ms` did by themselves)."""
        self.tick(at_ms)
        self.check(body, seat)
        self._apply(body, seat, at_ms, automatic=False)

    def check(self, body: dict[str, Any], seat: int) -> None:
        """Raise `Refused` as the service must, in API.md's order: game over, clock,
        `expected_seq`, seat, cards, the rest. Changes nothing."""
        if malformed(body):
            raise Refused(400, "validation_error")
        if self.ended is not None:
            raise Refused(409, "game_over")
        if self.records and self.records[-1]["automatic"] and self.records[-1]["seat"] == seat:
            raise Refused(409, "time_up")
        if "expected_seq" in body and body["expected_seq"] != self.seq:
            raise Refused(409, "stale_game")
        if seat != self.mover:
            raise Refused(422, "not_your_turn")
        self._check_move(body, seat)

    def _check_move(self, body: dict[str, Any], seat: int) -> None:
        """The move's name and fields, the cards, then the rest."""
        kind = body.get("move")
        if kind not in OWN_FIELDS:
            raise Refused(422, "move_not_allowed")
        sent = {name for name in ("column", "position", "cards", "pile") if body.get(name) is not None}
        if sent - OWN_FIELDS[kind]:
            raise Refused(422, "move_not_allowed")
        hand = self.hands[seat - 1]
        cards: list[str] = []
        if kind in ("play", "double", "extend"):
            named = body.get("cards")
            if not isinstance(named, list) or not all(isinstance(card, str) for card in named):
                raise Refused(422, "move_not_allowed")
            if len(set(named)) != len(named) or any(card not in hand for card in named):
                raise Refused(422, "card_not_in_hand")
            if not 1 <= len(named) <= HAND:
                raise Refused(422, "move_not_allowed")
            cards = named
        set_pile = self.set_pile()
        if set_pile is not None:
            lock = self.locks[set_pile]
            assert lock is not None
            legal = kind == "take" or (kind == "extend" and extends(self.piles[set_pile], lock, cards))
        elif kind == "play":
            pile = body.get("pile")
            legal = (
                isinstance(pile, str)
                and pile in PILES
                and (len(cards) == 1 or is_set([*self.piles[pile], *cards]))
            )
        elif kind == "double":
            legal = double_ok(self.piles["P1"], self.piles["P2"], cards)
        else:
            legal = False
        if not legal:
            raise Refused(422, "move_not_allowed")

    def legal(self, body: dict[str, Any]) -> bool:
        """Whether the seat to move may make `body` now (its cards, then the rest)."""
        assert self.mover is not None
        try:
            self._check_move(body, self.mover)
        except Refused:
            return False
        return True

    def allowed(self) -> list[str]:
        """The moves the seat to move may make (what its `needs.moves` lists)."""
        assert self.mover is not None
        choices = card_choices(self.hands[self.mover - 1])
        set_pile = self.set_pile()
        if set_pile is not None:
            lock = self.locks[set_pile]
            assert lock is not None
            can_extend = any(extends(self.piles[set_pile], lock, cards) for cards in choices)
            return ["extend", "take"] if can_extend else ["take"]
        can_double = any(double_ok(self.piles["P1"], self.piles["P2"], cards) for cards in choices)
        return ["play", "double"] if can_double else ["play"]

    def _apply(self, body: dict[str, Any], seat: int, at_ms: int, *, automatic: bool) -> None:
        """A checked move: the cards go down, the mover draws back up to 2, the outcome is settled
        with the previous and the next player, the turn passes (or the game ends)."""
        kind = body["move"]
        fields: dict[str, Any] = {}
        cards: list[str] = []
        if kind != "take":
            cards = list(body["cards"])
            fields["cards"] = list(cards)
            for card in cards:
                self.hands[seat - 1].remove(card)
        if kind == "play":
            fields["pile"] = body["pile"]
        hand = self.hands[seat - 1]
        while len(hand) < HAND and self.draw:
            hand.append(self.draw.pop(0))
        following = self.next_player(seat)
        outcome, taken_by, taken = self._settle(kind, fields, cards, seat, following)
        if taken_by is not None:
            self.collections[taken_by - 1].extend(taken)
        self.seq += 1
        self.records.append(
            {
                "seq": self.seq,
                "seat": seat,
                "move": kind,
                **fields,
                "game_no": self.game_no,
                "outcome": outcome,
                "taken_by": taken_by,
                "cards_taken": len(taken) if taken_by is not None else 0,
                "automatic": automatic,
                "elapsed_ms": at_ms,
            }
        )
        self.previous, self.mover, self.clock_from = seat, following, at_ms
        if following is None:
            self._end_game(at_ms)

    def _settle(
        self, kind: str, fields: dict[str, Any], cards: list[str], seat: int, following: int | None
    ) -> tuple[str, int | None, list[str]]:
        """The outcome, who collects, and the cards collected."""
        sevens = any(card[0] == "7" for card in cards)
        if kind == "take":
            pile = self.set_pile()
            assert pile is not None
            taken = self._clear(pile)
            return "take", seat, taken
        if kind == "double":
            taken = [*self.piles["P1"], *self.piles["P2"], *cards]
            if following is None and not sevens:  # nobody left to take them: discarded with the game
                for pile in PILES:
                    self.piles[pile] = [*self.piles[pile], *cards]
                return "double_21", None, []
            for pile in PILES:
                self._clear(pile)
            return ("seven", self.previous, taken) if sevens else ("double_21", following, taken)
        if kind == "extend":
            pile = self.set_pile()
            assert pile is not None
            whole = [*self.piles[pile], *cards]
            outcome = "seven" if sevens else "hit_21" if makes_21(whole) else "extended"
        else:
            pile = fields["pile"]
            whole = [*self.piles[pile], *cards]
            outcome = play_outcome(self.piles[pile], cards)
        self.piles[pile] = whole
        if outcome == "seven":
            return outcome, self.previous, self._clear(pile)
        if outcome == "hit_21":
            self.locks[pile] = None
            if following is None:  # nobody left to take it: it stays, discarded with the game
                return outcome, None, []
            return outcome, following, self._clear(pile)
        if outcome == "set_mode":
            self.locks[pile] = purity(whole)
        if outcome == "bust":
            return outcome, seat, self._clear(pile)
        return outcome, None, []

    def _clear(self, pile: str) -> list[str]:
        cards = self.piles[pile]
        self.piles[pile], self.locks[pile] = [], None
        return cards

    def _end_game(self, at_ms: int) -> None:
        """Every hand is empty: the piles are discarded; the next game is dealt at once (its turn
        clock starts now), or the match is over."""
        discarded: list[str] = []
        for pile in PILES:
            discarded += [card for card in self.piles[pile] if card not in discarded]
        self.finished.append(
            {
                "game_no": self.game_no,
                "collections": [list(cards) for cards in self.collections],
                "discarded": discarded,
            }
        )
        if self.game_no == self.games:
            self.ended = "match_over"
            self.piles = {pile: [] for pile in PILES}
            self.locks = {pile: None for pile in PILES}
        else:
            self._deal(at_ms)

    # --- what the service shows ---------------------------------------------------------------

    def collected(self, game_no: int) -> dict[str, int]:
        """Each seat's collected cards in one game (ended or in play), keyed as JSON keys them."""
        if game_no <= len(self.finished):
            collections = self.finished[game_no - 1]["collections"]
        else:
            collections = self.collections
        return {str(seat): len(cards) for seat, cards in enumerate(collections, start=1)}

    def score(self) -> dict[str, Any]:
        numbers = [*range(1, len(self.finished) + 1)]
        if self.ended is None:
            numbers.append(self.game_no)
        games = [{"game_no": n, "collected": self.collected(n)} for n in numbers]
        total = {str(seat): sum(g["collected"][str(seat)] for g in games) for seat in self.seats()}
        winners, losers = judge(total) if self.ended is not None else ([], [])
        return {"games": games, "total": total, "winners": winners, "losers": losers}

    def seats(self) -> range:
        return range(1, self.players + 1)

    def needs(self, seat: int | None = None) -> dict[str, Any] | None:
        if self.ended is not None or self.mover is None:
            return None
        set_pile = self.set_pile()
        shown: dict[str, Any] = {
            "seat": self.mover,
            "mode": "normal" if set_pile is None else "set_mode",
            "pile": set_pile,
            "deadline": self.deadline(),
        }
        if seat == self.mover:
            shown["moves"] = self.allowed()
        return shown

    def board(self) -> dict[str, Any]:
        last = next((r for r in reversed(self.records) if r["game_no"] == self.game_no), None)
        locks = {pile: None if lock is None else dict(lock) for pile, lock in self.locks.items()}
        return {
            "game_no": self.game_no,
            "games": self.games,
            "dealer": self.dealer(),
            "draw_pile": len(self.draw),
            "piles": [
                {
                    "pile": pile,
                    "cards": list(self.piles[pile]),
                    "total": shown_total(self.piles[pile]),
                    "set_mode": locks[pile],
                }
                for pile in PILES
            ],
            "seats": [
                {
                    "seat": seat,
                    "hand_size": len(self.hands[seat - 1]),
                    "collected": len(self.collections[seat - 1]),
                }
                for seat in self.seats()
            ],
            "last": None
            if last is None
            else {k: v for k, v in last.items() if k not in ("seq", "game_no", "elapsed_ms")},
        }

    def game(self, seat: int | None = None) -> dict[str, Any]:
        """The game as `seat` sees it (its hand and, when it moves, its moves); as staff see it
        when `seat` is None."""
        shown: dict[str, Any] = {
            "state": "playing" if self.ended is None else "finished",
            "seq": self.seq,
            "needs": self.needs(seat),
            "board": self.board(),
            "score": self.score(),
        }
        if seat is not None:
            shown["hand"] = list(self.hands[seat - 1])
        return shown
