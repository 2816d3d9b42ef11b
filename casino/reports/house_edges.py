"""House edge of each wager kind, per unit of handle: the figures behind theoretical win.

THE TABLE BELOW IS A SET OF DOCUMENTED CONSTANTS, not a live computation:

- Bonus kinds (T17 ... RS): the output of `bonus_tie.engine.house_edge.house_edge_report` for
  paytable v1 (`DEFAULT_PAYS`: 45/45/45/25/150/350 to 1, LS 15, RS 20) under the default house
  rules (6 decks, S17, 3:2, DAS, split to 4 hands, no surrender), exact analysis without the
  simulated split correction (`split_samples=0`), rounded to 0.001 percentage point. The engine is
  importable, but it takes seconds per (paytable, rules), so a report does not run it; when the
  paytable versions store their approved figures (`PaytableVersion.report`), theoretical win should
  read the edge of each round's own paytable version from there.
- primary: about 0.41 %, the published basic-strategy edge for those rules (6 decks, S17, DAS, no
  surrender, no re-split Aces, peek), applied to the whole primary handle (doubles and splits
  included), which slightly overstates theo on doubled and split hands.
- insurance: 7.40 %, the six-deck figure (P(ten) = 96/311, pays 2 to 1).

Theoretical win of a kind = handle x edge, rounded to the cent half to even (ROUND_HALF_EVEN);
a table's theo is the sum of its kinds' rounded figures, so the figures add up in every rollup.
"""

from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, Decimal
from types import MappingProxyType

from bonus_tie.engine.kinds import WagerKind

HOUSE_EDGE_BY_KIND: Mapping[str, Decimal] = MappingProxyType(
    {
        WagerKind.PRIMARY.value: Decimal("0.004100"),
        WagerKind.INSURANCE.value: Decimal("0.074000"),
        WagerKind.T17.value: Decimal("0.206760"),
        WagerKind.T18.value: Decimal("0.261980"),
        WagerKind.T19.value: Decimal("0.254320"),
        WagerKind.T20.value: Decimal("0.205100"),
        WagerKind.T21.value: Decimal("0.447880"),
        WagerKind.TBJ.value: Decimal("0.239560"),
        WagerKind.LS.value: Decimal("0.208020"),
        WagerKind.RS.value: Decimal("0.235690"),
    }
)

# The order kinds are listed in (reports, CSV columns).
KIND_ORDER: tuple[str, ...] = tuple(kind.value for kind in WagerKind)


def house_edge(kind: str) -> Decimal:
    """The edge of `kind`; an unknown kind has none (its theo is 0, and it still shows its handle)."""
    return HOUSE_EDGE_BY_KIND.get(kind, Decimal(0))


def theo_win_cents(*, handle_cents: int, kind: str) -> int:
    """Handle x edge, rounded to the cent half to even."""
    return int((Decimal(handle_cents) * house_edge(kind)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
