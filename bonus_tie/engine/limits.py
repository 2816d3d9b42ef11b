"""Placement limits of the tie-bonus table (RULES.md §1.3), checked when a round opens.

`validate_wagers` takes the request as sent (kind strings, amounts as given),
rejects the whole request on the first violation, and returns the seats as
`SeatWagers` values ready for `casino.engine.round.open_round`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from bonus_tie.engine.kinds import BONUS_KINDS, LEFT_SIDE, PLACEABLE_KINDS, RIGHT_SIDE, WagerKind
from casino.engine import money
from casino.engine.errors import RuleError

SEAT_NUMBERS = range(1, 8)
_BONUS_SET = frozenset(BONUS_KINDS)


class SeatsRequiredError(RuleError):
    code = "seats_required"


class InvalidSeatError(RuleError):
    code = "invalid_seat"


class DuplicateSeatError(RuleError):
    code = "duplicate_seat"


class UnknownWagerKindError(RuleError):
    code = "unknown_wager_kind"


class DuplicateWagerKindError(RuleError):
    code = "duplicate_wager_kind"


class PrimaryRequiredError(RuleError):
    code = "primary_required"


class LeftSideLimitError(RuleError):
    code = "left_side_limit"


class RightSideLimitError(RuleError):
    code = "right_side_limit"


class BelowTableMinimumError(RuleError):
    code = "below_table_minimum"


class AboveTableMaximumError(RuleError):
    code = "above_table_maximum"


def _check_positive_cents(cents: object, *, field: str) -> int:
    amount = money.check_cents(cents, field=field)
    if amount == 0:
        raise money.InvalidAmountError(f"{field} must be at least 1 cent", field=field)
    return amount


def check_seat_number(seat: object, *, field: str = "seat") -> int:
    if type(seat) is not int or seat not in SEAT_NUMBERS:
        raise InvalidSeatError(f"seats are numbered 1 to 7, not {seat!r}", field=field)
    return seat


@dataclass(frozen=True, slots=True)
class SeatWagers:
    """The wagers one seat places when a round opens: a primary and any bonus wagers."""

    seat: int
    primary_cents: int
    bonus_cents: Mapping[WagerKind, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_seat_number(self.seat)
        _check_positive_cents(self.primary_cents, field="primary_cents")
        bonus = self.bonus_cents
        for kind, cents in bonus.items():
            if kind not in _BONUS_SET:
                raise UnknownWagerKindError(f"{kind!r} is not a tie-bonus wager kind", field="kind")
            if type(cents) is not int or cents <= 0:
                _check_positive_cents(cents, field="amount_cents")
        ordered = {kind: bonus[kind] for kind in BONUS_KINDS if kind in bonus}
        object.__setattr__(self, "bonus_cents", MappingProxyType(ordered))

    @property
    def total_cents(self) -> int:
        return money.sum_cents((self.primary_cents, *self.bonus_cents.values()))


@dataclass(frozen=True, slots=True)
class KindLimit:
    min_cents: int
    max_cents: int

    def __post_init__(self) -> None:
        _check_positive_cents(self.min_cents, field="min_cents")
        _check_positive_cents(self.max_cents, field="max_cents")
        if self.min_cents > self.max_cents:
            raise ValueError(f"table minimum {self.min_cents} is above the maximum {self.max_cents}")


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The table's minimum and maximum per wager kind; a kind not listed has neither."""

    by_kind: Mapping[WagerKind, KindLimit] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_kind", MappingProxyType(dict(self.by_kind)))


@dataclass(frozen=True, slots=True)
class WagerRequest:
    """One wager as the request sent it; `validate_wagers` checks every field."""

    kind: str
    amount_cents: int


@dataclass(frozen=True, slots=True)
class SeatRequest:
    seat: int
    wagers: Sequence[WagerRequest]


_KIND_BY_TEXT: Mapping[str, WagerKind] = MappingProxyType({str(kind): kind for kind in PLACEABLE_KINDS})


def _parse_kind(kind: object, *, field: str) -> WagerKind:
    found = _KIND_BY_TEXT.get(kind) if isinstance(kind, str) else None
    if found is None:
        names = " ".join(PLACEABLE_KINDS)
        raise UnknownWagerKindError(f"{kind!r} is not a wager kind; the kinds are {names}", field=field)
    return found


def _check_table_limit(kind: WagerKind, cents: int, limits: TableLimits, *, field: str) -> None:
    limit = limits.by_kind.get(kind)
    if limit is None:
        return
    if cents < limit.min_cents:
        raise BelowTableMinimumError(
            f"{kind} of {cents} cents is below the table minimum of {limit.min_cents}", field=field
        )
    if cents > limit.max_cents:
        raise AboveTableMaximumError(
            f"{kind} of {cents} cents is above the table maximum of {limit.max_cents}", field=field
        )


def _check_sides(wagers: SeatWagers, *, field: str) -> None:
    most = money.side_limit(wagers.primary_cents)
    left = money.sum_cents([cents for kind, cents in wagers.bonus_cents.items() if kind in LEFT_SIDE])
    right = money.sum_cents([cents for kind, cents in wagers.bonus_cents.items() if kind in RIGHT_SIDE])
    for side, placed, error in (
        (LEFT_SIDE, left, LeftSideLimitError),
        (RIGHT_SIDE, right, RightSideLimitError),
    ):
        if placed > most:
            names = " + ".join(kind for kind in BONUS_KINDS if kind in side)
            raise error(
                f"seat {wagers.seat}: {names} = {placed} cents exceeds half the primary "
                f"({wagers.primary_cents} / 2, at most {most} cents)",
                field=field,
            )


def _validate_seat(request: SeatRequest, limits: TableLimits, i: int) -> SeatWagers:
    amounts: dict[WagerKind, int] = {}
    for j, wager in enumerate(request.wagers):
        kind = _KIND_BY_TEXT.get(wager.kind) if isinstance(wager.kind, str) else None
        cents = wager.amount_cents
        # Field paths are built only when something is wrong.
        if kind is None or kind in amounts or type(cents) is not int or cents <= 0:
            at = f"seats[{i}].wagers[{j}]"
            kind = _parse_kind(wager.kind, field=f"{at}.kind")
            if kind in amounts:
                raise DuplicateWagerKindError(f"{kind} is placed twice at one seat", field=f"{at}.kind")
            _check_positive_cents(cents, field=f"{at}.amount_cents")
        limit = limits.by_kind.get(kind)
        if limit is not None and not limit.min_cents <= cents <= limit.max_cents:
            _check_table_limit(kind, cents, limits, field=f"seats[{i}].wagers[{j}].amount_cents")
        amounts[kind] = cents
    primary = amounts.pop(WagerKind.PRIMARY, None)
    if primary is None:
        raise PrimaryRequiredError(
            f"seat {request.seat} needs a primary wager before any bonus wager", field=f"seats[{i}].wagers"
        )
    wagers = SeatWagers(seat=request.seat, primary_cents=primary, bonus_cents=amounts)
    _check_sides(wagers, field=f"seats[{i}].wagers")
    return wagers


def validate_wagers(*, seats: Sequence[SeatRequest], limits: TableLimits) -> tuple[SeatWagers, ...]:
    """Check every placement rule; return the seats in seat order, or raise the first violation."""
    if not seats:
        raise SeatsRequiredError("a round needs at least one seat with a primary wager", field="seats")
    taken: set[int] = set()
    validated = []
    for i, request in enumerate(seats):
        number = check_seat_number(request.seat, field=f"seats[{i}].seat")
        if number in taken:
            raise DuplicateSeatError(f"seat {number} is listed twice", field=f"seats[{i}].seat")
        taken.add(number)
        validated.append(_validate_seat(request, limits, i))
    return tuple(sorted(validated, key=lambda wagers: wagers.seat))
