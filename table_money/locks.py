"""The table money's row locks, in the house's order: table, then chip slip (`casino.locks`); a
CTR worksheet or a SAR referral on its own (nothing else is locked with them).

A patron's row is locked on its own (no table) by the cage, and after the table's lock by a
buy-in: every Title 31 recomputation of one patron's day runs one after the other.
"""

from casino.locks import LockedTable, lock_table
from kernel.errors import NotFoundError
from patrons.models import Patron
from table_money.models import ChipSlip, CtrWorksheet, SarReferral, SlipKind


def lock_slip(*, kind: SlipKind, slip_id: int) -> tuple[LockedTable, ChipSlip]:
    """A fill or credit slip with its table (table, then slip)."""
    table_id = ChipSlip.objects.filter(pk=slip_id, kind=kind).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError("not_found", f"No {kind} {slip_id}.")
    locked = lock_table(table_id=table_id)
    return locked, ChipSlip.objects.select_for_update(of=("self",)).get(pk=slip_id)


def lock_ctr_worksheet(*, worksheet_id: int) -> CtrWorksheet:
    """A CTR worksheet revision, locked so that two filings of it record one after the other."""
    worksheet = (
        CtrWorksheet.objects.select_for_update(of=("self",))
        .select_related("patron__current_identification")
        .filter(pk=worksheet_id)
        .first()
    )
    if worksheet is None:
        raise NotFoundError("not_found", f"No CTR worksheet {worksheet_id}.")
    return worksheet


def lock_sar_referral(*, referral_id: int) -> SarReferral:
    referral = SarReferral.objects.select_for_update(of=("self",)).filter(pk=referral_id).first()
    if referral is None:
        raise NotFoundError("not_found", f"No SAR referral {referral_id}.")
    return referral


def lock_patron(*, patron_id: int) -> None:
    """The patron's row (FOR UPDATE), held until the transaction ends."""
    list(Patron.objects.filter(pk=patron_id).select_for_update(of=("self",)).values_list("pk"))


def lock_slip_alone(*, slip_id: int) -> ChipSlip:
    """A slip's row without its table's: for what never touches the table or the ledger (a print
    of the slip), so that it does not wait behind a round being dealt. It waits for nothing else,
    so it cannot close a cycle with the table-then-slip order."""
    slip = ChipSlip.objects.select_for_update(of=("self",)).filter(pk=slip_id).first()
    if slip is None:
        raise NotFoundError("not_found", f"No slip {slip_id}.")
    return slip
