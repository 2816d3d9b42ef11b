"""Settling a finished round: one line per wager (API.md `settlement`).

Primary and insurance wagers follow RULES.md §1.2; side wagers are settled by the round's side
bet (`side_bet.SideBet`; the tie bonus, RULES.md §1.3) on the terms the round opened with, and
the aggregate limit §1.4 caps their winnings across the round. Every amount comes from `money`,
so every payout is rounded down to the cent.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from blackjack.engine.round import (
    Hand,
    HandStatus,
    NotReadyToSettleError,
    RoundClosedError,
    RoundPhase,
    RoundState,
    SeatState,
)
from blackjack.engine.rules import INSURANCE_PAYS
from casino.engine import money
from casino.engine.hands import FinalHand, is_blackjack, total_and_soft
from casino.engine.side_bet import SideBetKind, SideBetOffer
from casino.engine.wager_kinds import Kind, WagerKind

__all__ = [
    "Line",
    "NotReadyToSettleError",
    "Result",
    "SeatSettlement",
    "Settlement",
    "settle",
    "void_settlement",
]


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    SURRENDER = "surrender"


@dataclass(frozen=True, slots=True)
class Line:
    """One wager's outcome. `win_cents` is the profit; `paid_cents` all that goes back (stake included)."""

    seat: int
    kind: Kind
    hand: int
    amount_cents: int
    result: Result
    win_cents: int
    paid_cents: int

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": str(self.kind),
            "hand": self.hand,
            "amount_cents": self.amount_cents,
            "result": str(self.result),
            "win_cents": self.win_cents,
            "paid_cents": self.paid_cents,
        }


@dataclass(frozen=True, slots=True)
class SeatSettlement:
    seat: int
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Settlement:
    wagered_cents: int
    paid_cents: int
    house_net_cents: int  # wagered - paid
    aggregate_limit_applied: bool
    aggregate_reduction_cents: int
    seats: tuple[SeatSettlement, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line for seat in self.seats for line in seat.lines)

    def to_dict(self) -> dict[str, object]:
        return {
            "wagered_cents": self.wagered_cents,
            "paid_cents": self.paid_cents,
            "house_net_cents": self.house_net_cents,
            "aggregate_limit_applied": self.aggregate_limit_applied,
            "aggregate_reduction_cents": self.aggregate_reduction_cents,
            "seats": [
                {"seat": seat.seat, "wagers": [line.to_dict() for line in seat.lines]} for seat in self.seats
            ],
        }


def settle(
    state: RoundState,
    *,
    side_bet: SideBetOffer[Any] | None = None,
    aggregate_limit_cents: int | None,
) -> Settlement:
    """Settle a round that is ready_to_settle.

    `side_bet` is the side bet and the terms its wagers settle by (None when no seat placed
    one); `aggregate_limit_cents` None means no limit.
    """
    if state.phase is not RoundPhase.READY_TO_SETTLE:
        raise NotReadyToSettleError(f"the round is {state.phase}, not ready_to_settle")
    if aggregate_limit_cents is not None:
        money.check_cents(aggregate_limit_cents, field="aggregate_limit_cents")
    cards = state.dealer_cards
    dealer = FinalHand(total=total_and_soft(cards)[0], blackjack=is_blackjack(cards))

    by_seat: list[list[Line]] = []
    # Each winning side wager: where its line is, its tie-break key and its winnings.
    side_wins: list[tuple[int, int, tuple[int, int], int]] = []
    for seat in state.seats:
        lines = [_primary_line(state, seat.seat, h, hand, dealer) for h, hand in enumerate(seat.hands)]
        if seat.insurance_cents:
            lines.append(_insurance_line(seat, dealer.blackjack))
        if seat.wagers.bonus_cents:
            wins = _side_wins(seat, dealer, side_bet)
            for kind, cents in seat.wagers.bonus_cents.items():
                win = wins.get(kind)
                if win is not None:
                    side_wins.append((len(by_seat), len(lines), (seat.seat, kind.position), win))
                    lines.append(Line(seat.seat, kind, 0, cents, Result.WIN, win, cents + win))
                else:
                    lines.append(Line(seat.seat, kind, 0, cents, Result.LOSE, 0, 0))
        by_seat.append(lines)

    applied, reduction = False, 0
    total_side = money.sum_cents([win for *_, win in side_wins])
    if aggregate_limit_cents is not None and total_side > aggregate_limit_cents:
        applied, reduction = True, total_side - aggregate_limit_cents
        shares = money.prorate_largest_remainder(
            [(key, win) for *_, key, win in side_wins], aggregate_limit_cents
        )
        for (s, i, _, _), share in zip(side_wins, shares, strict=True):
            line = by_seat[s][i]
            by_seat[s][i] = Line(
                line.seat, line.kind, 0, line.amount_cents, Result.WIN, share, line.amount_cents + share
            )
    return _settlement(state, by_seat, applied=applied, reduction_cents=reduction)


def void_settlement(state: RoundState) -> Settlement:
    """A voided round: every wager staked so far is returned in full (result `push`)."""
    if state.phase is RoundPhase.SETTLED:
        raise RoundClosedError("the round is already settled")
    by_seat = []
    for seat in state.seats:
        lines = [
            _returned(seat.seat, WagerKind.PRIMARY, h, hand.stake_cents) for h, hand in enumerate(seat.hands)
        ]
        if seat.insurance_cents:
            lines.append(_returned(seat.seat, WagerKind.INSURANCE, 0, seat.insurance_cents))
        lines.extend(_returned(seat.seat, kind, 0, cents) for kind, cents in seat.wagers.bonus_cents.items())
        by_seat.append(lines)
    return _settlement(state, by_seat, applied=False, reduction_cents=0)


def _returned(seat: int, kind: Kind, hand: int, cents: int) -> Line:
    return Line(seat, kind, hand, cents, Result.PUSH, 0, cents)


def _settlement(
    state: RoundState, by_seat: list[list[Line]], *, applied: bool, reduction_cents: int
) -> Settlement:
    wagered = money.sum_cents([line.amount_cents for lines in by_seat for line in lines])
    paid = money.sum_cents([line.paid_cents for lines in by_seat for line in lines])
    return Settlement(
        wagered_cents=wagered,
        paid_cents=paid,
        house_net_cents=wagered - paid,
        aggregate_limit_applied=applied,
        aggregate_reduction_cents=reduction_cents,
        seats=tuple(
            SeatSettlement(seat.seat, tuple(lines)) for seat, lines in zip(state.seats, by_seat, strict=True)
        ),
    )


def _side_wins(
    seat: SeatState, dealer: FinalHand, offer: SideBetOffer[Any] | None
) -> Mapping[SideBetKind, int]:
    """The winnings of the seat's winning side wagers, as the round's side bet settles them."""
    if offer is None:
        raise ValueError(f"seat {seat.seat} placed side wagers, but the round has no side bet to settle them")
    return offer.rules.winnings(
        placed=seat.wagers.bonus_cents,
        hands=tuple(_final(hand) for hand in seat.hands),
        dealer=dealer,
        terms=offer.terms,
    )


def _final(hand: Hand) -> FinalHand:
    return FinalHand(
        total=hand.total, blackjack=hand.blackjack, surrendered=hand.status is HandStatus.SURRENDERED
    )


def _primary_line(state: RoundState, seat: int, h: int, hand: Hand, dealer: FinalHand) -> Line:
    stake = hand.stake_cents
    if hand.status is HandStatus.SURRENDERED:
        return Line(seat, WagerKind.PRIMARY, h, stake, Result.SURRENDER, 0, money.half_floor(stake))
    if dealer.blackjack:
        result = Result.PUSH if hand.blackjack else Result.LOSE
        win = 0
    elif hand.bust:
        result, win = Result.LOSE, 0
    elif hand.blackjack:
        result, win = Result.WIN, money.pay_odds(stake, state.rules.blackjack_pays)
    elif dealer.bust or hand.total > dealer.total:
        result, win = Result.WIN, money.pay_odds(stake, money.EVEN_MONEY)
    elif hand.total == dealer.total:
        result, win = Result.PUSH, 0
    else:
        result, win = Result.LOSE, 0
    paid = 0 if result is Result.LOSE else stake + win
    return Line(seat, WagerKind.PRIMARY, h, stake, result, win, paid)


def _insurance_line(seat: SeatState, dealer_blackjack: bool) -> Line:
    stake = seat.insurance_cents or 0
    if dealer_blackjack:
        win = money.pay_odds(stake, INSURANCE_PAYS)
        return Line(seat.seat, WagerKind.INSURANCE, 0, stake, Result.WIN, win, stake + win)
    return Line(seat.seat, WagerKind.INSURANCE, 0, stake, Result.LOSE, 0, 0)
