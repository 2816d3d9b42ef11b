import pytest
from hypothesis import given

from casino.engine.cards import ALL_CARDS, Card, InvalidCardError, Rank, Suit, card_value, parse_card
from tests.strategies import cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("AS", Rank.ACE, Suit.SPADES), ("TD", Rank.TEN, Suit.DIAMONDS), ("QH", Rank.QUEEN, Suit.HEARTS),
     ("2C", Rank.TWO, Suit.CLUBS)],
)  # fmt: skip
def test_cards_are_written_rank_then_suit(text: str, rank: Rank, suit: Suit) -> None:
    assert parse_card(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "A", "ASS", "10S", "as", "1S", "AX", "ZS", " AS", None, 7, b"AS"])
def test_anything_else_is_an_invalid_card(text: object) -> None:
    with pytest.raises(InvalidCardError) as raised:
        parse_card(text)
    assert raised.value.code == "invalid_card"
    assert raised.value.field == "card"


@pytest.mark.parametrize(
    ("text", "value"),
    [("2S", 2), ("5H", 5), ("9D", 9), ("TC", 10), ("JS", 10), ("QH", 10), ("KD", 10), ("AS", 1)],
)
def test_card_values_2_to_9_face_value_ten_value_cards_10_ace_counts_1_until_hands_say_11(
    text: str, value: int
) -> None:
    assert card_value(parse_card(text)) == value


def test_ten_value_cards_are_t_j_q_k() -> None:
    assert [c.rank for c in ALL_CARDS if c.is_ten_value and c.suit is Suit.SPADES] == [
        Rank.TEN,
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
    ]


def test_there_are_52_distinct_cards() -> None:
    assert len(set(ALL_CARDS)) == 52
    assert sorted(card.index for card in ALL_CARDS) == list(range(52))


@given(card=cards())
def test_a_card_round_trips_through_its_text(card: Card) -> None:
    assert parse_card(str(card)) == card
