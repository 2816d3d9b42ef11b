"""Shoe compositions as counts per card value, for the odds modules (house edge, steering).

Suits and the four ten-value ranks do not matter to the odds of a tie, so a shoe is a tuple of
ten counts: index 0 holds the Aces, index 1 the twos, ..., index 9 every ten-value card. Values
are 1 (Ace) to 10 (ten-value), as in RULES.md §1.2.
"""

from collections.abc import Iterable
from functools import cache
from operator import mul

from casino.engine.hands import BLACKJACK_TOTAL, is_natural

__all__ = [
    "ACE",
    "BLACKJACK_TOTAL",
    "NO_CARDS",
    "TEN",
    "VALUES",
    "CompositionError",
    "Counts",
    "check_counts",
    "counts_of",
    "is_blackjack",
    "shoe_counts",
    "soft_total",
    "total_of",
    "with_card",
    "without",
]

Counts = tuple[int, ...]

ACE = 1
TEN = 10
VALUES: tuple[int, ...] = tuple(range(1, 11))
NO_CARDS: Counts = (0,) * 10


class CompositionError(ValueError):
    code = "invalid_composition"


def shoe_counts(decks: int) -> Counts:
    """The composition of a full shoe of `decks` standard 52-card decks."""
    if decks < 1:
        raise CompositionError(f"a shoe needs at least one deck, not {decks}")
    return (4 * decks,) * 9 + (16 * decks,)


def check_counts(counts: Counts) -> Counts:
    """`counts` itself, after checking it is ten non-negative whole counts."""
    if len(counts) != len(VALUES) or any(not isinstance(c, int) or c < 0 for c in counts):
        raise CompositionError(f"a composition is ten non-negative counts (Ace .. ten), not {counts!r}")
    return counts


def counts_of(values: Iterable[int]) -> Counts:
    """The composition of the given card values."""
    tally = [0] * 10
    for value in values:
        tally[value - 1] += 1
    return tuple(tally)


def with_card(counts: Counts, value: int) -> Counts:
    """`counts` with one more card of `value`."""
    i = value - 1
    return (*counts[:i], counts[i] + 1, *counts[i + 1 :])


def without(counts: Counts, removed: Counts) -> Counts:
    """`counts` less `removed`; raises when `removed` is not part of `counts`."""
    left = tuple(c - r for c, r in zip(counts, removed, strict=True))
    if min(left) < 0:
        raise CompositionError(f"cannot remove {removed!r} from {counts!r}")
    return left


@cache  # the odds modules ask again and again for the same few thousand hands
def total_of(counts: Counts) -> tuple[int, bool]:
    """The best total of a hand holding `counts`, and whether it is soft (an Ace counted as 11)."""
    hard = sum(map(mul, VALUES, counts))
    if counts[0] and hard <= BLACKJACK_TOTAL - 10:
        return hard + 10, True
    return hard, False


def soft_total(hard: int, *, has_ace: bool) -> tuple[int, bool]:
    """The best total for a hard (Aces as 1) sum, and whether it is soft."""
    if has_ace and hard + 10 <= BLACKJACK_TOTAL:
        return hard + 10, True
    return hard, False


def is_blackjack(hand: Counts) -> bool:
    """Whether a hand holding `hand` is a Blackjack (`casino.engine.hands.is_natural`)."""
    return is_natural(cards=sum(hand), total=total_of(hand)[0])
