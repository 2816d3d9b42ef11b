"""Builders for Blackjack Squares' tests: decks with chosen top and bottom cards, whole squares."""

from casino.engine.cards import ALL_CARDS, Card, parse_card
from squares.engine.game import SquaresState, cash_in, new_game, place, swap
from squares.engine.rules import POSITIONS


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(word) for word in text.replace("/", " ").split())


def deck_with(top: str, bottom: str = "") -> tuple[Card, ...]:
    """A deck whose first cards are `top` and whose last ones are `bottom` (the bottom card last),
    the others in between in `ALL_CARDS` order."""
    first, last = cards(top), cards(bottom)
    middle = tuple(card for card in ALL_CARDS if card not in first and card not in last)
    return (*first, *middle, *last)


def game(top: str, bottom: str = "", *, limit_s: int = 1800) -> SquaresState:
    return new_game(deck_with(top, bottom), limit_s=limit_s)


def fill(state: SquaresState, *positions: int) -> SquaresState:
    """Place the current card on each position in turn (all nine, row by row, by default)."""
    for position in positions or POSITIONS:
        state = place(state, position=position, at_ms=state.last_at_ms + 1)
    return state


def swap_out(state: SquaresState, position: int) -> SquaresState:
    return swap(state, position=position, at_ms=state.last_at_ms + 1)


def cash(state: SquaresState) -> SquaresState:
    return cash_in(state, at_ms=state.last_at_ms + 1)
