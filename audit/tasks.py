"""Anchoring and verifying the audit chains on a schedule (STYLE.md §13: kwargs only, acks_late,
one service call).

Importable before Django is set up (the service is imported when the task runs),
so the Celery app module can merge `BEAT_SCHEDULE` into its beat schedule.
"""

from typing import Any

from celery import shared_task
from celery.schedules import crontab


@shared_task(acks_late=True)
def anchor_audit_chains(**kwargs: Any) -> dict[str, Any]:
    """Hash the heads of all chains together, record that anchor and log it (`audit.anchor`, shipped
    off the host). A repeated run with no new event records nothing new and logs the same anchor."""
    from audit import services

    services.flush_refusal_tallies()  # so the anchor covers the refusals counted until now
    anchor = services.record_anchor()
    return {"anchor": anchor.pk, "digest": anchor.digest, "chains": anchor.chains, "events": anchor.events}


@shared_task(acks_late=True)
def verify_audit_chain(*, since_checkpoint: bool = False, **kwargs: Any) -> dict[str, Any]:
    """Verify every chain and the anchors, and record a checkpoint: the anchor of the verified heads,
    or where it broke.

    `since_checkpoint=True` walks each chain only from the latest good
    checkpoint's head (nightly); the default walks every chain whole (weekly). A
    repeated run records another checkpoint of the same heads: harmless.
    """
    from audit import services

    checkpoint = services.record_checkpoint(since_checkpoint=since_checkpoint)
    return {
        "checkpoint": checkpoint.pk,
        "ok": checkpoint.ok,
        "events": checkpoint.events,
        "anchor": checkpoint.anchor_id,
        "head": checkpoint.head_hash,
    }


@shared_task(acks_late=True)
def summarise_refusals(**kwargs: Any) -> dict[str, Any]:
    """Turn the refusals counted in the minutes that have ended into one summary event per source
    and code (`audit.services.flush_refusal_tallies`). A repeated run finds nothing left to write."""
    from audit import services

    return {"events": services.flush_refusal_tallies()}


# Merged into the one beat schedule by the project (CELERY_TIMEZONE is the casino's):
# every minute, the summaries of the refused requests counted; every five minutes, an anchor of
# all chain heads; every night just after the gaming day
# closes at 06:00, the day's new events; every Sunday, every chain whole again.
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "audit-summarise-refusals": {
        "task": "audit.tasks.summarise_refusals",
        "schedule": crontab(minute="*"),
        "kwargs": {},
    },
    "audit-anchor-chains": {
        "task": "audit.tasks.anchor_audit_chains",
        "schedule": crontab(minute="*/5"),
        "kwargs": {},
    },
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
