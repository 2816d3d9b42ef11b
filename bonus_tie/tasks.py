"""The paytable report on Celery (STYLE.md §13): kwargs only, acknowledged late, one service call.

`compute_paytable_report(version=N)` is enqueued by `propose_paytable` once the proposal
commits. It is idempotent by version: a version whose report exists (or that is decided) is
skipped, and the store itself checks again under the row lock, so a redelivered message
(acks_late + reject_on_worker_lost) never writes twice. Only transient database errors are
retried, a bounded number of times. The review takes a few seconds on a full shoe; the task's
time limits (CELERY_TASK_*_TIME_LIMIT) leave ample room.
"""

from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from audit.context import AuditActor, bind_request
from bonus_tie import services
from bonus_tie.reports import DEFAULT_WORKERS

TRANSIENT_ERRORS = (OperationalError, InterfaceError)
# Acknowledged late; only transient database errors retried, a bounded number of times.
REPORT_TASK_OPTIONS: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "max_retries": 5,
}


@shared_task(**REPORT_TASK_OPTIONS)
def compute_paytable_report(
    self: Task,
    *,
    version: int,
    composition: list[int] | None = None,
    workers: int = DEFAULT_WORKERS,
    **kwargs: Any,
) -> dict[str, Any]:
    """Compute and store the report of paytable `version`.

    `composition` (ten counts, Ace .. ten) replaces the full shoe: for tests and what-if
    studies only. Returns what happened, for the task result.
    """
    actor = AuditActor(kind="system", username="celery:compute_paytable_report")
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        row = services.compute_paytable_report(
            version=version,
            actor=actor,
            composition=composition,
            workers=workers,
        )
    if row is None:
        return {"version": version, "computed": False}
    return {"version": version, "computed": True, "flagged": (row.report or {}).get("flagged", [])}


@shared_task(**REPORT_TASK_OPTIONS)
def compute_rules_report(
    self: Task,
    *,
    report_id: int,
    composition: list[int] | None = None,
    workers: int = DEFAULT_WORKERS,
    **kwargs: Any,
) -> dict[str, Any]:
    """Compute and store a paytable version's report under a table's house rules (queued by
    `services.queue_report_for_rules` when a table is provisioned or its rules change)."""
    actor = AuditActor(kind="system", username="celery:compute_rules_report")
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        row = services.compute_rules_report(
            report_id=report_id, actor=actor, composition=composition, workers=workers
        )
    return {"report_id": report_id, "computed": row is not None}
