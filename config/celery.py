import os
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_finalize.connect
def setup_periodic_tasks(sender: Celery, **kwargs: Any) -> None:
    """The one beat schedule, declared by the apps whose tasks it runs (read once Django is up)."""
    from audit.tasks import BEAT_SCHEDULE as AUDIT_SCHEDULE
    from casino.tasks import BEAT_SCHEDULE as CASINO_SCHEDULE
    from reports.tasks import BEAT_SCHEDULE as REPORTS_SCHEDULE

    sender.conf.beat_schedule = {**AUDIT_SCHEDULE, **CASINO_SCHEDULE, **REPORTS_SCHEDULE}
