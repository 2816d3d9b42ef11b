"""The service's log stays readable: the deadline task that runs every 2 s logs nothing while it
finds nothing to do, and every other line passes (config.celery)."""

import logging

import pytest

from config.celery import LeaveOutRoutineTaskLines


def passes(message: str, *args: object, level: int = logging.INFO) -> bool:
    record = logging.LogRecord("celery", level, __file__, 1, message, args or None, None)
    return LeaveOutRoutineTaskLines().filter(record)


@pytest.mark.parametrize(
    "message",
    [
        "Scheduler: Sending due task skill-games-finish-due-games (skill_games.tasks.finish_due_games)",
        "Task skill_games.tasks.finish_due_games[9e0db65b] received",
        "Task skill_games.tasks.finish_due_games[9e0db65b] succeeded in 0.0057s: {'games': []}",
    ],
)
def test_the_idle_deadline_tasks_lines_are_left_out(message: str) -> None:
    assert not passes(message)


@pytest.mark.parametrize(
    ("message", "level"),
    [
        (
            "Task skill_games.tasks.finish_due_games[9e0db65b] succeeded in 0.0061s: {'games': [31, 32]}",
            logging.INFO,
        ),
        (
            "Task skill_games.tasks.finish_due_games[9e0db65b] raised unexpected: OperationalError()",
            logging.ERROR,
        ),
        ("Task reports.tasks.refresh_running_shift_reports[1f] succeeded in 0.2s: None", logging.INFO),
        ("Scheduler: Sending due task audit-verify-chains (audit.tasks.verify_chains)", logging.INFO),
    ],
)
def test_a_deadline_run_that_acted_an_error_and_every_other_task_pass(message: str, level: int) -> None:
    assert passes(message, level=level)
