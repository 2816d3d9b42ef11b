"""Probability of each tie for a seat playing basic strategy (RULES.md §1.3, PAYTABLE.md).

One seat plays off the top of a shoe of known composition (other seats' unseen cards do not
change the odds). The tie outcomes are 17, 18, 19, 20, 21 and Blackjack; this module returns,
per dealer up card, the probability of each jointly with that up card, so the figures add up
over the up cards.

Method (every figure exact; nothing is simulated)
------
* Unsplit hands: every first two cards and up card, every way basic strategy plays the hand
  on (compositions drawn without replacement), and for each final hand the dealer's final
  total from the cards left, given the up card, with the hole card kept off a Blackjack when
  the dealer peeks (dealer_odds.py). Player and dealer Blackjack likewise.
* Split hands: the tie is decided by hand 0 and the dealer; hand 1's cards change the shoe,
  and a re-split of either hand ends the bonus wagers. Each hand, and the dealer, decides from
  its own cards only, so (drawing without replacement) the chance of any combination of the
  hands' and the dealer's cards does not depend on the order they are dealt in. Hand 1 can
  therefore be dealt its second card right after hand 0, then the dealer, then the rest of
  hand 1: with `left` the cards after hand 0 and `p` the pair value, P(tie on t | hand 0) is
  D(left)[t] when hand 1 would not re-split, else the same with hand 1's second card kept off
  `p`: D(left)[t] - P(p) * D(left - p)[t], since D(left) is the average of D(left - c) over
  the next card c. One extra dealer distribution per final hand 0. On a shoe so small that
  someone could run out of cards (a void round), hand 1 is played out in full instead.
"""

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from blackjack.engine.rules import HouseRules
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

# Outcome indexes: ties on 17..21 are 0..4 (as the dealer's final totals), a Blackjack tie is 5.
TIES: tuple[Tie, ...] = (Tie.T17, Tie.T18, Tie.T19, Tie.T20, Tie.T21, Tie.BLACKJACK)
TIE_TOTALS: tuple[int, ...] = (17, 18, 19, 20, 21)
TIE_BLACKJACK = TIES.index(Tie.BLACKJACK)
TIE_OUTCOMES = len(TIES)


@lru_cache(maxsize=200_000)
def _basic_play(hand: Counts, up: int, rules: HouseRules, split_value: int | None) -> Play:
    """`basic_play`, kept: the same few thousand hands are asked about for every first two cards."""
    return basic_play(hand, up=up, rules=rules, split_value=split_value)


# Cards a round can need beyond the up card: two split hands (each at most 21 Aces and a card
# that busts it) and the dealer (at most 11 cards). A shoe at least this large never runs out.
CARDS_NO_ROUND_RUNS_OUT = 2 * 22 + 11


@dataclass(frozen=True, slots=True)
class UpCardTies:
    """Tie probabilities jointly with one dealer up card."""

    up: int
    probabilities: tuple[float, ...]  # by tie outcome index


@dataclass(frozen=True, slots=True)
class Deal:
    """First two player cards (as a composition) with the up card, and their probability."""

    hand: Counts
    probability: float
    exact: Fraction  # the same probability as a fraction


def first_deals(shoe: Counts, up: int) -> list[Deal]:
    """Every first two cards of the seat with the up card, dealt player, dealer, player."""
    n = sum(shoe)
    deals: list[Deal] = []
    if n < 3 or shoe[up - 1] == 0:
        return deals
    orders = math.perm(n, 3)
    for first in VALUES:
        for second in VALUES:
            if second < first:
                continue
            taken = [0] * 10
            ways = 1 if first == second else 2
            for value in (first, up, second):
                ways *= shoe[value - 1] - taken[value - 1]
                taken[value - 1] += 1
            if ways <= 0:
                continue
            exact = Fraction(ways, orders)
            deals.append(Deal(counts_of((first, second)), float(exact), exact))
    return deals


def final_hands(
    *,
    pool: Counts,
    start: Counts,
    up: int,
    rules: HouseRules,
    split_value: int | None,
    keep_bust: bool = False,
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
            play = Play.HIT if sum(hand) < 2 else _basic_play(hand, up, rules, split_value)
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
                    if keep_bust:
                        finals[drawn] = finals.get(drawn, 0.0) + probability * left[value - 1] / n
                    continue
                target[drawn] = target.get(drawn, 0.0) + probability * left[value - 1] / n
        layer = following
    return finals


def hand_ends(
    *, pool: Counts, start: Counts, up: int, rules: HouseRules, split_value: int | None
) -> dict[Counts, float]:
    """`final_hands`, plus the hands that went bust (for a hand that is not the bonus hand)."""
    return final_hands(pool=pool, start=start, up=up, rules=rules, split_value=split_value, keep_bust=True)


def resplits(pair_value: int, *, up: int, rules: HouseRules) -> bool:
    """Whether basic strategy re-splits a split hand that draws its pair card."""
    pair = with_card(with_card(NO_CARDS, pair_value), pair_value)
    return basic_play(pair, up=up, rules=rules, split_value=pair_value) is Play.SPLIT


def up_card_ties(*, shoe: Counts, up: int, rules: HouseRules, dealer: DealerOdds) -> UpCardTies:
    """Tie probabilities for the seat, jointly with the dealer showing `up`."""
    ties = [0.0] * TIE_OUTCOMES
    pool = without(shoe, with_card(NO_CARDS, up))
    dealer.prepare(pool, up)
    for deal in first_deals(shoe, up):
        hand = deal.hand
        if is_blackjack(hand):
            ties[TIE_BLACKJACK] += deal.probability * blackjack_probability(without(pool, hand), up)
            continue
        play = basic_play(hand, up=up, rules=rules, split_value=None)
        if play is Play.SPLIT:
            split = split_ties(pool=pool, pair_value=hand.index(2) + 1, up=up, rules=rules, dealer=dealer)
            for i in range(TIE_OUTCOMES):
                ties[i] += deal.probability * split[i]
            continue
        for final, probability in final_hands(
            pool=pool, start=hand, up=up, rules=rules, split_value=None
        ).items():
            total, _ = total_of(final)
            if total in TIE_TOTALS:
                outcome = outcome_index(total)
                ties[outcome] += deal.probability * probability * dealer.after(pool, up, final)[outcome]
    return UpCardTies(up, tuple(ties))


def split_ties(
    *, pool: Counts, pair_value: int, up: int, rules: HouseRules, dealer: DealerOdds
) -> tuple[float, ...]:
    """Tie probabilities given the seat split a first pair (hand 1 holds the second card)."""
    pair_card = with_card(NO_CARDS, pair_value)
    # Hand 0 draws from the pool without hand 1's card; hand 1 is re-split when it draws its pair.
    pool0 = without(pool, pair_card)
    hand1_resplits = resplits(pair_value, up=up, rules=rules)
    ties = [0.0] * TIE_OUTCOMES
    finals = final_hands(pool=pool0, start=pair_card, up=up, rules=rules, split_value=pair_value)
    tying = [(f, p, outcome_index(total_of(f)[0])) for f, p in finals.items() if total_of(f)[0] in TIE_TOTALS]
    if sum(pool) < CARDS_NO_ROUND_RUNS_OUT:
        for final, probability, outcome in tying:
            ties[outcome] += probability * _hand1_played_out(
                left=without(pool0, final),
                pair_value=pair_value,
                up=up,
                rules=rules,
                dealer=dealer,
                outcome=outcome,
            )
        return tuple(ties)
    if hand1_resplits:
        lefts = (without(pool0, final) for final, _, _ in tying)
        dealer.prefetch(up, (with_card_removed(left, pair_value) for left in lefts if left[pair_value - 1]))
    for final, probability, outcome in tying:
        left = without(pool0, final)
        chance = dealer.after(pool, up, with_card(final, pair_value))[outcome]
        if hand1_resplits and left[pair_value - 1]:
            pair_first = left[pair_value - 1] / sum(left)
            chance -= pair_first * dealer.final_totals(with_card_removed(left, pair_value), up)[outcome]
        ties[outcome] += probability * chance
    return tuple(ties)


def with_card_removed(counts: Counts, value: int) -> Counts:
    """`counts` less one card of `value` (which it must hold)."""
    return without(counts, with_card(NO_CARDS, value))


def _hand1_played_out(
    *, left: Counts, pair_value: int, up: int, rules: HouseRules, dealer: DealerOdds, outcome: int
) -> float:
    """P(hand 1 is not re-split, nobody runs out of cards and the dealer ends on `outcome`),
    hand 1 (holding the pair card) playing from `left` before the dealer (small shoes)."""
    pair_card = with_card(NO_CARDS, pair_value)
    pool1 = with_card(left, pair_value)
    chance = 0.0
    for end, probability in hand_ends(
        pool=pool1, start=pair_card, up=up, rules=rules, split_value=pair_value
    ).items():
        chance += probability * dealer.final_totals(without(pool1, end), up)[outcome]
    return chance
