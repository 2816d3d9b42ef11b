"""The kinds of wager a table takes and its limits per kind.

The core's wagers are the primary and insurance (`WagerKind`); a table's side bet adds its kinds
through `side_bet.SideBet`. A table sets a minimum and a maximum per kind (`TableLimits`).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeAlias

from casino.engine import money
from casino.engine.side_bet import SideBet, SideBetKind

__all__ = ["Kind", "KindLimit", "TableLimits", "WagerKind", "placeable_kinds"]


class WagerKind(StrEnum):
    """The core's wagers: the primary, placed when the round opens, and insurance, taken later."""

    PRIMARY = "primary"
    INSURANCE = "insurance"


# Any wager kind: the core's or a side bet's.
Kind: TypeAlias = WagerKind | SideBetKind


@dataclass(frozen=True, slots=True)
class KindLimit:
    min_cents: int
    max_cents: int

    def __post_init__(self) -> None:
        money.check_positive_cents(self.min_cents, field="min_cents")
        money.check_positive_cents(self.max_cents, field="max_cents")
        if self.min_cents > self.max_cents:
            raise ValueError(f"table minimum {self.min_cents} is above the maximum {self.max_cents}")


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The table's minimum and maximum per wager kind; a kind not listed has neither."""

    by_kind: Mapping[str, KindLimit] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_kind", MappingProxyType(dict(self.by_kind)))


def placeable_kinds(side_bet: SideBet[Any] | None) -> tuple[Kind, ...]:
    """The kinds a seat may place when a round opens: the primary, then the side bet's, if any
    (insurance comes later, as an action)."""
    kinds: tuple[Kind, ...] = (WagerKind.PRIMARY,)
    return kinds if side_bet is None else (*kinds, *side_bet.kinds)
