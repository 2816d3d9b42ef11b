import pytest

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.hands import (
    FinalHand,
    hand_total,
    is_blackjack,
    is_bust,
    is_natural,
    is_soft,
    total_and_soft,
)
from tests.casino.engine.helpers import cards


@pytest.mark.parametrize(
    ("text", "total", "soft"),
    [
        ("AS 6H", 17, True),  # soft while the Ace can count 11
        ("AS 6H TD", 17, False),  # ... and hard once it cannot
        ("AS AH", 12, True),
        ("AS AH AD AC", 14, True),
        ("AS AH 9D", 21, True),
        ("TS 7H", 17, False),
        ("KS QH", 20, False),
        ("AS KH", 21, True),
        ("9S 7H 5D", 21, False),
        ("TS 6H 6D", 22, False),
        ("", 0, False),
    ],
)
def test_hand_total_counts_an_ace_11_while_that_does_not_bust(text: str, total: int, soft: bool) -> None:
    hand = cards(text)
    assert total_and_soft(hand) == (total, soft)
    assert hand_total(hand) == total
    assert is_soft(hand) is soft


@pytest.mark.parametrize(
    ("text", "blackjack"),
    [("AS KH", True), ("TD AC", True), ("JS AS", True), ("QH AD", True), ("AS 5H 5D", False),
     ("7S 7H 7D", False), ("AS AH", False), ("TS KH", False), ("AS 9H AD", False)],
)  # fmt: skip
def test_blackjack_is_exactly_an_ace_and_a_ten_value_card_as_the_first_two_cards(
    text: str, blackjack: bool
) -> None:
    assert is_blackjack(cards(text)) is blackjack


def test_any_other_21_is_never_blackjack_three_cards() -> None:
    assert hand_total(cards("7S 7H 7D")) == 21
    assert is_blackjack(cards("7S 7H 7D")) is False


def test_a_split_hand_is_never_blackjack() -> None:
    assert is_blackjack(cards("AS KH"), from_split=True) is False


@pytest.mark.parametrize(("text", "bust"), [("TS 6H 6D", True), ("TS 6H 5D", False), ("AS AH TD KC", True)])
def test_over_21_is_bust(text: str, bust: bool) -> None:
    assert is_bust(cards(text)) is bust


@pytest.mark.parametrize(
    ("cards_held", "total", "from_split", "natural"),
    [(2, 21, False, True), (2, 21, True, False), (3, 21, False, False), (2, 20, False, False),
     (1, 21, False, False), (2, 22, False, False)],
)  # fmt: skip
def test_is_natural_is_two_cards_worth_21_from_no_split(
    cards_held: int, total: int, from_split: bool, natural: bool
) -> None:
    assert is_natural(cards=cards_held, total=total, from_split=from_split) is natural


@pytest.mark.parametrize("first", ALL_CARDS[::4])  # one card of each rank
def test_two_cards_are_a_blackjack_exactly_when_they_are_an_ace_and_a_ten_value_card(first: Card) -> None:
    for second in ALL_CARDS:
        expected = {first.value, second.value} == {1, 10}
        assert is_blackjack((first, second)) is expected


def test_a_final_hand_busts_over_21() -> None:
    assert (FinalHand(total=21).bust, FinalHand(total=22).bust) == (False, True)
