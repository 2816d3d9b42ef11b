"""Probability of each tie for a seat playing basic strategy (RULES.md §1.3, PAYTABLE.md).

One seat plays off the top of a shoe of known composition (other seats' unseen cards do not
change the odds). The tie outcomes are 17, 18, 19, 20, 21 and Blackjack; this module returns,
per dealer up card, the probability of each jointly with that up card, so the figures add up
over the up cards.

Method
------
* Unsplit hands are exact: every first two cards and up card, every way basic strategy plays
  the hand on (compositions drawn without replacement), and for each final hand the dealer's
  final total from the cards left, given the up card, with the hole card kept off a Blackjack
  when the dealer peeks (dealer_odds.py). Player and dealer Blackjack are exact too.
* Split hands: the tie is decided by hand 0 and the dealer, but the dealer also draws after
  hand 1, whose cards change the shoe; a re-split of either hand ends the bonus wagers. The
  computation is exact for hand 0 and for "hand 1 is not re-split" and approximates the dealer
  by drawing from the cards left after hand 0 (ignoring hand 1's draws). The error of that
  approximation is then estimated without bias by simulation: hand 0 and hand 1 are played out
  (hand 1 conditioned on not being re-split), and the exact dealer probability after both is
  compared with the approximation for the same hand 0 (a control variate). Only that small
  correction is simulated, so its standard error is tiny; it is reported per outcome.
"""

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from bonus_tie.engine.basic_strategy import Play
from bonus_tie.engine.dealer_odds import DealerOdds, blackjack_probability, outcome_index
from bonus_tie.engine.hand_play import basic_play
from bonus_tie.engine.rank_counts import (
    BLACKJACK_TOTAL,
    NO_CARDS,
    VALUES,
    Counts,
    counts_of,
    is_blackjack,
    total_of,
    with_card,
    without,
)
from bonus_tie.engine.resolution import Tie
from casino.engine.rules import HouseRules

# Outcome indexes: ties on 17..21 are 0..4 (as the dealer's final totals), a Blackjack tie is 5.
TIES: tuple[Tie, ...] = (Tie.T17, Tie.T18, Tie.T19, Tie.T20, Tie.T21, Tie.BLACKJACK)
TIE_TOTALS: tuple[int, ...] = (17, 18, 19, 20, 21)
TIE_BLACKJACK = TIES.index(Tie.BLACKJACK)
TIE_OUTCOMES = len(TIES)

Matrix = tuple[tuple[float, ...], ...]


@dataclass(frozen=True, slots=True)
class UpCardTies:
    """Tie probabilities jointly with one dealer up card."""

    up: int
    probabilities: tuple[float, ...]  # by tie outcome index
    covariance: Matrix  # of the simulated correction in `probabilities`
    samples: int  # simulated rounds (split hands only)


@dataclass(frozen=True, slots=True)
class Deal:
    """First two player cards (as a composition) with the up card, and their probability."""

    hand: Counts
    probability: float


def first_deals(shoe: Counts, up: int) -> list[Deal]:
    """Every first two cards of the seat with the up card, dealt player, dealer, player."""
    n = sum(shoe)
    deals: list[Deal] = []
    if n < 3 or shoe[up - 1] == 0:
        return deals
    for first in VALUES:
        for second in VALUES:
            if second < first:
                continue
            taken = [0] * 10
            probability = 1.0
            for position, value in enumerate((first, up, second)):
                probability *= (shoe[value - 1] - taken[value - 1]) / (n - position)
                taken[value - 1] += 1
            if probability <= 0.0:
                continue
            deals.append(Deal(counts_of((first, second)), probability * (1 if first == second else 2)))
    return deals


def final_hands(
    *, pool: Counts, start: Counts, up: int, rules: HouseRules, split_value: int | None
) -> dict[Counts, float]:
    """Distribution of the hands a basic-strategy hand stands with (not bust, not surrendered).

    The hand holds `start` and draws from `pool - start` (the pool includes the hand's own
    cards). For a split hand (`split_value` set) the first card is `start` and a re-split ends
    the bonus wagers, so re-split branches are left out. Probabilities are not normalised:
    what is missing went bust, surrendered, was re-split or ran out of cards.
    """
    finals: dict[Counts, float] = {}
    layer = {start: 1.0}
    while layer:
        following: dict[Counts, float] = {}
        for hand, probability in layer.items():
            if sum(hand) < 2:
                play = Play.HIT
            else:
                play = basic_play(hand, up=up, rules=rules, split_value=split_value)
            if play is Play.STAND:
                finals[hand] = finals.get(hand, 0.0) + probability
                continue
            if play is not Play.HIT and play is not Play.DOUBLE:
                continue  # surrender, or a re-split: the bonus wagers lose
            left = without(pool, hand)
            n = sum(left)
            if n == 0:
                continue
            target = finals if play is Play.DOUBLE else following
            for value in VALUES:
                if left[value - 1] == 0:
                    continue
                drawn = with_card(hand, value)
                if total_of(drawn)[0] > BLACKJACK_TOTAL:
                    continue
                target[drawn] = target.get(drawn, 0.0) + probability * left[value - 1] / n
        layer = following
    return finals


def resplits(pair_value: int, *, up: int, rules: HouseRules) -> bool:
    """Whether basic strategy re-splits a split hand that draws its pair card."""
    pair = with_card(with_card(NO_CARDS, pair_value), pair_value)
    return basic_play(pair, up=up, rules=rules, split_value=pair_value) is Play.SPLIT


def up_card_ties(
    *,
    shoe: Counts,
    up: int,
    rules: HouseRules,
    dealer: DealerOdds,
    rng: random.Random,
    split_samples: int,
) -> UpCardTies:
    """Tie probabilities for the seat, jointly with the dealer showing `up`."""
    ties = [0.0] * TIE_OUTCOMES
    covariance = [[0.0] * TIE_OUTCOMES for _ in range(TIE_OUTCOMES)]
    samples = 0
    pool = without(shoe, with_card(NO_CARDS, up))
    for deal in first_deals(shoe, up):
        hand = deal.hand
        if is_blackjack(hand):
            ties[TIE_BLACKJACK] += deal.probability * blackjack_probability(without(pool, hand), up)
            continue
        play = basic_play(hand, up=up, rules=rules, split_value=None)
        if play is Play.SPLIT:
            pair_value = hand.index(2) + 1
            split = _split_ties(
                pool=pool,
                pair_value=pair_value,
                up=up,
                rules=rules,
                dealer=dealer,
                rng=rng,
                samples=split_samples,
            )
            for i in range(TIE_OUTCOMES):
                ties[i] += deal.probability * split.probabilities[i]
                for j in range(TIE_OUTCOMES):
                    covariance[i][j] += deal.probability**2 * split.covariance[i][j]
            samples += split.samples
            continue
        for final, probability in final_hands(
            pool=pool, start=hand, up=up, rules=rules, split_value=None
        ).items():
            total, _ = total_of(final)
            if total in TIE_TOTALS:
                outcome = outcome_index(total)
                ties[outcome] += (
                    deal.probability * probability * dealer.final_totals(without(pool, final), up)[outcome]
                )
    return UpCardTies(up, tuple(ties), tuple(tuple(row) for row in covariance), samples)


@dataclass(frozen=True, slots=True)
class _SplitTies:
    probabilities: tuple[float, ...]
    covariance: Matrix
    samples: int


def _split_ties(
    *,
    pool: Counts,
    pair_value: int,
    up: int,
    rules: HouseRules,
    dealer: DealerOdds,
    rng: random.Random,
    samples: int,
) -> _SplitTies:
    """Tie probabilities given the seat split a first pair (hand 1 holds the second card)."""
    pair_card = with_card(NO_CARDS, pair_value)
    # Hand 0 draws from the pool without hand 1's card; hand 1 is re-split when it draws its pair.
    pool0 = without(pool, pair_card)
    hand1_resplits = resplits(pair_value, up=up, rules=rules)

    def hand1_keeps(left: Counts) -> float:
        n = sum(left)
        if n == 0:
            return 0.0
        return 1.0 - left[pair_value - 1] / n if hand1_resplits else 1.0

    ties = [0.0] * TIE_OUTCOMES
    finals = final_hands(pool=pool0, start=pair_card, up=up, rules=rules, split_value=pair_value)
    for final, probability in finals.items():
        total, _ = total_of(final)
        if total in TIE_TOTALS:
            left = without(pool0, final)
            outcome = outcome_index(total)
            ties[outcome] += probability * hand1_keeps(left) * dealer.final_totals(left, up)[outcome]

    # Control-variate correction for hand 1's cards: mean of (exact - approximation).
    sums = [0.0] * TIE_OUTCOMES
    products = [[0.0] * TIE_OUTCOMES for _ in range(TIE_OUTCOMES)]
    for _ in range(samples):
        sampled, difference = _sample_correction(
            pool0=pool0,
            pair_value=pair_value,
            up=up,
            rules=rules,
            dealer=dealer,
            rng=rng,
            hand1_resplits=hand1_resplits,
            hand1_keeps=hand1_keeps,
        )
        if sampled is None:
            continue
        sums[sampled] += difference
        products[sampled][sampled] += difference * difference
    covariance = [[0.0] * TIE_OUTCOMES for _ in range(TIE_OUTCOMES)]
    if samples > 1:
        means = [s / samples for s in sums]
        for i in range(TIE_OUTCOMES):
            ties[i] += means[i]
            for j in range(TIE_OUTCOMES):
                sample_cov = (products[i][j] - samples * means[i] * means[j]) / (samples - 1)
                covariance[i][j] = sample_cov / samples
    return _SplitTies(tuple(ties), tuple(tuple(row) for row in covariance), samples if samples > 1 else 0)


def _sample_correction(
    *,
    pool0: Counts,
    pair_value: int,
    up: int,
    rules: HouseRules,
    dealer: DealerOdds,
    rng: random.Random,
    hand1_resplits: bool,
    hand1_keeps: Callable[[Counts], float],
) -> tuple[int | None, float]:
    """One simulated split: (tie outcome of hand 0 or None, exact minus approximate tie chance)."""
    pair_card = with_card(NO_CARDS, pair_value)
    hand0 = _sample_hand(pool=pool0, start=pair_card, up=up, rules=rules, rng=rng, avoid_pair=False)
    if hand0 is None:
        return None, 0.0
    total, _ = total_of(hand0)
    if total not in TIE_TOTALS:
        return None, 0.0
    outcome = outcome_index(total)
    left = without(pool0, hand0)
    keeps = hand1_keeps(left)
    if keeps == 0.0:
        return None, 0.0
    approximation = dealer.final_total(left, up, outcome)
    # Hand 1 holds the pair card already set aside from pool0: its pool is `left` plus that card.
    hand1_pool = with_card(left, pair_value)
    hand1 = _sample_hand(
        pool=hand1_pool,
        start=pair_card,
        up=up,
        rules=rules,
        rng=rng,
        avoid_pair=hand1_resplits,
        keep_bust=True,
    )
    if hand1 is None:
        return outcome, -keeps * approximation  # the round ran out of cards: void, no tie
    exact = dealer.final_total(without(hand1_pool, hand1), up, outcome)
    return outcome, keeps * (exact - approximation)


def _sample_hand(
    *,
    pool: Counts,
    start: Counts,
    up: int,
    rules: HouseRules,
    rng: random.Random,
    avoid_pair: bool,
    keep_bust: bool = False,
) -> Counts | None:
    """Play one split hand by basic strategy with random draws; its final cards, or None.

    None: the hand was re-split or surrendered, went bust (unless `keep_bust`) or ran out of
    cards. `avoid_pair` draws the second card conditioned on not being the pair card.
    """
    split_value = start.index(1) + 1
    hand = start
    while True:
        play = Play.HIT if sum(hand) < 2 else basic_play(hand, up=up, rules=rules, split_value=split_value)
        if play is Play.STAND:
            return hand
        if play is not Play.HIT and play is not Play.DOUBLE:
            return None
        left = without(pool, hand)
        exclude = split_value if avoid_pair and sum(hand) == 1 else None
        value = _draw(left, rng, exclude=exclude)
        if value is None:
            return None
        hand = with_card(hand, value)
        if total_of(hand)[0] > BLACKJACK_TOTAL:
            return hand if keep_bust else None
        if play is Play.DOUBLE:
            return hand


def _draw(left: Counts, rng: random.Random, *, exclude: int | None) -> int | None:
    """A random card value from `left` (never `exclude`), or None when there is none."""
    n = sum(left) - (left[exclude - 1] if exclude is not None else 0)
    if n <= 0:
        return None
    pick = rng.randrange(n)
    for value in VALUES:
        if value == exclude:
            continue
        pick -= left[value - 1]
        if pick < 0:
            return value
    raise AssertionError("unreachable: the counts add up to n")


def covariance_sum(matrix: Matrix, outcomes: tuple[int, ...]) -> float:
    """Variance of the sum of the given outcomes' estimates."""
    return math.fsum(matrix[i][j] for i in outcomes for j in outcomes)
