"""`python manage.py shift_report --gaming-day 2026-11-20 --shift day [--table 7]`

Produces (or regenerates, in place) the shift reports by hand: the same service the Celery
tasks call. Bad arguments are a one-line error and a non-zero exit, never a traceback.

A shift in the future is refused (one line), and so is a shift that ended before the audit
trail's first event (nothing can have been recorded in it; a mistyped year). A shift still running
gets its report so far, marked PROVISIONAL (the stored rows say so too, and the report is
regenerated when the shift ends); an accountant reads only an ended shift's report as final.
"""

import datetime as dt
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db.models import Min
from django.utils import timezone

from audit.context import AuditActor
from audit.management.base import PlainErrorsCommand
from audit.models import AuditEvent
from casino.models import Table
from kernel.errors import CodedError
from kernel.formatting import dollars
from kernel.gaming_day import casino_zone, shift_bounds
from reports import services as reports

ACTOR = AuditActor(kind="system", username="manage.py shift_report")
# Dates outside these are typing mistakes, whatever the audit trail holds.
FIRST_GAMING_DAY, LAST_GAMING_DAY = dt.date(2000, 1, 1), dt.date(2099, 12, 31)


class Command(PlainErrorsCommand):
    help = (
        "Produce the shift reports of one shift (all tables, or one with --table); a shift still "
        "running is marked PROVISIONAL, a future one refused."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--gaming-day", dest="gaming_day", help="YYYY-MM-DD")
        parser.add_argument("--shift", help=f"one of {', '.join(reports.SHIFT_NAMES)}")
        parser.add_argument("--table", dest="table_id", help="a table id (default: every table)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["gaming_day"] or not options["shift"]:
            raise CommandError("--gaming-day YYYY-MM-DD and --shift day|swing|grave are both required.")
        try:
            gaming_day = dt.date.fromisoformat(options["gaming_day"])
        except ValueError as exc:
            raise CommandError(f"--gaming-day {options['gaming_day']!r} is not a date (YYYY-MM-DD).") from exc
        if not FIRST_GAMING_DAY <= gaming_day <= LAST_GAMING_DAY:
            raise CommandError(
                f"--gaming-day {gaming_day.isoformat()} is out of range "
                f"({FIRST_GAMING_DAY.isoformat()} to {LAST_GAMING_DAY.isoformat()})."
            )
        try:
            reports.check_shift(options["shift"])
        except CodedError as exc:
            raise CommandError(exc.detail) from exc
        table_ids = None
        if options["table_id"] is not None:
            text = str(options["table_id"])
            if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) >= 2**63:
                raise CommandError(f"--table {options['table_id']!r} is not a table id.")
            table_ids = [int(text)]
            if not Table.objects.filter(pk=table_ids[0]).exists():
                raise CommandError(f"No table {table_ids[0]}.")
        now = timezone.now()
        running = check_shift_has_begun(gaming_day=gaming_day, shift=options["shift"], now=now)
        try:
            rows = reports.produce_shift_reports(
                gaming_day=gaming_day,
                shift=options["shift"],
                table_ids=table_ids,
                actor=ACTOR,
                now=now,
            )
        except CodedError as exc:
            raise CommandError(exc.detail) from exc
        win = sum(row.win_cents or 0 for row in rows)
        line = f"{len(rows)} shift report(s) for {gaming_day.isoformat()} {options['shift']}; win {dollars(win)}."
        if running:
            _, end = shift_bounds(gaming_day, options["shift"])
            line += f" PROVISIONAL: the shift is still running (it ends {_local(end)})."
        self.stdout.write(line)


def check_shift_has_begun(*, gaming_day: dt.date, shift: str, now: dt.datetime) -> bool:
    """A shift gets a report once it has begun, and only if it ended after the audit trail began;
    True when it is still running (its report is provisional)."""
    start, end = shift_bounds(gaming_day, shift)
    if start > now:
        raise CommandError(
            f"The {shift} shift of {gaming_day.isoformat()} is in the future (it begins {_local(start)}); "
            "there is nothing to report yet."
        )
    if end > now:
        return True
    first_event = AuditEvent.objects.aggregate(first=Min("occurred_at"))["first"]
    if first_event is None or end <= first_event:
        trail = f"the audit trail begins {_local(first_event)}" if first_event else "the audit trail is empty"
        raise CommandError(
            f"The {shift} shift of {gaming_day.isoformat()} ended before anything was recorded "
            f"({trail}); there is nothing to report."
        )
    return False


def _local(moment: dt.datetime) -> str:
    zone = casino_zone()
    return f"{moment.astimezone(zone):%Y-%m-%d %H:%M} {zone.key}"
