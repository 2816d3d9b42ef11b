"""House edge of each wager kind, per unit of handle, as documented constants, and the order
kinds are listed in.

The shift reports and player ratings no longer price theoretical win with these constants: they
take the edge of the terms each round was dealt under, its paytable version's report and its house
rules (`casino.reports.paytable_edges`). The constants remain as the reference figures printed
beside a report's kinds. THE CORE'S FIGURES ARE DOCUMENTED CONSTANTS, not a live computation:

- primary: about 0.41 %, the published basic-strategy edge for the default house rules (6
  decks, S17, DAS, no surrender, no re-split Aces, peek), applied to the whole primary handle
  (doubles and splits included), which slightly overstates theo on doubled and split hands.
- insurance: 7.40 %, the six-deck figure (P(ten) = 96/311, pays 2 to 1).

A side bet's kinds have the edges its app registers (`casino.side_bets`; the tie bonus:
`bonus_tie.side_bet.HOUSE_EDGES`).

Theoretical win of a kind = handle x edge, rounded to the cent half to even (ROUND_HALF_EVEN);
a table's theo is the sum of its kinds' rounded figures, so the figures add up in every rollup.
"""

from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, Decimal
from types import MappingProxyType

from casino.engine.wagers import WagerKind
from casino.side_bets import registered, wager_kinds

CORE_HOUSE_EDGES: Mapping[str, Decimal] = MappingProxyType(
    {
        WagerKind.PRIMARY.value: Decimal("0.004100"),
        WagerKind.INSURANCE.value: Decimal("0.074000"),
    }
)


def house_edges() -> Mapping[str, Decimal]:
    """The edge of every wager kind: the core's and each registered side bet's."""
    edges = dict(CORE_HOUSE_EDGES)
    for adapter in registered():
        edges.update(adapter.house_edges)
    return edges


def kind_order() -> tuple[str, ...]:
    """The order kinds are listed in (reports, CSV columns)."""
    return tuple(kind.value for kind in wager_kinds())


def kind_sort_key(kind: str) -> tuple[int, str]:
    """Sort key of a kind in `kind_order`; kinds it does not list come last, by name."""
    order = kind_order()
    return (order.index(kind) if kind in order else len(order), kind)


def house_edge(kind: str) -> Decimal:
    """The edge of `kind`; an unknown kind has none (its theo is 0, and it still shows its handle)."""
    return house_edges().get(kind, Decimal(0))


def theo_win_cents(*, handle_cents: int, kind: str) -> int:
    """Handle x edge, rounded to the cent half to even."""
    return int((Decimal(handle_cents) * house_edge(kind)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
