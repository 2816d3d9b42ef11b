import logging
import os
from typing import Any

from celery import Celery
from celery.signals import after_setup_logger, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A pool process joins the embedded database before it reports ready (below); that may wait for
# another process's start of the server, longer than Celery's default 4 s.
app.conf.worker_proc_alive_timeout = 60


@app.on_after_finalize.connect
def setup_periodic_tasks(sender: Celery, **kwargs: Any) -> None:
    """The one beat schedule, declared by the apps whose tasks it runs (read once Django is up)."""
    from audit.tasks import BEAT_SCHEDULE as AUDIT_SCHEDULE
    from casino.tasks import BEAT_SCHEDULE as CASINO_SCHEDULE
    from reports.tasks import BEAT_SCHEDULE as REPORTS_SCHEDULE
    from skill_games.tasks import BEAT_SCHEDULE as SKILL_GAMES_SCHEDULE
    from tournaments.tasks import BEAT_SCHEDULE as TOURNAMENTS_SCHEDULE

    sender.conf.beat_schedule = {
        **AUDIT_SCHEDULE,
        **CASINO_SCHEDULE,
        **REPORTS_SCHEDULE,
        **SKILL_GAMES_SCHEDULE,
        **TOURNAMENTS_SCHEDULE,
    }


@worker_process_init.connect
def join_the_embedded_database(**kwargs: Any) -> None:
    """Each pool process joins the embedded database (when used) before it takes a task."""
    from config.embedded_postgres.server import start_server_if_configured

    start_server_if_configured()


# The skill games' deadline task runs every 2 s. Beat's "Sending due task" and the worker's
# "received" and "succeeded" lines for it would bury everything else the service logs, so they
# are left out, except a run that finished games.
ROUTINE_TASKS = (
    "skill_games.tasks.finish_due_games",
    "skill-games-finish-due-games",
    "tournaments.tasks.advance_tournaments",
    "tournaments-advance",
)
IDLE_RESULTS = ("{'games': []}", "{'tournaments': []}")


class LeaveOutRoutineTaskLines(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        message = record.getMessage()
        if not any(name in message for name in ROUTINE_TASKS):
            return True
        return "succeeded" in message and not any(idle in message for idle in IDLE_RESULTS)


@after_setup_logger.connect
def leave_out_routine_task_lines(logger: logging.Logger, **kwargs: Any) -> None:
    """On every handler of the worker's and beat's logger (a filter on a logger would not see the
    records its children pass up)."""
    for handler in logger.handlers:
        handler.addFilter(LeaveOutRoutineTaskLines())
