"""The one rule of the blind count, pure (`table_money.engine.count`): whether a count is complete,
what its figure is, its variance, and where a member's next tally goes."""

import pytest

from table_money.engine.count import (
    CountRound,
    CountRuleError,
    CountStatus,
    Tally,
    count_result,
    next_tally_place,
    variance,
)

FIRST = Tally(member_id=1, bills={10_000: 4, 2_000: 3}, markers_cents=20_000)  # 66,000
SAME = Tally(member_id=2, bills={10_000: 4, 2_000: 3}, markers_cents=20_000)
SHORT = Tally(member_id=2, bills={10_000: 4, 2_000: 2, 500: 1}, markers_cents=20_000)  # 64,500


def test_the_variance_is_the_second_count_less_the_first_per_denomination_markers_and_total() -> None:
    outcome = variance(FIRST, SHORT)

    assert [
        (d.denomination_cents, d.first_bills, d.second_bills, d.variance_cents) for d in outcome.denominations
    ] == [
        (10_000, 4, 4, 0),
        (2_000, 3, 2, -2_000),
        (500, 0, 1, 500),
    ]
    assert (outcome.markers_cents, outcome.total_cents, outcome.agrees) == (0, -1_500, False)


def test_counts_differing_by_denomination_with_equal_totals_do_not_agree() -> None:
    swapped = Tally(member_id=2, bills={10_000: 4, 2_000: 2, 1_000: 2}, markers_cents=20_000)

    outcome = variance(FIRST, swapped)

    assert (outcome.total_cents, outcome.agrees) == (0, False)
    assert count_result([CountRound(1, FIRST, swapped)], superseded=False).status is CountStatus.VARIANCE


@pytest.mark.parametrize(
    ("rounds", "superseded", "status", "total", "counts"),
    [
        ([CountRound(1, FIRST, None)], False, CountStatus.AWAITING_SECOND_COUNT, None, False),
        ([CountRound(1, FIRST, SHORT)], False, CountStatus.VARIANCE, None, False),
        ([CountRound(1, FIRST, SAME)], False, CountStatus.COMPLETE, 66_000, True),
        ([CountRound(1, FIRST, SAME)], True, CountStatus.COMPLETE, 66_000, False),
        # A recount decides: the variance of round 1 is resolved by round 2's agreement.
        (
            [CountRound(1, FIRST, SHORT), CountRound(2, SHORT, SHORT)],
            False,
            CountStatus.COMPLETE,
            64_500,
            True,
        ),
        (
            [CountRound(1, FIRST, SHORT), CountRound(2, SHORT, None)],
            False,
            CountStatus.AWAITING_SECOND_COUNT,
            None,
            False,
        ),
    ],
)
def test_a_count_is_complete_and_counts_only_when_its_last_round_agrees_and_nothing_supersedes_it(
    rounds: list[CountRound], superseded: bool, status: CountStatus, total: int | None, counts: bool
) -> None:
    result = count_result(rounds, superseded=superseded)

    assert (result.status, result.total_cents, result.counts) == (status, total, counts)


def test_a_count_without_a_tally_is_no_count() -> None:
    with pytest.raises(CountRuleError) as refused:
        count_result([], superseded=False)
    assert refused.value.code == "count_without_tally"


def test_the_next_tally_is_the_second_by_another_member_then_a_recount_after_a_variance() -> None:
    assert next_tally_place([], member_id=1) == (1, 1)
    assert next_tally_place([CountRound(1, FIRST, None)], member_id=2) == (1, 2)
    assert next_tally_place([CountRound(1, FIRST, SHORT)], member_id=1) == (2, 1)
    assert next_tally_place([CountRound(1, FIRST, SHORT), CountRound(2, SHORT, None)], member_id=1) == (2, 2)


@pytest.mark.parametrize(
    ("rounds", "member", "code"),
    [
        ([CountRound(1, FIRST, None)], 1, "same_member_twice"),
        ([CountRound(1, FIRST, SHORT), CountRound(2, SHORT, None)], 2, "same_member_twice"),
        ([CountRound(1, FIRST, SAME)], 3, "count_complete"),
    ],
)
def test_a_member_never_counts_a_round_twice_and_a_complete_count_takes_no_more(
    rounds: list[CountRound], member: int, code: str
) -> None:
    with pytest.raises(CountRuleError) as refused:
        next_tally_place(rounds, member_id=member)
    assert refused.value.code == code
