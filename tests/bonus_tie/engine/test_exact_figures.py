"""Exact figures: distributions that add up to exactly 1, published tables, the primary's exact
re-splits, the both-Blackjack fraction, and the steering break-even pays (issue 14).

The dealer's and the deal's distributions are checked in fractions, so "adds up to 1" means
exactly 1. Published tables pin the dealer's final totals; a brute-force player of whole rounds
(every card sequence, basic strategy with re-splits) pins the primary's exact re-split value on
a shoe no round can run out of.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie.engine import tie_odds
from bonus_tie.engine.best_play import RoundProgramme, primary_totals, resplit_terms
from bonus_tie.engine.dealer_odds import DealerOdds, _batch_final_totals, exact_final_totals
from bonus_tie.engine.house_edge import tie_probabilities
from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE, Paytable
from bonus_tie.engine.paytable_review import review_paytable, review_paytables
from bonus_tie.engine.rank_counts import ACE, TEN, Counts, shoe_counts, without
from bonus_tie.engine.resolution import Tie
from bonus_tie.engine.steering import Scenario, steering_report
from bonus_tie.engine.tie_odds import first_deals
from tests.bonus_tie.engine.scripted_hands import _NeedCard, _Script
from tests.bonus_tie.engine.scripted_shoes import (
    ACES_AND_TENS,
    EIGHTS_AND_TENS,
    H17,
    SEVENS_NINES_TENS,
    _play_primary,
)

S17 = HouseRules()
UP_CARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, ACE)


def less_up(composition: Counts, up: int) -> Counts:
    return without(composition, tuple(int(v == up) for v in range(1, 11)))


# --- distributions that add up to exactly 1 --------------------------------------------------


@st.composite
def compositions(draw: st.DrawFn, *, least: int) -> Counts:
    counts = tuple(draw(st.lists(st.integers(0, 8), min_size=10, max_size=10)))
    assume(sum(counts) >= least)
    return counts


@settings(max_examples=60, deadline=None)
@given(remaining=compositions(least=11), up=st.sampled_from(UP_CARDS), h17=st.booleans())
def test_the_dealer_distribution_adds_up_to_exactly_one(remaining: Counts, up: int, h17: bool) -> None:
    # Given at least 11 cards (the most a dealer draws), the dealer always finishes: the six final
    # totals and the Blackjack add up to exactly 1, in fractions.
    exact = exact_final_totals(remaining, up, hits_soft_17=h17)

    assert sum(exact) == 1
    # The fast path (NumPy batch) and the pure-Python path are the same sum in floating point.
    batch = _batch_final_totals(np.array([remaining]), up, h17)[0]
    alone = DealerOdds(hits_soft_17=h17).final_totals(remaining, up)
    for fraction, fast, slow in zip(exact[:6], batch, alone, strict=True):
        assert fast == pytest.approx(float(fraction), rel=1e-13, abs=1e-16)
        assert slow == pytest.approx(float(fraction), rel=1e-13, abs=1e-16)


@settings(max_examples=40, deadline=None)
@given(shoe=compositions(least=3))
def test_the_first_deals_add_up_to_exactly_one(shoe: Counts) -> None:
    # Every first two cards with every up card: a distribution, exactly.
    deals = [deal for up in range(1, 11) for deal in first_deals(shoe, up)]

    assert sum(deal.exact for deal in deals) == 1
    assert all(deal.probability == float(deal.exact) for deal in deals)


def test_each_bet_outcome_distribution_adds_up_to_one() -> None:
    report = review_paytable(paytable=DEFAULT_PAYTABLE, rules=S17, composition=SMALL_SHOE)
    for row in report.house_edge.rows:
        assert sum(Fraction(p) for _, p in row.outcomes) == 1


# --- published figures -----------------------------------------------------------------------

# Dealer's final totals after the peek (17, 18, 19, 20, 21, bust), Wizard of Odds, blackjack
# appendix 2: one deck, dealer stands on soft 17, the whole table to its six decimals.
ONE_DECK_S17 = {
    2: (0.138976, 0.131762, 0.131815, 0.123948, 0.120526, 0.352973),
    3: (0.130313, 0.130946, 0.123761, 0.123345, 0.116047, 0.375588),
    4: (0.130973, 0.114163, 0.120679, 0.116286, 0.115096, 0.402803),
    5: (0.119687, 0.123483, 0.116909, 0.104694, 0.106321, 0.428905),
    6: (0.166948, 0.106454, 0.107192, 0.100705, 0.097879, 0.420823),
    7: (0.372345, 0.138583, 0.077334, 0.078897, 0.072987, 0.259854),
    8: (0.130857, 0.362989, 0.129445, 0.06829, 0.069791, 0.238627),
    9: (0.121886, 0.103921, 0.357391, 0.12225, 0.061109, 0.233442),
    10: (0.124156, 0.122486, 0.124421, 0.356869, 0.03957, 0.232499),
    ACE: (0.183786, 0.19089, 0.18868, 0.191692, 0.075137, 0.169815),
}
# Six decks, the same table's layout (dealer stands / hits on soft 17), to six decimals.
SIX_DECKS_S17 = {
    2: (0.139656, 0.134389, 0.130020, 0.124019, 0.118413, 0.353504),
    6: (0.165707, 0.106194, 0.106431, 0.101551, 0.097276, 0.422842),
    7: (0.369208, 0.137931, 0.078428, 0.078682, 0.073816, 0.261936),
    10: (0.121273, 0.121007, 0.121306, 0.368447, 0.037729, 0.230239),
    ACE: (0.188071, 0.189235, 0.188906, 0.189362, 0.077393, 0.167033),
}
SIX_DECKS_H17 = {
    2: (0.130071, 0.135978, 0.131607, 0.125662, 0.120022, 0.356661),
    6: (0.115064, 0.114574, 0.115043, 0.110177, 0.105882, 0.439259),
    7: (0.369208, 0.137931, 0.078428, 0.078682, 0.073816, 0.261936),
    10: (0.121273, 0.121007, 0.121306, 0.368447, 0.037729, 0.230239),
    ACE: (0.082842, 0.206593, 0.206757, 0.207262, 0.095264, 0.201281),
}


def after_peek(decks: int, up: int, rules: HouseRules) -> list[float]:
    remaining = less_up(shoe_counts(decks), up)
    exact = exact_final_totals(remaining, up, hits_soft_17=rules.dealer is DealerRule.H17)
    no_blackjack = 1 - exact[6]
    fast = DealerOdds(hits_soft_17=rules.dealer is DealerRule.H17).final_totals(remaining, up)
    assert [f / float(no_blackjack) for f in fast] == pytest.approx(
        [float(x / no_blackjack) for x in exact[:6]]
    )
    return [float(x / no_blackjack) for x in exact[:6]]


@pytest.mark.parametrize(
    ("decks", "rules", "table"),
    [(1, S17, ONE_DECK_S17), (6, S17, SIX_DECKS_S17), (6, H17, SIX_DECKS_H17)],
    ids=["1D-S17", "6D-S17", "6D-H17"],
)
def test_dealer_final_totals_match_the_published_tables(
    decks: int, rules: HouseRules, table: dict[int, tuple[float, ...]]
) -> None:
    for up, published in table.items():
        assert after_peek(decks, up, rules) == pytest.approx(published, abs=6e-7), up


def test_both_blackjack_is_27968_in_12909299_with_six_decks() -> None:
    full = shoe_counts(6)
    blackjack = tuple(int(v in (ACE, TEN)) for v in range(1, 11))
    exact = Fraction(0)
    for up, hole in ((ACE, TEN), (TEN, ACE)):
        for deal in first_deals(full, up):
            if deal.hand == blackjack:
                left = without(less_up(full, up), deal.hand)
                exact += deal.exact * Fraction(left[hole - 1], sum(left))
    assert exact == Fraction(27968, 12909299)
    ties = tie_probabilities(rules=S17)
    assert ties.probability(Tie.BLACKJACK) == pytest.approx(float(exact), rel=1e-14)


def test_six_deck_s17_das_house_edge_with_re_splits_to_four_is_the_published_figure() -> None:
    # 6 decks, S17, double after split, re-split to 4 hands (no re-split Aces), no surrender, 3:2,
    # peek: published 0.40-0.41 % for basic strategy (0.406 %), 0.403 % for composition-dependent play.
    dealer = DealerOdds(hits_soft_17=False)
    figures = primary_totals(
        [
            RoundProgramme(shoe=shoe_counts(6), up=up, rules=S17, dealer=dealer).primary_values()
            for up in UP_CARDS
        ]
    )
    basic, best = -100 * figures.basic_resplit, -100 * figures.best_resplit
    assert 0.40 <= basic <= 0.41
    assert basic == pytest.approx(0.406, abs=0.005)
    assert best == pytest.approx(0.403, abs=0.005)
    assert best <= basic
    # One split without re-splits (the steering model) costs the player more.
    assert -100 * figures.basic_one_split > basic


# --- the primary's exact re-splits against whole rounds ----------------------------------------


def brute_force_primary(composition: Counts, rules: HouseRules) -> float:
    expected = 0.0

    def explore(values: tuple[int, ...], left: Counts, probability: float) -> None:
        nonlocal expected
        try:
            net = _play_primary(_Script(values).draw, rules)
        except _NeedCard:
            n = sum(left)
            for value in range(1, 11):
                count = left[value - 1]
                if count:
                    fewer = (*left[: value - 1], count - 1, *left[value:])
                    explore((*values, value), fewer, probability * count / n)
            return
        expected += probability * net

    explore((), composition, 1.0)
    return expected


@pytest.mark.parametrize(
    ("shoe", "rules"),
    [
        (EIGHTS_AND_TENS, HouseRules(max_hands=2)),
        (EIGHTS_AND_TENS, HouseRules(max_hands=3)),
        (EIGHTS_AND_TENS, HouseRules(max_hands=4)),
        (EIGHTS_AND_TENS, HouseRules(double_after_split=False, dealer=DealerRule.H17)),
        (ACES_AND_TENS, HouseRules(resplit_aces=False)),
        (ACES_AND_TENS, HouseRules(resplit_aces=True)),
        (SEVENS_NINES_TENS, HouseRules()),
    ],
    ids=["8T-2", "8T-3", "8T-4", "8T-noDAS-H17", "AT", "AT-RSA", "79T"],
)
def test_exact_re_splits_equal_whole_rounds_played_out(shoe: Counts, rules: HouseRules) -> None:
    dealer = DealerOdds(hits_soft_17=rules.dealer is DealerRule.H17)
    ups = [v for v in range(1, 11) if shoe[v - 1]]
    engine = primary_totals(
        [RoundProgramme(shoe=shoe, up=up, rules=rules, dealer=dealer).primary_values() for up in ups]
    )

    assert engine.basic_resplit == pytest.approx(brute_force_primary(shoe, rules), abs=1e-12)
    assert engine.best_resplit >= engine.basic_resplit - 1e-12


def test_the_re_split_terms_count_the_hands() -> None:
    # With every hand worth 1 (and a hand kept off the pair worth P(not a pair card)), the terms
    # add up to the expected number of hands: 2 without re-splits, 2 + 2 R1 - R2 up to three.
    assert resplit_terms(2) == ((True, 0, 2),)
    assert resplit_terms(3) == ((False, 0, 2), (False, 1, -1), (True, 1, 5), (True, 2, -2))
    n, q = 300, 22
    r1, r2 = Fraction(q, n), Fraction(q * (q - 1), n * (n - 1))

    def chance(r: int) -> Fraction:
        return Fraction(math.perm(q, r), math.perm(n, r))

    hands = sum(
        c * chance(r) * (1 if free else 1 - Fraction(q - r, n - r)) for free, r, c in resplit_terms(3)
    )
    assert hands == 2 + 2 * r1 - r2


# --- break-even pays and several paytables -----------------------------------------------------

SMALL_SHOE = (4, 0, 0, 0, 0, 0, 4, 4, 4, 16)


def test_at_the_break_even_pay_the_steered_bet_is_even() -> None:
    review = review_paytable(paytable=DEFAULT_PAYTABLE, rules=S17, composition=SMALL_SHOE)
    for even in review.steering.break_even:
        if math.isinf(even.steering):
            continue
        at = round(even.steering, 6)
        paytable = Paytable(version=9, pays={**DEFAULT_PAYTABLE.pays, even.kind: max(1, math.floor(at))})
        scenario = Scenario(even.kind.value, ((even.kind, 0.5),))
        below = steering_report(paytable=paytable, rules=S17, composition=SMALL_SHOE, scenarios=(scenario,))
        # Whole pays below the break-even pay are not flagged; the next whole pay up is.
        assert below.rows[0].flagged == (math.floor(at) >= even.steering), even.kind
        above = Paytable(version=9, pays={**DEFAULT_PAYTABLE.pays, even.kind: math.floor(at) + 1})
        flagged = steering_report(paytable=above, rules=S17, composition=SMALL_SHOE, scenarios=(scenario,))
        assert flagged.rows[0].flagged, even.kind
    # The flagged bets of this shoe are exactly those paid at or above their break-even pay.
    flagged_kinds = {k.value for k in BONUS_KINDS if k.value in review.flagged}
    assert flagged_kinds == {e.kind.value for e in review.steering.break_even if e.pays > e.steering}


def test_several_paytables_share_the_work_and_give_the_same_reviews() -> None:
    richer = Paytable(version=2, pays={**DEFAULT_PAYTABLE.pays, BonusKind.T21: 400})
    together = review_paytables(paytables=(DEFAULT_PAYTABLE, richer), rules=S17, composition=SMALL_SHOE)
    for paytable, review in zip((DEFAULT_PAYTABLE, richer), together, strict=True):
        alone = review_paytable(paytable=paytable, rules=S17, composition=SMALL_SHOE)
        assert review == alone


# --- the tie odds' exact split term --------------------------------------------------------------


@pytest.mark.parametrize(("up", "pair_value"), [(ACE, 8), (6, 2), (10, 8), (ACE, ACE)])
def test_the_split_term_equals_hand_1_played_out_in_full(
    up: int, pair_value: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a shoe nobody can run out of, dealing the dealer before the rest of hand 1 changes
    # nothing: the closed form (one extra dealer distribution per final hand 0) equals playing
    # hand 1 out in full before the dealer, as the table does.
    rules = HouseRules(dealer=DealerRule.H17, resplit_aces=True)
    shoe = (8, 8, 0, 0, 8, 8, 8, 8, 0, 16)
    pool = less_up(shoe, up)
    dealer = DealerOdds(hits_soft_17=True)
    dealer.prepare(pool, up)

    closed = tie_odds.split_ties(pool=pool, pair_value=pair_value, up=up, rules=rules, dealer=dealer)
    monkeypatch.setattr(tie_odds, "CARDS_NO_ROUND_RUNS_OUT", sum(shoe) + 1)
    played = tie_odds.split_ties(pool=pool, pair_value=pair_value, up=up, rules=rules, dealer=dealer)

    assert closed == pytest.approx(played, abs=1e-15)
    assert sum(closed) > 0
