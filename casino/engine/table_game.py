"""What every table game's round shares: the shoe it is dealt from and the refusals of a card
or a decision the round does not expect (API.md, "Errors")."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from casino.engine.cards import Card
from casino.engine.errors import RuleError
from casino.engine.shoe import Shoe

__all__ = [
    "ActionNotAllowedError",
    "ElectronicShoeDealsError",
    "NoActionExpectedError",
    "NoCardExpectedError",
    "NotYourTurnError",
    "ShoeInPlay",
]


class NoCardExpectedError(RuleError):
    code = "no_card_expected"


class ElectronicShoeDealsError(NoCardExpectedError):
    """A card reported for a round whose cards the service draws itself."""


class NoActionExpectedError(RuleError):
    code = "no_action_expected"


class NotYourTurnError(RuleError):
    code = "not_your_turn"


class ActionNotAllowedError(RuleError):
    code = "action_not_allowed"

    def __init__(self, detail: str, *, allowed: Sequence[str], field: str | None = "action") -> None:
        self.allowed: tuple[str, ...] = tuple(allowed)
        names = ", ".join(self.allowed) or "none"
        super().__init__(f"{detail}; allowed: {names}", field=field)


@dataclass(frozen=True, slots=True)
class ShoeInPlay:
    """The shoe a round is dealt from: what is left in it and, for an electronic shoe, the
    cards still to come in their committed order (`None` for a reported shoe), read only as
    far as the round draws them."""

    shoe: Shoe
    penetration_percent: int
    upcoming: Iterable[Card] | None = None

    @property
    def electronic(self) -> bool:
        return self.upcoming is not None
