"""Total-dependent basic strategy for multi-deck (4-8 decks) blackjack, S17 and H17.

The charts are the standard multi-deck charts (late surrender, double after split or not), as
published for 4-8 decks (e.g. the Wizard of Odds basic strategy engine). They are data: one
string per hand, one code per dealer up card in the order 2 3 4 5 6 7 8 9 T A.

Codes:
  H  hit                        S  stand
  Dh double, else hit           Ds double, else stand
  P  split                      Ph split if double after split is allowed, else hit
  Rh surrender, else hit        Rs surrender, else stand
  Rp surrender, else split

"Else" applies when the first choice is not allowed (doubling after the first two cards or
without the house rule, surrender after a split or without the house rule, splitting past the
hand limit). A pair that is not split is played by its total.
"""

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from blackjack.engine.rules import DealerRule, HouseRules

UP_CARD_ORDER: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


class Play(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


def _chart(rows: Mapping[int, str]) -> Mapping[int, tuple[str, ...]]:
    parsed = {key: tuple(row.split()) for key, row in rows.items()}
    bad = [key for key, codes in parsed.items() if len(codes) != len(UP_CARD_ORDER)]
    if bad:
        raise ValueError(f"chart rows {bad} do not have one code per up card")
    return MappingProxyType(parsed)


# Hard totals; row 8 also covers 4-7 (always hit), row 18 covers 18-20 (always stand).
#                      2  3  4  5  6  7  8  9  T  A
_HARD_S17 = {
    8: "                   H  H  H  H  H  H  H  H  H  H",
    9: "                   H  Dh Dh Dh Dh H  H  H  H  H",
    10: "                  Dh Dh Dh Dh Dh Dh Dh Dh H  H",
    11: "                  Dh Dh Dh Dh Dh Dh Dh Dh Dh H",
    12: "                  H  H  S  S  S  H  H  H  H  H",
    13: "                  S  S  S  S  S  H  H  H  H  H",
    14: "                  S  S  S  S  S  H  H  H  H  H",
    15: "                  S  S  S  S  S  H  H  H  Rh H",
    16: "                  S  S  S  S  S  H  H  Rh Rh Rh",
    17: "                  S  S  S  S  S  S  S  S  S  S",
    18: "                  S  S  S  S  S  S  S  S  S  S",
}
_HARD_H17 = {
    **_HARD_S17,
    11: "                  Dh Dh Dh Dh Dh Dh Dh Dh Dh Dh",
    15: "                  S  S  S  S  S  H  H  H  Rh Rh",
    17: "                  S  S  S  S  S  S  S  S  S  Rs",
}
# Soft totals (an Ace counted as 11); soft 12 is A-A played as a total.
_SOFT_S17 = {
    12: "                  H  H  H  H  H  H  H  H  H  H",
    13: "                  H  H  H  Dh Dh H  H  H  H  H",
    14: "                  H  H  H  Dh Dh H  H  H  H  H",
    15: "                  H  H  Dh Dh Dh H  H  H  H  H",
    16: "                  H  H  Dh Dh Dh H  H  H  H  H",
    17: "                  H  Dh Dh Dh Dh H  H  H  H  H",
    18: "                  S  Ds Ds Ds Ds S  S  H  H  H",
    19: "                  S  S  S  S  S  S  S  S  S  S",
    20: "                  S  S  S  S  S  S  S  S  S  S",
}
_SOFT_H17 = {
    **_SOFT_S17,
    18: "                  Ds Ds Ds Ds Ds S  S  H  H  H",
    19: "                  S  S  S  S  Ds S  S  S  S  S",
}
# Pairs by card value (10 = any two ten-value cards when they may be split).
_PAIRS_S17 = {
    1: "                   P  P  P  P  P  P  P  P  P  P",
    2: "                   Ph Ph P  P  P  P  H  H  H  H",
    3: "                   Ph Ph P  P  P  P  H  H  H  H",
    4: "                   H  H  H  Ph Ph H  H  H  H  H",
    5: "                   Dh Dh Dh Dh Dh Dh Dh Dh H  H",
    6: "                   Ph P  P  P  P  H  H  H  H  H",
    7: "                   P  P  P  P  P  P  H  H  H  H",
    8: "                   P  P  P  P  P  P  P  P  P  P",
    9: "                   P  P  P  P  P  S  P  P  S  S",
    10: "                  S  S  S  S  S  S  S  S  S  S",
}
_PAIRS_H17 = {
    **_PAIRS_S17,
    8: "                   P  P  P  P  P  P  P  P  P  Rp",
}

HARD_S17 = _chart(_HARD_S17)
HARD_H17 = _chart(_HARD_H17)
SOFT_S17 = _chart(_SOFT_S17)
SOFT_H17 = _chart(_SOFT_H17)
PAIRS_S17 = _chart(_PAIRS_S17)
PAIRS_H17 = _chart(_PAIRS_H17)


def chart_code(*, total: int, soft: bool, pair: int | None, up: int, dealer: DealerRule) -> str:
    """The chart code for a hand (`pair` is the pair's card value, or None)."""
    column = UP_CARD_ORDER.index(up)
    h17 = dealer is DealerRule.H17
    if pair is not None:
        return (PAIRS_H17 if h17 else PAIRS_S17)[pair][column]
    if soft:
        return (SOFT_H17 if h17 else SOFT_S17)[min(total, 20)][column]
    return (HARD_H17 if h17 else HARD_S17)[min(max(total, 8), 18)][column]


def basic_strategy_play(
    *,
    total: int,
    soft: bool,
    pair: int | None,
    up: int,
    rules: HouseRules,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
) -> Play:
    """The basic-strategy play for a hand that is still to act.

    `pair` is the card value of a first-two-card pair (None otherwise). `can_*` say whether the
    play is allowed for this hand under the house rules; the chart's fallbacks apply otherwise.
    A hand of 21 is finished and never asks; it is reported as STAND.
    """
    if total >= 21:
        return Play.STAND
    if pair is not None and can_split:
        code = chart_code(total=total, soft=soft, pair=pair, up=up, dealer=rules.dealer)
        if code == "P" or (code == "Ph" and rules.double_after_split):
            return Play.SPLIT
        if code == "Rp":
            return Play.SURRENDER if can_surrender else Play.SPLIT
    code = chart_code(total=total, soft=soft, pair=None, up=up, dealer=rules.dealer)
    if code.startswith("D") and can_double:
        return Play.DOUBLE
    if code.startswith("R") and can_surrender:
        return Play.SURRENDER
    return Play.STAND if code[-1] in "Ss" else Play.HIT
