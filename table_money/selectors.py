"""Reads of the table money (STYLE.md §6)."""

import datetime as dt
from collections.abc import Iterable

from django.db.models import Q

from casino.models import Table
from table_money.models import ChipSlip, SlipStatus


def get_slip(*, slip_id: int) -> ChipSlip:
    """A fill or credit with who requested, approved and voided it, as staff and terminals see it."""
    return ChipSlip.objects.select_related(
        "requested_by_terminal", "requested_by_dealer", "requested_by_user", "approved_by", "void__voided_by"
    ).get(pk=slip_id)


def list_shift_and_pending_slips(*, table: Table, shifts: Iterable[tuple[dt.date, str]]) -> list[ChipSlip]:
    """The table's fills and credits of the given (gaming day, shift) pairs and any still pending
    from before, oldest first, with who requested, approved and voided each."""
    periods = set(shifts)
    slips = ChipSlip.objects.select_related(
        "requested_by_dealer", "requested_by_user", "approved_by", "void__voided_by"
    ).filter(Q(gaming_day__in={day for day, _ in periods}) | Q(status=SlipStatus.PENDING), table=table)
    return [
        slip
        for slip in slips.order_by("requested_at", "pk")
        if (slip.gaming_day, slip.shift) in periods or slip.status == SlipStatus.PENDING
    ]
