"""The house's Celery tasks (STYLE.md §13): kwargs-only, acknowledged late, each making one service
call; only transient database errors are retried, a bounded number of times.

- `apply_due_rule_changes()`: every minute, the approved limit and house-rule changes whose
  effective time has come (`casino.services.rule_changes`).

The shift reports' tasks are in `reports.tasks`.
"""

from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from audit.context import bind_request
from casino.services import rule_changes

TRANSIENT_ERRORS = (OperationalError, InterfaceError)
RETRY: dict[str, Any] = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "max_retries": 5,
}


@shared_task(bind=True, acks_late=True, **RETRY)
def apply_due_rule_changes(self: Task, **kwargs: Any) -> dict[str, Any]:
    """Approved limit and house-rule changes whose effective time has come (a round opening at a
    table applies its own due change first; this keeps the tables' figures current between rounds)."""
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        applied = rule_changes.apply_due_rule_changes(now=timezone.now())
    return {"applied": [change.pk for change in applied]}


# Merged into the one beat schedule by the project (CELERY_BEAT_SCHEDULE).
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "casino-apply-due-rule-changes": {
        "task": "casino.tasks.apply_due_rule_changes",
        "schedule": 60.0,
        "kwargs": {},
    },
}
