"""Keeping stored shift reports current: a change to what a report shows (a slip, a void, an
opener or closer, a buy-in, a soft count) enqueues the regeneration of its table's report once
the change commits, whenever that report is already stored or its shift has ended (the report
is written, or rewritten, from the rows, so a stored report never goes stale).

The regeneration is enqueued by task name (the services do not import the task layer); a broker
failure is logged by `on_commit(robust=True)` and never undoes the change.
"""

import datetime as dt
from collections.abc import Callable, Iterable

from django.db import transaction

from kernel.gaming_day import shift_bounds

# Which of a table's shifts of a gaming day have a stored report: told by the reports app, which
# stores them (`ReportsConfig.ready()`), since the house imports no app above it.
StoredShifts = Callable[[int, dt.date, list[str]], set[str]]
_stored_shifts: list[StoredShifts] = []


def stored_shifts_from(reader: StoredShifts) -> None:
    _stored_shifts[:] = [reader]


REGENERATE_TASK = "casino.tasks.regenerate_shift_report"


def _enqueue(*, table_id: int, gaming_day: dt.date, shift: str) -> None:
    from celery import current_app as app  # the configured app, whichever process this runs in

    app.send_task(
        REGENERATE_TASK, kwargs={"table_id": table_id, "gaming_day": gaming_day.isoformat(), "shift": shift}
    )


def refresh_reports_on_commit(
    *, table_id: int, gaming_day: dt.date, shifts: Iterable[str], now: dt.datetime
) -> None:
    """Regenerate, once this transaction commits, the table's reports of these shifts that are
    stored already or whose shift has ended."""
    shifts = list(shifts)
    stored = set().union(*(reader(table_id, gaming_day, shifts) for reader in _stored_shifts))
    for shift in shifts:
        if shift in stored or shift_bounds(gaming_day, shift)[1] <= now:
            transaction.on_commit(
                lambda shift=shift: _enqueue(table_id=table_id, gaming_day=gaming_day, shift=shift),  # type: ignore[misc]
                robust=True,
            )
