"""What a seat wagers, and the placement rules checked when a round opens (RULES.md §1.2-1.3).

The core's own wagers are the primary and insurance (`WagerKind`); a table's side bet adds its
kinds and placement rules through `side_bet.SideBet`. `validate_wagers` takes the request as
sent (kind strings, amounts as given), rejects the whole request on the first violation (a
`RuleError` whose `code` is the one API.md names), and returns the seats as `SeatWagers` values
ready for `round.open_round`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from casino.engine import money
from casino.engine.errors import RuleError
from casino.engine.seats import DuplicateSeatError, SeatsRequiredError, check_seat_number
from casino.engine.side_bet import SideBet, SideBetKind
from casino.engine.wager_kinds import Kind, TableLimits, WagerKind, placeable_kinds

__all__ = [
    "AboveTableMaximumError",
    "BelowTableMinimumError",
    "DuplicateWagerKindError",
    "PrimaryRequiredError",
    "SeatRequest",
    "SeatWagers",
    "UnknownWagerKindError",
    "WagerRequest",
    "validate_wagers",
]


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
        money.check_positive_cents(self.primary_cents, field="primary_cents")
        bonus = self.bonus_cents
        for kind, cents in bonus.items():
            if not isinstance(kind, SideBetKind):
                raise UnknownWagerKindError(f"{kind!r} is not a side-bet wager kind", field="kind")
            if type(cents) is not int or cents <= 0:
                money.check_positive_cents(cents, field="amount_cents")
        ordered = dict(sorted(bonus.items(), key=lambda placed: placed[0].position))
        object.__setattr__(self, "bonus_cents", MappingProxyType(ordered))

    @property
    def total_cents(self) -> int:
        return money.sum_cents((self.primary_cents, *self.bonus_cents.values()))


@dataclass(frozen=True, slots=True)
class WagerRequest:
    """One wager as the request sent it; `validate_wagers` checks every field."""

    kind: str
    amount_cents: int


@dataclass(frozen=True, slots=True)
class SeatRequest:
    seat: int
    wagers: Sequence[WagerRequest]


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
            money.check_positive_cents(cents, field=f"{at}.amount_cents")
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
