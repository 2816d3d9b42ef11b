"""The special deck (RULES.md §2): `SWAP` ("Cambio de Carta") and `PLUS_ONE` ("Sumador").

At the start of a match each player receives one special card. A card named by the terminal
(dealt from a physical special deck) is taken as named; the others are dealt from the table's
configured composition, shuffled by the caller's random source (the engine never touches a
global random), one card per player in seat order, without replacement.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from casino.engine.errors import RuleError
from casino.engine.shoe import ShuffleRng

# Equal numbers of each kind [decided], enough for a full table of seven whatever it draws.
DEFAULT_CARDS_OF_EACH_KIND = 7


class SpecialCard(StrEnum):
    SWAP = "SWAP"
    PLUS_ONE = "PLUS_ONE"


class InvalidSpecialCardError(RuleError):
    code = "invalid_special_card"


class InvalidSpecialDeckError(RuleError):
    code = "invalid_special_deck"


def parse_special(text: object) -> SpecialCard:
    """`"SWAP"` -> SpecialCard.SWAP; anything else is refused."""
    for special in SpecialCard:
        if text == special.value:
            return special
    raise InvalidSpecialCardError(f"a special card is SWAP or PLUS_ONE, not {text!r}", field="special")


@dataclass(frozen=True, slots=True)
class SpecialDeck:
    """How many cards of each kind the special deck holds."""

    swap: int = DEFAULT_CARDS_OF_EACH_KIND
    plus_one: int = DEFAULT_CARDS_OF_EACH_KIND

    def __post_init__(self) -> None:
        for name, count in (("swap", self.swap), ("plus_one", self.plus_one)):
            if type(count) is not int or count < 0:
                raise InvalidSpecialDeckError(
                    f"the special deck holds a whole number of {name} cards, not {count!r}", field=name
                )
        if self.swap + self.plus_one == 0:
            raise InvalidSpecialDeckError("the special deck holds at least one card", field="swap")

    def cards(self) -> list[SpecialCard]:
        """The deck unshuffled: every SWAP, then every PLUS_ONE."""
        return [SpecialCard.SWAP] * self.swap + [SpecialCard.PLUS_ONE] * self.plus_one


def deal_specials(
    *, named: Sequence[SpecialCard | None], deck: SpecialDeck, rng: ShuffleRng
) -> tuple[SpecialCard, ...]:
    """One special card per player: the named one, or the next card of the shuffled deck."""
    wanted = sum(1 for special in named if special is None)
    shuffled = deck.cards()
    if wanted > len(shuffled):
        raise InvalidSpecialDeckError(
            f"the special deck holds {len(shuffled)} cards, too few for {wanted} players", field="players"
        )
    if not wanted:
        return tuple(special for special in named if special is not None)
    rng.shuffle(shuffled)
    top = iter(shuffled)
    return tuple(next(top) if special is None else special for special in named)
