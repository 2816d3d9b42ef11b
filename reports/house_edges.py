"""The order wager kinds are listed in: the core's kinds around each registered side bet's.

Theoretical win is priced with the edge of the terms each round was dealt under, its paytable
version's report and its house rules (`reports.paytable_edges`).
"""

from casino.side_bets import wager_kinds


def kind_order() -> tuple[str, ...]:
    """The order kinds are listed in (reports, CSV columns)."""
    return tuple(kind.value for kind in wager_kinds())


def kind_sort_key(kind: str) -> tuple[int, str]:
    """Sort key of a kind in `kind_order`; kinds it does not list come last, by name."""
    order = kind_order()
    return (order.index(kind) if kind in order else len(order), kind)
