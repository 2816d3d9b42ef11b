"""The shoe: 6 or 8 decks, counted card by card (RULES.md §1.1).

Electronic shoes are shuffled by the caller's RNG (`secrets.SystemRandom()` in
production; the engine never touches a global random). The published
commitment is SHA-256 over the canonical serialisation

    "AS,TD,...,QH" + ":" + salt.hex()

i.e. the shuffled cards written as in RULES.md, joined by commas, then a colon,
then the salt in lower-case hex, all encoded as ASCII.
"""

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from casino.engine.cards import ALL_CARDS, Card
from casino.engine.errors import RuleError

DECK_COUNTS = (6, 8)
DEFAULT_PENETRATION_PERCENT = 75
MIN_SALT_BYTES = 16


class InvalidDeckCountError(RuleError):
    code = "invalid_deck_count"


class CardNotInShoeError(RuleError):
    code = "card_not_in_shoe"


class InvalidPenetrationError(RuleError):
    code = "invalid_penetration"


class InvalidSaltError(RuleError):
    code = "invalid_salt"


PENETRATION_PERCENT = range(10, 96)  # as the table's check constraint (casino.models.floor.Table)


class InvalidShoeRuleError(RuleError):
    code = "invalid_house_rule"


class UnknownShoeRuleError(RuleError):
    code = "unknown_house_rule"


def check_shoe_rule(field: str, value: object) -> None:
    """A value a rule change may give a table's shoe: its decks or where the cut card goes."""
    if field == "decks":
        if type(value) is not int or value not in DECK_COUNTS:
            raise InvalidDeckCountError("A shoe holds 6 or 8 decks.", field=field)
    elif field == "penetration_percent":
        if type(value) is not int or value not in PENETRATION_PERCENT:
            raise InvalidShoeRuleError("The cut card is placed at 10% to 95% of the shoe.", field=field)
    else:
        raise UnknownShoeRuleError(f"{field} is not a house rule a change sets.", field=field)


def check_decks(decks: object) -> int:
    if type(decks) is not int or decks not in DECK_COUNTS:
        raise InvalidDeckCountError(f"a shoe holds 6 or 8 decks, not {decks!r}", field="decks")
    return decks


@dataclass(frozen=True, slots=True)
class Shoe:
    """How many of each of the 52 cards are left; `counts` follows `Card.index`."""

    decks: int
    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        check_decks(self.decks)
        if len(self.counts) != len(ALL_CARDS) or any(
            type(n) is not int or not 0 <= n <= self.decks for n in self.counts
        ):
            raise ValueError(f"a {self.decks}-deck shoe holds 0..{self.decks} of each of the 52 cards")

    @property
    def size(self) -> int:
        return self.decks * len(ALL_CARDS)

    @property
    def cards_remaining(self) -> int:
        return sum(self.counts)

    def count(self, card: Card) -> int:
        return self.counts[card.index]

    def draw(self, card: Card) -> "Shoe":
        """The shoe without `card`; raises (and changes nothing) if none is left."""
        i = card.index
        left = self.counts[i]
        if left == 0:
            raise CardNotInShoeError(
                f"{card} is not in the shoe: all {self.decks} of the shoe's {card} have been dealt",
                field="card",
            )
        return _trusted_shoe(self.decks, (*self.counts[:i], left - 1, *self.counts[i + 1 :]))

    def penetration_reached(self, *, percent: int = DEFAULT_PENETRATION_PERCENT) -> bool:
        """True once `percent` of the shoe has been dealt (the cut card came out)."""
        if type(percent) is not int or not 1 <= percent <= 100:
            raise InvalidPenetrationError(f"penetration is 1..100 percent, not {percent!r}")
        dealt = self.size - self.cards_remaining
        return dealt * 100 >= self.size * percent


def _trusted_shoe(decks: int, counts: tuple[int, ...]) -> Shoe:
    # draw() derives a valid shoe from a valid one, so it skips the 52-count check.
    shoe = object.__new__(Shoe)
    object.__setattr__(shoe, "decks", decks)
    object.__setattr__(shoe, "counts", counts)
    return shoe


def new_shoe(*, decks: int) -> Shoe:
    """A full shoe of `decks` (6 or 8) decks."""
    return Shoe(check_decks(decks), (decks,) * len(ALL_CARDS))


def shoe_after(*, decks: int, dealt: Sequence[Card]) -> Shoe:
    """A full shoe of `decks` decks without the cards `dealt` from it (each must have been in it)."""
    counts = [check_decks(decks)] * len(ALL_CARDS)
    for card in dealt:
        counts[card.index] -= 1
    if min(counts, default=0) < 0:
        raise ValueError(f"more cards were dealt than a {decks}-deck shoe holds")
    return _trusted_shoe(decks, tuple(counts))


class ShuffleRng(Protocol):
    def shuffle(self, x: MutableSequence[Any]) -> None: ...


def shuffle_order(*, decks: int, rng: ShuffleRng) -> tuple[Card, ...]:
    """A full shoe in the order `rng` shuffles it (Fisher-Yates in `random`)."""
    cards = list(ALL_CARDS) * check_decks(decks)
    rng.shuffle(cards)
    return tuple(cards)


def serialise_order(order: Sequence[Card], salt: bytes) -> bytes:
    """The canonical text the commitment hashes (see the module docstring)."""
    return (",".join(map(str, order)) + ":" + salt.hex()).encode("ascii")


def _check_salt(salt: object) -> bytes:
    if not isinstance(salt, bytes) or len(salt) < MIN_SALT_BYTES:
        raise InvalidSaltError(f"the salt is at least {MIN_SALT_BYTES} random bytes", field="salt")
    return salt


def commitment(order: Sequence[Card], salt: bytes) -> str:
    """SHA-256 (hex) published when an electronic shoe starts."""
    return hashlib.sha256(serialise_order(order, _check_salt(salt))).hexdigest()


def verify_commitment(order: Sequence[Card], salt: bytes, commitment: str) -> bool:
    """Whether the revealed order and salt hash to the published commitment."""
    if not isinstance(salt, bytes) or not isinstance(commitment, str) or not commitment.isascii():
        return False
    expected = hashlib.sha256(serialise_order(order, salt)).hexdigest()
    return hmac.compare_digest(expected, commitment.lower())


def is_full_shoe(order: Sequence[Card], *, decks: int) -> bool:
    """Whether `order` is exactly `decks` copies of each card (an auditor's check)."""
    counts = [0] * len(ALL_CARDS)
    for card in order:
        counts[card.index] += 1
    return counts == [decks] * len(ALL_CARDS)
