"""The tie bonus as the casino app's tables offer it (`casino.side_bets.SideBetAdapter`).

`BonusTieConfig.ready()` registers `TIE_BONUS_TABLES` for tie-bonus blackjack tables, so the
core settles the tie bonus without importing this app: the rules (`TIE_BONUS`), the paytable a
round opens or settles under, and the house edge of each bet for theoretical win.
"""

from typing import Any

from blackjack.mappers import house_rules_for
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.tie_bonus import TIE_BONUS, TieBonus
from bonus_tie.mappers import paytable_for
from bonus_tie.models import PaytableVersion
from bonus_tie.selectors import get_paytable_in_force
from bonus_tie.services import queue_report_for_rules
from casino.engine.side_bet import SideBetOffer
from casino.models import GameKind
from casino.side_bets import TermsInForce


class TieBonusTables:
    """The tie bonus at tie-bonus blackjack tables, on the approved paytable versions."""

    game: str = GameKind.TIE_BONUS.value
    side_bet: TieBonus = TIE_BONUS

    def terms_in_force(self) -> TermsInForce | None:
        row = get_paytable_in_force()
        return None if row is None else TermsInForce(paytable=row, offer=self.terms_of(row))

    def terms_of(self, paytable: PaytableVersion) -> SideBetOffer[Paytable]:
        return TIE_BONUS.on(paytable_for(paytable))

    def price_table_rules(self, table: Any) -> None:
        queue_report_for_rules(rules=house_rules_for(table))

    def __repr__(self) -> str:
        return "TieBonusTables()"


TIE_BONUS_TABLES = TieBonusTables()
