"""The bridge between a blackjack table's rows and the engine's house rules (STYLE.md §5)."""

from typing import Any

from blackjack.engine.rules import DealerRule, HouseRules
from casino.engine.money import Ratio
from casino.models import Table


def house_rules_for(table: Table) -> HouseRules:
    return HouseRules(
        decks=table.decks,
        dealer=DealerRule.H17 if table.dealer_hits_soft_17 else DealerRule.S17,
        blackjack_pays=Ratio(table.blackjack_pays_num, table.blackjack_pays_den),
        double_after_split=table.double_after_split,
        max_hands=table.max_hands,
        split_by_value=table.split_by_value,
        surrender=table.surrender,
        insurance=table.insurance,
        penetration_percent=table.penetration_percent,
    )


def rules_to_json(rules: HouseRules) -> dict[str, Any]:
    return {
        "decks": rules.decks,
        "dealer": str(rules.dealer),
        "blackjack_pays": str(rules.blackjack_pays),
        "double_any_two": rules.double_any_two,
        "double_after_split": rules.double_after_split,
        "max_hands": rules.max_hands,
        "split_aces_one_card": rules.split_aces_one_card,
        "resplit_aces": rules.resplit_aces,
        "split_by_value": rules.split_by_value,
        "surrender": rules.surrender,
        "insurance": rules.insurance,
        "penetration_percent": rules.penetration_percent,
    }


def rules_from_json(data: dict[str, Any]) -> HouseRules:
    num, den = (int(part) for part in data["blackjack_pays"].split(":"))
    return HouseRules(
        decks=data["decks"],
        dealer=DealerRule(data["dealer"]),
        blackjack_pays=Ratio(num, den),
        double_any_two=data["double_any_two"],
        double_after_split=data["double_after_split"],
        max_hands=data["max_hands"],
        split_aces_one_card=data["split_aces_one_card"],
        resplit_aces=data["resplit_aces"],
        split_by_value=data["split_by_value"],
        surrender=data["surrender"],
        insurance=data["insurance"],
        penetration_percent=data["penetration_percent"],
    )
