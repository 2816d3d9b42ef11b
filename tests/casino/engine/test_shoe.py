import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackjack.engine.rules import HouseRules
from casino.engine.cards import ALL_CARDS, Card, parse_card
from casino.engine.errors import RuleError
from casino.engine.shoe import (
    CardNotInShoeError,
    InvalidDeckCountError,
    InvalidSaltError,
    Shoe,
    commitment,
    is_full_shoe,
    new_shoe,
    serialise_order,
    shuffle_order,
    verify_commitment,
)

SALT = bytes(range(16))


@pytest.mark.parametrize("decks", [6, 8])
def test_a_shoe_holds_6_or_8_decks_with_decks_copies_of_each_card(decks: int) -> None:
    shoe = new_shoe(decks=decks)
    assert shoe.counts == (decks,) * 52
    assert shoe.cards_remaining == 52 * decks


@pytest.mark.parametrize("decks", [0, 1, 2, 4, 5, 7, 9, -6, True, "6", 6.0, None])
def test_any_other_deck_count_is_rejected(decks: object) -> None:
    with pytest.raises(InvalidDeckCountError) as raised:
        new_shoe(decks=decks)  # type: ignore[arg-type]
    assert raised.value.code == "invalid_deck_count"
    assert raised.value.field == "decks"


def test_drawing_returns_a_new_shoe_one_card_shorter() -> None:
    # given a fresh 6-deck shoe / when the AS is drawn
    shoe = new_shoe(decks=6)
    after = shoe.draw(parse_card("AS"))
    # then the new shoe holds five AS and the old one is untouched
    assert after.count(parse_card("AS")) == 5
    assert after.cards_remaining == 311
    assert shoe.count(parse_card("AS")) == 6


def test_seventh_ace_of_spades_from_a_6_deck_shoe_is_rejected_and_changes_nothing() -> None:
    # given a 6-deck shoe that has dealt all six AS
    shoe = new_shoe(decks=6)
    for _ in range(6):
        shoe = shoe.draw(parse_card("AS"))
    # when a seventh AS is reported
    with pytest.raises(CardNotInShoeError) as raised:
        shoe.draw(parse_card("AS"))
    # then it is rejected with a clear error and the shoe is unchanged
    assert raised.value.code == "card_not_in_shoe"
    assert "AS" in raised.value.detail
    assert shoe.count(parse_card("AS")) == 0
    assert shoe.cards_remaining == 306


def test_a_shoe_cannot_be_built_with_more_than_decks_copies() -> None:
    with pytest.raises(ValueError, match=r"0\.\.6"):
        Shoe(6, (7,) + (6,) * 51)


def test_penetration_is_reached_once_75_percent_is_dealt_by_default() -> None:
    # given a 6-deck shoe (312 cards): 75% is 234 cards
    order = shuffle_order(decks=6, rng=random.Random(3))
    shoe = new_shoe(decks=6)
    for card in order[:233]:
        shoe = shoe.draw(card)
    assert shoe.penetration_reached() is False
    # when the 234th card comes out / then the cut card is reached
    assert shoe.draw(order[233]).penetration_reached() is True


def test_penetration_is_a_table_setting() -> None:
    shoe = new_shoe(decks=8)
    for card in shuffle_order(decks=8, rng=random.Random(1))[:208]:
        shoe = shoe.draw(card)
    assert shoe.penetration_reached(percent=50) is True
    assert shoe.penetration_reached(percent=51) is False


@pytest.mark.parametrize("decks", [6, 8])
def test_electronic_shuffle_is_a_full_shoe_in_the_callers_rng_order(decks: int) -> None:
    # given the same seeded RNG twice / when shuffled / then the same full shoe in the same order
    first = shuffle_order(decks=decks, rng=random.Random(42))
    assert first == shuffle_order(decks=decks, rng=random.Random(42))
    assert len(first) == 52 * decks
    assert is_full_shoe(first, decks=decks)
    assert first != shuffle_order(decks=decks, rng=random.Random(43))


def test_electronic_shuffle_rejects_a_bad_deck_count() -> None:
    with pytest.raises(InvalidDeckCountError):
        shuffle_order(decks=7, rng=random.Random(1))


def test_commitment_is_sha256_of_cards_joined_by_commas_then_colon_then_salt_hex() -> None:
    order = (parse_card("AS"), parse_card("TD"), parse_card("QH"))
    expected_text = "AS,TD,QH:000102030405060708090a0b0c0d0e0f"
    assert serialise_order(order, SALT) == expected_text.encode()
    assert commitment(order, SALT) == hashlib.sha256(expected_text.encode()).hexdigest()


def test_an_auditor_verifies_the_revealed_order_and_salt() -> None:
    # given a shoe shuffled and committed at the start
    order = shuffle_order(decks=6, rng=random.Random(7))
    published = commitment(order, SALT)
    # when the shoe closes and reveals order and salt / then the commitment verifies
    assert verify_commitment(order, SALT, published) is True
    assert verify_commitment(order, SALT, published.upper()) is True


def test_a_tampered_order_or_salt_fails_verification() -> None:
    order = shuffle_order(decks=6, rng=random.Random(7))
    published = commitment(order, SALT)
    swapped = (order[1], order[0], *order[2:])
    assert (order[0] == order[1]) or verify_commitment(swapped, SALT, published) is False
    assert verify_commitment(order, bytes(16), published) is False
    assert verify_commitment(order[:-1], SALT, published) is False
    assert verify_commitment(order, SALT, "é" * 64) is False


@pytest.mark.parametrize("salt", [b"", b"short", "0" * 32, None])
def test_the_salt_is_at_least_16_random_bytes(salt: object) -> None:
    with pytest.raises(InvalidSaltError):
        commitment((parse_card("AS"),), salt)  # type: ignore[arg-type]


@given(rng=st.randoms(use_true_random=False), decks=st.sampled_from((6, 8)), dealt=st.integers(0, 416))
def test_the_shoe_never_goes_negative_and_counts_every_card_dealt(
    rng: random.Random, decks: int, dealt: int
) -> None:
    # given a shoe at start: decks copies of each card
    shoe = new_shoe(decks=decks)
    assert all(n == decks for n in shoe.counts)
    order = shuffle_order(decks=decks, rng=rng)
    # when some of it is dealt
    drawn: list[Card] = list(order[: min(dealt, len(order))])
    for card in drawn:
        shoe = shoe.draw(card)
    # then every count is between 0 and decks and matches what was dealt
    assert all(0 <= n <= decks for n in shoe.counts)
    assert shoe.cards_remaining == 52 * decks - len(drawn)
    for card in ALL_CARDS:
        assert shoe.count(card) == decks - drawn.count(card)


@pytest.mark.parametrize("percent", [0, 101, -5, 75.0, True])
def test_penetration_is_a_whole_percent_from_1_to_100(percent: object) -> None:
    with pytest.raises(RuleError) as raised:
        new_shoe(decks=6).penetration_reached(percent=percent)  # type: ignore[arg-type]
    assert raised.value.code == "invalid_penetration"


def test_the_cut_card_defaults_to_the_house_rules_75_percent() -> None:
    shoe = new_shoe(decks=6)
    for card in shuffle_order(decks=6, rng=random.Random(5))[:234]:
        shoe = shoe.draw(card)
    assert (
        shoe.penetration_reached(percent=HouseRules().penetration_percent)
        is shoe.penetration_reached()
        is True
    )
