"""The special deck (RULES.md §2): two kinds, configurable composition, dealt at random."""

import random

import pytest

from specials.engine.special_cards import (
    DEFAULT_CARDS_OF_EACH_KIND,
    SpecialCard,
    SpecialDeck,
    deal_specials,
    parse_special,
)
from tests.specials.engine.helpers import NO_SHUFFLE, refused


def test_the_special_deck_holds_swap_and_plus_one_in_equal_numbers_by_default() -> None:
    deck = SpecialDeck()
    assert deck.swap == deck.plus_one == DEFAULT_CARDS_OF_EACH_KIND
    assert deck.cards().count(SpecialCard.SWAP) == deck.cards().count(SpecialCard.PLUS_ONE)
    # enough for a full table of seven, whatever it draws
    for seed in range(20):
        assert len(deal_specials(named=[None] * 7, deck=deck, rng=random.Random(seed))) == 7


def test_the_special_deck_composition_is_configurable() -> None:
    deck = SpecialDeck(swap=3, plus_one=1)
    assert sorted(deck.cards()) == sorted([SpecialCard.SWAP] * 3 + [SpecialCard.PLUS_ONE])


@pytest.mark.parametrize(("swap", "plus_one"), [(-1, 2), (2, -1), (0, 0), (1.0, 1), ("1", 1), (None, 1)])
def test_a_special_deck_that_cannot_be_dealt_from_is_refused(swap: object, plus_one: object) -> None:
    error = refused(lambda: SpecialDeck(swap=swap, plus_one=plus_one))  # type: ignore[arg-type]
    assert error.code == "invalid_special_deck"


def test_special_cards_are_dealt_without_replacement_from_the_shuffled_deck() -> None:
    for seed in range(50):
        dealt = deal_specials(
            named=[None, None, None], deck=SpecialDeck(swap=2, plus_one=1), rng=random.Random(seed)
        )
        assert sorted(dealt) == sorted([SpecialCard.SWAP, SpecialCard.SWAP, SpecialCard.PLUS_ONE])


def test_the_shuffle_decides_the_order_in_seat_order() -> None:
    # unshuffled, the deck is every SWAP then every PLUS_ONE
    dealt = deal_specials(named=[None, None, None], deck=SpecialDeck(swap=1, plus_one=2), rng=NO_SHUFFLE)
    assert dealt == (SpecialCard.SWAP, SpecialCard.PLUS_ONE, SpecialCard.PLUS_ONE)


def test_named_special_cards_are_kept_and_only_the_others_are_dealt() -> None:
    dealt = deal_specials(
        named=[SpecialCard.PLUS_ONE, None, SpecialCard.PLUS_ONE],
        deck=SpecialDeck(swap=1, plus_one=0),
        rng=NO_SHUFFLE,
    )
    assert dealt == (SpecialCard.PLUS_ONE, SpecialCard.SWAP, SpecialCard.PLUS_ONE)


def test_a_deck_too_small_for_the_players_is_refused() -> None:
    error = refused(
        lambda: deal_specials(named=[None, None], deck=SpecialDeck(swap=1, plus_one=0), rng=NO_SHUFFLE)
    )
    assert error.code == "invalid_special_deck"


@pytest.mark.parametrize(
    ("text", "special"), [("SWAP", SpecialCard.SWAP), ("PLUS_ONE", SpecialCard.PLUS_ONE)]
)
def test_special_cards_are_written_as_in_the_api(text: str, special: SpecialCard) -> None:
    assert parse_special(text) is special


@pytest.mark.parametrize("text", ["swap", "PLUS1", "", None, 1])
def test_an_unknown_special_card_is_refused(text: object) -> None:
    assert refused(lambda: parse_special(text)).code == "invalid_special_card"
