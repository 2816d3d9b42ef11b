"""Values of a round against one up card: best play, basic strategy, and the primary's edge.

For the steering check (steering.py) and the primary wager's house edge. Every hand
composition the seat can reach against the up card gets a value per scenario: the expected net
of primary + bonus (a scenario is a set of bonus wagers, given as its net bonus result per tie
outcome). Two policies: the best play, the maximum over the plays allowed at each composition
(hit, stand, double, split at the first two cards, surrender where allowed), and basic
strategy. The dealer's final totals are exact for each composition (dealer_odds.py).

The programme works on arrays: the hands of each *family* (the seat's unsplit hands, or the
hands split from one pair value) are indexed, all families of an up card are put side by side
(`Hands`), and the values of all hands holding the same number of cards are computed together,
from the most cards down, with NumPy. The dealer's distributions come in one batch per up card
(dealer_odds.py). Several payoff tables (scenarios) are solved at once, one column each.

Steering model: one split without re-splits. Each hand, and the dealer, decides from its own
cards only, so drawing without replacement the order in which the hands and the dealer take
their cards does not change the chance of any combination: each split hand is valued as if it
drew right after the pair, from the shoe less the up card and both pair cards, exactly. Hand 0
carries the bonus, hand 1 only the primary.

Primary wager (`primary_values`): exact re-splits up to the table's hand limit (re-split Aces
and double after split as the rules say), for basic strategy and for composition-dependent play.
The same order argument deals every hand's second card first; a hand's second card is kept off
the pair value while the hand limit is not reached (a pair card would have been re-split), and
inclusion-exclusion over those "not a pair card" conditions turns every term into the value of
one split hand drawn from the shoe less some number r of extra pair cards (r up to
2 * hands - 3), times the chance of drawing those r pair cards: exact for any play of the split
hands that depends on their own cards. Composition-dependent play after a split is the best
play for the hand's cards with the shoe less the up card and the first pair (the usual "CDZ-"
convention: it does not look at how many pair cards the other split hands took); before a
split it is the best play for the cards seen, the split's exact value included.

The order argument needs a shoe nobody can run out of (a round that runs out is void); on the
tiny shoes of some tests the split figures are those of the argument, not of void rounds.
"""

import dataclasses
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from blackjack.engine.rules import HouseRules
from bonus_tie.engine.basic_strategy import Play
from bonus_tie.engine.dealer_odds import (
    BUST,
    DealerOdds,
    blackjack_hole,
    blackjack_probability,
    removal_index,
)
from bonus_tie.engine.hand_play import basic_play, options
from bonus_tie.engine.rank_counts import (
    ACE,
    BLACKJACK_TOTAL,
    NO_CARDS,
    TEN,
    Counts,
    is_blackjack,
    total_of,
    with_card,
    without,
)
from bonus_tie.engine.tie_odds import TIE_BLACKJACK, TIE_OUTCOMES, first_deals

NO_TIE = TIE_OUTCOMES  # index of "no tie" in a scenario's bonus results
TEN_RANKS = 4  # T, J, Q, K
HANDS_AFTER_ONE_SPLIT = 2

Array = npt.NDArray[np.float64]
_Item = TypeVar("_Item", bound=np.generic)
Payoffs = tuple[tuple[float, ...], ...]

# Plays as indexes into a family's candidate values.
_HIT, _STAND, _DOUBLE, _SURRENDER = range(4)
_PLAY_INDEX = {Play.HIT: _HIT, Play.STAND: _STAND, Play.DOUBLE: _DOUBLE, Play.SURRENDER: _SURRENDER}


@dataclass(frozen=True, slots=True)
class UpCardSteering:
    """Expected net per scenario, jointly with one up card, under both policies.

    `best_follow`/`basic_follow`: the expected follower payoff of each scenario (see
    `RoundProgramme.round_values`) under the same plays; empty when no follower was asked for.
    """

    up: int
    best: tuple[float, ...]
    basic: tuple[float, ...]
    best_follow: tuple[float, ...] = ()
    basic_follow: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class PrimaryValues:
    """The primary wager alone, jointly with one up card: the expected net per unit staked under
    each model (the house edge is minus it). Every figure is exact (see the module)."""

    up: int
    basic_resplit: float  # basic strategy, re-splits to the hand limit
    best_resplit: float  # composition-dependent play, re-splits to the hand limit
    basic_one_split: float  # basic strategy, one split and no re-split (the steering model)
    best_one_split: float  # best play, one split and no re-split (the steering model)


# --- one family of hands ---------------------------------------------------------------------


def _hands(pool: Counts, start: Counts) -> list[Counts]:
    """Every composition holding `start`, within `pool`, of hard total at most 21."""
    found: list[Counts] = []
    room = BLACKJACK_TOTAL - sum(v * c for v, c in zip(range(1, 11), start, strict=True))

    def extend(value: int, budget: int, held: list[int]) -> None:
        if value > TEN:
            found.append(tuple(held))
            return
        base = start[value - 1]
        most = min(budget // value, pool[value - 1] - base)
        for extra in range(max(most, -1) + 1):
            held.append(base + extra)
            extend(value + 1, budget - extra * value, held)
            held.pop()

    if room >= 0 and all(s <= p for s, p in zip(start, pool, strict=True)):
        extend(1, room, [])
    return found


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a family's hands are, whatever the up card: the hands, how they connect, what they may do."""

    hands: tuple[Counts, ...]  # most cards first
    index: dict[Counts, int]
    counts: npt.NDArray[np.int64]  # hands x 10
    total: npt.NDArray[np.int64]
    child: npt.NDArray[np.int64]  # hands x 10: the hand with one more card of that value; -1 bust
    allowed: npt.NDArray[np.bool_]  # hands x plays
    levels: tuple[npt.NDArray[np.int64], ...]  # hands by number of cards, most first
    # What basic strategy looks at (total, soft, cards up to 3, pair): one hand of each kind, and
    # each hand's kind as an index into them.
    kinds: tuple[Counts, ...]
    kind_of: npt.NDArray[np.int64]
    # Each hand's cards (a split hand's with the other hand's pair card) as a row of the dealer's
    # prepared table (dealer_odds.removal_index); -1 where it is not there.
    removal_rows: npt.NDArray[np.int64]


@cache
def _shape(cap: Counts, start: Counts, split_value: int | None, rules: HouseRules) -> _Shape:
    hands = sorted(_hands(cap, start), key=lambda h: (-sum(h), h))
    if split_value is None:
        hands = [h for h in hands if sum(h) >= 2]
    index = {hand: i for i, hand in enumerate(hands)}
    size = len(hands)
    child = [
        [index.get((*hand[: v - 1], hand[v - 1] + 1, *hand[v:]), -1) for v in range(1, 11)] for hand in hands
    ]
    allowed = np.zeros((size, 4), dtype=bool)
    keys = []
    kinds: dict[tuple[int, bool, int, int | None], Counts] = {}
    for i, hand in enumerate(hands):
        total, soft = total_of(hand)
        cards = sum(hand)
        pair = next((v + 1 for v, c in enumerate(hand) if c == 2), None) if cards == 2 else None
        key = (total, soft, min(cards, 3), pair)
        keys.append(key)
        kinds.setdefault(key, hand)
        if cards < 2:
            allowed[i, _HIT] = True
            continue
        allowed[i, _STAND] = True
        may = options(hand, rules=rules, split_value=split_value)
        if may.acts and total < BLACKJACK_TOTAL:
            allowed[i, _HIT] = True
            allowed[i, _DOUBLE] = may.double
            allowed[i, _SURRENDER] = may.surrender
    kind_index = {key: k for k, key in enumerate(kinds)}
    cards_of = [sum(h) for h in hands]
    levels: dict[int, list[int]] = defaultdict(list)
    for i, c in enumerate(cards_of):
        levels[c].append(i)
    return _Shape(
        hands=tuple(hands),
        index=index,
        counts=np.array(hands, dtype=np.int64).reshape(size, 10),
        total=np.array([total_of(h)[0] for h in hands], dtype=np.int64),
        child=np.array(child, dtype=np.int64).reshape(size, 10),
        allowed=allowed,
        levels=tuple(np.array(levels[c], dtype=np.int64) for c in sorted(levels, reverse=True)),
        kinds=tuple(kinds.values()),
        kind_of=np.array([kind_index[key] for key in keys], dtype=np.int64).reshape(len(hands)),
        removal_rows=np.array(
            [
                removal_index().get(hand if split_value is None else with_card(hand, split_value), -1)
                for hand in hands
            ],
            dtype=np.int64,
        ),
    )


def _cap(pool: Counts) -> Counts:
    """`pool` with each count cut to what a hand of hard total 21 or less can hold."""
    return tuple(
        min(count, BLACKJACK_TOTAL // value) for value, count in zip(range(1, 11), pool, strict=True)
    )


class Family:
    """The hands of one family: drawn from `pool` (their own cards included), all holding `start`.

    `split_value` marks split hands (played under `rules` with a hand limit of two: a split hand
    is never re-split in the steering model); `bonus` whether the hands carry the bonus wagers.
    """

    def __init__(
        self,
        *,
        pool: Counts,
        start: Counts,
        up: int,
        rules: HouseRules,
        split_value: int | None,
        bonus: bool,
        dealer: DealerOdds,
    ) -> None:
        self.pool = pool
        self.up = up
        self.split_value = split_value
        self.bonus = bonus
        if split_value is not None:
            rules = dataclasses.replace(rules, max_hands=min(rules.max_hands, HANDS_AFTER_ONE_SPLIT))
        self.rules = rules
        self.start = start
        shape = _shape(_cap(pool), start, split_value, rules)
        self.shape = shape
        self.hands = shape.hands
        self.index = shape.index
        self.total = shape.total
        self.child = shape.child
        self.allowed = shape.allowed
        self.levels = shape.levels
        size = len(shape.hands)
        peek = blackjack_hole(up)
        remaining = np.array(pool, dtype=np.int64)[None, :] - shape.counts
        left = remaining.sum(axis=1)
        safe_left = np.maximum(left, 1).astype(np.float64)
        if peek is None:
            self.no_blackjack = np.where(left > 0, 1.0, 0.0)
        else:
            self.no_blackjack = np.where(left > 0, 1.0 - remaining[:, peek - 1] / safe_left, 0.0)
        # The dealer's final totals for every hand (zeros where no card is left: a void round),
        # from the table prepared for the seat's whole pool where the hand is in it.
        seat_pool = pool if split_value is None else with_card(pool, split_value)
        rows = shape.removal_rows
        self.dealer = dealer.prepare(seat_pool, up)[np.maximum(rows, 0)]
        missing = np.flatnonzero(rows < 0)
        if len(missing):
            self.dealer[missing] = dealer.matrix(up, [tuple(remaining[i].tolist()) for i in missing])
        drawing = (left > 0) & (shape.total < BLACKJACK_TOTAL)
        self.prob = np.where(drawing[:, None], remaining / safe_left[:, None], 0.0)
        if peek is None:
            after = np.ones((size, 10))
        else:
            holes = remaining[:, peek - 1][:, None] - (np.arange(1, 11) == peek)[None, :]
            after = 1.0 - holes / np.maximum(left - 1, 1)[:, None]
        self.bust_no_blackjack = np.where((shape.child < 0) & (left > 1)[:, None], after, 0.0)
        # Basic strategy's play for each kind of hand, then for every hand of that kind; a split
        # is decided at the first two cards (`basic_splits`), the hand itself stands meanwhile.
        plays = [
            Play.HIT if sum(hand) < 2 else basic_play(hand, up=up, rules=rules, split_value=split_value)
            for hand in shape.kinds
        ]
        codes = np.array([_PLAY_INDEX.get(play, _STAND) for play in plays], dtype=np.int64)
        splits = np.array([play is Play.SPLIT for play in plays], dtype=bool)
        self.basic = np.where(shape.allowed[:, _HIT], codes[shape.kind_of], _STAND)
        self.basic_splits = shape.allowed[:, _HIT] & splits[shape.kind_of]

    def start_value(self, values: Array) -> Array:
        """The values of the family's first hand (a split hand holding only its pair card)."""
        i = self.index.get(self.start)
        return values[i] if i is not None else np.zeros(values.shape[1])


class Hands:
    """Several families as one set of arrays (indexes shifted), solved together level by level."""

    def __init__(self, families: Sequence[Family]) -> None:
        self.offsets: dict[int, int] = {}
        offset = 0
        levels: dict[int, list[npt.NDArray[np.int64]]] = defaultdict(list)
        children = []
        for family in families:
            self.offsets[id(family)] = offset
            children.append(np.where(family.child >= 0, family.child + offset, -1))
            for level in family.levels:
                if len(level):
                    levels[sum(family.hands[int(level[0])])].append(level + offset)
            offset += len(family.hands)
        self.size = offset
        self.total = np.concatenate([f.total for f in families])
        self.dealer = np.concatenate([f.dealer for f in families])
        self.no_blackjack = np.concatenate([f.no_blackjack for f in families])
        self.bust_no_blackjack = np.concatenate([f.bust_no_blackjack for f in families])
        self.prob = np.concatenate([f.prob for f in families])
        self.child = np.concatenate(children)
        self.allowed = np.concatenate([f.allowed for f in families])
        self.basic = np.concatenate([f.basic for f in families])
        self.bonus = np.concatenate([np.full(len(f.hands), f.bonus) for f in families])
        self.levels = [np.concatenate(levels[cards]) for cards in sorted(levels, reverse=True)]
        self.primary = _stand_primary(self.dealer, self.total)
        tie_at = np.clip(self.total - 17, 0, 4)
        self.tie_at = tie_at
        self.tie_chance = np.where(
            self.bonus & (self.total >= 17), self.dealer[np.arange(self.size), tie_at], 0.0
        )
        self.no_blackjack_bonus = np.where(self.bonus, self.dealer.sum(axis=1), 0.0)

    def at(self, family: Family, values: npt.NDArray[_Item]) -> npt.NDArray[_Item]:
        """The rows of `values` that belong to `family`."""
        offset = self.offsets[id(family)]
        return values[offset : offset + len(family.hands)]

    def stand(self, payoffs: Array, weights: Array) -> Array:
        """Standing values (hands x columns); `weights` is each column's primary weight (0 or 1)."""
        no_tie = payoffs[:, NO_TIE]
        values = self.primary[:, None] * weights[None, :]
        values += self.no_blackjack_bonus[:, None] * no_tie[None, :]
        values += self.tie_chance[:, None] * (payoffs[:, self.tie_at].T - no_tie[None, :])
        return values

    def _prepare_levels(self) -> None:
        """Per level: the children's chances (0 for a card that busts), the chance-weighted
        no-Blackjack chance of busting, and which hands may double or surrender."""
        drawn = self.child >= 0
        self.safe_child = np.where(drawn, self.child, 0)
        self.prob_drawn = np.where(drawn, self.prob, 0.0)
        self.bust_mass = np.where(drawn, 0.0, self.prob * self.bust_no_blackjack).sum(axis=1)
        self.level_plan = []
        for level in self.levels:
            allowed = self.allowed[level]
            doubles = np.flatnonzero(allowed[:, _DOUBLE])
            surrenders = np.flatnonzero(allowed[:, _SURRENDER])
            must_hit = ~allowed[:, _STAND]
            self.level_plan.append((level, allowed[:, _HIT], must_hit, doubles, surrenders))

    def solve(
        self, payoffs: Array, weights: Array, leaders: npt.NDArray[np.int64], *, best: bool
    ) -> tuple[Array, npt.NDArray[np.int64]]:
        """Values of every hand (hands x columns) under the best play or basic strategy, and the
        play chosen per hand and column. Column j follows the plays of column `leaders[j]`
        (a column that leads itself chooses; basic strategy chooses for every column)."""
        if not hasattr(self, "level_plan"):
            self._prepare_levels()
        columns = payoffs.shape[0]
        values = np.zeros((self.size, columns))
        chosen = np.zeros((self.size, columns), dtype=np.int64)
        stand = self.stand(payoffs, weights)
        bonus_lost = self.bonus[:, None] * payoffs[:, NO_TIE][None, :]
        lose = bonus_lost - weights[None, :]  # bust with one unit of primary staked
        for level, may_hit, must_hit, doubles, surrenders in self.level_plan:
            hit = np.einsum("lv,lvk->lk", self.prob_drawn[level], values[self.safe_child[level]])
            hit += self.bust_mass[level][:, None] * lose[level]
            current = stand[level].copy()
            play = np.full(current.shape, _STAND, dtype=np.int64)
            if best:
                better = (may_hit[:, None] & (hit > current)[:, leaders]) | must_hit[:, None]
            else:
                better = np.repeat((self.basic[level] == _HIT)[:, None], columns, axis=1)
            current = np.where(better, hit, current)
            play = np.where(better, _HIT, play)
            if len(doubles):
                rows = level[doubles]
                child = self.safe_child[rows]
                after = stand[child] + self.primary[child][..., None] * weights  # a second unit staked
                double = np.einsum("lv,lvk->lk", self.prob_drawn[rows], after)
                double += self.bust_mass[rows][:, None] * (bonus_lost[rows] - 2.0 * weights[None, :])
                self._offer(
                    current, play, doubles, double, _DOUBLE, leaders, best=best, basic=self.basic[rows]
                )
            if len(surrenders):
                rows = level[surrenders]
                give_up = self.no_blackjack[rows][:, None] * (bonus_lost[rows] - 0.5 * weights[None, :])
                self._offer(
                    current, play, surrenders, give_up, _SURRENDER, leaders, best=best, basic=self.basic[rows]
                )
            values[level] = current
            chosen[level] = play
        return values, chosen

    @staticmethod
    def _offer(
        current: Array,
        play: npt.NDArray[np.int64],
        rows: npt.NDArray[np.int64],
        value: Array,
        code: int,
        leaders: npt.NDArray[np.int64],
        *,
        best: bool,
        basic: npt.NDArray[np.int64],
    ) -> None:
        """Take `value` (play `code`) for `rows` where it is better (best play) or chosen (basic)."""
        if best:
            better = (value > current[rows])[:, leaders]
        else:
            better = np.repeat((basic == code)[:, None], current.shape[1], axis=1)
        current[rows] = np.where(better, value, current[rows])
        play[rows] = np.where(better, code, play[rows])


# --- exact re-splits ---------------------------------------------------------------------------


@cache
def resplit_terms(hand_limit: int) -> tuple[tuple[bool, int, int], ...]:
    """The split's value as sum of coefficient * R(r) * V(kind, r): (second card free?, r, coefficient).

    V(free, r) is one split hand's value drawn from the shoe less r extra pair cards, its second
    card any card (free) or kept off the pair (joint with that); R(r) is the chance of drawing
    the r pair cards. Built by dealing the hands' second cards in play order: while fewer than
    `hand_limit` hands are out, a pair card is re-split (one more hand) and every other card is
    kept off the pair; from the limit on, second cards are free.
    """
    terms: dict[tuple[bool, int], int] = defaultdict(int)

    def deal(hands: int, waiting: int, free: tuple[bool, ...], resplits: int) -> None:
        if waiting == 0:
            for i, own in enumerate(free):
                kept = sum(1 for k, other in enumerate(free) if k != i and not other)
                for s in range(kept + 1):
                    terms[(own, resplits + s)] += (-1) ** s * math.comb(kept, s)
            return
        if hands < hand_limit:
            deal(hands + 1, waiting + 1, free, resplits + 1)
            deal(hands, waiting - 1, (*free, False), resplits)
        else:
            deal(hands, waiting - 1, (*free, True), resplits)

    deal(HANDS_AFTER_ONE_SPLIT, HANDS_AFTER_ONE_SPLIT, (), 0)
    return tuple((own, r, c) for (own, r), c in sorted(terms.items()) if c)


def _no_blackjack_of(remaining: Counts, peek: int | None) -> float:
    n = sum(remaining)
    if n == 0:
        return 0.0
    return 1.0 if peek is None else 1.0 - remaining[peek - 1] / n


def _stand_primary(d: Array, total: npt.NDArray[np.int64]) -> Array:
    """Expected primary result of standing on `total` (rows) against the dealer's final totals
    `d` (rows; joint with no dealer Blackjack, so they add up to that chance)."""
    primary = np.where(total < 17, 2.0 * d[:, BUST] - d.sum(axis=1), d[:, BUST])
    for i in range(5):
        primary = primary + np.where(total >= 17, d[:, i] * np.sign(total - (17 + i)), 0.0)
    return primary


@dataclass(frozen=True, slots=True)
class _SplitHands:
    """A split hand played out by fixed plays (per policy) from several shoes (per extra pair
    cards r): the stake-weighted chance of standing on each hand, and the expected cost of busts.
    Index order: policy, start (0: the pair card alone, 1: the pair, unsplittable), r, hand."""

    family: Family
    pools: npt.NDArray[np.int64]  # r x 10: each shoe, the hand's own pair card included
    stand: Array
    bust: Array

    def standing(self, r: int) -> npt.NDArray[np.bool_]:
        return np.asarray((self.stand[:, :, r, :] > 0).any(axis=(0, 1)))

    def held(self, seat_pool: Counts) -> npt.NDArray[np.int64]:
        """The seat's cards for every standing hand and r (rows, r by r): what left `seat_pool`."""
        seat = np.array(seat_pool, dtype=np.int64)
        counts = self.family.shape.counts
        return np.concatenate(
            [seat[None, :] - pool[None, :] + counts[self.standing(r)] for r, pool in enumerate(self.pools)]
        )

    def values(self, dealer_rows: Array) -> Array:
        """Expected primary result per policy, start and r (joint with no dealer Blackjack), given
        the dealer's rows for `held`."""
        values = self.bust.copy()
        start = 0
        for r in range(len(self.pools)):
            standing = self.standing(r)
            rows = dealer_rows[start : start + int(standing.sum())]
            start += int(standing.sum())
            primary = _stand_primary(rows, self.family.shape.total[standing])
            values[:, :, r] += (self.stand[:, :, r, :][:, :, standing] * primary).sum(axis=-1)
        return values


def _play_split_hands(
    family: Family, pools: npt.NDArray[np.int64], plays: npt.NDArray[np.int64], starts: Sequence[int]
) -> _SplitHands:
    """Follow the chance of each hand forward, fewest cards first, under each policy's plays."""
    shape = family.shape
    size = len(shape.hands)
    remaining = np.maximum(pools[:, None, :] - shape.counts[None, :, :], 0)
    left = remaining.sum(axis=2)
    drawing = (left > 0) & (shape.total < BLACKJACK_TOTAL)[None, :]
    prob = np.where(drawing[..., None], remaining / np.maximum(left, 1)[..., None], 0.0)
    peek = blackjack_hole(family.up)
    if peek is None:
        after = np.ones(remaining.shape)
    else:
        holes = remaining[:, :, peek - 1][..., None] - (np.arange(1, 11) == peek)
        after = 1.0 - holes / np.maximum(left - 1, 1)[..., None]
    bust_cost = np.where((shape.child[None] < 0) & (left > 1)[..., None], after, 0.0)
    policies, rs = plays.shape[0], pools.shape[0]
    reach = np.zeros((policies, len(starts), rs, size))
    for g, start in enumerate(starts):
        if start >= 0:
            reach[:, g, :, start] = 1.0
    stand = np.zeros_like(reach)
    bust = np.zeros(reach.shape[:3])
    for level in reversed(shape.levels):
        here = reach[..., level]
        play = plays[:, level][:, None, None, :]
        stand[..., level] += here * (play == _STAND)
        flow = here[..., None] * prob[None, None, :, level, :]
        hits = flow * (play == _HIT)[..., None]
        doubles = flow * (play == _DOUBLE)[..., None]
        bust -= ((hits + 2.0 * doubles) * bust_cost[None, None, :, level, :]).sum(axis=(-1, -2))
        child = shape.child[level]
        drawn = child >= 0
        if drawn.any():
            # Hands are the last axis: add along it on (hands x rest) views of the arrays.
            targets = child[drawn]
            np.add.at(reach.reshape(-1, size).T, targets, hits[..., drawn].reshape(-1, len(targets)).T)
            np.add.at(
                stand.reshape(-1, size).T, targets, 2.0 * doubles[..., drawn].reshape(-1, len(targets)).T
            )
    return _SplitHands(family, pools, stand, bust)


# --- the round -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Solved:
    """Every family solved under one policy: values per hand and column."""

    unsplit: Array
    splits: dict[int, Array]  # both split hands' first values added up, by pair value
    hand1_plays: dict[int, npt.NDArray[np.int64]]  # plays chosen for hand 1 (primary alone), by pair value


@dataclass
class RoundProgramme:
    """Every family of hands against one up card, built once, solved for any payoffs."""

    shoe: Counts
    up: int
    rules: HouseRules
    dealer: DealerOdds
    pool: Counts = field(init=False)
    unsplit: Family = field(init=False)
    split_bonus: dict[int, Family] = field(init=False)
    split_plain: dict[int, Family] = field(init=False)
    hands: Hands = field(init=False)
    plain: Hands | None = field(init=False)

    def __post_init__(self) -> None:
        self.pool = without(self.shoe, with_card(NO_CARDS, self.up))
        self.dealer.prepare(self.pool, self.up)
        self.unsplit = Family(
            pool=self.pool,
            start=NO_CARDS,
            up=self.up,
            rules=self.rules,
            split_value=None,
            bonus=True,
            dealer=self.dealer,
        )
        self.split_bonus, self.split_plain = {}, {}
        for pair_value in self._pairs():
            pool = without(self.pool, with_card(NO_CARDS, pair_value))
            start = with_card(NO_CARDS, pair_value)
            for bonus, into in ((True, self.split_bonus), (False, self.split_plain)):
                into[pair_value] = Family(
                    pool=pool,
                    start=start,
                    up=self.up,
                    rules=self.rules,
                    split_value=pair_value,
                    bonus=bonus,
                    dealer=self.dealer,
                )
        self.hands = Hands([self.unsplit, *self.split_bonus.values()])
        # Hand 1 of a split carries only the primary: its values do not depend on the scenario.
        self.plain = Hands(list(self.split_plain.values())) if self.split_plain else None
        self._plain_solved: dict[bool, tuple[Array, npt.NDArray[np.int64]]] = {}

    def _pairs(self) -> list[int]:
        if self.rules.max_hands < HANDS_AFTER_ONE_SPLIT:
            return []
        return [v for v in range(1, 11) if self.pool[v - 1] >= 2]

    def _same_rank_tens(self) -> float:
        """P(two ten-value cards are the same rank), tens spread evenly over T, J, Q, K."""
        tens = self.pool[TEN - 1]
        if tens < 2:
            return 0.0
        ranks = [tens // TEN_RANKS + (1 if r < tens % TEN_RANKS else 0) for r in range(TEN_RANKS)]
        return sum(n * (n - 1) for n in ranks) / (tens * (tens - 1))

    def round_values(self, payoffs: Payoffs, follow: Payoffs | None = None) -> UpCardSteering:
        """Expected net per scenario under the best play and basic strategy, jointly with the up
        card. `follow[i]`, when given, is a second payoff table (bonus results only, no primary)
        evaluated under the plays chosen for scenario i: e.g. a bet's win indicator."""
        return self.analyse(payoffs, follow)[0]

    def best_values(self, payoffs: Payoffs, follow: Payoffs) -> tuple[Array, Array]:
        """Under the best play only: expected net per scenario, and each follower's expectation
        under the plays chosen for its scenario (see `round_values`)."""
        columns = len(payoffs)
        table = np.array((*payoffs, *follow), dtype=np.float64)
        weights = np.array([1.0] * columns + [0.0] * len(follow))
        leaders = np.array([*range(columns), *range(len(follow))], dtype=np.int64)
        values = self._round(
            self._solve(table, weights, leaders, best=True), table, weights, leaders, best=True
        )
        return values[:columns], values[columns:]

    def primary_values(self) -> PrimaryValues:
        """The primary alone (module docstring): basic strategy and composition-dependent play with
        exact re-splits, beside the one-split steering model's figures."""
        values = self.analyse(((0.0,) * (NO_TIE + 1),), primary_column=0)[1]
        if values is None:
            raise AssertionError("the primary's figures were asked for")
        return values

    def analyse(
        self, payoffs: Payoffs, follow: Payoffs | None = None, *, primary_column: int | None = None
    ) -> tuple[UpCardSteering, PrimaryValues | None]:
        """`round_values`, and with `primary_column` (the index of a scenario without bonus
        wagers) the primary's figures too, every family of hands solved once per policy."""
        columns = len(payoffs)
        table = np.array(payoffs if follow is None else (*payoffs, *follow), dtype=np.float64)
        weights = np.array([1.0] * columns + [0.0] * (table.shape[0] - columns))
        leaders = np.array([*range(columns), *range(columns if follow else 0)], dtype=np.int64)
        best = self._solve(table, weights, leaders, best=True)
        basic = self._solve(table, weights, leaders, best=False)
        best_values = self._round(best, table, weights, leaders, best=True)
        basic_values = self._round(basic, table, weights, leaders, best=False)
        steering = UpCardSteering(
            self.up,
            tuple(best_values[:columns].tolist()),
            tuple(basic_values[:columns].tolist()),
            tuple(best_values[columns:].tolist()),
            tuple(basic_values[columns:].tolist()),
        )
        if primary_column is None:
            return steering, None
        if any(table[primary_column]):
            raise ValueError("the primary's figures need a scenario without bonus wagers")
        primary = self._primary(best, basic, primary_column)
        return steering, dataclasses.replace(
            primary,
            basic_one_split=float(basic_values[primary_column]),
            best_one_split=float(best_values[primary_column]),
        )

    def _plain(self, *, best: bool) -> tuple[Array, npt.NDArray[np.int64]]:
        """The split hands that carry only the primary, solved once per policy (one column)."""
        found = self._plain_solved.get(best)
        if found is None:
            if self.plain is None:
                raise AssertionError("no pair can be split: there are no split hands")
            alone = np.zeros((1, NO_TIE + 1))
            found = self.plain.solve(alone, np.ones(1), np.zeros(1, dtype=np.int64), best=best)
            self._plain_solved[best] = found
        return found

    def _solve(self, table: Array, weights: Array, leaders: npt.NDArray[np.int64], *, best: bool) -> _Solved:
        hands = self.hands
        values, _ = hands.solve(table, weights, leaders, best=best)
        unsplit = hands.at(self.unsplit, values)
        splits: dict[int, Array] = {}
        hand1_plays: dict[int, npt.NDArray[np.int64]] = {}
        if not self.split_bonus or self.plain is None:
            return _Solved(unsplit, splits, hand1_plays)
        plain_values, plain_chosen = self._plain(best=best)
        for pair_value in self.split_bonus:
            hand0 = self.split_bonus[pair_value]
            hand1 = self.split_plain[pair_value]
            primary_alone = hand1.start_value(self.plain.at(hand1, plain_values))[0]
            splits[pair_value] = hand0.start_value(hands.at(hand0, values)) + primary_alone * weights
            hand1_plays[pair_value] = self.plain.at(hand1, plain_chosen)[:, 0]
        return _Solved(unsplit, splits, hand1_plays)

    def _round(
        self, solved: _Solved, table: Array, weights: Array, leaders: npt.NDArray[np.int64], *, best: bool
    ) -> Array:
        blackjack_pays = self.rules.blackjack_pays.num / self.rules.blackjack_pays.den
        total = np.zeros(table.shape[0])
        no_tie = table[:, NO_TIE]
        for deal in first_deals(self.shoe, self.up):
            remaining = without(self.pool, deal.hand)
            dealer_blackjack = blackjack_probability(remaining, self.up)
            no_blackjack = _no_blackjack_of(remaining, blackjack_hole(self.up))
            if is_blackjack(deal.hand):
                value = dealer_blackjack * table[:, TIE_BLACKJACK] + no_blackjack * (
                    blackjack_pays * weights + no_tie
                )
            else:
                value = dealer_blackjack * (-weights + no_tie) + self._first_two(
                    deal.hand, solved.unsplit, solved.splits, leaders, best=best
                )
            total = total + deal.probability * value
        return total

    def _first_two(
        self,
        hand: Counts,
        unsplit: Array,
        splits: dict[int, Array],
        leaders: npt.NDArray[np.int64],
        *,
        best: bool,
    ) -> Array:
        i = self.unsplit.index[hand]
        value: Array = unsplit[i]
        pair_value = hand.index(2) + 1 if 2 in hand else None
        if pair_value is None or pair_value not in splits:
            return value
        split = splits[pair_value]
        if not best:
            return split if self.unsplit.basic_splits[i] else value
        allowed = options(hand, rules=self.rules, split_value=None)
        if allowed.split:
            better = split[leaders] > value[leaders]
            return np.asarray(np.where(better, split, value), dtype=np.float64)
        if pair_value == TEN and not self.rules.split_by_value:
            # Two ten-value cards may be split only when they are the same rank.
            same = self._same_rank_tens()
            better = split[leaders] > value[leaders]
            return np.asarray(value + same * np.where(better, split - value, 0.0), dtype=np.float64)
        return value

    # -- the primary wager alone, exact re-splits

    def _primary(self, best_solved: _Solved, basic_solved: _Solved, column: int) -> PrimaryValues:
        """The primary alone with exact re-splits (the one-split figures are filled in by the caller)."""
        best_unsplit, basic_unsplit = (
            best_solved.unsplit[:, column : column + 1],
            basic_solved.unsplit[:, column : column + 1],
        )
        played: dict[int, tuple[list[tuple[bool, int, int]], _SplitHands]] = {}
        for pair_value, family in self.split_plain.items():
            chosen = best_solved.hand1_plays[pair_value]
            shoe_left = self._resplit_shoe(pair_value)
            terms = [
                t for t in resplit_terms(self._hand_limit(pair_value)) if t[1] <= shoe_left[pair_value - 1]
            ]
            pair_card = with_card(NO_CARDS, pair_value)
            pools = np.array(
                [
                    with_card(
                        without(shoe_left, tuple(r if v == pair_value else 0 for v in range(1, 11))),
                        pair_value,
                    )
                    for r in range(max(t[1] for t in terms) + 1)
                ],
                dtype=np.int64,
            )
            starts = [
                family.index.get(pair_card, -1),
                family.index.get(with_card(pair_card, pair_value), -1),
            ]
            plays = np.stack((family.basic, chosen))
            played[pair_value] = (terms, _play_split_hands(family, pools, plays, starts))
        held = [hands.held(self.pool) for _, hands in played.values()]
        dealer_rows = self.dealer.rows_for(
            self.pool, self.up, np.concatenate(held) if held else np.zeros((0, 10), dtype=np.int64)
        )
        offsets = np.cumsum([0, *(len(h) for h in held)])
        resplit_basic: dict[int, float] = {}
        resplit_best: dict[int, float] = {}
        for k, (pair_value, (terms, hands)) in enumerate(played.items()):
            values = hands.values(dealer_rows[offsets[k] : offsets[k + 1]])
            shoe_left = self._resplit_shoe(pair_value)
            n, q = sum(shoe_left), shoe_left[pair_value - 1]
            split = np.zeros(2)
            for free, r, coefficient in terms:
                hand_value = values[:, 0, r].copy()
                if not free and n > r:
                    hand_value -= (q - r) / (n - r) * values[:, 1, r]
                split += coefficient * math.perm(q, r) / math.perm(n, r) * hand_value
            resplit_basic[pair_value], resplit_best[pair_value] = float(split[0]), float(split[1])
        blackjack_pays = self.rules.blackjack_pays.num / self.rules.blackjack_pays.den
        basic_total = best_total = 0.0
        for deal in first_deals(self.shoe, self.up):
            remaining = without(self.pool, deal.hand)
            dealer_blackjack = blackjack_probability(remaining, self.up)
            if is_blackjack(deal.hand):
                paid = _no_blackjack_of(remaining, blackjack_hole(self.up)) * blackjack_pays
                basic_total += deal.probability * paid
                best_total += deal.probability * paid
                continue
            i = self.unsplit.index[deal.hand]
            basic = float(basic_unsplit[i, 0])
            best = float(best_unsplit[i, 0])
            pair = deal.hand.index(2) + 1 if 2 in deal.hand else None
            if pair is not None and pair in resplit_best:
                if self.unsplit.basic_splits[i]:
                    basic = resplit_basic[pair]
                allowed = options(deal.hand, rules=self.rules, split_value=None)
                if allowed.split:
                    best = max(best, resplit_best[pair])
                elif pair == TEN and not self.rules.split_by_value:
                    best += self._same_rank_tens() * max(resplit_best[pair] - best, 0.0)
            basic_total += deal.probability * (basic - dealer_blackjack)
            best_total += deal.probability * (best - dealer_blackjack)
        return PrimaryValues(
            up=self.up,
            basic_resplit=basic_total,
            best_resplit=best_total,
            basic_one_split=0.0,
            best_one_split=0.0,
        )

    def _resplit_shoe(self, pair_value: int) -> Counts:
        """The shoe after the up card and the first pair."""
        return without(self.pool, with_card(with_card(NO_CARDS, pair_value), pair_value))

    def _hand_limit(self, pair_value: int) -> int:
        if pair_value == ACE and not self.rules.resplit_aces:
            return HANDS_AFTER_ONE_SPLIT
        return self.rules.max_hands


def primary_totals(results: Sequence[PrimaryValues]) -> PrimaryValues:
    """Add up the per-up-card primary figures (the up cards are disjoint events)."""
    return PrimaryValues(
        up=0,
        basic_resplit=math.fsum(r.basic_resplit for r in results),
        best_resplit=math.fsum(r.best_resplit for r in results),
        basic_one_split=math.fsum(r.basic_one_split for r in results),
        best_one_split=math.fsum(r.best_one_split for r in results),
    )
