import pytest

from casino.engine.hands import hand_total, is_blackjack, is_bust, is_soft, total_and_soft
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
