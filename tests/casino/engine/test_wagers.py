"""The core's wagers and the side-bet interface, with a side bet made up for the test: any side
bet plugs into placement and settlement the way the tie bonus does."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pytest

from blackjack.engine.settlement import Result, settle, void_settlement
from blackjack.engine.wagers import SeatRequest, SeatWagers, WagerRequest, validate_wagers
from casino.engine.errors import RuleError
from casino.engine.hands import FinalHand
from casino.engine.side_bet import SideBet, SideBetKind, SideBetOffer
from casino.engine.wager_kinds import KindLimit, TableLimits, WagerKind, placeable_kinds
from tests.casino.engine.helpers import act, deal, started


class BustKind(SideBetKind):
    DEALER_BUSTS = "DB"
    TWENTY_ONE = "21"


class TooMuchError(RuleError):
    code = "too_much"


@dataclass(frozen=True)
class BustBet:
    """`DB` wins when the dealer busts, `21` when hand 0 ends on 21; each pays `terms` to 1 and
    may hold at most the primary."""

    kinds: tuple[BustKind, ...] = tuple(BustKind)

    def check_seat(
        self, *, seat: int, primary_cents: int, placed: Mapping[SideBetKind, int], field: str
    ) -> None:
        if sum(placed.values()) > primary_cents:
            raise TooMuchError(f"seat {seat} bets more than its primary", field=field)

    def winnings(
        self, *, placed: Mapping[SideBetKind, int], hands: Sequence[FinalHand], dealer: FinalHand, terms: int
    ) -> Mapping[SideBetKind, int]:
        won = {BustKind.DEALER_BUSTS: dealer.bust, BustKind.TWENTY_ONE: hands[0].total == 21}
        return {kind: cents * terms for kind, cents in placed.items() if won[BustKind(kind)]}


BUST_BET: SideBet[int] = BustBet()  # mypy checks it implements the interface


def seat(number: int, *wagers: tuple[str, int]) -> SeatRequest:
    return SeatRequest(number, tuple(WagerRequest(kind, cents) for kind, cents in wagers))


def bust_wagers(number: int, primary: int = 1000, **side: int) -> SeatWagers:
    return SeatWagers(
        seat=number, primary_cents=primary, bonus_cents={BustKind(k): v for k, v in side.items()}
    )


def test_a_table_without_a_side_bet_takes_the_primary_only() -> None:
    assert placeable_kinds(None) == (WagerKind.PRIMARY,)
    validated = validate_wagers(seats=(seat(1, ("primary", 500)),), limits=TableLimits(), side_bet=None)
    assert validated == (SeatWagers(seat=1, primary_cents=500),)
    with pytest.raises(RuleError) as raised:
        validate_wagers(seats=(seat(1, ("primary", 500), ("T17", 5)),), limits=TableLimits(), side_bet=None)
    assert (raised.value.code, raised.value.field) == ("unknown_wager_kind", "seats[0].wagers[1].kind")
    assert raised.value.detail == "'T17' is not a wager kind; the kinds are primary"


def test_a_side_bet_adds_its_kinds_and_comes_back_in_its_order() -> None:
    request = seat(3, ("21", 20), ("primary", 1000), ("DB", 10))
    (validated,) = validate_wagers(seats=(request,), limits=TableLimits(), side_bet=BUST_BET)
    assert list(validated.bonus_cents.items()) == [(BustKind.DEALER_BUSTS, 10), (BustKind.TWENTY_ONE, 20)]
    assert placeable_kinds(BUST_BET) == (WagerKind.PRIMARY, BustKind.DEALER_BUSTS, BustKind.TWENTY_ONE)


def test_the_side_bets_placement_rules_run_after_the_cores() -> None:
    with pytest.raises(RuleError) as raised:
        validate_wagers(
            seats=(seat(1, ("primary", 100), ("DB", 101)),), limits=TableLimits(), side_bet=BUST_BET
        )
    assert (raised.value.code, raised.value.field) == ("too_much", "seats[0].wagers")
    # the table's limits for its kinds are the core's to check, before the side bet's rules
    limits = TableLimits({"DB": KindLimit(5, 50)})
    with pytest.raises(RuleError) as raised:
        validate_wagers(seats=(seat(1, ("primary", 100), ("DB", 101)),), limits=limits, side_bet=BUST_BET)
    assert (raised.value.code, raised.value.field) == (
        "above_table_maximum",
        "seats[0].wagers[1].amount_cents",
    )


def test_seat_wagers_keep_side_wagers_in_their_bets_order_however_they_are_given() -> None:
    # e.g. read back from a JSON column that orders keys its own way
    given: dict[SideBetKind, int] = {BustKind.TWENTY_ONE: 20, BustKind.DEALER_BUSTS: 10}
    wagers = SeatWagers(seat=1, primary_cents=1000, bonus_cents=given)
    assert list(wagers.bonus_cents) == [BustKind.DEALER_BUSTS, BustKind.TWENTY_ONE]
    assert wagers.total_cents == 1030


@pytest.mark.parametrize("kind", [WagerKind.PRIMARY, WagerKind.INSURANCE, "DB"])
def test_seat_wagers_take_side_bet_kinds_only(kind: object) -> None:
    with pytest.raises(RuleError) as raised:
        SeatWagers(seat=1, primary_cents=1000, bonus_cents={kind: 10})  # type: ignore[dict-item]
    assert raised.value.code == "unknown_wager_kind"


def test_the_round_settles_side_wagers_through_its_side_bet_on_its_terms() -> None:
    # given seat 1 stands on 18 (DB 10, 21 20), the dealer draws 6 T 9 and busts
    state = started("TS 6C 8H TD", bust_wagers(1, DB=10, **{"21": 20}))
    state = deal(act(state, 1, 0, "stand"), "9S")
    result = settle(
        state, side_bet=SideBetOffer(rules=BUST_BET, terms=3, version=7), aggregate_limit_cents=None
    )
    lines = {(str(line.kind), line.hand): line for line in result.lines}
    assert (lines["DB", 0].result, lines["DB", 0].win_cents, lines["DB", 0].paid_cents) == (
        Result.WIN,
        30,
        40,
    )
    assert (lines["21", 0].result, lines["21", 0].paid_cents) == (Result.LOSE, 0)
    assert [line.kind for line in result.lines] == ["primary", "DB", "21"]
    # the aggregate limit caps side winnings whichever side bet pays them
    limited = settle(
        state, side_bet=SideBetOffer(rules=BUST_BET, terms=3, version=7), aggregate_limit_cents=25
    )
    assert (limited.aggregate_limit_applied, limited.aggregate_reduction_cents) == (True, 5)
    assert limited.lines[1].win_cents == 25


def test_side_wagers_need_a_side_bet_to_settle_them_and_a_void_returns_them() -> None:
    state = deal(act(started("TS 6C 8H TD", bust_wagers(1, DB=10)), 1, 0, "stand"), "9S")
    with pytest.raises(ValueError, match="no side bet"):
        settle(state, aggregate_limit_cents=None)
    returned = void_settlement(state)
    assert [(line.kind, line.result, line.paid_cents) for line in returned.lines] == [
        ("primary", Result.PUSH, 1000),
        ("DB", Result.PUSH, 10),
    ]
