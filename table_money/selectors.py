"""Reads of the table money (STYLE.md §6)."""

import datetime as dt
from collections.abc import Iterable

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from casino.models import Table
from table_money.models import HANDOVER_STEPS, ChipSlip, SlipHandover, SlipStatus

_HANDOVERS = Prefetch(
    "handovers",
    queryset=SlipHandover.objects.select_related("signed_by", "dealer").order_by("signed_at", "pk"),
)


def _slips() -> QuerySet[ChipSlip]:
    return ChipSlip.objects.select_related(
        "table", "table__pit", "requested_by_dealer", "requested_by_user", "approved_by", "void__voided_by"
    ).prefetch_related(_HANDOVERS)


def get_slip(*, slip_id: int) -> ChipSlip:
    """A fill or credit with who requested, approved, voided and handed it over, as staff and
    terminals see it."""
    return (
        ChipSlip.objects.select_related(
            "requested_by_terminal",
            "requested_by_dealer",
            "requested_by_user",
            "approved_by",
            "void__voided_by",
        )
        .prefetch_related(_HANDOVERS)
        .get(pk=slip_id)
    )


def chain_complete(slip: ChipSlip) -> bool:
    """Whether every custody step of the slip's kind is signed (the slip's handovers prefetched)."""
    return {h.step for h in slip.handovers.all()} >= set(HANDOVER_STEPS[slip.kind])


def list_cage_slips(*, gaming_day: dt.date) -> list[ChipSlip]:
    """The fills and credits the cage works on, oldest first: every slip still pending, every
    approved slip whose chain is not complete, and the others of the gaming day."""
    finished = SlipHandover.objects.filter(
        slip=OuterRef("pk"), step__in=[steps[-1] for steps in HANDOVER_STEPS.values()]
    )
    return list(
        _slips()
        .filter(
            Q(status=SlipStatus.PENDING)
            | (Q(status=SlipStatus.APPROVED) & ~Exists(finished))
            | Q(gaming_day=gaming_day)
        )
        .order_by("requested_at", "pk")
    )


def list_shift_and_pending_slips(*, table: Table, shifts: Iterable[tuple[dt.date, str]]) -> list[ChipSlip]:
    """The table's fills and credits of the given (gaming day, shift) pairs and any still pending
    from before, oldest first, with who requested, approved and voided each."""
    periods = set(shifts)
    slips = _slips().filter(
        Q(gaming_day__in={day for day, _ in periods}) | Q(status=SlipStatus.PENDING), table=table
    )
    return [
        slip
        for slip in slips.order_by("requested_at", "pk")
        if (slip.gaming_day, slip.shift) in periods or slip.status == SlipStatus.PENDING
    ]
