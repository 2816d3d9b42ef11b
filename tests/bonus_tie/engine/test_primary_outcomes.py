"""The primary wager's outcome distribution (basic strategy, one split): against whole rounds
played out card by card, and against the published standard deviation per hand."""

import math
from fractions import Fraction

import pytest

from blackjack.engine.rules import BLACKJACK_6_TO_5, DealerRule, HouseRules
from bonus_tie.engine.best_play import RoundProgramme, primary_totals
from bonus_tie.engine.dealer_odds import DealerOdds
from bonus_tie.engine.primary_outcomes import (
    PRIMARY_SPREAD_MODEL,
    PrimaryOutcomes,
    primary_outcomes,
    up_card_primary_outcomes,
)
from bonus_tie.engine.rank_counts import Counts, shoe_counts
from tests.bonus_tie.engine.scripted_hands import _NeedCard, _Script
from tests.bonus_tie.engine.scripted_shoes import (
    ACES_AND_TENS,
    EIGHTS_AND_TENS,
    SEVENS_NINES_TENS,
    _play_primary,
)


def engine_outcomes(shoe: Counts, rules: HouseRules) -> tuple[PrimaryOutcomes, list[RoundProgramme]]:
    dealer = DealerOdds(hits_soft_17=rules.dealer is DealerRule.H17)
    programmes = [
        RoundProgramme(shoe=shoe, up=up, rules=rules, dealer=dealer) for up in range(1, 11) if shoe[up - 1]
    ]
    outcomes = primary_outcomes([up_card_primary_outcomes(p) for p in programmes], rules=rules)
    return outcomes, programmes


def rounds_played_out(shoe: Counts, rules: HouseRules) -> dict[Fraction, Fraction]:
    """Every card sequence of a round played to its end (one split at most: the rules' limit)."""
    found: dict[Fraction, Fraction] = {}

    def explore(values: tuple[int, ...], left: Counts, probability: Fraction) -> None:
        try:
            net = _play_primary(_Script(values).draw, rules)
        except _NeedCard:
            n = sum(left)
            for value in range(1, 11):
                count = left[value - 1]
                if count:
                    fewer = (*left[: value - 1], count - 1, *left[value:])
                    explore((*values, value), fewer, probability * Fraction(count, n))
            return
        key = Fraction(net).limit_denominator(10)
        found[key] = found.get(key, Fraction(0)) + probability

    explore((), shoe, Fraction(1))
    return found


ONE_SPLIT = HouseRules(max_hands=2)


@pytest.mark.parametrize(
    ("shoe", "rules"),
    [
        (EIGHTS_AND_TENS, ONE_SPLIT),
        (EIGHTS_AND_TENS, HouseRules(max_hands=2, double_after_split=False, dealer=DealerRule.H17)),
        (ACES_AND_TENS, HouseRules(max_hands=2, blackjack_pays=BLACKJACK_6_TO_5)),
        (SEVENS_NINES_TENS, ONE_SPLIT),
    ],
    ids=["8T", "8T-noDAS-H17", "AT-6:5", "79T"],
)
def test_the_distribution_is_that_of_whole_rounds_played_out(shoe: Counts, rules: HouseRules) -> None:
    # Given shoes whose every card sequence can be played (pairs split, hands hitting, doubling,
    # busting and standing, Blackjacks on both sides)
    expected = rounds_played_out(shoe, rules)

    # When the engine computes the distribution
    outcomes, _ = engine_outcomes(shoe, rules)

    # Then every net has the chance of the rounds that end on it, and nothing else appears
    assert {net for net, p in outcomes.outcomes if p > 1e-15} == {net for net, p in expected.items() if p}
    for net, probability in outcomes.outcomes:
        assert probability == pytest.approx(float(expected.get(net, 0)), abs=1e-13), net
    assert outcomes.total_probability == pytest.approx(1.0, abs=1e-13)


@pytest.fixture(scope="module")
def six_deck_s17() -> tuple[PrimaryOutcomes, float]:
    rules = HouseRules()  # 6 decks, S17, double after split, 3:2, no surrender
    outcomes, programmes = engine_outcomes(shoe_counts(6), rules)
    one_split_ev = primary_totals([p.primary_values() for p in programmes]).basic_one_split
    return outcomes, one_split_ev


def test_six_deck_s17_das_standard_deviation_is_the_published_figure(
    six_deck_s17: tuple[PrimaryOutcomes, float],
) -> None:
    outcomes, one_split_ev = six_deck_s17

    # The published figure for 6 decks is about 1.15 units per hand (variance about 1.32)
    assert 1.14 <= outcomes.std_deviation <= 1.16
    assert outcomes.variance == pytest.approx(1.32, abs=0.01)
    # The distribution adds up to 1 (floats: to rounding) and its mean is the same model's edge
    assert math.fsum(p for _, p in outcomes.outcomes) == pytest.approx(1.0, abs=1e-12)
    assert outcomes.mean == pytest.approx(one_split_ev, abs=1e-12)
    assert outcomes.model == PRIMARY_SPREAD_MODEL
    nets = [net for net, _ in outcomes.outcomes]
    assert nets == [-4, -3, -2, -1, 0, 1, Fraction(3, 2), 2, 3, 4]


@pytest.mark.parametrize(
    "rules",
    [
        HouseRules(surrender=True),
        HouseRules(surrender=True, dealer=DealerRule.H17, blackjack_pays=BLACKJACK_6_TO_5),
        HouseRules(double_after_split=False),
    ],
    ids=["surrender", "surrender-H17-6:5", "noDAS"],
)
def test_the_mean_is_the_same_models_expectation(rules: HouseRules) -> None:
    # Surrender (half the unit back) and the other rules move the distribution exactly as they
    # move the expectation of the same model (basic strategy, one split)
    outcomes, programmes = engine_outcomes(SEVENS_NINES_TENS, rules)
    expected = primary_totals([p.primary_values() for p in programmes]).basic_one_split

    assert outcomes.mean == pytest.approx(expected, abs=1e-13)
    assert outcomes.total_probability == pytest.approx(1.0, abs=1e-13)
    if rules.surrender:
        assert dict(outcomes.outcomes)[Fraction(-1, 2)] > 0
