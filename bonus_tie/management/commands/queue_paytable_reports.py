"""Queue the report of every proposed or approved paytable version that has none, and every
report under a table's house rules (`RulesReport`) not computed yet.

    python manage.py queue_paytable_reports

`run_service` runs it at each start, so version 1 (created by a migration, without a report)
gets its report computed by the Celery worker on the first start. A version queued less than
half an hour ago is not queued again. When the task queue cannot be reached nothing is recorded
as queued, the pages keep saying "not computed", and the command exits with status 1.
"""

from typing import Any

from django.core.management.base import CommandError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from audit.management.base import PlainErrorsCommand
from bonus_tie import services


class Command(PlainErrorsCommand):
    help = "Queue the report of every proposed or approved paytable version that has none."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            queued = services.queue_missing_reports(now=timezone.now())
            under_rules = services.queue_missing_rules_reports(now=timezone.now())
        except (BrokerError, OSError) as exc:
            raise CommandError(f"The task queue cannot be reached ({exc}); no report was queued.") from exc
        if not queued and not under_rules:
            minutes = int(services.REQUEUE_AFTER.total_seconds() // 60)
            self.stdout.write(
                f"No paytable report is missing (or each was queued in the last {minutes} minutes)."
            )
        for version in queued:
            self.stdout.write(f"Paytable v{version}: report queued; the Celery worker computes it.")
        for row in under_rules:
            self.stdout.write(
                f"Paytable v{row.paytable.version} under a table's rules ({row.rules['decks']} decks, "
                f"{row.rules['dealer']}, {'surrender' if row.rules['surrender'] else 'no surrender'}): "
                "report queued; the Celery worker computes it."
            )
