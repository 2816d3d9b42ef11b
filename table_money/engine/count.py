"""The blind soft count of a drop box, pure (backoffice-anchors §2.4: two independent counts, the
second counter not seeing the first result).

A count is made of rounds; each round is two tallies of the same box by two different members of
the count team, each entered without seeing the other. A round whose two tallies agree in every
denomination and in markers completes the count with that figure; a round that differs is a
variance, resolved by a recount (a new round by two members). `count_result` is the one rule of
whether a count is complete and what its figure is; everything else (reports, pages, the API)
asks it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum


class CountStatus(StrEnum):
    AWAITING_SECOND_COUNT = "awaiting_second_count"
    VARIANCE = "variance"  # the round's two tallies differ: a recount resolves it
    COMPLETE = "complete"


@dataclass(frozen=True, slots=True)
class Tally:
    """One member's count of the box: bills by denomination in cents ({10000: 4}) and markers."""

    member_id: int
    bills: Mapping[int, int]
    markers_cents: int

    @property
    def currency_cents(self) -> int:
        return sum(denomination * count for denomination, count in self.bills.items())

    @property
    def total_cents(self) -> int:
        return self.currency_cents + self.markers_cents

    def bills_of(self, denomination: int) -> int:
        return self.bills.get(denomination, 0)


@dataclass(frozen=True, slots=True)
class DenominationVariance:
    denomination_cents: int
    first_bills: int
    second_bills: int

    @property
    def variance_cents(self) -> int:
        return (self.second_bills - self.first_bills) * self.denomination_cents


@dataclass(frozen=True, slots=True)
class Variance:
    """The second tally less the first, per denomination (every one either counted), in markers
    and in total."""

    denominations: tuple[DenominationVariance, ...]
    markers_cents: int
    total_cents: int

    @property
    def agrees(self) -> bool:
        return self.markers_cents == 0 and all(d.first_bills == d.second_bills for d in self.denominations)


def variance(first: Tally, second: Tally) -> Variance:
    denominations = sorted(set(first.bills) | set(second.bills), reverse=True)
    return Variance(
        denominations=tuple(
            DenominationVariance(
                denomination_cents=d, first_bills=first.bills_of(d), second_bills=second.bills_of(d)
            )
            for d in denominations
        ),
        markers_cents=second.markers_cents - first.markers_cents,
        total_cents=second.total_cents - first.total_cents,
    )


@dataclass(frozen=True, slots=True)
class CountRound:
    number: int
    first: Tally
    second: Tally | None

    @property
    def variance(self) -> Variance | None:
        """None until both tallies are in: a round's figures are compared only then."""
        return variance(self.first, self.second) if self.second is not None else None


@dataclass(frozen=True, slots=True)
class CountResult:
    status: CountStatus
    # The agreed tally of a complete count, else None.
    figure: Tally | None
    # Whether the count is its period's counted drop: complete and not superseded.
    counts: bool

    @property
    def total_cents(self) -> int | None:
        return self.figure.total_cents if self.figure is not None else None


class CountRuleError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def count_result(rounds: Sequence[CountRound], *, superseded: bool) -> CountResult:
    """Whether a count is complete, its figure, and whether it is its period's counted drop.

    Only the last round decides: an earlier round was recounted. A superseded count keeps its
    status (the record shows what was counted) but never counts."""
    if not rounds:
        raise CountRuleError("count_without_tally", "A count starts with its first tally.")
    last = rounds[-1]
    outcome = last.variance
    if outcome is None:
        return CountResult(status=CountStatus.AWAITING_SECOND_COUNT, figure=None, counts=False)
    if not outcome.agrees:
        return CountResult(status=CountStatus.VARIANCE, figure=None, counts=False)
    return CountResult(status=CountStatus.COMPLETE, figure=last.first, counts=not superseded)


def next_tally_place(rounds: Sequence[CountRound], *, member_id: int) -> tuple[int, int]:
    """Where a member's next tally of a count goes: (round number, 1 or 2), or `CountRuleError`.

    The second tally of a round is by another member than its first (the two-person rule); a
    variance opens a recount round; a complete count takes no more tallies."""
    if not rounds:
        return 1, 1
    last = rounds[-1]
    if last.second is None:
        if last.first.member_id == member_id:
            raise CountRuleError(
                "same_member_twice",
                "You entered the first count of this drop box: a second, different member of the "
                "count team counts it.",
            )
        return last.number, 2
    if count_result(rounds, superseded=False).status is CountStatus.COMPLETE:
        raise CountRuleError("count_complete", "Both counts of this drop box agree: the count is complete.")
    return last.number + 1, 1
