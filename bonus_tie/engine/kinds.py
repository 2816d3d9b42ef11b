"""Wager kinds of the tie-bonus table (RULES.md §1.3)."""

from enum import StrEnum


class WagerKind(StrEnum):
    PRIMARY = "primary"
    T17 = "T17"
    T18 = "T18"
    T19 = "T19"
    T20 = "T20"
    T21 = "T21"
    TBJ = "TBJ"
    LS = "LS"
    RS = "RS"
    INSURANCE = "insurance"


# The order RULES.md §1.4 uses to break ties when leftover cents are handed out.
BONUS_KINDS: tuple[WagerKind, ...] = (
    WagerKind.T17,
    WagerKind.T18,
    WagerKind.T19,
    WagerKind.T20,
    WagerKind.T21,
    WagerKind.TBJ,
    WagerKind.LS,
    WagerKind.RS,
)
LEFT_SIDE: frozenset[WagerKind] = frozenset({WagerKind.LS, WagerKind.T17, WagerKind.T18, WagerKind.T19})
RIGHT_SIDE: frozenset[WagerKind] = frozenset({WagerKind.RS, WagerKind.T20, WagerKind.T21, WagerKind.TBJ})
# Kinds a terminal may place when a round opens (insurance comes later, as an action).
PLACEABLE_KINDS: tuple[WagerKind, ...] = (WagerKind.PRIMARY, *BONUS_KINDS)
