"""Playing cards, written rank + suit as in RULES.md: `AS`, `TD`, `QH`."""

from dataclasses import dataclass, field
from enum import StrEnum

from casino.engine.errors import RuleError


class Rank(StrEnum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
TEN_VALUE_RANKS = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})


class InvalidCardError(RuleError):
    code = "invalid_card"


@dataclass(frozen=True, slots=True)
class Card:
    rank: Rank
    suit: Suit
    # Derived once, so hand totals and shoe counts need no lookups.
    value: int = field(init=False, repr=False, compare=False)
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", _VALUES[self.rank])
        object.__setattr__(self, "index", RANKS.index(self.rank) * 4 + SUITS.index(self.suit))

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    @property
    def is_ace(self) -> bool:
        return self.rank is Rank.ACE

    @property
    def is_ten_value(self) -> bool:
        return self.value == 10


_VALUES: dict[Rank, int] = {rank: min(position + 1, 10) for position, rank in enumerate(RANKS)}

# The 52 distinct cards, in `Card.index` order (A-K, each in S H D C).
ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)
_BY_TEXT: dict[str, Card] = {str(card): card for card in ALL_CARDS}


def parse_card(text: object) -> Card:
    """`"AS"` -> Card(ACE, SPADES). Exactly two characters, upper case."""
    if not isinstance(text, str):
        raise InvalidCardError(f"a card is a string such as 'AS', not {text!r}", field="card")
    card = _BY_TEXT.get(text)
    if card is None:
        raise InvalidCardError(
            f"{text!r} is not a card: write rank (A 2-9 T J Q K) then suit (S H D C), e.g. 'AS', 'TD'",
            field="card",
        )
    return card


def card_value(card: Card) -> int:
    """2-9 face value, T J Q K ten; an Ace counts 1 here (hands.py decides when it is 11)."""
    return card.value
