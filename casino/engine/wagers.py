"""What a seat wagers, and the placement rules checked when a round opens (RULES.md §1.2-1.3).

The core's own wagers are the primary and insurance (`WagerKind`); a table's side bet adds its
kinds and placement rules through `side_bet.SideBet`. `validate_wagers` takes the request as
sent (kind strings, amounts as given), rejects the whole request on the first violation (a
`RuleError` whose `code` is the one API.md names), and returns the seats as `SeatWagers` values
ready for `round.open_round`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeAlias

from casino.engine import money
from casino.engine.errors import RuleError
from casino.engine.side_bet import SideBet, SideBetKind

__all__ = [
    "SEAT_NUMBERS",
    "AboveTableMaximumError",
    "BelowTableMinimumError",
    "DuplicateSeatError",
    "DuplicateWagerKindError",
    "InvalidSeatError",
    "Kind",
    "KindLimit",
    "PrimaryRequiredError",
    "SeatRequest",
    "SeatWagers",
    "SeatsRequiredError",
    "TableLimits",
    "UnknownWagerKindError",
    "WagerKind",
    "WagerRequest",
    "check_seat_number",
    "placeable_kinds",
    "validate_wagers",
]


class WagerKind(StrEnum):
    """The core's wagers: the primary, placed when the round opens, and insurance, taken later."""

    PRIMARY = "primary"
    INSURANCE = "insurance"


# Any wager kind: the core's or a side bet's.
Kind: TypeAlias = WagerKind | SideBetKind

SEAT_NUMBERS = range(1, 8)


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
    """The wagers one seat places when a round opens: a primary and any side wagers.

    `bonus_cents` holds the side wagers by kind, kept in their side bet's order.
    """

    seat: int
    primary_cents: int
    bonus_cents: Mapping[SideBetKind, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_seat_number(self.seat)
        _check_positive_cents(self.primary_cents, field="primary_cents")
        bonus = self.bonus_cents
        for kind, cents in bonus.items():
            if not isinstance(kind, SideBetKind):
                raise UnknownWagerKindError(f"{kind!r} is not a side-bet wager kind", field="kind")
            if type(cents) is not int or cents <= 0:
                _check_positive_cents(cents, field="amount_cents")
        ordered = dict(sorted(bonus.items(), key=lambda placed: placed[0].position))
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

    by_kind: Mapping[str, KindLimit] = field(default_factory=dict)

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


def placeable_kinds(side_bet: SideBet[Any] | None) -> tuple[Kind, ...]:
    """The kinds a seat may place when a round opens: the primary, then the side bet's, if any
    (insurance comes later, as an action)."""
    kinds: tuple[Kind, ...] = (WagerKind.PRIMARY,)
    return kinds if side_bet is None else (*kinds, *side_bet.kinds)


def _parse_kind(kind: object, kinds: Mapping[str, Kind], *, field: str) -> Kind:
    found = kinds.get(kind) if isinstance(kind, str) else None
    if found is None:
        names = " ".join(kinds)
        raise UnknownWagerKindError(f"{kind!r} is not a wager kind; the kinds are {names}", field=field)
    return found


def _check_table_limit(kind: Kind, cents: int, limits: TableLimits, *, field: str) -> None:
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


def _validate_seat(
    request: SeatRequest,
    limits: TableLimits,
    i: int,
    kinds: Mapping[str, Kind],
    side_bet: SideBet[Any] | None,
) -> SeatWagers:
    amounts: dict[Kind, int] = {}
    for j, wager in enumerate(request.wagers):
        kind = kinds.get(wager.kind) if isinstance(wager.kind, str) else None
        cents = wager.amount_cents
        # Field paths are built only when something is wrong.
        if kind is None or kind in amounts or type(cents) is not int or cents <= 0:
            at = f"seats[{i}].wagers[{j}]"
            kind = _parse_kind(wager.kind, kinds, field=f"{at}.kind")
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
    # Only the primary and the side bet's kinds parse, so what is left are side wagers.
    placed = {kind: cents for kind, cents in amounts.items() if isinstance(kind, SideBetKind)}
    wagers = SeatWagers(seat=request.seat, primary_cents=primary, bonus_cents=placed)
    if side_bet is not None and placed:
        side_bet.check_seat(
            seat=wagers.seat,
            primary_cents=wagers.primary_cents,
            placed=wagers.bonus_cents,
            field=f"seats[{i}].wagers",
        )
    return wagers


def validate_wagers(
    *, seats: Sequence[SeatRequest], limits: TableLimits, side_bet: SideBet[Any] | None
) -> tuple[SeatWagers, ...]:
    """Check every placement rule; return the seats in seat order, or raise the first violation.

    `side_bet` is the one the table offers (None: the primary only). Per seat, in the order the
    request lists them: each wager's kind, that it is placed once, its amount and the table's
    minimum and maximum for its kind; then that the seat has a primary wager; then the side bet's
    own placement rules.
    """
    if not seats:
        raise SeatsRequiredError("a round needs at least one seat with a primary wager", field="seats")
    kinds: Mapping[str, Kind] = {str(kind): kind for kind in placeable_kinds(side_bet)}
    taken: set[int] = set()
    validated = []
    for i, request in enumerate(seats):
        number = check_seat_number(request.seat, field=f"seats[{i}].seat")
        if number in taken:
            raise DuplicateSeatError(f"seat {number} is listed twice", field=f"seats[{i}].seat")
        taken.add(number)
        validated.append(_validate_seat(request, limits, i, kinds, side_bet))
    return tuple(sorted(validated, key=lambda wagers: wagers.seat))
