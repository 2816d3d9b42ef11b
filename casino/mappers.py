"""The only bridge between rows and engine values (STYLE.md §5)."""

from casino.engine.cards import parse_card
from casino.engine.shoe import Shoe as EngineShoe
from casino.engine.shoe import new_shoe
from casino.engine.wager_kinds import KindLimit, TableLimits
from casino.models import Shoe, Table


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
