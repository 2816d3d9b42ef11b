"""Verification of the audit chain on a schedule (STYLE.md §13: kwargs only, acks_late, one service call).

Importable before Django is set up (the service is imported when the task runs),
so the Celery app module can merge `BEAT_SCHEDULE` into its beat schedule.
"""

from typing import Any

from celery import shared_task
from celery.schedules import crontab


@shared_task(acks_late=True)
def verify_audit_chain(*, since_checkpoint: bool = False, **kwargs: Any) -> dict[str, Any]:
    """Verify the chain and record the head hash (or the break) as a checkpoint.

    `since_checkpoint=True` walks only the events after the latest good
    checkpoint (nightly); the default walks the whole chain (weekly). A repeated
    run records another checkpoint of the same head: harmless.
    """
    from audit import services

    checkpoint = services.record_checkpoint(since_checkpoint=since_checkpoint)
    return {
        "checkpoint": checkpoint.pk,
        "ok": checkpoint.ok,
        "events": checkpoint.events,
        "head_seq": checkpoint.head_seq,
        "head": checkpoint.head_hash,
    }


# Merged into the one beat schedule by the project (CELERY_TIMEZONE is the casino's):
# every night just after the gaming day closes at 06:00, the day's new events;
# every Sunday, the whole chain again.
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "audit-verify-chain-nightly": {
        "task": "audit.tasks.verify_audit_chain",
        "schedule": crontab(hour=6, minute=15),
        "kwargs": {"since_checkpoint": True},
    },
    "audit-verify-chain-weekly-full": {
        "task": "audit.tasks.verify_audit_chain",
        "schedule": crontab(hour=7, minute=0, day_of_week="sun"),
        "kwargs": {"since_checkpoint": False},
    },
}
