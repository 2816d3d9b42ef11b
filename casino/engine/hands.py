"""Blackjack hand values (RULES.md §1.2), and the one definition of a Blackjack."""

from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.cards import Card

BLACKJACK_TOTAL = 21
NATURAL_CARDS = 2


def is_natural(*, cards: int, total: int, from_split: bool = False) -> bool:
    """Blackjack (a natural): exactly the first two cards of an unsplit hand, an Ace and a ten-value card.

    The one definition every hand representation calls (cards, the round's hands, the odds
    modules' value counts): two cards make 21 only as an Ace and a ten-value card, so a hand is
    a Blackjack when it holds two cards worth 21 and did not come from a split. Any other 21 is
    "21", never Blackjack.
    """
    return cards == NATURAL_CARDS and total == BLACKJACK_TOTAL and not from_split


def total_and_soft(cards: Sequence[Card]) -> tuple[int, bool]:
    """The best total and whether it is soft (an Ace counted as 11)."""
    total = 0
    has_ace = False
    for card in cards:
        total += card.value
        if card.value == 1:
            has_ace = True
    if has_ace and total <= 11:
        return total + 10, True
    return total, False


def hand_total(cards: Sequence[Card]) -> int:
    return total_and_soft(cards)[0]


def is_soft(cards: Sequence[Card]) -> bool:
    return total_and_soft(cards)[1]


def is_bust(cards: Sequence[Card]) -> bool:
    return total_and_soft(cards)[0] > BLACKJACK_TOTAL


def is_blackjack(cards: Sequence[Card], *, from_split: bool = False) -> bool:
    """Whether these cards are a Blackjack (`is_natural`)."""
    return is_natural(cards=len(cards), total=hand_total(cards), from_split=from_split)


@dataclass(frozen=True, slots=True)
class FinalHand:
    """A finished hand as settlement sees it: the player's (each hand) or the dealer's.

    `blackjack` is a natural only (`is_natural`): a split Ace and a ten make 21, not Blackjack.
    """

    total: int
    blackjack: bool = False
    surrendered: bool = False

    @property
    def bust(self) -> bool:
        return self.total > BLACKJACK_TOTAL
