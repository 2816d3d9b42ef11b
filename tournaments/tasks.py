"""The tournaments' Celery task (STYLE.md §13): registration closing and heats opening and closing
on time, every few seconds, each tournament in its own transaction. Each step is done under the
tournament's row lock and finds its own work done on a second run, so running twice is harmless.
"""

from typing import Any

from celery import Task, shared_task
from django.db import transaction
from django.utils import timezone

from audit.context import AuditActor, bind_request
from casino.tasks import RETRY
from tournaments import selectors, services

ADVANCE_EVERY_S = 5.0
CLOCK = AuditActor(kind="system", username="celery:advance_tournaments")


@shared_task(bind=True, acks_late=True, **RETRY)
def advance_tournaments(self: Task, **kwargs: Any) -> dict[str, Any]:
    now = timezone.now()
    advanced = []
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        for tournament_id in selectors.tournament_ids_in_play():
            with transaction.atomic(durable=True):
                if services.advance_tournament(tournament_id=tournament_id, actor=CLOCK, now=now):
                    advanced.append(tournament_id)
    return {"tournaments": advanced}


# Merged into the one beat schedule by the project (config.celery).
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "tournaments-advance": {
        "task": "tournaments.tasks.advance_tournaments",
        "schedule": ADVANCE_EVERY_S,
        "kwargs": {},
        "options": {"expires": ADVANCE_EVERY_S * 5},
    },
}
