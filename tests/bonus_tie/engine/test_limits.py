"""Placement limits of a tie-bonus table (RULES.md §1.3), checked when a round opens: the core's
checks with the tie bonus's side limits."""

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackjack.engine import wagers as core
from blackjack.engine.wagers import SeatRequest, SeatWagers, WagerRequest
from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.tie_bonus import TIE_BONUS
from casino.engine.errors import RuleError
from casino.engine.wager_kinds import KindLimit, TableLimits, WagerKind
from tests.strategies import round_seats

NO_LIMITS = TableLimits()


def validate_wagers(*, seats: Sequence[SeatRequest], limits: TableLimits) -> tuple[SeatWagers, ...]:
    """The placement check of a table that offers the tie bonus."""
    return core.validate_wagers(seats=seats, limits=limits, side_bet=TIE_BONUS)


def seat(number: object, *wagers: tuple[object, object]) -> SeatRequest:
    return SeatRequest(number, tuple(WagerRequest(k, a) for k, a in wagers))  # type: ignore[arg-type]


def rejected(*seats: SeatRequest, limits: TableLimits = NO_LIMITS) -> RuleError:
    with pytest.raises(RuleError) as raised:
        validate_wagers(seats=seats, limits=limits)
    return raised.value


def test_valid_wagers_come_back_in_seat_order_with_bonus_kinds_in_table_order() -> None:
    # given seats 5 and 2, bonus wagers listed in any order
    seats = (
        seat(5, ("RS", 100), ("primary", 1000), ("T17", 50)),
        seat(2, ("primary", 500)),
    )
    # when validated
    validated = validate_wagers(seats=seats, limits=NO_LIMITS)
    # then they are engine values, seat 2 first
    assert validated == (
        SeatWagers(seat=2, primary_cents=500),
        SeatWagers(seat=5, primary_cents=1000, bonus_cents={BonusKind.T17: 50, BonusKind.RS: 100}),
    )
    assert list(validated[1].bonus_cents) == [BonusKind.T17, BonusKind.RS]


def test_a_primary_wager_is_mandatory_for_any_bonus_wager() -> None:
    error = rejected(seat(1, ("T18", 100)))
    assert (error.code, error.field) == ("primary_required", "seats[0].wagers")


def test_a_seat_without_any_wager_needs_a_primary() -> None:
    assert rejected(seat(3)).code == "primary_required"


def test_left_side_ls_t17_t18_t19_is_at_most_half_the_primary() -> None:
    # given primary 1000: 500 a side / when LS 300 + T17 201 = 501
    error = rejected(seat(1, ("primary", 1000), ("LS", 300), ("T17", 201)))
    assert (error.code, error.field) == ("left_side_limit", "seats[0].wagers")
    assert "501" in error.detail


def test_right_side_rs_t20_t21_tbj_is_at_most_half_the_primary() -> None:
    error = rejected(seat(1, ("primary", 1000), ("RS", 200), ("T20", 100), ("T21", 100), ("TBJ", 101)))
    assert error.code == "right_side_limit"


def test_each_side_may_hold_exactly_half_the_primary() -> None:
    seats = (seat(1, ("primary", 1000), ("LS", 250), ("T19", 250), ("RS", 500)),)
    assert validate_wagers(seats=seats, limits=NO_LIMITS)[0].total_cents == 2000


def test_primary_2501_allows_1250_a_side() -> None:
    # RULES.md §1.3: 2501 / 2 = 1250.5, so at most 1250 cents a side
    ok = (seat(1, ("primary", 2501), ("LS", 1250), ("RS", 1250)),)
    assert validate_wagers(seats=ok, limits=NO_LIMITS)[0].bonus_cents == {
        BonusKind.LS: 1250,
        BonusKind.RS: 1250,
    }
    assert rejected(seat(1, ("primary", 2501), ("LS", 1251))).code == "left_side_limit"
    assert rejected(seat(1, ("primary", 2501), ("T21", 1251))).code == "right_side_limit"


@pytest.mark.parametrize(
    ("wager", "code", "field"),
    [
        (("primary", 499), "below_table_minimum", "seats[0].wagers[0].amount_cents"),
        (("primary", 100_001), "above_table_maximum", "seats[0].wagers[0].amount_cents"),
    ],
)
def test_each_wager_is_within_the_table_minimum_and_maximum_for_its_kind(
    wager: tuple[str, int], code: str, field: str
) -> None:
    limits = TableLimits({WagerKind.PRIMARY: KindLimit(500, 100_000)})
    error = rejected(seat(1, wager), limits=limits)
    assert (error.code, error.field) == (code, field)


def test_a_bonus_kind_has_its_own_table_limits() -> None:
    limits = TableLimits({BonusKind.T18: KindLimit(100, 200)})
    assert rejected(seat(1, ("primary", 1000), ("T18", 99)), limits=limits).code == "below_table_minimum"
    assert rejected(seat(1, ("primary", 1000), ("T18", 201)), limits=limits).code == "above_table_maximum"
    assert validate_wagers(seats=(seat(1, ("primary", 1000), ("T18", 200)),), limits=limits)[
        0
    ].bonus_cents == {BonusKind.T18: 200}


@pytest.mark.parametrize("kind", ["T16", "insurance", "ls", "", "PRIMARY", 5, None])
def test_an_unknown_wager_kind_is_rejected(kind: object) -> None:
    error = rejected(seat(1, ("primary", 1000), (kind, 100)))
    assert (error.code, error.field) == ("unknown_wager_kind", "seats[0].wagers[1].kind")


def test_the_same_kind_twice_at_a_seat_is_rejected() -> None:
    assert rejected(seat(1, ("primary", 1000), ("primary", 1000))).code == "duplicate_wager_kind"


def test_a_seat_listed_twice_is_rejected() -> None:
    error = rejected(seat(2, ("primary", 1000)), seat(2, ("primary", 500)))
    assert (error.code, error.field) == ("duplicate_seat", "seats[1].seat")


@pytest.mark.parametrize("number", [0, 8, -1, "1", True, 1.0, None])
def test_seats_are_numbered_1_to_7(number: object) -> None:
    error = rejected(seat(number, ("primary", 1000)))
    assert (error.code, error.field) == ("invalid_seat", "seats[0].seat")


@pytest.mark.parametrize("amount", [0, -5, 1.5, True, "100", None])
def test_amounts_are_positive_int_cents(amount: object) -> None:
    error = rejected(seat(1, ("primary", 1000), ("T18", amount)))
    assert (error.code, error.field) == ("invalid_amount", "seats[0].wagers[1].amount_cents")


def test_a_round_needs_at_least_one_seat() -> None:
    assert rejected().code == "seats_required"


def test_seat_wagers_reject_a_non_bonus_kind() -> None:
    with pytest.raises(RuleError) as raised:
        SeatWagers(seat=1, primary_cents=1000, bonus_cents={WagerKind.PRIMARY: 100})  # type: ignore[dict-item]
    assert raised.value.code == "unknown_wager_kind"


@given(seats=round_seats())
def test_wagers_within_both_side_limits_always_validate_and_never_exceed_the_primary(
    seats: tuple[SeatWagers, ...],
) -> None:
    requests = [
        seat(w.seat, ("primary", w.primary_cents), *((str(k), c) for k, c in w.bonus_cents.items()))
        for w in seats
    ]
    validated = validate_wagers(seats=requests, limits=NO_LIMITS)
    assert validated == tuple(sorted(seats, key=lambda w: w.seat))
    for wagers in validated:
        assert sum(wagers.bonus_cents.values()) <= wagers.primary_cents


@given(
    seats=st.lists(
        st.tuples(
            st.one_of(st.integers(-1, 9), st.text(max_size=2), st.none()),
            st.lists(
                st.tuples(
                    st.one_of(st.sampled_from(["primary", *BONUS_KINDS, "T16"]), st.integers()),
                    st.one_of(st.integers(-10, 200_000), st.floats(), st.booleans()),
                ),
                max_size=10,
            ),
        ),
        max_size=8,
    )
)
def test_any_request_is_either_valid_or_a_rule_error(
    seats: list[tuple[object, list[tuple[object, object]]]],
) -> None:
    requests = [seat(number, *wagers) for number, wagers in seats]
    error: RuleError | None = None
    try:
        validated = validate_wagers(seats=requests, limits=TableLimits({BonusKind.T21: KindLimit(1, 5000)}))
    except RuleError as raised:
        error = raised
    if error is not None:
        assert error.code
    else:
        assert all(1 <= w.seat <= 7 and w.primary_cents > 0 for w in validated)
