"""The table money's row locks, in the house's order: table, then chip slip (`casino.locks`)."""

from casino.locks import LockedTable, lock_table
from kernel.errors import NotFoundError
from table_money.models import ChipSlip, SlipKind


def lock_slip(*, kind: SlipKind, slip_id: int) -> tuple[LockedTable, ChipSlip]:
    """A fill or credit slip with its table (table, then slip)."""
    table_id = ChipSlip.objects.filter(pk=slip_id, kind=kind).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError("not_found", f"No {kind} {slip_id}.")
    locked = lock_table(table_id=table_id)
    return locked, ChipSlip.objects.select_for_update(of=("self",)).get(pk=slip_id)
