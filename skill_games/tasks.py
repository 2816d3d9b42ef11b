"""The skill games' Celery task (STYLE.md §13): the deadlines that act by themselves.

- `finish_due_games()`: every few seconds, each game being played whose deadline has come has
  its clock act (`services.apply_due_deadline`), one game a transaction. A game whose row a
  request holds is passed over: that request applies the deadline itself, under the same lock.
"""

from typing import Any

from celery import Task, shared_task
from django.db import transaction
from django.utils import timezone

from audit.context import AuditActor, bind_request
from casino.tasks import RETRY
from skill_games import selectors, services

DEADLINE_EVERY_S = 2.0
CLOCK = AuditActor(kind="system", username="celery:finish_due_games")


@shared_task(bind=True, acks_late=True, **RETRY)
def finish_due_games(self: Task, **kwargs: Any) -> dict[str, Any]:
    now = timezone.now()
    acted = []
    with bind_request(request_id=str(self.request.id or ""), client_address=""):
        for game_id in selectors.due_game_ids(now=now):
            with transaction.atomic(durable=True):
                if services.apply_due_deadline(game_id=game_id, now=now, actor=CLOCK, skip_locked=True):
                    acted.append(game_id)
    return {"games": acted}


# Merged into the one beat schedule by the project (config.celery).
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "skill-games-finish-due-games": {
        "task": "skill_games.tasks.finish_due_games",
        "schedule": DEADLINE_EVERY_S,
        "kwargs": {},
        "options": {"expires": DEADLINE_EVERY_S * 5},
    },
}
