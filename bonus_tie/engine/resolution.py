"""Which tie-bonus wagers win (RULES.md §1.3, resolution rules 1-9).

The caller (`tie_bonus.TieBonus.winnings`, for round settlement) passes plain
facts about the seat's bonus hand (hand 0) and the dealer's final hand
(`FinalHand`, the core's); this module decides the tie, if any, and the bet kinds
it wins. Paying them is the paytable's (rule 8), and the bonus stake never
changes with a double (rule 9): it is whatever was placed.
"""

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from bonus_tie.engine.kinds import BonusKind
from casino.engine.hands import FinalHand

__all__ = [
    "LOWEST_TIE",
    "MAX_HANDS_FOR_BONUS",
    "WINNING_KINDS",
    "FinalHand",
    "Tie",
    "find_tie",
    "winning_kinds",
]

LOWEST_TIE = 17
MAX_HANDS_FOR_BONUS = 2


class Tie(StrEnum):
    T17 = "17"
    T18 = "18"
    T19 = "19"
    T20 = "20"
    T21 = "21"
    BLACKJACK = "blackjack"


WINNING_KINDS: Mapping[Tie, frozenset[BonusKind]] = MappingProxyType(
    {
        Tie.T17: frozenset({BonusKind.T17, BonusKind.LS}),
        Tie.T18: frozenset({BonusKind.T18, BonusKind.LS}),
        Tie.T19: frozenset({BonusKind.T19, BonusKind.LS}),
        Tie.T20: frozenset({BonusKind.T20, BonusKind.RS}),
        Tie.T21: frozenset({BonusKind.T21, BonusKind.RS}),
        Tie.BLACKJACK: frozenset({BonusKind.TBJ, BonusKind.RS}),
    }
)
_TIE_BY_TOTAL = {17: Tie.T17, 18: Tie.T18, 19: Tie.T19, 20: Tie.T20, 21: Tie.T21}


def find_tie(*, hands_at_seat: int, bonus_hand: FinalHand, dealer: FinalHand) -> Tie | None:
    """The tie the seat's bonus hand (hand 0) makes with the dealer, or None (all bonus wagers lose)."""
    if hands_at_seat > MAX_HANDS_FOR_BONUS:  # rule 2: split more than once
        return None
    if bonus_hand.surrendered:  # rule 3 [decided]
        return None
    if bonus_hand.blackjack or dealer.blackjack:
        # Rule 5: both Blackjack tie; rules 4 and 6: a Blackjack ties nothing else.
        return Tie.BLACKJACK if bonus_hand.blackjack and dealer.blackjack else None
    if bonus_hand.bust or dealer.bust or bonus_hand.total != dealer.total:
        return None
    return _TIE_BY_TOTAL.get(bonus_hand.total) if bonus_hand.total >= LOWEST_TIE else None


def winning_kinds(tie: Tie | None) -> frozenset[BonusKind]:
    """The bet kinds a tie wins (straight-up and group); every other bonus wager loses."""
    return frozenset() if tie is None else WINNING_KINDS[tie]
