from decimal import Decimal

import pytest
from hypothesis import given

from blackjack.engine.rules import BLACKJACK_3_TO_2, BLACKJACK_6_TO_5, INSURANCE_PAYS
from casino.engine import money
from casino.engine.money import InvalidAmountError, Ratio
from tests.strategies import cents, prorations, ratios


@pytest.mark.parametrize(
    ("stake", "ratio", "expected"),
    [
        (5, BLACKJACK_3_TO_2, 7),  # RULES.md §1.2 example: 3:2 on 5 cents pays 7
        (1000, BLACKJACK_3_TO_2, 1500),
        (1, BLACKJACK_3_TO_2, 1),
        (5, BLACKJACK_6_TO_5, 6),
        (1001, BLACKJACK_6_TO_5, 1201),
        (333, INSURANCE_PAYS, 666),
        (200, Ratio(45), 9000),
        (0, BLACKJACK_3_TO_2, 0),
    ],
)
def test_payouts_are_rounded_down_to_the_cent(stake: int, ratio: Ratio, expected: int) -> None:
    # given a stake and odds / when paid / then the exact figure, rounded down
    assert money.pay_odds(stake, ratio) == expected


def test_blackjack_3_to_2_on_5_cents_pays_7_cents() -> None:
    assert money.pay_odds(5, BLACKJACK_3_TO_2) == 7


def test_the_rounding_rule_is_named_round_down() -> None:
    assert money.ROUNDING == "ROUND_DOWN"


@pytest.mark.parametrize("bad", [5.0, Decimal(5), True, False, "5", None, -1])
def test_money_rejects_anything_but_non_negative_int_cents(bad: object) -> None:
    with pytest.raises(InvalidAmountError) as raised:
        money.pay_odds(bad, BLACKJACK_3_TO_2)  # type: ignore[arg-type]
    assert raised.value.code == "invalid_amount"


@pytest.mark.parametrize(("cents", "half"), [(0, 0), (1, 0), (5, 2), (1001, 500), (2501, 1250)])
def test_half_floor_rounds_down(cents: int, half: int) -> None:
    assert money.half_floor(cents) == half


def test_primary_2501_allows_1250_a_side() -> None:
    # RULES.md §1.3: "primary / 2" is exact, 1,250.5 -> at most 1,250 cents a side
    assert money.side_limit(2501) == 1250


def test_pay_to_one_pays_n_times_the_stake() -> None:
    assert money.pay_to_one(200, 45) == 9000


def test_sum_cents_rejects_a_float() -> None:
    with pytest.raises(InvalidAmountError):
        money.sum_cents([1, 2.0])  # type: ignore[list-item]


@given(stake=cents(), ratio=ratios())
def test_pay_odds_is_the_floor_of_the_exact_payout(stake: int, ratio: Ratio) -> None:
    paid = money.pay_odds(stake, ratio)
    assert paid * ratio.den <= stake * ratio.num < (paid + 1) * ratio.den


@given(primary=cents())
def test_two_sides_never_exceed_the_primary(primary: int) -> None:
    assert 2 * money.side_limit(primary) <= primary < 2 * money.side_limit(primary) + 2


# --- aggregate proration (RULES.md §1.4) ----------------------------------------------------------


def test_proration_scales_by_limit_over_total_and_hands_leftover_cents_to_largest_remainders() -> None:
    # given winnings 9000, 4500 and 1500 (total 15000) and a limit of 10000
    # when prorated: exact shares 6000, 3000, 1000 -> no remainder
    assert money.prorate_largest_remainder([((1, 1), 9000), ((2, 1), 4500), ((3, 6), 1500)], 10000) == [
        6000,
        3000,
        1000,
    ]


def test_proration_gives_leftover_cents_to_the_largest_fractional_remainder() -> None:
    # given 100, 200, 300 (total 600) limited to 500: exact 83.33, 166.67, 250
    # then floors 83, 166, 250 = 499 and the one leftover cent goes to 166.67
    assert money.prorate_largest_remainder([((1, 0), 100), ((2, 0), 200), ((3, 0), 300)], 500) == [
        83,
        167,
        250,
    ]


def test_proration_ties_go_to_the_lower_seat_then_bet_kind_order() -> None:
    # given three equal winnings (equal remainders) limited to 2 cents more than the floors
    # exact shares 3.33 each -> floors 3, 3, 3 and one leftover cent: the lowest sort key takes it
    winnings = [((3, 0), 1000), ((1, 7), 1000), ((1, 2), 1000)]  # (seat, kind order)
    assert money.prorate_largest_remainder(winnings, 10) == [3, 3, 4]


def test_proration_leaves_winnings_alone_within_the_limit() -> None:
    assert money.prorate_largest_remainder([((1, 0), 100), ((2, 0), 200)], 300) == [100, 200]


def test_proration_to_a_zero_limit_pays_nothing() -> None:
    assert money.prorate_largest_remainder([((1, 0), 100), ((2, 0), 200)], 0) == [0, 0]


@given(case=prorations())
def test_proration_sums_exactly_to_the_limit_and_never_raises_a_share(
    case: tuple[list[tuple[tuple[int, ...], int]], int],
) -> None:
    winnings, limit = case
    shares = money.prorate_largest_remainder(winnings, limit)
    total = sum(won for _, won in winnings)
    assert sum(shares) == min(total, limit)
    for (_, won), share in zip(winnings, shares, strict=True):
        assert share <= won
        if total > limit:
            # each share is its exact scaled amount, rounded down, plus at most one leftover cent
            assert share * total - won * limit in range(-total + 1, total)
