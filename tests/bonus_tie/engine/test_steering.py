"""Steering check: the best play for primary + bonus, and the flag when the player is ahead.

The reference is a brute-force search of the best play on tiny shoes without splits, written
the other way round from the engine: the hole card is dealt before the player acts and the
player's decisions average over it (Bayes on the cards the player has seen).
"""

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.engine.rules import BLACKJACK_6_TO_5, DealerRule, HouseRules
from bonus_tie.engine.house_edge import tie_probabilities
from bonus_tie.engine.kinds import BonusKind
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE, Paytable
from bonus_tie.engine.rank_counts import Counts
from bonus_tie.engine.resolution import WINNING_KINDS, Tie
from bonus_tie.engine.steering import (
    MAX_SIDE_STAKE,
    Scenario,
    cross_side_scenarios,
    default_scenarios,
    format_steering,
    steering_report,
)

NO_SPLITS = HouseRules(max_hands=1)
TIE_BY_TOTAL = {17: Tie.T17, 18: Tie.T18, 19: Tie.T19, 20: Tie.T20, 21: Tie.T21}


def shoe(**counts: int) -> Counts:
    names = ("A", "two", "three", "four", "five", "six", "seven", "eight", "nine", "T")
    return tuple(counts.get(name, 0) for name in names)


def single(kind: BonusKind) -> Scenario:
    return Scenario(kind.value, ((kind, MAX_SIDE_STAKE),))


# --- brute force -------------------------------------------------------------------------------


def _total(cards: Counts) -> tuple[int, bool]:
    hard = sum(v * c for v, c in zip(range(1, 11), cards, strict=True))
    return (hard + 10, True) if cards[0] and hard + 10 <= 21 else (hard, False)


def _add(cards: Counts, value: int, k: int = 1) -> Counts:
    return (*cards[: value - 1], cards[value - 1] + k, *cards[value:])


def _dealer_outcomes(unseen: Counts, dealer: Counts, rules: HouseRules) -> list[tuple[float, int]]:
    """(probability, final total) of the dealer drawing from `unseen`; empty shoe = void (dropped)."""
    total, soft = _total(dealer)
    if total > 17 or (total == 17 and not (soft and rules.dealer is DealerRule.H17)):
        return [(1.0, total)]
    n = sum(unseen)
    found: list[tuple[float, int]] = []
    for value in range(1, 11):
        if unseen[value - 1]:
            p = unseen[value - 1] / n
            for q, final in _dealer_outcomes(_add(unseen, value, -1), _add(dealer, value), rules):
                found.append((p * q, final))
    return found


def brute_force_best(composition: Counts, rules: HouseRules, payoff: Mapping[Tie | None, float]) -> float:
    """Expected net of primary (1) + bonus under the best play, no splits, no insurance."""
    bj_pays = rules.blackjack_pays.num / rules.blackjack_pays.den

    def completes(up: int, hole: int) -> bool:
        return {up, hole} == {1, 10}

    def stand_value(
        hand: Counts, unseen: Counts, holes: list[tuple[float, int]], up: int, stake: float
    ) -> float:
        total, _ = _total(hand)
        value = 0.0
        for p_hole, hole in holes:
            for p, dealer_total in _dealer_outcomes(
                _add(unseen, hole, -1), _add(_add((0,) * 10, up), hole), rules
            ):
                primary = (
                    1.0
                    if dealer_total > 21 or total > dealer_total
                    else (0.0 if total == dealer_total else -1.0)
                )
                tie = TIE_BY_TOTAL.get(total) if total == dealer_total else None
                value += p_hole * p * (stake * primary + payoff[tie])
        return value

    def hole_cards(unseen: Counts, up: int) -> list[tuple[float, int]]:
        allowed = [(unseen[v - 1], v) for v in range(1, 11) if unseen[v - 1] and not completes(up, v)]
        n = sum(c for c, _ in allowed)
        return [(c / n, v) for c, v in allowed]

    def next_cards(unseen: Counts, holes: list[tuple[float, int]]) -> list[tuple[float, int]]:
        """P(the player's next card) averaged over the hidden hole card."""
        found: dict[int, float] = {}
        for p_hole, hole in holes:
            rest = _add(unseen, hole, -1)
            n = sum(rest)
            for v in range(1, 11):
                if n and rest[v - 1]:
                    found[v] = found.get(v, 0.0) + p_hole * rest[v - 1] / n
        return sorted((p, v) for v, p in found.items())

    def best(hand: Counts, unseen: Counts, up: int, first_two: bool) -> float:
        holes = hole_cards(unseen, up)
        total, _ = _total(hand)
        if total > 21:
            return -1.0 + payoff[None]
        stand = stand_value(hand, unseen, holes, up, 1.0)
        if total == 21:
            return stand
        hit = sum(
            p * best(_add(hand, v), _add(unseen, v, -1), up, False) for p, v in next_cards(unseen, holes)
        )
        choices = [stand, hit]
        if first_two and (rules.double_any_two or total in (9, 10, 11)):
            double = 0.0
            for p, v in next_cards(unseen, holes):
                drawn = _add(hand, v)
                if _total(drawn)[0] > 21:
                    double += p * (-2.0 + payoff[None])
                else:
                    double += p * stand_value(
                        drawn, _add(unseen, v, -1), hole_cards(_add(unseen, v, -1), up), up, 2.0
                    )
            choices.append(double)
        if first_two and rules.surrender:
            choices.append(-0.5 + payoff[None])
        return max(choices)

    expected = 0.0
    n = sum(composition)
    for first in range(1, 11):
        for up in range(1, 11):
            for second in range(1, 11):
                left = composition
                p = 1.0
                for position, value in enumerate((first, up, second)):
                    p *= left[value - 1] / (n - position)
                    left = _add(left, value, -1) if left[value - 1] else left
                if p == 0.0:
                    continue
                hand = _add(_add((0,) * 10, first), second)
                m = sum(left)
                q = sum(left[v - 1] for v in range(1, 11) if completes(up, v)) / m if m else 0.0
                no_q = 1.0 - q if m else 0.0
                player_blackjack = sorted((first, second)) == [1, 10]
                if player_blackjack:
                    expected += p * (q * payoff[Tie.BLACKJACK] + no_q * (bj_pays + payoff[None]))
                    continue
                expected += p * q * (-1.0 + payoff[None])
                if no_q:
                    expected += p * no_q * best(hand, left, up, True)
    return expected


def payoffs(scenario: Scenario, paytable: Paytable) -> dict[Tie | None, float]:
    table: dict[Tie | None, float] = {None: -scenario.bonus_stake}
    for tie in Tie:
        table[tie] = sum(
            stake * (paytable.pays_to_one(kind) if kind in WINNING_KINDS[tie] else -1)
            for kind, stake in scenario.stakes
        )
    return table


# --- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "composition",
    [shoe(T=5, seven=5), shoe(A=2, six=3, T=4), shoe(A=3, four=2, eight=2, T=3)],
)
@pytest.mark.parametrize(
    "rules", [NO_SPLITS, HouseRules(max_hands=1, dealer=DealerRule.H17, surrender=True, double_any_two=False)]
)
def test_best_play_matches_brute_force(composition: Counts, rules: HouseRules) -> None:
    # Given a tiny shoe without splits, the programme's best play is the exhaustive best play.
    paytable = Paytable(version=9, pays={**DEFAULT_PAYTABLE.pays, BonusKind.T21: 400, BonusKind.T17: 30})
    scenarios = (single(BonusKind.T17), single(BonusKind.T21), single(BonusKind.TBJ), default_scenarios()[-1])

    report = steering_report(paytable=paytable, rules=rules, composition=composition, scenarios=scenarios)

    for scenario, row in zip(scenarios, report.rows, strict=True):
        expected = brute_force_best(composition, rules, payoffs(scenario, paytable))
        assert row.steering_ev == pytest.approx(expected, abs=1e-12), scenario.label
    primary_only = brute_force_best(composition, rules, dict.fromkeys([None, *Tie], 0.0))
    assert report.primary_best_ev == pytest.approx(primary_only, abs=1e-12)


def test_basic_strategy_value_agrees_with_the_tie_odds() -> None:
    # Without splits both models are exact: the basic-strategy result of primary + bonus is the
    # primary's plus the bonus priced with the tie probabilities.
    composition = shoe(A=2, three=2, six=3, eight=2, T=5)
    report = steering_report(paytable=DEFAULT_PAYTABLE, rules=NO_SPLITS, composition=composition)
    ties = tie_probabilities(rules=NO_SPLITS, composition=composition)
    for row in report.rows:
        bonus = sum(
            MAX_SIDE_STAKE * ((DEFAULT_PAYTABLE.pays_to_one(kind) + 1) * ties.win_probability(kind) - 1)
            for kind in row.kinds
        )
        assert row.basic_strategy_ev == pytest.approx(report.primary_basic_strategy_ev + bonus, abs=1e-12)


def test_a_huge_pay_is_flagged_and_a_small_one_is_not() -> None:
    composition = shoe(A=1, two=2, five=2, six=2, nine=2, T=4)
    generous = Paytable(version=3, pays={**DEFAULT_PAYTABLE.pays, BonusKind.T21: 5000})
    stingy = Paytable(version=4, pays={**DEFAULT_PAYTABLE.pays, BonusKind.T21: 1})
    scenarios = (single(BonusKind.T21),)

    flagged = steering_report(
        paytable=generous, rules=HouseRules(), composition=composition, scenarios=scenarios
    )
    safe = steering_report(paytable=stingy, rules=HouseRules(), composition=composition, scenarios=scenarios)

    assert flagged.flagged == ("T21",)
    assert flagged.row("T21").steering_edge > 0
    assert safe.flagged == ()
    assert "PLAYER AHEAD" in format_steering(flagged)


@settings(max_examples=8, deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=10, max_size=10).filter(lambda c: 8 <= sum(c) <= 12),
    dealer=st.sampled_from(list(DealerRule)),
    surrender=st.booleans(),
    max_hands=st.sampled_from([1, 2, 4]),
)
def test_best_play_never_loses_to_basic_strategy(
    counts: list[int], dealer: DealerRule, surrender: bool, max_hands: int
) -> None:
    rules = HouseRules(
        dealer=dealer, surrender=surrender, max_hands=max_hands, blackjack_pays=BLACKJACK_6_TO_5
    )
    report = steering_report(
        paytable=DEFAULT_PAYTABLE,
        rules=rules,
        composition=tuple(counts),
        scenarios=cross_side_scenarios()[:3],
    )
    assert report.primary_best_ev >= report.primary_basic_strategy_ev - 1e-12
    for row in report.rows:
        assert row.steering_ev >= row.basic_strategy_ev - 1e-12
        assert row.steering_edge == pytest.approx(row.steering_ev / (1 + row.bonus_stake))
        assert row.flagged == (row.steering_ev > 0)


def test_scenarios_respect_the_half_primary_limit() -> None:
    labels = [s.label for s in default_scenarios()]
    assert labels == ["T17", "T18", "T19", "T20", "T21", "TBJ", "LS", "RS", "LS+RS"]
    assert all(s.bonus_stake == MAX_SIDE_STAKE for s in default_scenarios()[:-1])
    assert default_scenarios()[-1].bonus_stake == 2 * MAX_SIDE_STAKE
    with pytest.raises(ValueError, match="half the primary"):
        Scenario("too much", ((BonusKind.T17, 0.3), (BonusKind.LS, 0.3)))
    with pytest.raises(ValueError, match="half the primary"):
        Scenario("nothing", ((BonusKind.T17, 0.0),))


def test_splitting_can_only_help_the_best_play() -> None:
    composition = shoe(A=2, two=2, five=2, seven=3, eight=3, T=5)
    scenarios = (single(BonusKind.T21), single(BonusKind.T18))
    with_splits = steering_report(
        paytable=DEFAULT_PAYTABLE, rules=HouseRules(), composition=composition, scenarios=scenarios
    )
    without = steering_report(
        paytable=DEFAULT_PAYTABLE, rules=NO_SPLITS, composition=composition, scenarios=scenarios
    )
    for a, b in zip(with_splits.rows, without.rows, strict=True):
        assert a.steering_ev >= b.steering_ev - 1e-12
