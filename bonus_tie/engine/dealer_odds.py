"""The dealer's final total, exactly, from any remaining shoe composition (RULES.md §1.2).

The dealer's hole card and draws come out of the cards left after the up card and the player's
cards. For a fixed up card, every way the dealer can finish is a *pattern*: the multiset of
cards drawn (hole card included) with the final total it makes and the number of orders in
which those cards reach it (an order is valid when the dealer would not have stopped earlier).
Drawing without replacement, one order of a pattern that draws `m_v` cards of value `v`,
`k` cards in all, has probability

    prod_v ff(n_v, m_v) / ff(N, k)        (ff = falling factorial, n_v = cards of value v left)

whatever the order, so a final-total distribution is one sum over the patterns. The patterns
depend only on the up card and the S17/H17 rule and are built once.

Peek: with an Ace or ten-value up card the dealer looks for Blackjack before the players act,
so those hands never reach the players. The distribution returned here is therefore *joint*
with "the dealer has no Blackjack": patterns whose hole card completes a Blackjack are left
out, and the six figures (17, 18, 19, 20, 21, bust) add up to P(no dealer Blackjack).

Speed: the odds modules need the dealer's distribution for thousands of compositions per up
card (one per player hand they value). `DealerOdds.prepare` computes them all at once with
NumPy, one composition per column: the patterns are walked as a trie over the values they
draw (largest value first), so each product of falling factorials shared by several patterns
is formed once for every composition together. A composition not prepared is computed alone
in pure Python. Both are the same exact sum in floating point (they agree to about 1e-15).
`exact_final_totals` is the same sum in fractions, for tests and audits.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import chain, repeat
from operator import call, itemgetter
from typing import cast

import numpy as np
import numpy.typing as npt

from blackjack.engine.rules import DEALER_STANDS_ON, dealer_must_draw
from bonus_tie.engine.rank_counts import (
    ACE,
    BLACKJACK_TOTAL,
    TEN,
    VALUES,
    CompositionError,
    Counts,
    counts_of,
    is_blackjack,
    soft_total,
    without,
)

# Indexes of the six outcomes of a final-total distribution.
FINAL_TOTALS: tuple[int, ...] = (17, 18, 19, 20, 21)
BUST = 5
OUTCOMES = 6
_MAX_SAME_VALUE = 16  # more than any pattern draws of one value (the most is 10 Aces)
_MAX_DEALER_CARDS = 16  # more than any pattern draws (the most is 11 cards)

Terms = Callable[[Sequence[float]], tuple[float, ...]]


def outcome_index(total: int) -> int:
    """Index of a final dealer total (17..21, or more for a bust) in a distribution."""
    return BUST if total > BLACKJACK_TOTAL else total - DEALER_STANDS_ON


def completes_blackjack(up: int, hole: int) -> bool:
    """Whether the hole card of value `hole` makes the dealer's two cards a Blackjack."""
    return is_blackjack(counts_of((up, hole)))


@cache
def blackjack_hole(up: int) -> int | None:
    """The hole-card value that completes a Blackjack with the up card `up` (an Ace and a ten),
    None for an up card that cannot make one (the dealer peeks exactly when there is one)."""
    return next((hole for hole in VALUES if completes_blackjack(up, hole)), None)


@dataclass(frozen=True, slots=True)
class _Group:
    """Patterns that end on the same outcome with the same number of cards drawn."""

    outcome: int
    cards: int
    terms: tuple[Terms, ...]


@dataclass(frozen=True, slots=True)
class _Patterns:
    groups: tuple[_Group, ...]
    coefficients: tuple[float, ...]


def _enumerate(up: int, hits_soft_17: bool) -> dict[tuple[Counts, int], int]:
    """Every finishing pattern (drawn counts, outcome) with its number of valid orders."""
    found: dict[tuple[Counts, int], int] = {}
    drawn = [0] * 10

    def draw(hard: int, has_ace: bool, first: bool) -> None:
        total, soft = soft_total(hard, has_ace=has_ace)
        must_draw = dealer_must_draw(total, soft=soft, hits_soft_17=hits_soft_17)
        if not first and not must_draw:
            key = (tuple(drawn), outcome_index(total))
            found[key] = found.get(key, 0) + 1
            return
        for value in VALUES:
            if first and completes_blackjack(up, value):
                continue
            drawn[value - 1] += 1
            draw(hard + value, has_ace or value == ACE, first=False)
            drawn[value - 1] -= 1

    draw(up, up == ACE, first=True)
    return found


@cache
def _patterns(up: int, hits_soft_17: bool) -> _Patterns:
    """The patterns as products over a flat table (built per evaluation): for each value,
    ff(n_v, 0 .. _MAX_SAME_VALUE - 1), then one constant per pattern (its number of orders).
    A pattern's term picks its constant and one falling factorial per value it draws."""
    by_group: dict[tuple[int, int], list[Terms]] = {}
    coefficients: list[float] = []
    constant_base = 10 * _MAX_SAME_VALUE
    for (drawn, outcome), orders in sorted(_enumerate(up, hits_soft_17).items()):
        if max(drawn) >= _MAX_SAME_VALUE or sum(drawn) > _MAX_DEALER_CARDS:
            raise AssertionError("a dealer pattern is longer than the falling-factorial tables")
        slots = [constant_base + len(coefficients)]
        coefficients.append(float(orders))
        slots.extend(i * _MAX_SAME_VALUE + m for i, m in enumerate(drawn) if m)
        by_group.setdefault((outcome, sum(drawn)), []).append(cast(Terms, itemgetter(*slots)))
    groups = tuple(
        _Group(outcome, cards, tuple(terms)) for (outcome, cards), terms in sorted(by_group.items())
    )
    return _Patterns(groups, tuple(coefficients))


@lru_cache(maxsize=4096)
def _falling_row(count: int) -> tuple[float, ...]:
    """ff(count, m) for m = 0 .. _MAX_SAME_VALUE - 1."""
    return tuple(float(math.perm(count, m)) for m in range(_MAX_SAME_VALUE))


@lru_cache(maxsize=4096)
def _falling_total(left: int) -> tuple[float, ...]:
    """ff(left, k) for every number of cards k a pattern can draw (0 when k > left)."""
    return tuple(float(math.perm(left, k)) for k in range(_MAX_DEALER_CARDS + 1))


def blackjack_probability(remaining: Counts, up: int) -> float:
    """P(the hole card completes a dealer Blackjack), the hole card coming from `remaining`."""
    left = sum(remaining)
    hole = blackjack_hole(up)
    if left == 0 or hole is None:
        return 0.0
    return remaining[hole - 1] / left


# One step of the trie walk: (depth, value index, cards of that value drawn, patterns ending
# here as (outcome, cards drawn, summed orders)).
_Step = tuple[int, int, int, tuple[tuple[int, int, int], ...]]


@cache
def _trie_program(up: int, hits_soft_17: bool) -> tuple[_Step, ...]:
    """The patterns as a pre-order walk of a trie over their non-zero (value, count) pairs."""
    trie: dict[tuple[int, int], dict] = {}  # type: ignore[type-arg]
    ends: dict[int, dict[tuple[int, int], int]] = {}
    for (drawn, outcome), orders in _enumerate(up, hits_soft_17).items():
        node = trie
        for step in ((i, m) for i in range(9, -1, -1) if (m := drawn[i])):
            node = node.setdefault(step, {})
        ending = ends.setdefault(id(node), {})
        ending[(outcome, sum(drawn))] = ending.get((outcome, sum(drawn)), 0) + orders
    program: list[_Step] = []

    def walk(node: dict, depth: int) -> None:  # type: ignore[type-arg]
        for (index, count), child in node.items():
            terminals = tuple((o, k, n) for (o, k), n in sorted(ends.get(id(child), {}).items()))
            program.append((depth, index, count, terminals))
            walk(child, depth + 1)

    walk(trie, 0)
    return tuple(program)


_BATCH_COLUMNS = 4096  # compositions per chunk: the working arrays stay in the CPU's cache


@cache
def _most_drawn(up: int, hits_soft_17: bool) -> tuple[int, ...]:
    """The most cards of each value (index) any pattern draws."""
    most = [0] * 10
    for _, index, count, _ in _trie_program(up, hits_soft_17):
        most[index] = max(most[index], count)
    return tuple(most)


def _batch_final_totals(
    compositions: npt.NDArray[np.int64], up: int, hits_soft_17: bool
) -> npt.NDArray[np.float64]:
    """`final_totals` for many compositions at once (rows of `compositions`), one row each."""
    if compositions.shape[0] > _BATCH_COLUMNS:
        return np.concatenate(
            [
                _batch_final_totals(compositions[start : start + _BATCH_COLUMNS], up, hits_soft_17)
                for start in range(0, compositions.shape[0], _BATCH_COLUMNS)
            ]
        )
    columns = compositions.shape[0]
    counts = compositions.T.astype(np.float64)  # 10 x columns
    most = _most_drawn(up, hits_soft_17)
    falling = np.empty((10, _MAX_SAME_VALUE, columns))
    falling[:, 0] = 1.0
    for index in range(10):
        for m in range(1, most[index] + 1):
            falling[index, m] = falling[index, m - 1] * np.maximum(counts[index] - (m - 1), 0.0)
    sums = np.zeros((OUTCOMES, _MAX_DEALER_CARDS + 1, columns))
    stack = [np.ones(columns)] * (_MAX_DEALER_CARDS + 2)
    for depth, index, count, terminals in _trie_program(up, hits_soft_17):
        product = stack[depth] * falling[index, count]
        stack[depth + 1] = product
        for outcome, cards, orders in terminals:
            sums[outcome, cards] += orders * product
    left = counts.sum(axis=0)
    result = np.zeros((OUTCOMES, columns))
    orders_of_left = np.ones(columns)
    for cards in range(1, _MAX_DEALER_CARDS + 1):
        orders_of_left = orders_of_left * np.maximum(left - (cards - 1), 0.0)
        result += np.divide(
            sums[:, cards], orders_of_left, out=np.zeros_like(sums[:, cards]), where=orders_of_left > 0
        )
    return result.T


@cache
def _player_removals() -> npt.NDArray[np.int64]:
    """Cards a seat's hands can hold when the dealer plays: every multiset of hard total at most
    21 (unsplit hands), and for each pair value p, p plus such a multiset holding p (a split hand
    with the other hand's first card)."""
    found: list[Counts] = []

    def collect(value: int, budget: int, held: list[int]) -> None:
        if value > TEN:
            found.append(tuple(held))
            return
        for count in range(budget // value + 1):
            held.append(count)
            collect(value + 1, budget - count * value, held)
            held.pop()

    collect(1, BLACKJACK_TOTAL, [])
    removals = set(found)
    for held in found:
        for index, count in enumerate(held):
            if count:
                removals.add((*held[:index], count + 1, *held[index + 1 :]))
    return np.array(sorted(removals), dtype=np.int64)


_KEY_BASE = 64  # more than any count of one value a seat holds


def encode_held(held: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """One whole number per row of card counts (rows of ten counts, each below _KEY_BASE)."""
    if held.size and (held.max() >= _KEY_BASE or held.min() < 0):
        raise CompositionError("a seat cannot hold that many cards of one value")
    weights = _KEY_BASE ** np.arange(10, dtype=np.int64)
    return np.asarray(held @ weights, dtype=np.int64)


@cache
def _removal_keys() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The encoded `_player_removals`, sorted, and their rows in a prepared table."""
    keys = encode_held(_player_removals())
    order = np.argsort(keys)
    return keys[order], order


@cache
def removal_index() -> dict[Counts, int]:
    """The row of each of `_player_removals` in a prepared table."""
    return {tuple(row): i for i, row in enumerate(_player_removals().tolist())}


class DealerOdds:
    """Final-total distributions of the dealer, memoised on (up card, remaining composition).

    One instance per rule set (S17 or H17); it is a cache, not shared state: results depend
    only on the arguments.
    """

    def __init__(self, *, hits_soft_17: bool) -> None:
        self.hits_soft_17 = hits_soft_17
        self._memo: dict[tuple[int, Counts], tuple[float, ...]] = {}
        self._tables: dict[tuple[int, Counts], npt.NDArray[np.float64]] = {}

    def final_totals(self, remaining: Counts, up: int) -> tuple[float, ...]:
        """P(dealer ends on 17, 18, 19, 20, 21, bust), each jointly with no dealer Blackjack."""
        key = (up, remaining)
        found = self._memo.get(key)
        if found is None:
            found = self._evaluate(remaining, up)
            self._memo[key] = found
        return found

    def prefetch(self, up: int, compositions: Iterable[Counts]) -> None:
        """Compute the distributions of `compositions` that are not memoised yet, in one batch."""
        memo = self._memo
        wanted = list(dict.fromkeys(c for c in compositions if (up, c) not in memo))
        if not wanted:
            return
        rows = _batch_final_totals(np.array(wanted, dtype=np.int64), up, self.hits_soft_17).tolist()
        for composition, row in zip(wanted, rows, strict=True):
            self._memo[(up, composition)] = tuple(row)

    def matrix(self, up: int, compositions: Sequence[Counts]) -> npt.NDArray[np.float64]:
        """`final_totals` of each composition as the rows of an array (missing ones in a batch)."""
        self.prefetch(up, compositions)
        memo = self._memo
        if not compositions:
            return np.zeros((0, OUTCOMES))
        return np.array([memo[(up, c)] for c in compositions], dtype=np.float64)

    def prepare(self, pool: Counts, up: int) -> npt.NDArray[np.float64]:
        """The distributions for every hand a seat can hold, its cards drawn from `pool` (the shoe
        less the up card), in one batch: row i is for the seat holding `_player_removals()[i]`
        (zeros where `pool` cannot give those cards). Computed once per pool and up card."""
        key = (up, pool)
        table = self._tables.get(key)
        if table is not None:
            return table
        left = np.array(pool, dtype=np.int64) - _player_removals()
        feasible = (left >= 0).all(axis=1) & (left.sum(axis=1) > 0)
        table = np.zeros((left.shape[0], OUTCOMES))
        if feasible.any():
            table[feasible] = _batch_final_totals(left[feasible], up, self.hits_soft_17)
        self._tables[key] = table
        return table

    def rows_for(
        self, pool: Counts, up: int, held: npt.NDArray[np.int64], *, distinct: bool = False
    ) -> npt.NDArray[np.float64]:
        """`final_totals` of `pool` less each row of `held` (the seat's cards), as rows: from the
        prepared table where it has them, the rest computed together in one batch (`distinct`:
        the rows of `held` are known to differ, so they are not sorted to find repeats)."""
        table = self.prepare(pool, up)
        out = np.zeros((held.shape[0], OUTCOMES))
        if held.shape[0] == 0:
            return out
        keys = encode_held(held)
        known, order = _removal_keys()
        at = np.minimum(np.searchsorted(known, keys), len(known) - 1)
        found = known[at] == keys
        out[found] = table[order[at[found]]]
        missing = np.flatnonzero(~found)
        if len(missing) and distinct:
            left = np.array(pool, dtype=np.int64) - held[missing]
            feasible = (left >= 0).all(axis=1) & (left.sum(axis=1) > 0)
            computed = np.zeros((len(missing), OUTCOMES))
            if feasible.any():
                computed[feasible] = _batch_final_totals(left[feasible], up, self.hits_soft_17)
            out[missing] = computed
        elif len(missing):
            unique, first, inverse = np.unique(keys[missing], return_index=True, return_inverse=True)
            left = np.array(pool, dtype=np.int64) - held[missing[first]]
            feasible = (left >= 0).all(axis=1) & (left.sum(axis=1) > 0)
            computed = np.zeros((len(unique), OUTCOMES))
            if feasible.any():
                computed[feasible] = _batch_final_totals(left[feasible], up, self.hits_soft_17)
            out[missing] = computed[inverse.reshape(-1)]
        return out

    def after(self, pool: Counts, up: int, held: Counts) -> tuple[float, ...]:
        """`final_totals` of `pool` less `held` (the seat's cards), from the prepared table when
        `held` is one of `_player_removals`."""
        row = removal_index().get(held)
        if row is not None:
            table = self._tables.get((up, pool))
            if table is not None:
                return tuple(table[row].tolist())
        return self.final_totals(without(pool, held), up)

    def _evaluate(self, remaining: Counts, up: int) -> tuple[float, ...]:
        patterns = _patterns(up, self.hits_soft_17)
        table = list(chain.from_iterable(map(_falling_row, remaining)))
        table.extend(patterns.coefficients)
        left = sum(remaining)
        orders = _falling_total(left)
        sums = [0.0] * OUTCOMES
        for group in patterns.groups:
            if group.cards > left:
                continue
            weight = sum(map(math.prod, map(call, group.terms, repeat(table))))
            sums[group.outcome] += weight / orders[group.cards]
        return tuple(sums)


def exact_final_totals(remaining: Counts, up: int, *, hits_soft_17: bool) -> tuple[Fraction, ...]:
    """`DealerOdds.final_totals` in exact fractions, then P(dealer Blackjack) last: seven
    figures that add up to exactly 1 when the shoe cannot run out (a dealer hand that runs
    out of cards is left out, a void round)."""
    sums = [Fraction(0)] * (OUTCOMES + 1)
    left = sum(remaining)
    for (drawn, outcome), orders in _enumerate(up, hits_soft_17).items():
        cards = sum(drawn)
        if cards > left:
            continue
        ways = math.prod(math.perm(n, m) for n, m in zip(remaining, drawn, strict=True))
        sums[outcome] += Fraction(orders * ways, math.perm(left, cards))
    hole = blackjack_hole(up)
    if hole is not None and left:
        sums[OUTCOMES] = Fraction(remaining[hole - 1], left)
    return tuple(sums)
