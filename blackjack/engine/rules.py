"""House rules of a blackjack table (RULES.md §1.2), with the decided defaults."""

from dataclasses import dataclass
from enum import StrEnum

from casino.engine.errors import RuleError
from casino.engine.money import Ratio
from casino.engine.shoe import check_shoe_rule


class DealerRule(StrEnum):
    S17 = "S17"
    H17 = "H17"


BLACKJACK_3_TO_2 = Ratio(3, 2)
BLACKJACK_6_TO_5 = Ratio(6, 5)
INSURANCE_PAYS = Ratio(2, 1)

DEALER_STANDS_ON = 17


def dealer_must_draw(total: int, *, soft: bool, hits_soft_17: bool) -> bool:
    """The dealer draws below 17, and on a soft 17 when the table's rule is H17 (RULES.md §1.2)."""
    return total < DEALER_STANDS_ON or (total == DEALER_STANDS_ON and soft and hits_soft_17)


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


# The house-rule fields a change may set (RULES.md §1.1-1.4), in the order the console lists them.
RULE_CHANGE_FIELDS = (
    "dealer_hits_soft_17",
    "blackjack_pays",
    "double_after_split",
    "max_hands",
    "split_by_value",
    "surrender",
    "insurance",
    "decks",
    "penetration_percent",
    "aggregate_limit_cents",
)
BOOLEAN_RULES = frozenset(
    {"dealer_hits_soft_17", "double_after_split", "split_by_value", "surrender", "insurance"}
)
BLACKJACK_PAYS = {str(ratio): ratio for ratio in (BLACKJACK_3_TO_2, BLACKJACK_6_TO_5)}
MAX_HANDS = range(1, 5)  # as the table's check constraint (casino.models.floor.Table)


class InvalidHouseRuleError(RuleError):
    code = "invalid_house_rule"


class InvalidBlackjackPaysError(RuleError):
    code = "invalid_blackjack_pays"


class InvalidAggregateLimitError(RuleError):
    code = "invalid_aggregate_limit"


class UnknownHouseRuleError(RuleError):
    code = "unknown_house_rule"


def check_house_rule(field: str, value: object) -> None:
    """A value a rule change may give a blackjack table's house rule (RULES.md §1.1-1.4)."""
    if field in BOOLEAN_RULES:
        if type(value) is not bool:
            raise InvalidHouseRuleError(f"{field} is yes or no.", field=field)
    elif field == "blackjack_pays":
        if value not in BLACKJACK_PAYS:
            raise InvalidBlackjackPaysError("Blackjack pays 3:2 or 6:5.", field=field)
    elif field == "max_hands":
        if type(value) is not int or value not in MAX_HANDS:
            raise InvalidHouseRuleError("A seat splits into 1 to 4 hands.", field=field)
    elif field == "aggregate_limit_cents":
        if value is not None and (type(value) is not int or value <= 0):
            raise InvalidAggregateLimitError("The aggregate limit is more than $0.00, or none.", field=field)
    elif field in ("decks", "penetration_percent"):
        check_shoe_rule(field, value)
    else:
        raise UnknownHouseRuleError(f"{field} is not a house rule a change sets.", field=field)
