"""The tie bonus as the core places and settles it: `casino.engine.side_bet.SideBet[Paytable]`.

The rules stay in their modules (kinds, side limits, tie resolution, paytable); this is the
interface the core calls, registered for tie-bonus tables by `bonus_tie.side_bet`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bonus_tie.engine.kinds import BONUS_KINDS, BonusKind
from bonus_tie.engine.limits import check_sides
from bonus_tie.engine.paytable import Paytable
from bonus_tie.engine.resolution import find_tie, winning_kinds
from casino.engine import money
from casino.engine.hands import FinalHand
from casino.engine.side_bet import SideBetKind, SideBetOffer


@dataclass(frozen=True, slots=True)
class TieBonus:
    """The tie-bonus bets (RULES.md §1.3) paid by a `Paytable` (§1.4)."""

    kinds: tuple[BonusKind, ...] = BONUS_KINDS

    def on(self, paytable: Paytable) -> SideBetOffer[Paytable]:
        """The tie bonus on `paytable`, as a round settles it."""
        return SideBetOffer(rules=self, terms=paytable, version=paytable.version)

    def check_seat(
        self, *, seat: int, primary_cents: int, placed: Mapping[SideBetKind, int], field: str
    ) -> None:
        check_sides(seat=seat, primary_cents=primary_cents, placed=placed, field=field)

    def winnings(
        self,
        *,
        placed: Mapping[SideBetKind, int],
        hands: Sequence[FinalHand],
        dealer: FinalHand,
        terms: Paytable,
    ) -> Mapping[SideBetKind, int]:
        """Rule 1: only hand 0, the bonus hand, counts; rule 8: a winning bet pays its own line of
        the paytable; rule 9: the stake is what was placed (a double does not change it)."""
        tie = find_tie(hands_at_seat=len(hands), bonus_hand=hands[0], dealer=dealer)
        return {
            kind: money.pay_to_one(placed[kind], terms.pays_to_one(kind))
            for kind in winning_kinds(tie)
            if kind in placed
        }


TIE_BONUS = TieBonus()
