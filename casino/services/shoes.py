"""Opening and closing shoes, reported or electronic (RULES.md §1.1)."""

import datetime as dt
import secrets

from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.engine.shoe import check_decks, commitment, shuffle_order
from casino.games import play_in_progress
from casino.locks import lock_open_shoe, lock_shoe, lock_table
from casino.models import Shoe, ShoeMode, Table
from casino.services.table_state import TableUse, check_table_in_play
from kernel.errors import ConflictError, ServiceError

SALT_BYTES = 32


def _close(shoe: Shoe, *, table: Table, actor: AuditActor, now: dt.datetime, reason: str) -> Shoe:
    shoe.closed_at = now
    shoe.save(update_fields=["closed_at"])
    record_event(
        event_type="casino.shoe.closed",
        actor=actor,
        table_id=table.pk,
        table_name=table.name,
        subject_type="shoe",
        subject_id=str(shoe.pk),
        subject_label=f"shoe {shoe.pk}",
        before={"closed_at": None},
        after={"closed_at": now.isoformat(), "reason": reason, "cards_dealt": len(shoe.dealt)},
        occurred_at=now,
    )
    return shoe


def _refuse_if_round_open(table: Table) -> None:
    if play_in_progress(table):
        raise ConflictError("round_in_progress", "The table has an open round; settle or void it first.")


@transaction.atomic
def open_shoe(
    *, table: Table, mode: ShoeMode, decks: int | None, actor: AuditActor, now: dt.datetime
) -> Shoe:
    """Start a new shoe at the table, closing the previous one. A shoe has the table's deck count."""
    decks = check_decks(table.decks if decks is None else decks)
    table, count = lock_table(table_id=table.pk)
    check_table_in_play(table, count, use=TableUse.NEW_PLAY, now=now)
    if decks != table.decks:
        raise ServiceError(
            "invalid_deck_count",
            f"{table.name} plays {table.decks} decks: its shoe holds {table.decks}, not {decks}.",
            field="decks",
        )
    _refuse_if_round_open(table)
    previous = lock_open_shoe(table=table)
    if previous is not None:
        _close(previous, table=table, actor=actor, now=now, reason="replaced")
    shoe = Shoe(table=table, mode=mode, decks=decks, opened_at=now)
    if mode == ShoeMode.ELECTRONIC:
        order = shuffle_order(decks=decks, rng=secrets.SystemRandom())
        salt = secrets.token_bytes(SALT_BYTES)
        shoe.order = [str(card) for card in order]
        shoe.salt_hex = salt.hex()
        shoe.commitment = commitment(order, salt)
    shoe.save()
    record_event(
        event_type="casino.shoe.opened",
        actor=actor,
        table_id=table.pk,
        table_name=table.name,
        subject_type="shoe",
        subject_id=str(shoe.pk),
        subject_label=f"shoe {shoe.pk}",
        after={"mode": mode, "decks": decks, "commitment": shoe.commitment or None},
        occurred_at=now,
    )
    return shoe


@transaction.atomic
def close_shoe(*, table: Table, shoe_id: int, actor: AuditActor, now: dt.datetime) -> Shoe:
    table, _ = lock_table(table_id=table.pk)  # closing a shoe deals nothing: allowed in any state
    shoe = lock_shoe(table=table, shoe_id=shoe_id)
    if shoe.closed_at is not None:
        return shoe
    _refuse_if_round_open(table)
    return _close(shoe, table=table, actor=actor, now=now, reason="closed")
