"""Tie-bonus resolution, RULES.md §1.3 rules 1-9: unit cases and whole rounds through settlement."""

import pytest

from blackjack.engine.rules import HouseRules
from bonus_tie.engine.kinds import BonusKind
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE
from bonus_tie.engine.resolution import FinalHand, Tie, find_tie, winning_kinds
from tests.casino.engine.helpers import act, deal, outcome, settled, started, wagers

BJ = FinalHand(total=21, blackjack=True)


def tie(player: FinalHand, dealer: FinalHand, hands: int = 1) -> Tie | None:
    return find_tie(hands_at_seat=hands, bonus_hand=player, dealer=dealer)


# --- unit cases ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "expected", "kinds"),
    [
        (17, Tie.T17, {BonusKind.T17, BonusKind.LS}),
        (18, Tie.T18, {BonusKind.T18, BonusKind.LS}),
        (19, Tie.T19, {BonusKind.T19, BonusKind.LS}),
        (20, Tie.T20, {BonusKind.T20, BonusKind.RS}),
        (21, Tie.T21, {BonusKind.T21, BonusKind.RS}),
    ],
)
def test_rule_6_equal_totals_from_17_to_21_tie_and_win_their_straight_up_and_side_bets(
    total: int, expected: Tie, kinds: set[BonusKind]
) -> None:
    found = tie(FinalHand(total), FinalHand(total))
    assert found is expected
    assert winning_kinds(found) == kinds


@pytest.mark.parametrize(("player", "dealer"), [(16, 16), (12, 12), (22, 22), (25, 23), (18, 19), (20, 22)])
def test_rule_6_no_tie_below_17_on_a_bust_or_on_unequal_totals(player: int, dealer: int) -> None:
    assert tie(FinalHand(player), FinalHand(dealer)) is None
    assert winning_kinds(None) == frozenset()


def test_rule_6_a_blackjack_never_ties_a_21() -> None:
    assert tie(BJ, FinalHand(21)) is None
    assert tie(FinalHand(21), BJ) is None


def test_rule_5_both_blackjack_is_the_blackjack_tie_winning_tbj_and_rs() -> None:
    assert tie(BJ, BJ) is Tie.BLACKJACK
    assert winning_kinds(Tie.BLACKJACK) == {BonusKind.TBJ, BonusKind.RS}


def test_rule_4_player_blackjack_against_no_dealer_blackjack_loses_all_bonus_wagers() -> None:
    assert tie(BJ, FinalHand(17)) is None


def test_rule_3_a_surrendered_bonus_hand_loses_all_bonus_wagers() -> None:
    assert tie(FinalHand(17, surrendered=True), FinalHand(17)) is None


def test_rule_2_three_or_more_hands_lose_all_bonus_wagers() -> None:
    assert tie(FinalHand(18), FinalHand(18), hands=2) is Tie.T18
    assert tie(FinalHand(18), FinalHand(18), hands=3) is None
    assert tie(FinalHand(18), FinalHand(18), hands=4) is None


def test_rule_7_a_split_ace_21_is_not_blackjack_and_ties_a_dealer_21() -> None:
    assert tie(FinalHand(21, blackjack=False), FinalHand(21)) is Tie.T21


# --- whole rounds --------------------------------------------------------------------------------


def test_the_seed_example_t18_wins_45_to_1_and_t21_loses_on_a_tie_at_18() -> None:
    # given T18 and T21 bets; player 18 and dealer 18
    state = act(started("TS TC 8D 8C", wagers(1, 1000, T18=100, T21=100)), 1, 0, "stand")
    result = settled(state)
    # then T18 pays 45 to 1, T21 is collected and the primary pushes (rule 8)
    assert outcome(result, 1, "T18") == ("win", 4500, 4600)
    assert outcome(result, 1, "T21") == ("lose", 0, 0)
    assert outcome(result, 1, "primary") == ("push", 0, 1000)


def test_rule_8_side_bets_pay_their_group_line_and_straight_ups_their_own() -> None:
    state = act(started("TS TC 9D 9C", wagers(1, 1000, T19=100, LS=100, RS=100)), 1, 0, "stand")
    result = settled(state)
    assert outcome(result, 1, "T19") == ("win", 4500, 4600)
    assert outcome(result, 1, "LS") == ("win", 1500, 1600)
    assert outcome(result, 1, "RS") == ("lose", 0, 0)


@pytest.mark.parametrize(
    ("deal_text", "kind", "win"),
    [
        ("TS TC 7D 7C", "T17", 4500),
        ("TS TC 8D 8C", "T18", 4500),
        ("TS TC 9D 9C", "T19", 4500),
        ("TS TC KD QC", "T20", 2500),
    ],
)
def test_rule_6_ties_on_17_to_20_pay_the_paytable(deal_text: str, kind: str, win: int) -> None:
    state = act(started(deal_text, wagers(1, 1000, **{kind: 100})), 1, 0, "stand")
    assert outcome(settled(state), 1, kind) == ("win", win, win + 100)


def test_rule_6_a_tie_on_21_wins_t21_and_rs() -> None:
    # given player 7 7 7 = 21 and a dealer 5 6 + 10 = 21
    state = deal(act(started("7S 5C 7H 6C", wagers(1, 1000, T21=100, RS=100)), 1, 0, "hit"), "7D TC")
    result = settled(state)
    assert outcome(result, 1, "T21") == ("win", 15000, 15100)
    assert outcome(result, 1, "RS") == ("win", 2000, 2100)


def test_rule_5_both_blackjack_wins_tbj_and_rs_and_the_primary_pushes() -> None:
    state = started("AS TS KH AH", wagers(1, 1000, TBJ=100, RS=100, T21=100))
    result = settled(state)
    assert outcome(result, 1, "TBJ") == ("win", 35000, 35100)
    assert outcome(result, 1, "RS") == ("win", 2000, 2100)
    assert outcome(result, 1, "T21") == ("lose", 0, 0)
    assert outcome(result, 1, "primary") == ("push", 0, 1000)


def test_rule_4_player_blackjack_against_a_dealer_without_one_loses_every_bonus_wager() -> None:
    state = started("AS 9C KH TD", wagers(1, 1000, TBJ=100, RS=100, T21=100))
    result = settled(state)
    assert [outcome(result, 1, k)[0] for k in ("T21", "TBJ", "RS")] == ["lose", "lose", "lose"]
    assert outcome(result, 1, "primary") == ("win", 1500, 2500)


def test_rule_4_a_blackjack_never_ties_a_dealer_three_card_21() -> None:
    state = deal(
        act(
            started("AS TS 5C KH 7H 6D", wagers(1, 1000, TBJ=100, T21=100, RS=100), wagers(2)), 2, 0, "stand"
        ),
        "TC",
    )
    result = settled(state)
    assert [outcome(result, 1, k)[0] for k in ("T21", "TBJ", "RS")] == ["lose", "lose", "lose"]


def test_rule_3_a_surrendered_bonus_hand_loses_even_on_equal_totals() -> None:
    # given player 17 against a dealer 17, and the player surrenders
    rules = HouseRules(surrender=True)
    state = act(started("TS TC 7D 7C", wagers(1, 1000, T17=100, LS=100), rules=rules), 1, 0, "surrender")
    result = settled(state)
    assert outcome(result, 1, "T17") == ("lose", 0, 0)
    assert outcome(result, 1, "LS") == ("lose", 0, 0)
    assert outcome(result, 1, "primary") == ("surrender", 0, 500)


def test_rule_1_after_a_split_only_hand_0_counts_for_the_bonus() -> None:
    # given 8 8 against a dealer 18, split: hand 0 makes 18, hand 1 makes 17
    state = act(
        deal(act(started("8S 8C 8H TD", wagers(1, 1000, T18=100, T17=100)), 1, 0, "split"), "TS"),
        1,
        0,
        "stand",
    )
    state = act(deal(state, "9C"), 1, 1, "stand")
    result = settled(state)
    assert outcome(result, 1, "T18") == ("win", 4500, 4600)
    assert outcome(result, 1, "T17") == ("lose", 0, 0)


def test_rule_1_a_tie_on_the_new_split_hand_does_not_count() -> None:
    # hand 0 makes 17, hand 1 makes 18 = the dealer's 18: the bonus loses
    state = act(
        deal(act(started("8S 8C 8H TD", wagers(1, 1000, T18=100)), 1, 0, "split"), "9S"), 1, 0, "stand"
    )
    state = act(deal(state, "TC"), 1, 1, "stand")
    result = settled(state)
    assert outcome(result, 1, "T18") == ("lose", 0, 0)
    assert outcome(result, 1, "primary", hand=1) == ("push", 0, 1000)


def test_rule_2_splitting_more_than_once_loses_every_bonus_wager() -> None:
    # given 8 8 split, hand 0 draws 8 and splits again, then makes 18 against a dealer 18
    state = deal(act(started("8S 8C 8H TD", wagers(1, 1000, T18=100, LS=100)), 1, 0, "split"), "8D")
    state = deal(act(state, 1, 0, "split"), "TS")
    state = act(state, 1, 0, "stand")
    for hand in (1, 2):
        state = act(deal(state, "TC"), 1, hand, "stand")
    result = settled(state)
    assert len(state.seat(1).hands) == 3
    assert state.seat(1).hands[0].total == 18
    assert outcome(result, 1, "T18") == ("lose", 0, 0)
    assert outcome(result, 1, "LS") == ("lose", 0, 0)


def test_split_ace_ten_is_21_not_blackjack_and_wins_T21() -> None:
    # rule 7: AS AH split, hand 0 draws a K (21, not Blackjack); the dealer makes 5 6 10 = 21
    state = act(started("AS 5C AH 6C", wagers(1, 1000, T21=100, TBJ=100, RS=100)), 1, 0, "split")
    state = deal(state, "KD 9S TC")
    result = settled(state)
    assert state.seat(1).hands[0].blackjack is False
    assert outcome(result, 1, "T21") == ("win", 15000, 15100)
    assert outcome(result, 1, "RS") == ("win", 2000, 2100)
    assert outcome(result, 1, "TBJ") == ("lose", 0, 0)
    assert outcome(result, 1, "primary", hand=0) == ("push", 0, 1000)


def test_rule_9_doubling_does_not_change_the_bonus_stake() -> None:
    # given 6 5 doubled to 18 against a dealer 18
    state = deal(act(started("6S TC 5H 8C", wagers(1, 1000, T18=100)), 1, 0, "double"), "7C")
    result = settled(state)
    assert outcome(result, 1, "T18") == ("win", 4500, 4600)
    assert (outcome(result, 1, "primary"), result.lines[0].amount_cents) == (("push", 0, 2000), 2000)


def test_a_round_settles_with_the_paytable_it_is_given() -> None:
    from blackjack.engine.settlement import settle
    from bonus_tie.engine.paytable import DEFAULT_PAYS, Paytable
    from bonus_tie.engine.tie_bonus import TIE_BONUS

    state = act(started("TS TC 8D 8C", wagers(1, 1000, T18=100)), 1, 0, "stand")
    richer = Paytable(version=2, pays={**DEFAULT_PAYS, BonusKind.T18: 50})
    assert settle(state, side_bet=TIE_BONUS.on(richer), aggregate_limit_cents=None).lines[1].win_cents == 5000
    assert (
        settle(state, side_bet=TIE_BONUS.on(DEFAULT_PAYTABLE), aggregate_limit_cents=None).lines[1].win_cents
        == 4500
    )
