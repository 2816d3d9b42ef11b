"""Producing shift reports: compute the figures and store them, in place.

One row per table and shift (`ShiftReport`, unique on table + gaming day + shift), written with
INSERT ... ON CONFLICT DO UPDATE, and its per-kind lines replaced in the same transaction: running
it again, or again after a worker died half way (the task is acknowledged late, so it is run
again), leaves the same rows with the same figures.

Runs for one shift are serialised by a transaction-scoped advisory lock taken *before* any figure
is read, so that a late correction's regeneration, enqueued when the correction commits, can
never be overwritten by an older run that read the figures before it.
"""

import datetime as dt
import hashlib
from collections.abc import Collection

from django.db import connection, transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.models import Table
from kernel.errors import ServiceError
from kernel.gaming_day import SHIFTS, gaming_day_and_shift, shift_bounds
from reports.definition import stored_keys
from reports.figures import compute_shift_figures, unsaved_lines, unsaved_report
from reports.models import ShiftReport, ShiftReportLine

SHIFT_NAMES: tuple[str, ...] = tuple(name for name, _ in SHIFTS)
# Written again when a report is regenerated: every stored figure, and the pit (a table may move).
_FIGURE_FIELDS = ["pit", *stored_keys()]


def check_shift(shift: str) -> str:
    if shift not in SHIFT_NAMES:
        raise ServiceError("invalid_shift", f"A shift is one of {', '.join(SHIFT_NAMES)}.", field="shift")
    return shift


def _lock_shift(*, gaming_day: dt.date, shift: str) -> None:
    digest = hashlib.sha256(f"shift-report\x00{gaming_day.isoformat()}\x00{shift}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)])


@transaction.atomic
def produce_shift_reports(
    *,
    gaming_day: dt.date,
    shift: str,
    table_ids: Collection[int] | None = None,
    actor: AuditActor,
    now: dt.datetime,
) -> list[ShiftReport]:
    """Compute and store the reports of a shift: for `table_ids`, or for every table that was
    active or had anything recorded in it. Returns the stored rows, in table order."""
    check_shift(shift)
    if table_ids is not None:
        missing = set(table_ids) - set(
            Table.objects.filter(pk__in=list(table_ids)).values_list("pk", flat=True)
        )
        if missing:
            raise ServiceError("unknown_table", f"No table {', '.join(str(t) for t in sorted(missing))}.")
    _lock_shift(gaming_day=gaming_day, shift=shift)
    figures = compute_shift_figures(gaming_day=gaming_day, shift=shift, table_ids=table_ids, now=now)
    rows = ShiftReport.objects.bulk_create(
        [unsaved_report(f, now=now) for f in figures],
        update_conflicts=True,
        unique_fields=["table", "gaming_day", "shift"],
        update_fields=_FIGURE_FIELDS,
    )
    ShiftReportLine.objects.filter(report__in=[row.pk for row in rows]).delete()
    ShiftReportLine.objects.bulk_create(
        line
        for row, table in zip(rows, figures, strict=True)
        for line in unsaved_lines(table, report_id=row.pk)
    )
    table_id = figures[0].table_id if len(figures) == 1 else None
    record_event(
        event_type="casino.shift_report.generated",
        actor=actor,
        table_id=table_id,
        table_name=Table.objects.values_list("name", flat=True).get(pk=table_id) if table_id else "",
        subject_type="shift_report",
        subject_id=f"{gaming_day.isoformat()}/{shift}",
        subject_label=f"shift reports {gaming_day.isoformat()} {shift}",
        after={
            "tables": [f.table_id for f in figures],
            "win_cents": sum(f.win_cents or 0 for f in figures),
            "drop_cents": sum(f.drop_cents for f in figures),
            "provisional": any(f.provisional for f in figures),
        },
        occurred_at=now,
    )
    return rows


def refresh_running_shift_reports(*, actor: AuditActor, now: dt.datetime) -> list[ShiftReport]:
    """Store the reports of the shift under way for every table with anything recorded in it
    (whether or not anyone has asked for them): a settled round changes them without
    enqueueing anything (the terminal's settle stays within its statement budget), so beat
    refreshes them every minute until the shift ends and its final report is written. The API
    computes a running shift on request anyway; these rows keep the stored figures current."""
    gaming_day, shift = gaming_day_and_shift(now)
    busy = [
        f.table_id
        for f in compute_shift_figures(gaming_day=gaming_day, shift=shift, now=now)
        if "idle" not in f.flags
    ]
    stored = ShiftReport.objects.filter(gaming_day=gaming_day, shift=shift).values_list("table_id", flat=True)
    table_ids = sorted({*busy, *stored})
    if not table_ids:
        return []
    return produce_shift_reports(
        gaming_day=gaming_day, shift=shift, table_ids=table_ids, actor=actor, now=now
    )


def last_finished_shift(*, now: dt.datetime) -> tuple[dt.date, str]:
    """The shift that ended most recently at `now`: the one before the shift `now` is in."""
    current_day, current_shift = gaming_day_and_shift(now)
    start, _ = shift_bounds(current_day, current_shift)
    return gaming_day_and_shift(start - dt.timedelta(microseconds=1))
