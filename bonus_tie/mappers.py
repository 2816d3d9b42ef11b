"""The bridge between paytable rows and engine values (STYLE.md §5)."""

from bonus_tie.engine.kinds import BonusKind
from bonus_tie.engine.paytable import Paytable
from bonus_tie.models import PaytableVersion


def paytable_for(version: PaytableVersion) -> Paytable:
    return Paytable(
        version=version.version, pays={BonusKind(kind): int(pays) for kind, pays in version.pays.items()}
    )
