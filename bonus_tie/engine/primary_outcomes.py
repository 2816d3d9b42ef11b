"""The primary wager's outcome distribution under basic strategy, and its standard deviation.

The net result of a round for one unit of primary wager: a Blackjack pays the table's rate
(pushes against a dealer Blackjack), a dealer Blackjack takes the unit (peek, so nothing else is
played), surrender loses half, a double wins or loses two units, and a split pair plays two
hands, so the round's net is the sum of both hands' results against the same dealer hand.
Insurance is not taken.

Model: basic strategy, exact, with **one split and no re-split** (a second pair card stays in
its hand). Unsplit hands are followed card by card, each with the dealer's final totals for the
cards left (dealer_odds.py). For a split, the joint result of the two hands needs both hands'
cards and the dealer's from what is left. Each hand, and the dealer, decides from its own cards
only, so, drawing without replacement, the cards A and B that the two hands draw after their
pair cards (each with its chance P(A), P(B) of being drawn by that hand alone) come together
with the chance

    P(A) * P(B) * ff(S, A+B) ff(N, |A|) ff(N, |B|) / (ff(S, A) ff(S, B) ff(N, |A|+|B|))

(S the shoe after the up card and the pair, N its size, ff the falling factorial, over each
value for a composition), and the dealer's totals come from S less A and B, computed once per
distinct A+B. Where both hands bust only P(no dealer Blackjack) matters; without a peek it is 1
and their joint chance follows from the others (hand 2 always finishes). Every figure is exact;
the probabilities are floats (they add up to 1 within rounding). Checked against whole rounds
played card by card on small shoes (tests/bonus_tie/engine/test_primary_outcomes.py).

Re-splits to the table's hand limit are in the primary's house edge (best_play.py) but not in
this distribution: a hand holding two pair cards is played on as it is. The report says so.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from blackjack.engine.rules import HouseRules
from bonus_tie.engine.best_play import Family, RoundProgramme
from bonus_tie.engine.dealer_odds import BUST, OUTCOMES, blackjack_hole, blackjack_probability, encode_held
from bonus_tie.engine.rank_counts import (
    BLACKJACK_TOTAL,
    NO_CARDS,
    counts_of,
    is_blackjack,
    with_card,
    without,
)
from bonus_tie.engine.tie_odds import first_deals

PRIMARY_SPREAD_MODEL = "basic strategy, exact, one split (no re-split)"

Array = npt.NDArray[np.float64]

_HIT, _STAND, _DOUBLE, _SURRENDER = range(4)  # best_play's play codes
# A settled hand's category: stake 1 or 2 times (total 16 or less, 17, 18, 19, 20, 21, bust).
_CLASSES = 7
_BUST_CLASS = 6
_MOST_UNITS = 2  # a doubled hand
# Whole-unit nets from -4 to +4 (two doubled hands), as indexes shifted by _NET_SHIFT.
_NET_SHIFT = 4
_NETS = 2 * _NET_SHIFT + 1
_SURRENDER_NET = Fraction(-1, 2)


@dataclass(frozen=True, slots=True)
class PrimaryOutcomes:
    """The distribution of the round's net result per unit of primary wager."""

    outcomes: tuple[tuple[Fraction, float], ...]  # (net in units, probability), net ascending
    model: str = PRIMARY_SPREAD_MODEL

    @property
    def total_probability(self) -> float:
        return math.fsum(p for _, p in self.outcomes)

    @property
    def mean(self) -> float:
        return math.fsum(float(net) * p for net, p in self.outcomes)

    @property
    def variance(self) -> float:
        mean = self.mean
        return math.fsum(p * (float(net) - mean) ** 2 for net, p in self.outcomes)

    @property
    def std_deviation(self) -> float:
        """Standard deviation of the round's net result, per unit of primary wager."""
        return math.sqrt(self.variance)


@dataclass(frozen=True, slots=True)
class UpCardPrimaryOutcomes:
    """One up card's share: chance of each net, jointly with the up card."""

    up: int
    whole: tuple[float, ...]  # nets -4 .. +4
    surrender: float  # net -1/2
    blackjack: float  # net: the table's Blackjack pay


@cache
def _hand_result() -> npt.NDArray[np.int64]:
    """Result in units of a hand of class c (7 per stake, stake 1 first) against dealer outcome o."""
    result = np.zeros((_MOST_UNITS * _CLASSES, OUTCOMES), dtype=np.int64)
    for stake in (1, 2):
        for c in range(_CLASSES):
            for o in range(OUTCOMES):
                if c == _BUST_CLASS:
                    sign = -1
                elif o == BUST:
                    sign = 1
                else:
                    total, dealer = 16 + c, 17 + o  # class 0 is "16 or less": below any dealer total
                    sign = (total > dealer) - (total < dealer)
                result[(stake - 1) * _CLASSES + c, o] = stake * sign
    return result


def _class_of(totals: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.where(totals > BLACKJACK_TOTAL, _BUST_CLASS, np.clip(totals - 16, 0, 5))


@dataclass(frozen=True, slots=True)
class _Settled:
    """How a family's hands end from their start, under basic strategy: the chance of each final
    composition (cards held, bust card included) with its stake."""

    held: npt.NDArray[np.int64]  # rows x 10
    stake: npt.NDArray[np.int64]
    classes: npt.NDArray[np.int64]  # 0 .. 13 (stake 2 from 7)
    chance: Array


def _settle(family: Family, reach: Array) -> tuple[_Settled, Array]:
    """Follow `reach` (chance of holding each hand) forward, fewest cards first, under basic
    strategy. Returns the settled hands and, per hand, the chance it surrendered."""
    family_counts, totals, child = family.shape.counts, family.shape.total, family.shape.child
    prob, plays = family.prob, family.basic
    size = len(totals)
    stood = np.zeros((2, size))
    busts: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], Array]] = []
    surrendered = np.zeros(size)
    reach = reach.copy()
    values = np.arange(10)
    for level in reversed(family.shape.levels):
        here = reach[level]
        play = plays[level]
        stood[0, level] += np.where(play == _STAND, here, 0.0)
        surrendered[level] += np.where(play == _SURRENDER, here, 0.0)
        for code, units in ((_HIT, 1), (_DOUBLE, 2)):
            rows = level[play == code]
            if not len(rows):
                continue
            flow = reach[rows][:, None] * prob[rows]
            kids = child[rows]
            drawn = kids >= 0
            if units == 1:
                np.add.at(reach, kids[drawn], flow[drawn])
            else:
                np.add.at(stood[1], kids[drawn], flow[drawn])
            bust_rows, bust_values = np.nonzero(~drawn & (flow > 0))
            if len(bust_rows):
                held = family_counts[rows[bust_rows]] + (values[None, :] == bust_values[:, None])
                busts.append((held, np.full(len(bust_rows), units), flow[bust_rows, bust_values]))
    parts_held = [family_counts, family_counts]
    parts_stake = [np.ones(size, dtype=np.int64), np.full(size, 2)]
    parts_chance = [stood[0], stood[1]]
    parts_class = [_class_of(totals), _CLASSES + _class_of(totals)]
    for held, stake, chance in busts:
        parts_held.append(held)
        parts_stake.append(stake)
        parts_chance.append(chance)
        parts_class.append((stake - 1) * _CLASSES + _BUST_CLASS)
    chance = np.concatenate(parts_chance)
    keep = chance > 0
    return (
        _Settled(
            held=np.concatenate(parts_held)[keep],
            stake=np.concatenate(parts_stake)[keep],
            classes=np.concatenate(parts_class)[keep],
            chance=chance[keep],
        ),
        surrendered,
    )


@cache
def _log_factorials(most: int) -> Array:
    return np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, most + 1, dtype=np.float64)))))


def up_card_primary_outcomes(programme: RoundProgramme) -> UpCardPrimaryOutcomes:
    """The primary's outcome distribution for one up card (jointly with it), basic strategy, one
    split (module docstring)."""
    up, pool, dealer = programme.up, programme.pool, programme.dealer
    whole = np.zeros(_NETS)
    blackjack = surrender = 0.0
    family = programme.unsplit
    shape = family.shape
    reach = np.zeros(len(shape.hands))
    split_deals: list[tuple[int, float]] = []
    for deal in first_deals(programme.shoe, up):
        remaining = without(pool, deal.hand)
        dealer_blackjack = blackjack_probability(remaining, up)
        if is_blackjack(deal.hand):
            whole[_NET_SHIFT] += deal.probability * dealer_blackjack
            blackjack += deal.probability * (1.0 - dealer_blackjack)
            continue
        whole[_NET_SHIFT - 1] += deal.probability * dealer_blackjack
        i = family.index[deal.hand]
        pair = deal.hand.index(2) + 1 if 2 in deal.hand else None
        if pair is not None and family.basic_splits[i] and pair in programme.split_plain:
            split_deals.append((pair, deal.probability))
        else:
            reach[i] += deal.probability
    settled, surrendered = _settle(family, reach)
    surrender = float((surrendered * family.no_blackjack).sum())
    # Busts lose whatever the dealer holds, jointly with no dealer Blackjack; a standing hand
    # meets the dealer's totals for the cards left.
    result = _hand_result()[settled.classes]
    bust = settled.classes % _CLASSES == _BUST_CLASS
    if bust.any():
        busted = np.flatnonzero(bust)
        no_blackjack = _no_blackjack(np.array(pool)[None, :] - settled.held[busted], up)
        np.add.at(whole, _NET_SHIFT - settled.stake[busted], settled.chance[busted] * no_blackjack)
    standing = np.flatnonzero(~bust)
    rows = dealer.rows_for(pool, up, settled.held[standing])
    np.add.at(
        whole,
        _NET_SHIFT + result[standing].reshape(-1),
        (settled.chance[standing, None] * rows).reshape(-1),
    )
    for pair, probability in split_deals:
        whole += probability * _split_outcomes(programme, pair)
    return UpCardPrimaryOutcomes(up, tuple(whole.tolist()), surrender, blackjack)


def _split_outcomes(programme: RoundProgramme, pair: int) -> Array:
    """Chance of each whole net (-4 .. +4) of the two hands split from `pair`, given the split,
    jointly with no dealer Blackjack (module docstring)."""
    family = programme.split_plain[pair]
    shape = family.shape
    reach = np.zeros(len(shape.hands))
    reach[shape.index[with_card(NO_CARDS, pair)]] = 1.0
    settled, _ = _settle(family, reach)
    shoe = np.array(without(programme.pool, counts_of((pair, pair))), dtype=np.int64)
    n = int(shoe.sum())
    log_fact = _log_factorials(n)
    drawn = settled.held - own_card(pair)[None, :]
    cards = drawn.sum(axis=1)

    def log_ff_shoe(taken: npt.NDArray[np.int64]) -> Array:
        """log ff(S, taken) per row (taken within the shoe)."""
        return np.asarray((log_fact[shoe][None, :] - log_fact[shoe[None, :] - taken]).sum(axis=1))

    def log_ff_size(k: npt.NDArray[np.int64]) -> Array:
        return np.asarray(log_fact[n] - log_fact[n - k])

    # Per hand: log of its chance and of the terms of the joint chance that depend on it alone.
    own = np.log(settled.chance) + log_ff_size(cards) - log_ff_shoe(drawn)
    bust = settled.classes % _CLASSES == _BUST_CLASS
    # Where both hands bust, only P(no dealer Blackjack) matters. Without a peek that is 1, and
    # when busts have one stake the chance that both bust needs no pair of busts: hand 2 always
    # finishes, so P(hand 1 busts) = P(both bust) + P(hand 1 busts, hand 2 stands).
    busts_alike = len(np.unique(settled.classes[bust])) <= 1
    shortcut = blackjack_hole(programme.up) is None and busts_alike
    first, second, diagonal = _pairs(bust, every=not shortcut)
    both, inverse = _distinct_sums(drawn, first, second)
    feasible = (both <= shoe[None, :]).all(axis=1)
    log_both = np.full(len(both), -np.inf)
    log_both[feasible] = log_ff_shoe(both[feasible])
    weight = np.exp(log_both[inverse] + own[first] + own[second] - log_ff_size(cards[first] + cards[second]))
    weight *= 2.0  # (A, B) and (B, A) ...
    weight[diagonal] *= 0.5  # ... but (A, A) once
    classes = _MOST_UNITS * _CLASSES
    pair_class = settled.classes[first] * classes + settled.classes[second]
    both_bust = bust[first] & bust[second]
    lost_by_class = np.zeros(classes * classes)
    if shortcut:
        if bust.any():
            bust_class = int(settled.classes[bust][0])
            one_busts = bust[first] != bust[second]
            lost_by_class[bust_class * classes + bust_class] = (
                math.fsum(settled.chance[bust]) - math.fsum(weight[one_busts]) / 2.0
            )
    else:
        left = np.array(programme.pool, dtype=np.int64)[None, :] - both - 2 * own_card(pair)
        no_blackjack = _no_blackjack(left, programme.up)
        lost_by_class = np.bincount(
            pair_class[both_bust],
            weights=weight[both_bust] * no_blackjack[inverse[both_bust]],
            minlength=classes * classes,
        ).astype(np.float64)
        weight[both_bust] = 0.0
    # The dealer's totals for the cards left, jointly with no dealer Blackjack, where a hand stands.
    needs_dealer = np.zeros(len(both), dtype=bool)
    needs_dealer[inverse[~both_bust]] = True
    needs_dealer &= feasible
    dealer = np.zeros((len(both), OUTCOMES))
    held = both[needs_dealer] + 2 * own_card(pair)
    dealer[needs_dealer] = programme.dealer.rows_for(programme.pool, programme.up, held, distinct=True)
    order = np.argsort(pair_class, kind="stable")
    bounds = np.searchsorted(pair_class[order], np.arange(classes * classes + 1))
    grid = np.zeros((classes * classes, OUTCOMES))
    for c in np.flatnonzero(np.diff(bounds)):
        chosen = order[bounds[c] : bounds[c + 1]]
        # einsum, not a BLAS product: BLAS threads would spend more CPU than they save here
        grid[c] = np.einsum("p,po->o", weight[chosen], dealer[inverse[chosen]])
    result = _hand_result()
    nets = result[:, None, :] + result[None, :, :]  # class, class, dealer outcome
    out = np.zeros(_NETS)
    np.add.at(out, (_NET_SHIFT + nets).reshape(-1), grid.reshape(-1))
    np.add.at(out, _NET_SHIFT + nets[..., BUST].reshape(-1), lost_by_class)
    return out


def own_card(value: int) -> npt.NDArray[np.int64]:
    """One card of `value`, as a row of counts."""
    return np.array(counts_of((value,)), dtype=np.int64)


def _diagonal(size: int) -> npt.NDArray[np.int64]:
    """Where the pairs (i, i) are in `np.triu_indices(size)` order."""
    return np.concatenate(([0], np.cumsum(np.arange(size, 1, -1)))).astype(np.int64)[:size]


def _pairs(
    bust: npt.NDArray[np.bool_], *, every: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Unordered pairs (first, second) of settled hands, and where the pairs (i, i) are: every
    pair, or (`every` False) only those where a hand stands."""
    if every:
        first, second = np.triu_indices(len(bust))
        return first, second, _diagonal(len(bust))
    stands, busts = np.flatnonzero(~bust), np.flatnonzero(bust)
    upper, lower = np.triu_indices(len(stands))
    first = np.concatenate((stands[upper], np.repeat(stands, len(busts))))
    second = np.concatenate((stands[lower], np.tile(busts, len(stands))))
    return first, second, _diagonal(len(stands))


def _distinct_sums(
    drawn: npt.NDArray[np.int64], first: npt.NDArray[np.int64], second: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct rows of drawn[first] + drawn[second], and each pair's index into them."""
    codes = encode_held(drawn)  # one whole number per row, additive: code(a + b) = code(a) + code(b)
    _, rows, inverse = np.unique(codes[first] + codes[second], return_index=True, return_inverse=True)
    return drawn[first[rows]] + drawn[second[rows]], inverse.reshape(-1)


def _no_blackjack(left: npt.NDArray[np.int64], up: int) -> Array:
    """P(the hole card does not complete a dealer Blackjack) for each row of cards left."""
    hole = blackjack_hole(up)
    if hole is None:
        return np.ones(len(left))
    return np.asarray(1.0 - left[:, hole - 1] / np.maximum(left.sum(axis=1), 1))


def primary_outcomes(results: Sequence[UpCardPrimaryOutcomes], *, rules: HouseRules) -> PrimaryOutcomes:
    """Add up the up cards' shares (disjoint events) into one distribution."""
    blackjack_pays = Fraction(rules.blackjack_pays.num, rules.blackjack_pays.den)
    whole = [math.fsum(r.whole[i] for r in results) for i in range(_NETS)]
    found: dict[Fraction, float] = {Fraction(i - _NET_SHIFT): p for i, p in enumerate(whole) if p > 0}
    surrender = math.fsum(r.surrender for r in results)
    if surrender > 0:
        found[_SURRENDER_NET] = surrender
    blackjack = math.fsum(r.blackjack for r in results)
    if blackjack > 0:
        found[blackjack_pays] = found.get(blackjack_pays, 0.0) + blackjack
    return PrimaryOutcomes(tuple(sorted(found.items())))
