"""`python manage.py shift_report --gaming-day 2026-11-20 --shift day [--table 7]`

Produces (or regenerates, in place) the shift reports by hand: the same service the Celery
tasks call. Bad arguments are a one-line error and a non-zero exit, never a traceback.
"""

import datetime as dt
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from audit.context import AuditActor
from casino.services import reports
from kernel.errors import ServiceError

ACTOR = AuditActor(kind="system", username="manage.py shift_report")


class Command(BaseCommand):
    help = "Produce the shift reports of one shift (all tables, or one with --table)."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def one_line_error(message: str) -> NoReturn:
            sys.stderr.write(f"shift_report: {message}\n")
            sys.exit(2)

        parser.error = one_line_error  # type: ignore[method-assign]
        return parser

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
        try:
            reports.check_shift(options["shift"])
        except ServiceError as exc:
            raise CommandError(exc.detail) from exc
        table_ids = None
        if options["table_id"] is not None:
            if not str(options["table_id"]).isdigit() or int(options["table_id"]) >= 2**63:
                raise CommandError(f"--table {options['table_id']!r} is not a table id.")
            table_ids = [int(options["table_id"])]
        try:
            rows = reports.produce_shift_reports(
                gaming_day=gaming_day,
                shift=options["shift"],
                table_ids=table_ids,
                actor=ACTOR,
                now=timezone.now(),
            )
        except ServiceError as exc:
            raise CommandError(exc.detail) from exc
        win = sum(row.win_cents or 0 for row in rows)
        self.stdout.write(
            f"{len(rows)} shift report(s) for {gaming_day.isoformat()} {options['shift']}; win {win} cents."
        )
