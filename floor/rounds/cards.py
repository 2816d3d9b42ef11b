"""How the round pages write cards and who received them."""

from dataclasses import dataclass

_RANKS = {"T": "10"}
_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class ShownCard:
    """A card as staff read it: `10♦` for `TD`; red suits are marked for the page's colours."""

    code: str

    @property
    def label(self) -> str:
        if len(self.code) != 2:
            return self.code
        rank, suit = self.code[0], self.code[1]
        return _RANKS.get(rank, rank) + _SUITS.get(suit, suit)

    @property
    def red(self) -> bool:
        return self.code[-1:] in ("H", "D")

    def __str__(self) -> str:
        return self.label


def seat_and_hand(seat: int, hand: int, *, hands: int) -> str:
    """`Seat 2` for an unsplit seat, `Seat 2, hand 1` once it holds several hands (hands count
    from 1 on these pages; the API counts them from 0)."""
    return f"Seat {seat}, hand {hand + 1}" if hands > 1 else f"Seat {seat}"


def dealer_card_face(cards_before: int) -> str:
    """The dealer's first card is the up card, the second the hole card; later draws are face up."""
    if cards_before == 0:
        return "up card"
    if cards_before == 1:
        return "hole card"
    return "drawn"
