"""Reads (STYLE.md §6): querysets for lists, engine snapshots for services and views."""

import itertools
from collections.abc import Iterator

from django.db.models import QuerySet

from casino.engine.cards import Card, parse_card
from casino.engine.shoe import shoe_after
from casino.engine.table_game import ShoeInPlay
from casino.models import Shoe, ShoeMode, Table, TableInventory, TableLimit, Terminal


def shoe_in_play(shoe: Shoe, *, penetration_percent: int) -> ShoeInPlay:
    dealt: list[Card] = [parse_card(text) for text in shoe.dealt]
    upcoming: Iterator[Card] | None = None
    if shoe.mode == ShoeMode.ELECTRONIC and shoe.order is not None:
        upcoming = map(parse_card, itertools.islice(shoe.order, len(dealt), None))
    return ShoeInPlay(
        shoe=shoe_after(decks=shoe.decks, dealt=dealt),
        penetration_percent=penetration_percent,
        upcoming=upcoming,
    )


def get_open_shoe(*, table: Table) -> Shoe | None:
    return Shoe.objects.filter(table=table, closed_at__isnull=True).first()


def get_inventory(*, inventory_id: int) -> TableInventory:
    """An opener or closer with the people who counted it and its chip transfer."""
    return TableInventory.objects.select_related("dealer", "supervisor", "transfer").get(pk=inventory_id)


# --- the floor console's table page ----------------------------------------------------------


def get_latest_count(*, table: Table) -> TableInventory | None:
    """The table's latest opener or closer (counts are written one at a time under the table's
    lock, so the highest pk is the latest), with the people who signed it."""
    return (
        TableInventory.objects.select_related("dealer", "supervisor")
        .filter(table=table)
        .order_by("-pk")
        .first()
    )


def list_table_limits(*, table: Table) -> QuerySet[TableLimit]:
    return TableLimit.objects.filter(table=table).order_by("kind")


def get_table_terminal(*, table: Table) -> Terminal | None:
    """The table's dealer terminal with the dealer signed in at it, if any."""
    return Terminal.objects.select_related("dealer").filter(table=table).first()
