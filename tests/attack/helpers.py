"""Builders for Blackjack Attack's tests: decks with chosen top cards, scripted placements."""

from attack.engine.game import AttackState, new_game, place
from attack.engine.view import needs, score
from casino.engine.cards import ALL_CARDS, Card, parse_card
from casino.engine.errors import RuleError


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(word) for word in text.split())


def deck_with(top: str, bottom: str = "") -> tuple[Card, ...]:
    """A deck whose first cards are `top` and last ones `bottom`, the others in between in
    `ALL_CARDS` order."""
    first, last = cards(top), cards(bottom)
    middle = tuple(card for card in ALL_CARDS if card not in first and card not in last)
    return (*first, *middle, *last)


def game(top: str) -> AttackState:
    return new_game(deck_with(top))


def play(state: AttackState, *columns: int, at_ms: int | None = None) -> AttackState:
    """Place the current card on each column in turn, one millisecond apart (or all at `at_ms`)."""
    for column in columns:
        state = place(state, column=column, at_ms=state.last_at_ms + 1 if at_ms is None else at_ms)
    return state


def play_out(state: AttackState, *, last_at_ms: int) -> AttackState:
    """Place every card left on its first legal column, the last one at `last_at_ms`."""
    while state.cards_left > 1:
        need = needs(state)
        assert need is not None
        state = place(state, column=need.columns[0], at_ms=state.last_at_ms)
    need = needs(state)
    assert need is not None
    return place(state, column=need.columns[0], at_ms=last_at_ms)


def total(state: AttackState) -> int:
    return score(state).total


def error_code(error: RuleError) -> str:
    return error.code
