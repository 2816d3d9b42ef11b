"""The side bets casino tables offer, registered by the apps that define them.

The core imports no side-bet app (see the import contracts in pyproject.toml). An app that
defines a side bet implements `casino.engine.side_bet.SideBet` in its engine and registers a
`SideBetAdapter` for the table game that offers it, from its `AppConfig.ready()`: `bonus_tie`
registers the tie bonus for `tie_bonus_blackjack` tables. The casino's services, selectors and
reports ask here (`side_bet_for(table.game)`) for the side bet's rules, the terms a round opens
or settles under, and the house edge of its kinds.

Of this project it imports only the engine, so that the models take their wager-kind choices
from here (`WAGER_KIND_CHOICES`).
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.choices import BaseChoiceIterator

from casino.engine.side_bet import SideBet, SideBetOffer
from casino.engine.wager_kinds import Kind, WagerKind

__all__ = [
    "WAGER_KIND_CHOICES",
    "SideBetAdapter",
    "TermsInForce",
    "WagerKindChoices",
    "placeable_kinds",
    "register",
    "registered",
    "side_bet_for",
    "wager_kinds",
]


@dataclass(frozen=True, slots=True)
class TermsInForce:
    """The terms a new round opens under: the row the round records (`Round.paytable`) and the
    side bet on those terms (`offer.version` is the paytable version)."""

    paytable: Any
    offer: SideBetOffer[Any]


class SideBetAdapter(Protocol):
    """What the casino app needs from an app that defines a side bet."""

    @property
    def game(self) -> str:
        """The table game (`Table.game`) whose tables offer the side bet."""
        ...

    @property
    def side_bet(self) -> SideBet[Any]:
        """Its rules, for placing wagers (`blackjack.engine.wagers.validate_wagers`)."""
        ...

    def terms_in_force(self) -> TermsInForce | None:
        """The terms a round opening now is settled by (the newest approved paytable), or None
        when there are none yet."""
        ...

    def terms_of(self, paytable: Any) -> SideBetOffer[Any]:
        """The side bet on the terms a stored round records (`round.paytable`)."""
        ...

    def price_table_rules(self, table: Any) -> None:
        """Make sure the house edges of the table's house rules will be known: queue (on commit)
        the report of the terms in force under them when there is none. Called when a table is
        provisioned and when a rule change is approved or applied."""
        ...


_BY_GAME: dict[str, SideBetAdapter] = {}


def register(adapter: SideBetAdapter) -> None:
    """Make `adapter` the side bet of its table game's tables (called from `AppConfig.ready()`)."""
    current = _BY_GAME.get(adapter.game)
    if current is not None and type(current) is not type(adapter):
        raise RuntimeError(f"tables of {adapter.game!r} already offer {current!r}, not {adapter!r} as well")
    _BY_GAME[adapter.game] = adapter


def side_bet_for(game: str) -> SideBetAdapter | None:
    """The side bet tables of `game` offer, if any."""
    return _BY_GAME.get(game)


def registered() -> tuple[SideBetAdapter, ...]:
    return tuple(_BY_GAME.values())


def wager_kinds() -> tuple[Kind, ...]:
    """Every wager kind a table may hold, in listing order: the primary, the side bets' kinds,
    then insurance."""
    side_kinds = dict.fromkeys(kind for adapter in _BY_GAME.values() for kind in adapter.side_bet.kinds)
    return (WagerKind.PRIMARY, *side_kinds, WagerKind.INSURANCE)


def placeable_kinds() -> tuple[Kind, ...]:
    """The kinds a seat may place when a round opens, at any table: all but insurance."""
    return tuple(kind for kind in wager_kinds() if kind is not WagerKind.INSURANCE)


class WagerKindChoices(BaseChoiceIterator):
    """`choices` of the models' wager-kind columns: `(kind, kind)` for each of `wager_kinds()`.

    Read each time they are used, so they include the side bets registered since the models
    were defined. Migrations compare them, and would write them, as the choices they yield, so
    the models name no side bet and registering one needs no migration.
    """

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter([(kind.value, kind.value) for kind in wager_kinds()])


WAGER_KIND_CHOICES = WagerKindChoices()
