"""Placement limits of the tie bonus (RULES.md §1.3), checked when a round opens.

The core checks what every wager needs (`blackjack.engine.wagers.validate_wagers`: a primary at
each seat, kinds, amounts, the table's minimum and maximum per kind); the tie bonus adds the
side limits: `LS + T17 + T18 + T19` and `RS + T20 + T21 + TBJ` each at most half the primary.
"""

from collections.abc import Mapping

from bonus_tie.engine.kinds import BONUS_KINDS, LEFT_SIDE, RIGHT_SIDE
from casino.engine import money
from casino.engine.errors import RuleError
from casino.engine.side_bet import SideBetKind


class LeftSideLimitError(RuleError):
    code = "left_side_limit"


class RightSideLimitError(RuleError):
    code = "right_side_limit"


def check_sides(*, seat: int, primary_cents: int, placed: Mapping[SideBetKind, int], field: str) -> None:
    """Each side's bonus wagers together hold at most half the primary (2,501 allows 1,250)."""
    most = money.side_limit(primary_cents)
    left = money.sum_cents([cents for kind, cents in placed.items() if kind in LEFT_SIDE])
    right = money.sum_cents([cents for kind, cents in placed.items() if kind in RIGHT_SIDE])
    for side, total, error in (
        (LEFT_SIDE, left, LeftSideLimitError),
        (RIGHT_SIDE, right, RightSideLimitError),
    ):
        if total > most:
            names = " + ".join(kind for kind in BONUS_KINDS if kind in side)
            raise error(
                f"seat {seat}: {names} = {total} cents exceeds half the primary "
                f"({primary_cents} / 2, at most {most} cents)",
                field=field,
            )
