"""A tie-bonus paytable: one `N to 1` figure per bonus kind (RULES.md §1.4, PAYTABLE.md)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from bonus_tie.engine.kinds import BONUS_KINDS, WagerKind


@dataclass(frozen=True, slots=True)
class Paytable:
    version: int
    pays: Mapping[WagerKind, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [kind for kind in BONUS_KINDS if kind not in self.pays]
        if missing:
            raise ValueError(f"paytable lacks {', '.join(missing)}")
        if any(not isinstance(v, int) or v < 1 for v in self.pays.values()):
            raise ValueError("every pay must be a whole number of at least 1 (to 1)")
        object.__setattr__(self, "pays", MappingProxyType(dict(self.pays)))

    def pays_to_one(self, kind: WagerKind) -> int:
        return self.pays[kind]


DEFAULT_PAYS: Mapping[WagerKind, int] = MappingProxyType(
    {
        WagerKind.T17: 45,
        WagerKind.T18: 45,
        WagerKind.T19: 45,
        WagerKind.T20: 25,
        WagerKind.T21: 150,
        WagerKind.TBJ: 350,
        WagerKind.LS: 15,
        WagerKind.RS: 20,
    }
)
DEFAULT_PAYTABLE = Paytable(version=1, pays=DEFAULT_PAYS)
