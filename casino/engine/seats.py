"""A table's seats: numbered 1 to 7 at every table game (RULES.md §1.2 and §2)."""

from casino.engine.errors import RuleError

__all__ = [
    "SEAT_NUMBERS",
    "DuplicateSeatError",
    "InvalidSeatError",
    "SeatsRequiredError",
    "check_seat_number",
]

SEAT_NUMBERS = range(1, 8)


class SeatsRequiredError(RuleError):
    code = "seats_required"


class InvalidSeatError(RuleError):
    code = "invalid_seat"


class DuplicateSeatError(RuleError):
    code = "duplicate_seat"


def check_seat_number(seat: object, *, field: str = "seat") -> int:
    if type(seat) is not int or seat not in SEAT_NUMBERS:
        raise InvalidSeatError(f"seats are numbered 1 to 7, not {seat!r}", field=field)
    return seat
