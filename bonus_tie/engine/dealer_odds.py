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
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, repeat
from operator import call, itemgetter
from typing import cast

from bonus_tie.engine.rank_counts import (
    ACE,
    BLACKJACK_TOTAL,
    VALUES,
    Counts,
    counts_of,
    is_blackjack,
    soft_total,
)

DEALER_STANDS_ON = 17
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
        must_draw = total < DEALER_STANDS_ON or (total == DEALER_STANDS_ON and soft and hits_soft_17)
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


class DealerOdds:
    """Final-total distributions of the dealer, memoised on (up card, remaining composition).

    One instance per rule set (S17 or H17); it is a cache, not shared state: results depend
    only on the arguments.
    """

    def __init__(self, *, hits_soft_17: bool) -> None:
        self.hits_soft_17 = hits_soft_17
        self._memo: dict[tuple[int, Counts], tuple[float, ...]] = {}

    def final_totals(self, remaining: Counts, up: int) -> tuple[float, ...]:
        """P(dealer ends on 17, 18, 19, 20, 21, bust), each jointly with no dealer Blackjack."""
        key = (up, remaining)
        found = self._memo.get(key)
        if found is None:
            found = self._evaluate(remaining, up, outcome=None)
            self._memo[key] = found
        return found

    def final_total(self, remaining: Counts, up: int, outcome: int) -> float:
        """One figure of `final_totals`, computed on its own when it is not memoised yet."""
        found = self._memo.get((up, remaining))
        if found is not None:
            return found[outcome]
        return self._evaluate(remaining, up, outcome=outcome)[outcome]

    def evaluated(self) -> int:
        return len(self._memo)

    def _evaluate(self, remaining: Counts, up: int, *, outcome: int | None) -> tuple[float, ...]:
        patterns = _patterns(up, self.hits_soft_17)
        table = list(chain.from_iterable(map(_falling_row, remaining)))
        table.extend(patterns.coefficients)
        left = sum(remaining)
        orders = _falling_total(left)
        sums = [0.0] * OUTCOMES
        for group in patterns.groups:
            if group.cards > left or (outcome is not None and group.outcome != outcome):
                continue
            weight = sum(map(math.prod, map(call, group.terms, repeat(table))))
            sums[group.outcome] += weight / orders[group.cards]
        return tuple(sums)
