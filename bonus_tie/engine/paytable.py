"""A tie-bonus paytable: one `N to 1` figure per bonus kind (RULES.md §1.4, PAYTABLE.md)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind


@dataclass(frozen=True, slots=True)
class Paytable:
    version: int
    pays: Mapping[BonusKind, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [kind for kind in BONUS_KINDS if kind not in self.pays]
        if missing:
            raise ValueError(f"paytable lacks {', '.join(missing)}")
        if any(not isinstance(v, int) or v < 1 for v in self.pays.values()):
            raise ValueError("every pay must be a whole number of at least 1 (to 1)")
        object.__setattr__(self, "pays", MappingProxyType(dict(self.pays)))

    def pays_to_one(self, kind: BonusKind) -> int:
        return self.pays[kind]


DEFAULT_PAYS: Mapping[BonusKind, int] = MappingProxyType(
    {
        BonusKind.T17: 45,
        BonusKind.T18: 45,
        BonusKind.T19: 45,
        BonusKind.T20: 25,
        BonusKind.T21: 150,
        BonusKind.TBJ: 350,
        BonusKind.LS: 15,
        BonusKind.RS: 20,
    }
)
DEFAULT_PAYTABLE = Paytable(version=1, pays=DEFAULT_PAYS)
