"""Wager kinds of the tie bonus (RULES.md §1.3), the side bet of the tie-bonus table.

The primary and insurance wagers are the core's (`casino.engine.wager_kinds.WagerKind`).
"""

from casino.engine.side_bet import SideBetKind


class BonusKind(SideBetKind):
    """The tie-bonus bets, in the order RULES.md §1.4 uses to break ties when leftover cents are
    handed out (and every listing of them uses)."""

    T17 = "T17"
    T18 = "T18"
    T19 = "T19"
    T20 = "T20"
    T21 = "T21"
    TBJ = "TBJ"
    LS = "LS"
    RS = "RS"


BONUS_KINDS: tuple[BonusKind, ...] = tuple(BonusKind)
LEFT_SIDE: frozenset[BonusKind] = frozenset({BonusKind.LS, BonusKind.T17, BonusKind.T18, BonusKind.T19})
RIGHT_SIDE: frozenset[BonusKind] = frozenset({BonusKind.RS, BonusKind.T20, BonusKind.T21, BonusKind.TBJ})
