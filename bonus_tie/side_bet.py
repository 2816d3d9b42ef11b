"""The tie bonus as the casino app's tables offer it (`casino.side_bets.SideBetAdapter`).

`BonusTieConfig.ready()` registers `TIE_BONUS_TABLES` for tie-bonus blackjack tables, so the
core settles the tie bonus without importing this app: the rules (`TIE_BONUS`), the paytable a
round opens or settles under, and the house edge of each bet for theoretical win.
"""

from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType

from bonus_tie.engine.kinds import BonusKind
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.tie_bonus import TIE_BONUS, TieBonus
from bonus_tie.mappers import paytable_for
from bonus_tie.models import PaytableVersion
from bonus_tie.selectors import get_paytable_in_force
from casino.engine.side_bet import SideBetOffer
from casino.models import GameKind
from casino.side_bets import TermsInForce

# House edge of each bet per unit of handle, the figures behind theoretical win in the shift
# reports. DOCUMENTED CONSTANTS, not a live computation: the output of
# `bonus_tie.engine.house_edge.house_edge_report` for paytable v1 (`DEFAULT_PAYS`: 45/45/45/25/
# 150/350 to 1, LS 15, RS 20) under the default house rules (6 decks, S17, 3:2, DAS, split to 4
# hands, no surrender), exact analysis, rounded to 0.001 percentage point. The engine takes seconds per
# (paytable, rules), so a report does not run it; when the paytable versions store their
# approved figures (`PaytableVersion.report`), theoretical win should read the edge of each
# round's own paytable version from there.
HOUSE_EDGES: Mapping[str, Decimal] = MappingProxyType(
    {
        BonusKind.T17.value: Decimal("0.206760"),
        BonusKind.T18.value: Decimal("0.261980"),
        BonusKind.T19.value: Decimal("0.254320"),
        BonusKind.T20.value: Decimal("0.205100"),
        BonusKind.T21.value: Decimal("0.447880"),
        BonusKind.TBJ.value: Decimal("0.239560"),
        BonusKind.LS.value: Decimal("0.208020"),
        BonusKind.RS.value: Decimal("0.235690"),
    }
)


class TieBonusTables:
    """The tie bonus at tie-bonus blackjack tables, on the approved paytable versions."""

    game: str = GameKind.TIE_BONUS.value
    side_bet: TieBonus = TIE_BONUS
    house_edges: Mapping[str, Decimal] = HOUSE_EDGES

    def terms_in_force(self) -> TermsInForce | None:
        row = get_paytable_in_force()
        return None if row is None else TermsInForce(paytable=row, offer=self.terms_of(row))

    def terms_of(self, paytable: PaytableVersion) -> SideBetOffer[Paytable]:
        return TIE_BONUS.on(paytable_for(paytable))

    def __repr__(self) -> str:
        return "TieBonusTables()"


TIE_BONUS_TABLES = TieBonusTables()
