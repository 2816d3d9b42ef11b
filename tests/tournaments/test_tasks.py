"""The tournaments' clock (`tournaments.tasks.advance_tournaments`): registration closed, heats
opened and closed on time, each once however often the beat runs."""

import logging
from collections.abc import Callable

import pytest

from audit.models import AuditEvent
from casino.models import LedgerTransaction
from config.celery import LeaveOutRoutineTaskLines, app, setup_periodic_tasks
from tests.support.gaming_day import Clock
from tournaments import tasks
from tournaments.models import owner_key

from .conftest import Run

pytestmark = pytest.mark.django_db


def _events(tournament_id: int, event_type: str) -> int:
    return AuditEvent.objects.filter(
        subject_type="tournament", subject_id=str(tournament_id), event_type=f"tournaments.{event_type}"
    ).count()


def test_the_task_closes_registration_and_opens_and_closes_each_heat_once(
    create: Callable[..., Run], patron: Callable[..., int], clock: Clock
) -> None:
    run = create()
    run.file()
    run.entered(patron())

    assert tasks.advance_tournaments.apply().get() == {"tournaments": []}  # nothing due yet
    clock.advance(minutes=65)
    assert tasks.advance_tournaments.apply().get() == {"tournaments": [run.id]}
    assert tasks.advance_tournaments.apply().get() == {"tournaments": []}  # a second run finds it done
    assert run.read()["state"] == "running"
    money = LedgerTransaction.objects.filter(owner=owner_key(run.id))
    assert sorted(money.values_list("kind", flat=True)) == ["added_money", "entry", "overlay"]
    assert _events(run.id, "registration.closed") == 1
    assert _events(run.id, "heat.opened") == 1

    clock.advance(minutes=30)
    tasks.advance_tournaments.apply().get()
    tasks.advance_tournaments.apply().get()
    assert _events(run.id, "heat.opened") == 2
    assert _events(run.id, "heat.closed") == 2
    assert run.read()["state"] == "playing_done"
    assert LedgerTransaction.objects.filter(owner=owner_key(run.id)).count() == 3
    clock.advance(minutes=30)
    assert tasks.advance_tournaments.apply().get() == {"tournaments": []}  # play done: not in play


def test_the_task_is_on_the_beat_and_its_idle_runs_stay_out_of_the_log() -> None:
    setup_periodic_tasks(app)
    schedule = app.conf.beat_schedule["tournaments-advance"]
    assert schedule["task"] == "tournaments.tasks.advance_tournaments"
    assert schedule["schedule"] == tasks.ADVANCE_EVERY_S
    idle = "Task tournaments.tasks.advance_tournaments[1a] succeeded in 0.01s: {'tournaments': []}"
    acted = "Task tournaments.tasks.advance_tournaments[1a] succeeded in 0.01s: {'tournaments': [4]}"
    keep = LeaveOutRoutineTaskLines()

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("celery", logging.INFO, __file__, 1, message, None, None)

    assert not keep.filter(record(idle))
    assert keep.filter(record(acted))
