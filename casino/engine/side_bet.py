"""The interface through which the core places and settles side bets (STYLE.md §1).

A side bet is a wager a seat places beside its primary wager and that settles on the round's
final hands, such as the tie bonus (RULES.md §1.3). The core engine knows no side bet by name:
`wagers.validate_wagers` and `settlement.settle` take one as a `SideBet` value, and an app
implements it in its own engine (`bonus_tie.engine.tie_bonus.TIE_BONUS`), so another side bet
is added the same way. The casino app finds the one a table offers in `casino.side_bets`.
"""

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from casino.engine.hands import FinalHand

__all__ = ["FinalHand", "SideBet", "SideBetKind", "SideBetOffer"]

TermsT = TypeVar("TermsT")
TermsT_contra = TypeVar("TermsT_contra", contravariant=True)


class SideBetKind(StrEnum):
    """Base of a side bet's wager kinds: a side bet subclasses it with its kinds as members.

    The members are listed in the side bet's order, the one that breaks ties when leftover cents
    are handed out (RULES.md §1.4); a seat's side wagers, their settlement lines and their
    listings keep that order (`position`).
    """

    @property
    def position(self) -> int:
        """Where the kind comes in its side bet's order (0 for the first member)."""
        return _positions(type(self))[self]


@functools.cache
def _positions(kinds: type[SideBetKind]) -> Mapping[SideBetKind, int]:
    return {kind: position for position, kind in enumerate(kinds)}


class SideBet(Protocol[TermsT_contra]):
    """The rules of one side bet, as the core uses them.

    `TermsT_contra` is what it pays by, versioned apart from the rules and passed in when a
    round settles (the tie bonus: a `Paytable`).
    """

    @property
    def kinds(self) -> tuple[SideBetKind, ...]:
        """Its wager kinds, in its order (`SideBetKind`)."""
        ...

    def check_seat(
        self, *, seat: int, primary_cents: int, placed: Mapping[SideBetKind, int], field: str
    ) -> None:
        """Raise a `RuleError` (at `field`) if the side wagers `placed` at `seat` break a placement
        rule of this bet, given the seat's primary wager.

        The core has already checked each wager: one of `kinds`, placed once, a positive number of
        cents within the table's minimum and maximum for its kind, beside a primary wager.
        """
        ...

    def winnings(
        self,
        *,
        placed: Mapping[SideBetKind, int],
        hands: Sequence[FinalHand],
        dealer: FinalHand,
        terms: TermsT_contra,
    ) -> Mapping[SideBetKind, int]:
        """The winnings of each wager in `placed` that wins: the profit by `terms`, stake not
        included, before any aggregate limit. Every wager left out loses its stake.

        `hands` are the seat's final hands in the order they are numbered (hand 0 first),
        `dealer` is the dealer's final hand.
        """
        ...


@dataclass(frozen=True, slots=True)
class SideBetOffer(Generic[TermsT]):
    """A side bet on the terms a round settles by: the rules, the terms in force when the round
    opened (RULES.md §1.4) and the version number of those terms."""

    rules: SideBet[TermsT]
    terms: TermsT
    version: int
