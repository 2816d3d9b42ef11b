"""House rules of a blackjack table (RULES.md §1.2), with the decided defaults."""

from dataclasses import dataclass
from enum import StrEnum


class DealerRule(StrEnum):
    S17 = "S17"
    H17 = "H17"


@dataclass(frozen=True, slots=True)
class Ratio:
    """An `num:den` payout ratio, e.g. 3:2 for Blackjack or 45:1 for a tie bet."""

    num: int
    den: int = 1

    def __post_init__(self) -> None:
        if self.num < 0 or self.den <= 0:
            raise ValueError(f"invalid ratio {self.num}:{self.den}")

    def __str__(self) -> str:
        return f"{self.num}:{self.den}"


BLACKJACK_3_TO_2 = Ratio(3, 2)
BLACKJACK_6_TO_5 = Ratio(6, 5)
INSURANCE_PAYS = Ratio(2, 1)


@dataclass(frozen=True, slots=True)
class HouseRules:
    decks: int = 6
    dealer: DealerRule = DealerRule.S17
    blackjack_pays: Ratio = BLACKJACK_3_TO_2
    double_any_two: bool = True
    double_after_split: bool = True
    max_hands: int = 4
    split_aces_one_card: bool = True
    resplit_aces: bool = False
    split_by_value: bool = True
    surrender: bool = False
    insurance: bool = True
    penetration_percent: int = 75
