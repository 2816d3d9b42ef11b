"""Tie probabilities and house edge of the tie-bonus wagers (PAYTABLE.md, RULES.md §1.3).

Small custom shoes keep every test fast and hand-checkable. A brute-force reference plays
whole rounds (deal, peek, basic strategy with splits and re-splits, dealer) over every card
sequence of a tiny shoe, independently of the engine's shortcuts, and settles the tie with
`resolution.find_tie`.
"""

import math
from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from blackjack.engine.rules import DealerRule, HouseRules
from bonus_tie.engine.basic_strategy import Play, basic_strategy_play
from bonus_tie.engine.dealer_odds import DealerOdds, blackjack_probability
from bonus_tie.engine.house_edge import house_edge_report, rules_summary, tie_probabilities
from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE, Paytable
from bonus_tie.engine.rank_counts import Counts, shoe_counts
from bonus_tie.engine.resolution import FinalHand, Tie, find_tie
from bonus_tie.engine.tie_odds import TIES, first_deals
from tests.bonus_tie.engine.scripted_hands import _Hand, _NeedCard, _Script

NO_SPLITS = HouseRules(max_hands=1)


def shoe(**counts: int) -> Counts:
    """A composition from keyword counts: A, two .. nine, T (e.g. shoe(T=6, nine=5))."""
    names = ("A", "two", "three", "four", "five", "six", "seven", "eight", "nine", "T")
    unknown = set(counts) - set(names)
    assert not unknown, unknown
    return tuple(counts.get(name, 0) for name in names)


def falling(n: int, k: int) -> int:
    return math.perm(n, k)


# --- hand-checked shoes ------------------------------------------------------------------------


def test_a_shoe_of_tens_always_ties_on_20() -> None:
    # Given only ten-value cards, every hand is 20 against a dealer 20.
    ties = tie_probabilities(rules=HouseRules(), composition=shoe(T=20))

    assert ties.probability(Tie.T20) == pytest.approx(1.0, abs=1e-12)
    assert ties.any_tie == pytest.approx(1.0, abs=1e-12)
    report = house_edge_report(paytable=DEFAULT_PAYTABLE, rules=HouseRules(), ties=ties)
    assert report.row(BonusKind.T20).house_edge == pytest.approx(1 - 26 * 1.0)
    assert report.row(BonusKind.T17).win_probability == 0.0


def test_tens_and_nines_tie_when_both_hands_match() -> None:
    # Given tens and nines and no splitting, nobody draws: the four cards decide.
    tens, nines = 6, 5
    n = tens + nines
    ties = tie_probabilities(rules=NO_SPLITS, composition=shoe(T=tens, nine=nines))

    four = falling(n, 4)
    assert ties.probability(Tie.T20) == pytest.approx(falling(tens, 4) / four, abs=1e-12)
    assert ties.probability(Tie.T18) == pytest.approx(falling(nines, 4) / four, abs=1e-12)
    # One ten and one nine each: 2 orders for the player times 2 for the dealer.
    both_19 = 4 * falling(tens, 2) * falling(nines, 2) / four
    assert ties.probability(Tie.T19) == pytest.approx(both_19, abs=1e-12)
    assert ties.probability(Tie.T17) == ties.probability(Tie.T21) == ties.probability(Tie.BLACKJACK) == 0.0


def test_tens_and_sevens_tie_on_17_20_and_a_three_card_21() -> None:
    # Given tens and sevens: 7-7 hits (14), the dealer's 7-7 hits too; 7-7-7 is a 21, not Blackjack.
    tens, sevens = 8, 8
    n = tens + sevens
    ties = tie_probabilities(rules=NO_SPLITS, composition=shoe(T=tens, seven=sevens))

    assert ties.probability(Tie.T20) == pytest.approx(falling(tens, 4) / falling(n, 4), abs=1e-12)
    both_17 = 4 * falling(tens, 2) * falling(sevens, 2) / falling(n, 4)
    assert ties.probability(Tie.T17) == pytest.approx(both_17, abs=1e-12)
    # Six sevens: player 7-7 (+7), dealer 7-7 (+7).
    assert ties.probability(Tie.T21) == pytest.approx(falling(sevens, 6) / falling(n, 6), abs=1e-12)
    assert ties.probability(Tie.BLACKJACK) == 0.0


@pytest.mark.parametrize(
    "rules", [HouseRules(), NO_SPLITS, HouseRules(dealer=DealerRule.H17, surrender=True)]
)
def test_both_blackjack_is_the_only_blackjack_tie(rules: HouseRules) -> None:
    # Given Aces and tens: a Blackjack tie needs A+T for the player and for the dealer.
    aces, tens = 4, 7
    ties = tie_probabilities(rules=rules, composition=shoe(A=aces, T=tens))

    expected = 4 * falling(aces, 2) * falling(tens, 2) / falling(aces + tens, 4)
    assert ties.probability(Tie.BLACKJACK) == pytest.approx(expected, abs=1e-12)


def test_a_split_ace_with_a_ten_is_a_21_that_ties_a_dealer_21() -> None:
    # Given A A 5 6 T T T: the dealer's only 21 is 5 + 6 + T (up 5, 6 or T) and the player's only
    # 21 is a split Ace with a ten, when the other split hand also takes a ten. By hand:
    # up 5 or 6 with the other small card in the hole: 1/420 each (the three tens are left);
    # up 5, 6 or T with a ten or a small card in the hole, hand 0 takes a ten (2/3) and
    # hand 1 the last ten (1/2): 1/420 each of the four other deals. In all 6/420 = 1/70.
    composition = shoe(A=2, five=1, six=1, T=3)

    ties = tie_probabilities(rules=HouseRules(), composition=composition)

    assert brute_force_ties(composition, HouseRules())[Tie.T21] == pytest.approx(1 / 70, abs=1e-12)
    # Hand 1's cards change the dealer's: exact all the same.
    assert ties.probability(Tie.T21) == pytest.approx(1 / 70, abs=1e-12)
    # A+T dealt to both: the Blackjack tie.
    assert ties.probability(Tie.BLACKJACK) == pytest.approx(4 * 2 * 6 / 840, abs=1e-12)


# --- basic strategy ----------------------------------------------------------------------------

S17 = HouseRules()
H17 = HouseRules(dealer=DealerRule.H17)
S17_LS = HouseRules(surrender=True)
H17_LS = HouseRules(dealer=DealerRule.H17, surrender=True)
NO_DAS = HouseRules(double_after_split=False)


@pytest.mark.parametrize(
    ("total", "soft", "pair", "up", "rules", "can_double", "expected"),
    [
        (11, False, None, 1, S17, True, Play.HIT),
        (11, False, None, 1, H17, True, Play.DOUBLE),
        (11, False, None, 10, S17, False, Play.HIT),  # third card: cannot double
        (12, False, None, 3, S17, True, Play.HIT),
        (12, False, None, 4, S17, True, Play.STAND),
        (16, False, None, 10, S17_LS, True, Play.SURRENDER),
        (16, False, None, 10, S17, True, Play.HIT),
        (15, False, None, 1, S17_LS, True, Play.HIT),
        (15, False, None, 1, H17_LS, True, Play.SURRENDER),
        (17, False, None, 1, H17_LS, True, Play.SURRENDER),
        (17, False, None, 1, S17_LS, True, Play.STAND),
        (18, False, None, 1, H17_LS, True, Play.STAND),
        (18, True, None, 2, S17, True, Play.STAND),
        (18, True, None, 2, H17, True, Play.DOUBLE),
        (18, True, None, 3, S17, False, Play.STAND),  # Ds without a double: stand
        (18, True, None, 9, S17, True, Play.HIT),
        (17, True, None, 2, S17, True, Play.HIT),
        (17, True, None, 3, S17, True, Play.DOUBLE),
        (19, True, None, 6, H17, True, Play.DOUBLE),
        (19, True, None, 6, S17, True, Play.STAND),
        (20, True, None, 6, H17, True, Play.STAND),
        (13, True, None, 5, S17, True, Play.DOUBLE),
        (13, True, None, 4, S17, True, Play.HIT),
        (16, False, 8, 1, H17_LS, True, Play.SURRENDER),
        (16, False, 8, 1, S17_LS, True, Play.SPLIT),
        (16, False, 8, 10, S17, True, Play.SPLIT),
        (8, False, 4, 5, S17, True, Play.SPLIT),
        (8, False, 4, 5, NO_DAS, True, Play.HIT),
        (4, False, 2, 3, S17, True, Play.SPLIT),
        (4, False, 2, 3, NO_DAS, True, Play.HIT),
        (4, False, 2, 4, NO_DAS, True, Play.SPLIT),
        (18, False, 9, 7, S17, True, Play.STAND),
        (18, False, 9, 8, S17, True, Play.SPLIT),
        (20, False, 10, 6, S17, True, Play.STAND),
        (12, True, 1, 1, S17, True, Play.SPLIT),
        (10, False, 5, 9, S17, True, Play.DOUBLE),
        (14, False, 7, 8, S17, True, Play.HIT),
        (21, True, None, 6, S17, True, Play.STAND),
    ],
)
def test_basic_strategy_chart(
    total: int, soft: bool, pair: int | None, up: int, rules: HouseRules, can_double: bool, expected: Play
) -> None:
    play = basic_strategy_play(
        total=total,
        soft=soft,
        pair=pair,
        up=up,
        rules=rules,
        can_double=can_double,
        can_split=pair is not None,
        can_surrender=rules.surrender,
    )
    assert play is expected


def test_a_pair_that_may_not_be_split_is_played_by_its_total() -> None:
    play = basic_strategy_play(
        total=16, soft=False, pair=8, up=10, rules=S17, can_double=True, can_split=False, can_surrender=False
    )
    assert play is Play.HIT


# --- report shape ------------------------------------------------------------------------------


def test_report_rows_follow_the_formulas() -> None:
    composition = shoe(A=2, two=2, six=2, eight=2, T=4)
    report = house_edge_report(paytable=DEFAULT_PAYTABLE, rules=HouseRules(), composition=composition)

    assert [row.kind for row in report.rows] == list(BONUS_KINDS)
    for row in report.rows:
        assert row.pays == DEFAULT_PAYTABLE.pays_to_one(row.kind)
        assert row.house_edge == pytest.approx(1 - (row.pays + 1) * row.win_probability)
        assert row.true_odds == pytest.approx((1 - row.win_probability) / row.win_probability)
        assert row.true_odds_text.endswith(" to 1")
        # The outcome distribution: win `pays` or lose the stake; its mean is minus the house edge.
        (win, p_win), (lose, p_lose) = row.outcomes
        assert (win, lose) == (row.pays, -1)
        assert p_win + p_lose == 1
        mean = win * p_win + lose * p_lose
        assert mean == pytest.approx(-row.house_edge, abs=1e-12)
        assert row.variance == pytest.approx(win**2 * p_win + lose**2 * p_lose - mean**2, abs=1e-12)
        assert row.std_deviation == pytest.approx(row.variance**0.5)
    ties = report.ties
    assert report.row(BonusKind.LS).win_probability == pytest.approx(
        sum(ties.probability(t) for t in (Tie.T17, Tie.T18, Tie.T19))
    )
    assert report.row(BonusKind.RS).win_probability == pytest.approx(
        sum(ties.probability(t) for t in (Tie.T20, Tie.T21, Tie.BLACKJACK))
    )
    assert "Exact" in report.method
    assert "no simulation, standard error 0" in report.method
    assert "custom shoe" in report.rules_summary


def test_report_reuses_tie_probabilities_for_another_paytable() -> None:
    composition = shoe(two=2, six=2, seven=3, T=6)
    ties = tie_probabilities(rules=HouseRules(), composition=composition)
    richer = Paytable(version=2, pays={**DEFAULT_PAYTABLE.pays, BonusKind.T17: 60})

    report = house_edge_report(paytable=richer, rules=HouseRules(), ties=ties)

    assert report.paytable_version == 2
    p = ties.win_probability(BonusKind.T17)
    assert report.row(BonusKind.T17).house_edge == pytest.approx(1 - 61 * p)
    with pytest.raises(ValueError, match="other house rules"):
        house_edge_report(paytable=richer, rules=NO_SPLITS, ties=ties)


def test_progress_is_reported_once_per_up_card() -> None:
    calls: list[tuple[int, int]] = []
    tie_probabilities(
        rules=NO_SPLITS, composition=shoe(A=1, five=2, T=4), progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_rules_summary_names_the_table_rules() -> None:
    text = rules_summary(HouseRules(decks=8, dealer=DealerRule.H17, surrender=True))
    assert text.startswith("8 decks, dealer hits soft 17 (H17)")
    assert "late surrender" in text


# --- dealer odds and deals ---------------------------------------------------------------------


def test_first_deals_cover_every_deal() -> None:
    full = shoe_counts(6)
    total = sum(deal.probability for up in range(1, 11) for deal in first_deals(full, up))
    assert total == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("hits_soft_17", [False, True])
@pytest.mark.parametrize("up", range(1, 11))
def test_dealer_outcomes_and_blackjack_add_up_to_one(up: int, hits_soft_17: bool) -> None:
    remaining = list(shoe_counts(6))
    remaining[up - 1] -= 1
    left = tuple(remaining)
    dealer = DealerOdds(hits_soft_17=hits_soft_17)
    assert sum(dealer.final_totals(left, up)) + blackjack_probability(left, up) == pytest.approx(
        1.0, abs=1e-12
    )


def test_dealer_busts_showing_a_six_as_published() -> None:
    # Six decks, S17: the dealer busts 42.28 % of the time with a 6 up (published tables).
    remaining = list(shoe_counts(6))
    remaining[5] -= 1
    bust = DealerOdds(hits_soft_17=False).final_totals(tuple(remaining), 6)[5]
    assert bust == pytest.approx(0.4228, abs=0.0001)


def test_h17_and_s17_agree_without_aces() -> None:
    # Given no Aces there is no soft 17 and basic strategy differs only against an Ace.
    composition = shoe(two=2, five=2, six=3, T=5)
    s17 = tie_probabilities(rules=HouseRules(), composition=composition)
    h17 = tie_probabilities(rules=HouseRules(dealer=DealerRule.H17), composition=composition)
    assert [r.probability for r in s17.rows] == pytest.approx([r.probability for r in h17.rows], abs=1e-12)


# --- brute force -------------------------------------------------------------------------------


def _play_round(draw: Callable[[], int], rules: HouseRules) -> Tie | None:
    """One round, one seat, basic strategy; the tie for the bonus wagers (RULES.md §1.2-1.3)."""
    first, up, second, hole = draw(), draw(), draw(), draw()
    dealer = [up, hole]
    player_blackjack = sorted((first, second)) == [1, 10]
    dealer_blackjack = sorted(dealer) == [1, 10]
    if dealer_blackjack:
        return find_tie(
            hands_at_seat=1,
            bonus_hand=FinalHand(_Hand([first, second]).total[0], blackjack=player_blackjack),
            dealer=FinalHand(21, blackjack=True),
        )
    if player_blackjack:
        return find_tie(
            hands_at_seat=1,
            bonus_hand=FinalHand(21, blackjack=True),
            dealer=FinalHand(_Hand(dealer).total[0]),
        )
    hands = [_Hand([first, second])]
    i = 0
    while i < len(hands):
        hand = hands[i]
        while not hand.done:
            if len(hand.cards) == 1:
                hand.cards.append(draw())
            total, soft = hand.total
            split_ace = hand.split_from == 1 and rules.split_aces_one_card
            pair = hand.cards[0] if len(hand.cards) == 2 and hand.cards[0] == hand.cards[1] else None
            can_split = (
                pair is not None
                and len(hands) < rules.max_hands
                and not (pair == 10 and not rules.split_by_value)
                and not (pair == 1 and hand.split_from is not None and not rules.resplit_aces)
            )
            if total >= 21 or (split_ace and not can_split):
                hand.done = True
                break
            play = basic_strategy_play(
                total=total,
                soft=soft,
                pair=pair,
                up=up,
                rules=rules,
                can_double=len(hand.cards) == 2
                and not split_ace
                and (rules.double_any_two or total in (9, 10, 11))
                and (rules.double_after_split or hand.split_from is None),
                can_split=can_split,
                can_surrender=rules.surrender and len(hands) == 1 and len(hand.cards) == 2,
            )
            if split_ace and play is not Play.SPLIT:
                play = Play.STAND
            if play is Play.STAND:
                hand.done = True
            elif play is Play.SURRENDER:
                hand.surrendered = hand.done = True
            elif play is Play.SPLIT:
                assert pair is not None
                hand.cards = [pair]
                hand.split_from = pair
                hands.insert(i + 1, _Hand([pair], split_from=pair))
            elif play is Play.DOUBLE:
                hand.cards.append(draw())
                hand.doubled = hand.done = True
            else:
                hand.cards.append(draw())
        i += 1
    if any(h.total[0] <= 21 and not h.surrendered for h in hands):
        while True:
            total, soft = _Hand(dealer).total
            if total < 17 or (total == 17 and soft and rules.dealer is DealerRule.H17):
                dealer.append(draw())
            else:
                break
    bonus = hands[0]
    return find_tie(
        hands_at_seat=len(hands),
        bonus_hand=FinalHand(bonus.total[0], surrendered=bonus.surrendered),
        dealer=FinalHand(_Hand(dealer).total[0]),
    )


def brute_force_ties(composition: Counts, rules: HouseRules) -> dict[Tie, float]:
    """Exact P(each tie) by playing every card sequence; rounds that run out of cards are void."""
    found = dict.fromkeys(TIES, 0.0)

    def explore(values: tuple[int, ...], left: Counts, probability: float) -> None:
        try:
            tie = _play_round(_Script(values).draw, rules)
        except _NeedCard:
            n = sum(left)
            for value in range(1, 11):
                count = left[value - 1]
                if count:
                    fewer = (*left[: value - 1], count - 1, *left[value:])
                    explore((*values, value), fewer, probability * count / n)
            return
        if tie is not None:
            found[tie] += probability

    explore((), composition, 1.0)
    return found


def test_brute_force_reference_matches_the_hand_count() -> None:
    tens, sevens = 8, 8
    brute = brute_force_ties(shoe(T=tens, seven=sevens), NO_SPLITS)
    assert brute[Tie.T21] == pytest.approx(falling(sevens, 6) / falling(tens + sevens, 6), abs=1e-12)


small_rules = st.builds(
    HouseRules,
    dealer=st.sampled_from(list(DealerRule)),
    double_any_two=st.booleans(),
    double_after_split=st.booleans(),
    max_hands=st.sampled_from([1, 2, 3, 4]),
    split_aces_one_card=st.booleans(),
    resplit_aces=st.booleans(),
    surrender=st.booleans(),
)


@st.composite
def small_shoes(draw: st.DrawFn) -> Counts:
    """7 to 10 cards of two or three values: big enough for ties, small enough to enumerate."""
    values = draw(st.lists(st.integers(1, 10), min_size=2, max_size=3, unique=True))
    counts = [0] * 10
    for value in values:
        counts[value - 1] = draw(st.integers(2, 5))
    assume(7 <= sum(counts) <= 10)
    return tuple(counts)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(composition=small_shoes(), rules=small_rules)
def test_engine_matches_brute_force_on_small_shoes(composition: Counts, rules: HouseRules) -> None:
    # Given a tiny shoe and any rules, the engine's ties equal the exhaustive reference exactly
    # (to rounding), split hands included.
    engine = tie_probabilities(rules=rules, composition=composition)
    brute = brute_force_ties(composition, rules)
    for row in engine.rows:
        assert row.probability == pytest.approx(brute[row.tie], abs=1e-12), row.tie


@settings(max_examples=25, deadline=None)
@given(composition=small_shoes(), rules=small_rules)
def test_group_bets_partition_every_tie(composition: Counts, rules: HouseRules) -> None:
    # The ties are mutually exclusive: P(LS) + P(RS) = P(any tie) = the sum of the straight-up bets.
    report = house_edge_report(paytable=DEFAULT_PAYTABLE, rules=rules, composition=composition)
    p = {row.kind: row.win_probability for row in report.rows}
    any_tie = report.ties.any_tie
    assert p[BonusKind.LS] + p[BonusKind.RS] == pytest.approx(any_tie, abs=1e-12)
    straight = sum(
        p[k]
        for k in (BonusKind.T17, BonusKind.T18, BonusKind.T19, BonusKind.T20, BonusKind.T21, BonusKind.TBJ)
    )
    assert straight == pytest.approx(any_tie, abs=1e-12)
    assert 0.0 <= any_tie <= 1.0 + 1e-12
