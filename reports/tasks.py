"""Shift reports on Celery (STYLE.md §13): kwargs-only tasks, acknowledged late, each making one
service call. A report is regenerated in place (upsert on table + gaming day + shift), so running
a task twice, or again after its worker died half way (acks_late + reject_on_worker_lost put the
message back), leaves the same rows. Only transient database errors are retried, a bounded number
of times; bad arguments fail at once.

- `produce_shift_reports(gaming_day=, shift=)`: every table of a shift.
- `regenerate_shift_report(table_id=, gaming_day=, shift=)`: one table, for a late correction
  (enqueued when a change to what its report shows commits: `casino.services.report_refresh`).
- `produce_reports_for_finished_shift()`: what beat runs at each shift's end; it works out from the
  clock which shift has just ended.
- `refresh_running_shift_reports()`: every minute, the reports of the shift under way, stored for
  every table with activity (any change but a settled round enqueues its own regeneration when it
  commits).

Each task keeps the name it was first registered under (`casino.tasks.*`), so messages already
queued, and beat schedules already stored, still reach it.
"""

import datetime as dt
from typing import Any

from celery import Task, shared_task
from celery.schedules import crontab
from django.conf import settings
from django.utils import timezone

from audit.context import AuditActor, bind_request
from casino.tasks import RETRY
from kernel.gaming_day import SHIFT_HOURS, SHIFTS
from reports import services as reports


def _actor(task: Task) -> AuditActor:
    return AuditActor(kind="system", username=f"celery:{task.name.rsplit('.', 1)[-1]}")


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


@shared_task(name="casino.tasks.produce_shift_reports", bind=True, acks_late=True, **RETRY)
def produce_shift_reports(self: Task, *, gaming_day: str, shift: str, **kwargs: Any) -> dict[str, Any]:
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        rows = reports.produce_shift_reports(
            gaming_day=_day(gaming_day), shift=shift, actor=_actor(self), now=timezone.now()
        )
    return {"gaming_day": gaming_day, "shift": shift, "reports": [row.pk for row in rows]}


@shared_task(name="casino.tasks.regenerate_shift_report", bind=True, acks_late=True, **RETRY)
def regenerate_shift_report(
    self: Task, *, table_id: int, gaming_day: str, shift: str, **kwargs: Any
) -> dict[str, Any]:
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        rows = reports.produce_shift_reports(
            gaming_day=_day(gaming_day),
            shift=shift,
            table_ids=[table_id],
            actor=_actor(self),
            now=timezone.now(),
        )
    return {"gaming_day": gaming_day, "shift": shift, "reports": [row.pk for row in rows]}


@shared_task(name="casino.tasks.produce_reports_for_finished_shift", bind=True, acks_late=True, **RETRY)
def produce_reports_for_finished_shift(self: Task, **kwargs: Any) -> dict[str, Any]:
    now = timezone.now()
    gaming_day, shift = reports.last_finished_shift(now=now)
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        rows = reports.produce_shift_reports(gaming_day=gaming_day, shift=shift, actor=_actor(self), now=now)
    return {"gaming_day": gaming_day.isoformat(), "shift": shift, "reports": [row.pk for row in rows]}


@shared_task(name="casino.tasks.refresh_running_shift_reports", bind=True, acks_late=True, **RETRY)
def refresh_running_shift_reports(self: Task, **kwargs: Any) -> dict[str, Any]:
    """The reports of the shift under way, stored for every table with activity (rounds settle
    without enqueueing)."""
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        rows = reports.refresh_running_shift_reports(actor=_actor(self), now=timezone.now())
    return {"reports": [row.pk for row in rows]}


def _shift_end_crontab() -> crontab:
    """At the end of each shift, in the casino's time zone (CELERY_TIMEZONE is the casino's)."""
    hours, minutes = (int(part) for part in settings.GAMING_DAY_STARTS.split(":"))
    ends = sorted((hours + offset + SHIFT_HOURS) % 24 for _, offset in SHIFTS)
    return crontab(hour=",".join(str(h) for h in ends), minute=minutes)


# Merged into the one beat schedule by the project (CELERY_BEAT_SCHEDULE).
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "casino-shift-reports-at-shift-end": {
        "task": "casino.tasks.produce_reports_for_finished_shift",
        "schedule": _shift_end_crontab(),
        "kwargs": {},
    },
    "casino-refresh-running-shift-reports": {
        "task": "casino.tasks.refresh_running_shift_reports",
        "schedule": 60.0,
        "kwargs": {},
    },
}
