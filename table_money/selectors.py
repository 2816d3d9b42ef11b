"""Reads of the table money (STYLE.md §6)."""

import datetime as dt
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from casino.models import LedgerTransaction, Table, TableInventory
from kernel.errors import NotFoundError
from table_money.engine.count import CountResult, CountRound, Tally, count_result
from table_money.engine.title31 import FilingState, ctr_due_on, ctr_filing_state
from table_money.models import (
    HANDOVER_STEPS,
    ChipSlip,
    CtrFiling,
    CtrWorksheet,
    MtlEntry,
    SarReferral,
    SlipHandover,
    SlipStatus,
    SoftCount,
    SoftCountTally,
)

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


def list_mtl_entries(*, gaming_day: dt.date) -> QuerySet[MtlEntry]:
    """The gaming day's MTL in time order, with each patron and their identification."""
    return (
        MtlEntry.objects.filter(gaming_day=gaming_day)
        .select_related("patron__current_identification", "cage_cash")
        .order_by("occurred_at", "pk")
    )


def latest_ctr_worksheets() -> QuerySet[CtrWorksheet]:
    """The latest revision of every CTR worksheet (one per subject, gaming day and direction), with
    its patron, their identification and its filing."""
    return (
        CtrWorksheet.objects.order_by("subject_key", "gaming_day", "direction", "-revision")
        .distinct("subject_key", "gaming_day", "direction")
        .select_related("patron__current_identification", "filing__filed_by")
    )


@dataclass(frozen=True)
class CtrFilingLine:
    worksheet: CtrWorksheet
    due_on: dt.date
    state: FilingState

    @property
    def filing(self) -> CtrFiling | None:
        return getattr(self.worksheet, "filing", None)


def ctr_filing_line(worksheet: CtrWorksheet, *, today: dt.date) -> CtrFilingLine:
    filing = getattr(worksheet, "filing", None)
    return CtrFilingLine(
        worksheet=worksheet,
        due_on=ctr_due_on(worksheet.gaming_day),
        state=ctr_filing_state(gaming_day=worksheet.gaming_day, filed=filing is not None, today=today),
    )


def list_ctr_filing_lines(*, today: dt.date, state: FilingState | None = None) -> list[CtrFilingLine]:
    """Every CTR worksheet's latest revision with its filing state: those to file, due soonest first
    (the overdue ones first of all); then the filed ones, most recently filed first."""
    lines = [ctr_filing_line(worksheet, today=today) for worksheet in latest_ctr_worksheets()]
    if state is not None:
        lines = [line for line in lines if line.state == state]
    to_file = sorted(
        (line for line in lines if line.filing is None),
        key=lambda line: (line.due_on, line.worksheet.direction, -line.worksheet.total_cents),
    )
    filed = sorted(
        (line for line in lines if line.filing is not None),
        key=lambda line: (line.filing.filed_on if line.filing else line.due_on, line.worksheet.pk),
        reverse=True,
    )
    return to_file + filed


def get_ctr_worksheet(*, worksheet_id: int) -> CtrWorksheet | None:
    return (
        CtrWorksheet.objects.select_related(
            "patron__current_identification", "filing__filed_by", "filing__identification"
        )
        .filter(pk=worksheet_id)
        .first()
    )


def earlier_filings(worksheet: CtrWorksheet) -> QuerySet[CtrFiling]:
    """Filings of the worksheet's earlier revisions (a later transaction of the day superseded them)."""
    return CtrFiling.objects.filter(
        worksheet__subject_key=worksheet.subject_key,
        worksheet__gaming_day=worksheet.gaming_day,
        worksheet__direction=worksheet.direction,
        worksheet__revision__lt=worksheet.revision,
    ).select_related("worksheet")


def list_sar_referrals(*, decided: bool) -> QuerySet[SarReferral]:
    """The referral queue: open ones oldest first, or decided ones most recently decided first."""
    referrals = SarReferral.objects.select_related("patron", "referred_by", "decision__decided_by")
    if decided:
        return referrals.filter(decision__isnull=False).order_by("-decision__decided_at", "-pk")
    return referrals.filter(decision__isnull=True).order_by("referred_at", "pk")


# --- the soft count ----------------------------------------------------------------------------------


def tables_with_drop_box(*, gaming_day: dt.date, shifts: Collection[str]) -> set[int]:
    """The tables open at some time of these shifts of the gaming day, so with a drop box to count:
    an opener or closer, a money movement (buy-in, round, fill, credit) or a slip stamped with one
    of them."""
    in_period = Q(gaming_day=gaming_day, shift__in=list(shifts))
    ids: set[int] = set()
    for model in (LedgerTransaction, TableInventory, ChipSlip):
        ids.update(
            model.objects.filter(in_period, table_id__isnull=False)
            .values_list("table_id", flat=True)
            .distinct()
        )
    return ids


def tally_of(row: SoftCountTally) -> Tally:
    return Tally(
        member_id=row.member_id,
        bills={int(denomination): count for denomination, count in row.currency.items()},
        markers_cents=row.markers_cents,
    )


def rounds_of(tallies: Iterable[SoftCountTally]) -> list[CountRound]:
    """A count's rounds, in order, from its tally rows."""
    by_round: dict[int, dict[int, SoftCountTally]] = {}
    for row in tallies:
        by_round.setdefault(row.round, {})[row.place] = row
    return [
        CountRound(
            number=number,
            first=tally_of(places[1]),
            second=tally_of(places[2]) if 2 in places else None,
        )
        for number, places in sorted(by_round.items())
    ]


@dataclass(frozen=True, slots=True)
class CountRecord:
    """A count with its tally rows (round, then place), its rounds and its result."""

    count: SoftCount
    tallies: list[SoftCountTally]
    rounds: list[CountRound]
    result: CountResult

    @property
    def superseded_by(self) -> SoftCount | None:
        return getattr(self.count, "superseded_by", None)

    def tallies_of_round(self, number: int) -> list[SoftCountTally]:
        return [row for row in self.tallies if row.round == number]


def _counts() -> QuerySet[SoftCount]:
    return SoftCount.objects.select_related(
        "table", "table__pit", "supersedes", "supersedes__table", "superseded_by", "superseded_by__table"
    ).prefetch_related(
        Prefetch(
            "tallies",
            queryset=SoftCountTally.objects.select_related("member").order_by("round", "place"),
        )
    )


def _record(count: SoftCount) -> CountRecord:
    tallies = list(count.tallies.all())
    rounds = rounds_of(tallies)
    # The reverse one-to-one raises an AttributeError subclass when no count supersedes this one.
    superseded = getattr(count, "superseded_by", None) is not None
    return CountRecord(
        count=count, tallies=tallies, rounds=rounds, result=count_result(rounds, superseded=superseded)
    )


def get_count_record(*, count_id: int) -> CountRecord:
    count = _counts().filter(pk=count_id).first()
    if count is None:
        raise NotFoundError("not_found", f"No soft count {count_id}.")
    return _record(count)


def list_count_records(
    *, gaming_day: dt.date, shifts: Collection[str] | None = None, table_ids: Collection[int] | None = None
) -> list[CountRecord]:
    """The counts of a gaming day (of these shifts, of these tables), superseded ones included,
    by pit, table, shift and entry."""
    counts = _counts().filter(gaming_day=gaming_day)
    if shifts is not None:
        counts = counts.filter(shift__in=list(shifts))
    if table_ids is not None:
        counts = counts.filter(table_id__in=list(table_ids))
    return [_record(count) for count in counts.order_by("table__pit__name", "table__name", "shift", "pk")]


def counted_drops(
    *, gaming_day: dt.date, shift: str, table_ids: Collection[int] | None = None
) -> dict[int, int]:
    """Each table's counted drop of the period (a shift, or the whole day: `shift` empty): the
    figure of its count that counts (`count_result`), for the tables that have one."""
    return {
        record.count.table_id: record.result.total_cents
        for record in list_count_records(gaming_day=gaming_day, shifts=[shift], table_ids=table_ids)
        if record.result.counts and record.result.total_cents is not None
    }


def current_count(*, table_id: int, gaming_day: dt.date, shift: str) -> SoftCount | None:
    """The period's count not superseded, if any (the services keep to one per period)."""
    return (
        SoftCount.objects.filter(
            table_id=table_id, gaming_day=gaming_day, shift=shift, superseded_by__isnull=True
        )
        .order_by("-pk")
        .first()
    )
