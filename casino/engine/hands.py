"""Blackjack hand values (RULES.md §1.2)."""

from collections.abc import Sequence

from casino.engine.cards import Card

BLACKJACK_TOTAL = 21


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
    """A natural: exactly the first two cards of an unsplit hand, an Ace and a ten-value card."""
    if from_split or len(cards) != 2:
        return False
    first, second = cards
    return first.value + second.value == 11 and (first.value == 1 or second.value == 1)
