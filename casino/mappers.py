"""The only bridge between rows and engine values (STYLE.md §5)."""

from typing import Any

from casino.engine.cards import parse_card
from casino.engine.rules import DealerRule, HouseRules, Ratio
from casino.engine.shoe import Shoe as EngineShoe
from casino.engine.shoe import new_shoe
from casino.engine.wagers import KindLimit, TableLimits
from casino.models import Shoe, Table


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


def table_limits_for(table: Table) -> TableLimits:
    return TableLimits(
        by_kind={
            limit.kind: KindLimit(min_cents=limit.min_cents, max_cents=limit.max_cents)
            for limit in table.limits.all()
        }
    )


def shoe_state(shoe: Shoe) -> EngineShoe:
    state = new_shoe(decks=shoe.decks)
    for text in shoe.dealt:
        state = state.draw(parse_card(text))
    return state
