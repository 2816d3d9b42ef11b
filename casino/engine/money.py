"""Every cents operation of the code base (STYLE.md item 3).

Amounts are `int` cents; `bool`, `float`, `Decimal` and negative amounts are
rejected. Nothing outside this module multiplies or divides money.

Rounding rule, ROUND_DOWN (RULES.md §1.2 [decided]): every computed amount is
worked out exactly as a fraction and then rounded down to the whole cent. For
the non-negative amounts handled here that is Python's floor division
`a * num // den`, so 3:2 on 5 cents pays 7 cents.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from casino.engine.errors import RuleError

ROUNDING = "ROUND_DOWN"


@dataclass(frozen=True, slots=True)
class Ratio:
    """An `num:den` payout ratio, e.g. 3:2 for Blackjack or 45:1 for a tie bet."""

    num: int
    den: int = 1

    def __post_init__(self) -> None:
        if self.num < 0 or self.den <= 0:
            raise ValueError(f"invalid ratio {self.num}:{self.den}")

    def __str__(self) -> str:
        return f"{self.num}:{self.den}"


EVEN_MONEY = Ratio(1, 1)


class InvalidAmountError(RuleError):
    code = "invalid_amount"


def check_cents(cents: object, *, field: str = "amount_cents") -> int:
    """Return `cents` if it is a non-negative `int` (not a `bool`), else raise."""
    if type(cents) is not int:
        raise InvalidAmountError(f"{field} must be a whole number of cents, not {cents!r}", field=field)
    if cents < 0:
        raise InvalidAmountError(f"{field} must not be negative, got {cents}", field=field)
    return cents


def check_positive_cents(cents: object, *, field: str) -> int:
    """Return `cents` if it is a whole number of cents of at least 1, else raise."""
    amount = check_cents(cents, field=field)
    if amount == 0:
        raise InvalidAmountError(f"{field} must be at least 1 cent", field=field)
    return amount


def _round_down(numerator: int, denominator: int) -> int:
    """ROUND_DOWN of numerator/denominator; both are non-negative here."""
    return numerator // denominator


def pay_odds(stake_cents: int, ratio: Ratio) -> int:
    """Winnings of `stake_cents` at `ratio` (num:den), rounded down: 3:2 on 5 pays 7."""
    return _round_down(check_cents(stake_cents, field="stake_cents") * ratio.num, ratio.den)


def pay_to_one(stake_cents: int, pays: int) -> int:
    """Winnings of an `N to 1` bet (the paytable's figures); exact, so nothing to round."""
    return check_cents(stake_cents, field="stake_cents") * pays


def half_floor(cents: int) -> int:
    """Half of `cents`, rounded down (surrender refund, insurance maximum)."""
    return _round_down(check_cents(cents), 2)


def side_limit(primary_cents: int) -> int:
    """Most a tie-bonus side may hold: primary / 2 exactly, then down (2501 -> 1250)."""
    return half_floor(check_cents(primary_cents, field="primary_cents"))


def sum_cents(amounts: Iterable[int]) -> int:
    values = tuple(amounts)
    for cents in values:
        if type(cents) is not int or cents < 0:
            check_cents(cents)
    return sum(values)


def prorate_largest_remainder(winnings: Sequence[tuple[tuple[int, ...], int]], limit_cents: int) -> list[int]:
    """Scale `winnings` down so they sum to exactly `limit_cents` (RULES.md §1.4).

    `winnings` holds `(sort_key, cents)` pairs; the result keeps their order.
    Each share is `cents * limit / total` rounded down; the cents left over go
    one each to the largest fractional remainders, ties to the lower sort key
    (the caller passes `(seat, bet-kind order)`). When the total does not
    exceed the limit, the winnings are returned unchanged.
    """
    check_cents(limit_cents, field="limit_cents")
    amounts = [check_cents(cents, field="win_cents") for _, cents in winnings]
    total = sum(amounts)
    if total <= limit_cents:
        return amounts
    shares = [_round_down(cents * limit_cents, total) for cents in amounts]
    # The remainder of cents * limit / total, compared as fractions of the same total.
    remainders = [cents * limit_cents - share * total for cents, share in zip(amounts, shares, strict=True)]
    leftover = limit_cents - sum(shares)
    order = sorted(range(len(amounts)), key=lambda i: (-remainders[i], winnings[i][0]))
    for i in order[:leftover]:
        shares[i] += 1
    return shares


BASIS_POINTS = 10_000  # a whole in basis points


def basis_points_of(cents: int, bp: int) -> int:
    """`bp` basis points of `cents`, rounded down (a tournament place's share of the pool)."""
    return _round_down(check_cents(cents, field="cents") * check_cents(bp, field="bp"), BASIS_POINTS)


def split_evenly(cents: int, parts: int) -> list[int]:
    """`cents` in `parts` equal shares rounded down, the cents left over one each to the first
    shares, so they add up to `cents` exactly and differ by at most one cent."""
    check_cents(cents, field="cents")
    if type(parts) is not int or parts < 1:
        raise ValueError(f"cannot split into {parts!r} parts")
    share, leftover = divmod(cents, parts)
    return [share + (1 if index < leftover else 0) for index in range(parts)]
