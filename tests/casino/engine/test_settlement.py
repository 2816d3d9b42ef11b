"""Settling primary, insurance and surrender lines, totals, the aggregate limit and voids."""

import pytest

from blackjack.engine.round import RoundClosedError, mark_settled, staked_cents
from blackjack.engine.rules import BLACKJACK_6_TO_5, HouseRules
from blackjack.engine.settlement import NotReadyToSettleError, Result, settle, void_settlement
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE
from bonus_tie.engine.tie_bonus import TIE_BONUS
from casino.engine.money import InvalidAmountError
from tests.casino.engine.helpers import act, deal, outcome, settled, started, wagers

# --- primary wagers (RULES.md §1.2) ---------------------------------------------------------------


def test_a_hand_closer_to_21_than_the_dealer_wins_even_money() -> None:
    state = act(started("TS 7C 9H TD", wagers(1, 1000)), 1, 0, "stand")
    assert outcome(settled(state), 1, "primary") == ("win", 1000, 2000)


def test_a_hand_further_from_21_loses() -> None:
    state = act(started("TS 9C 7H TD", wagers(1, 1000)), 1, 0, "stand")
    assert outcome(settled(state), 1, "primary") == ("lose", 0, 0)


def test_when_the_dealer_busts_a_standing_hand_wins() -> None:
    state = deal(act(started("TS 6C 8H TD", wagers(1, 1000)), 1, 0, "stand"), "9S")
    assert outcome(settled(state), 1, "primary") == ("win", 1000, 2000)


def test_a_bust_hand_loses_even_if_the_dealer_busts_too() -> None:
    # given seat 1 busts and seat 2 stands, then the dealer busts
    state = started("TS 9D 6C 6D 9H TD", wagers(1), wagers(2))
    state = deal(act(state, 1, 0, "hit"), "KC")
    state = deal(act(state, 2, 0, "stand"), "9S")
    result = settled(state)
    # then seat 1 still loses and seat 2 wins
    assert outcome(result, 1, "primary") == ("lose", 0, 0)
    assert outcome(result, 2, "primary") == ("win", 1000, 2000)


def test_equal_totals_push() -> None:
    state = act(started("TS 7C 7H TD", wagers(1, 1000)), 1, 0, "stand")
    assert outcome(settled(state), 1, "primary") == ("push", 0, 1000)


def test_blackjack_pays_3_to_2_rounded_down() -> None:
    # given a 5-cent primary and a natural against a dealer 9 + 8
    state = started("AS 9C KH 8D", wagers(1, 5))
    # then it wins 7 cents (7.5 rounded down) and pays 12
    assert outcome(settled(state), 1, "primary") == ("win", 7, 12)


def test_blackjack_pays_6_to_5_when_the_table_selects_it() -> None:
    state = started("AS 9C KH 8D", wagers(1, 1000), rules=HouseRules(blackjack_pays=BLACKJACK_6_TO_5))
    assert outcome(settled(state), 1, "primary") == ("win", 1200, 2200)


def test_a_natural_beats_a_dealer_three_card_21_at_the_blackjack_rate() -> None:
    state = started("AS TS 5C KH 7H 6D", wagers(1, 1000), wagers(2, 1000))
    state = deal(act(state, 2, 0, "stand"), "TC")  # dealer 5 + 6 + 10 = 21
    result = settled(state)
    assert outcome(result, 1, "primary") == ("win", 1500, 2500)
    assert outcome(result, 2, "primary") == ("lose", 0, 0)


def test_dealer_blackjack_pushes_player_blackjacks_and_beats_every_other_primary() -> None:
    state = started("9S AS TS 9H KH AH", wagers(1), wagers(2))
    result = settled(state)
    assert outcome(result, 1, "primary") == ("lose", 0, 0)
    assert outcome(result, 2, "primary") == ("push", 0, 1000)


def test_insurance_pays_2_to_1_when_the_dealer_has_blackjack() -> None:
    state = act(started("9S AS 9H KD", wagers(1, 1000)), 1, 0, "insurance", 500)
    result = settled(state)
    assert outcome(result, 1, "insurance") == ("win", 1000, 1500)
    assert outcome(result, 1, "primary") == ("lose", 0, 0)
    assert result.house_net_cents == 0


def test_insurance_loses_when_the_dealer_has_no_blackjack() -> None:
    state = act(act(started("9S AH 9H 7C", wagers(1, 1000)), 1, 0, "insurance", 333), 1, 0, "stand")
    result = settled(state)
    assert outcome(result, 1, "insurance") == ("lose", 0, 0)
    assert outcome(result, 1, "primary") == ("push", 0, 1000)


def test_surrender_returns_half_the_primary_rounded_down() -> None:
    state = act(started("TS 9C 6D TD", wagers(1, 1001), rules=HouseRules(surrender=True)), 1, 0, "surrender")
    assert outcome(settled(state), 1, "primary") == ("surrender", 0, 500)


def test_a_doubled_hands_line_includes_the_double() -> None:
    state = deal(act(started("6S 7C 5H TD", wagers(1, 1000)), 1, 0, "double"), "9S")
    line = settled(state).lines[0]
    assert (line.amount_cents, line.result, line.win_cents, line.paid_cents) == (2000, Result.WIN, 2000, 4000)


def test_each_split_hand_has_its_own_primary_line() -> None:
    state = deal(act(started("8S 7C 8H TD", wagers(1, 1000)), 1, 0, "split"), "TS")  # 18
    state = deal(act(state, 1, 0, "stand"), "2S")  # hand 1: 8H 2S
    state = deal(act(state, 1, 1, "hit"), "5S")  # 15
    state = act(state, 1, 1, "stand")
    result = settled(state)
    assert [(x.hand, x.amount_cents, str(x.result)) for x in result.lines] == [
        (0, 1000, "win"),
        (1, 1000, "lose"),
    ]


def test_settle_is_refused_before_the_round_is_ready() -> None:
    state = started("TS 7C 9H TD", wagers(1))
    with pytest.raises(NotReadyToSettleError) as raised:
        settle(state, side_bet=TIE_BONUS.on(DEFAULT_PAYTABLE), aggregate_limit_cents=None)
    assert raised.value.code == "not_ready_to_settle"


def test_settle_is_refused_once_settled() -> None:
    state = mark_settled(act(started("TS 7C 9H TD", wagers(1)), 1, 0, "stand"))
    with pytest.raises(NotReadyToSettleError):
        settle(state, side_bet=TIE_BONUS.on(DEFAULT_PAYTABLE), aggregate_limit_cents=None)


def test_the_aggregate_limit_must_be_int_cents() -> None:
    state = act(started("TS 7C 9H TD", wagers(1)), 1, 0, "stand")
    with pytest.raises(InvalidAmountError):
        settle(state, side_bet=TIE_BONUS.on(DEFAULT_PAYTABLE), aggregate_limit_cents=-1)


def test_the_settlement_has_the_api_shape_and_house_net_is_wagered_minus_paid() -> None:
    # given seat 2: primary 10000 and T18 200; player and dealer both make 18
    state = act(started("TS 8C 8H TD", wagers(2, 10000, T18=200)), 2, 0, "stand")
    # when settled
    result = settled(state)
    # then the primary pushes and T18 wins 45 to 1
    assert result.to_dict() == {
        "wagered_cents": 10200,
        "paid_cents": 19200,
        "house_net_cents": -9000,
        "aggregate_limit_applied": False,
        "aggregate_reduction_cents": 0,
        "seats": [
            {
                "seat": 2,
                "wagers": [
                    {"kind": "primary", "hand": 0, "amount_cents": 10000, "result": "push", "win_cents": 0,
                     "paid_cents": 10000},
                    {"kind": "T18", "hand": 0, "amount_cents": 200, "result": "win", "win_cents": 9000,
                     "paid_cents": 9200},
                ],
            }
        ],
    }  # fmt: skip


# --- the aggregate limit (RULES.md §1.4) ----------------------------------------------------------


def test_aggregate_limit_scales_bonus_winnings_so_the_round_pays_exactly_the_limit() -> None:
    # given two seats tying the dealer on 18: winnings 4500 (T18) + 1500 (LS) and 2250 (T18) = 8250
    state = started("TS 9S 8C 8H 9H TD", wagers(1, 1000, T18=100, LS=100), wagers(2, 1000, T18=50))
    state = act(act(state, 1, 0, "stand"), 2, 0, "stand")
    # when settled with an aggregate limit of 1000
    result = settled(state, limit=1000)
    # then 545.45 / 181.81 / 272.72 round down to 545 / 181 / 272 and the two leftover cents go to
    # the largest remainders (.81 and .72)
    assert outcome(result, 1, "T18") == ("win", 545, 645)
    assert outcome(result, 1, "LS") == ("win", 182, 282)
    assert outcome(result, 2, "T18") == ("win", 273, 323)
    assert (result.aggregate_limit_applied, result.aggregate_reduction_cents) == (True, 7250)


def test_aggregate_leftover_cent_ties_go_to_the_lower_seat() -> None:
    state = started("TS 9S 8C 8H 9H TD", wagers(2, 1000, T18=100), wagers(1, 1000, T18=100))
    state = act(act(state, 1, 0, "stand"), 2, 0, "stand")
    result = settled(state, limit=1001)
    assert (outcome(result, 1, "T18")[1], outcome(result, 2, "T18")[1]) == (501, 500)


def test_aggregate_leftover_cent_ties_at_one_seat_go_by_bet_kind_order() -> None:
    # T18 100 and LS 300 both win 4500; the tie-break order puts T18 before LS
    state = act(started("TS 8C 8H TD", wagers(1, 1000, LS=300, T18=100)), 1, 0, "stand")
    result = settled(state, limit=1001)
    assert (outcome(result, 1, "T18")[1], outcome(result, 1, "LS")[1]) == (501, 500)


def test_aggregate_limit_counts_winnings_only_and_does_not_apply_below_it() -> None:
    state = act(started("TS 8C 8H TD", wagers(1, 1000, T18=100)), 1, 0, "stand")
    result = settled(state, limit=4500)
    assert outcome(result, 1, "T18") == ("win", 4500, 4600)
    assert (result.aggregate_limit_applied, result.aggregate_reduction_cents) == (False, 0)


def test_a_zero_aggregate_limit_still_returns_the_winning_stakes() -> None:
    state = act(started("TS 8C 8H TD", wagers(1, 1000, T18=100)), 1, 0, "stand")
    result = settled(state, limit=0)
    assert outcome(result, 1, "T18") == ("win", 0, 100)
    assert result.aggregate_reduction_cents == 4500


def test_the_aggregate_limit_leaves_primary_wagers_alone() -> None:
    # given seat 1 ties on 18 with T18 and seat 2 has a natural
    state = act(started("TS AS 8C 8H KD TD", wagers(1, 1000, T18=100), wagers(2, 1000)), 1, 0, "stand")
    # when settled with a limit of 10 cents
    result = settled(state, limit=10)
    # then only the bonus winnings are cut
    assert outcome(result, 1, "T18") == ("win", 10, 110)
    assert outcome(result, 2, "primary") == ("win", 1500, 2500)
    assert result.aggregate_reduction_cents == 4490


# --- void ------------------------------------------------------------------------------------------


def test_a_void_round_returns_every_wager_staked_so_far() -> None:
    # given a round with bonus wagers, insurance, a split and a double
    state = started("8S 9C AH 8H 9H 7C", wagers(1, 1000, T18=100, RS=200), wagers(3, 500))
    state = act(act(state, 1, 0, "insurance", 300), 3, 0, "decline_insurance")
    state = act(deal(act(state, 1, 0, "split"), "3C"), 1, 0, "double")
    # when voided
    returned = void_settlement(state)
    # then every line is returned in full and the house nets nothing
    assert [
        (x.seat, str(x.kind), x.hand, x.amount_cents, str(x.result), x.paid_cents) for x in returned.lines
    ] == [
        (1, "primary", 0, 2000, "push", 2000),
        (1, "primary", 1, 1000, "push", 1000),
        (1, "insurance", 0, 300, "push", 300),
        (1, "T18", 0, 100, "push", 100),
        (1, "RS", 0, 200, "push", 200),
        (3, "primary", 0, 500, "push", 500),
    ]
    assert (returned.wagered_cents, returned.paid_cents, returned.house_net_cents) == (4100, 4100, 0)
    assert returned.wagered_cents == staked_cents(state)


def test_a_settled_round_cannot_be_voided() -> None:
    state = mark_settled(act(started("TS 7C 9H TD", wagers(1)), 1, 0, "stand"))
    with pytest.raises(RoundClosedError):
        void_settlement(state)
