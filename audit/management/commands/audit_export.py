"""Export one gaming day's audit events as CSV or JSON lines.

    manage.py audit_export --gaming-day 2026-11-20 --format csv [--output FILE]

Writes to stdout unless --output is given (the file appears only once complete).
"""

import datetime as dt
import os
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from audit.exports import FORMATS, export_gaming_day
from audit.management.base import PlainErrorsCommand

# Dates outside these are typing mistakes (and 9999-12-31 has no next day to end at).
FIRST_GAMING_DAY, LAST_GAMING_DAY = dt.date(2000, 1, 1), dt.date(2099, 12, 31)


class Command(PlainErrorsCommand):
    help = "Export the audit events of one gaming day (casino time, from 06:00) as CSV or JSON lines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--gaming-day", required=True, help="The gaming day, YYYY-MM-DD.")
        parser.add_argument("--format", default="csv", help="csv (default) or jsonl.")
        parser.add_argument("--output", help="Write to this file instead of stdout.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = dt.date.fromisoformat(options["gaming_day"])
        except ValueError:
            raise CommandError(
                f"--gaming-day must be a date like 2026-11-20, not {options['gaming_day']!r}"
            ) from None
        if not FIRST_GAMING_DAY <= day <= LAST_GAMING_DAY:
            raise CommandError(
                f"--gaming-day must be from {FIRST_GAMING_DAY.isoformat()} to {LAST_GAMING_DAY.isoformat()}, "
                f"not {day.isoformat()}"
            )
        fmt = options["format"]
        if fmt not in FORMATS:
            raise CommandError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
        output = options["output"]
        if output is None:
            for chunk in export_gaming_day(day=day, fmt=fmt):
                self.stdout.write(chunk, ending="")
            return
        path = Path(output)
        if path.is_dir():
            raise CommandError(f"--output {output} is a directory")
        partial = path.with_name(f".{path.name}.partial")
        try:
            with partial.open("w", encoding="utf-8", newline="") as handle:
                for chunk in export_gaming_day(day=day, fmt=fmt):
                    handle.write(chunk)
            os.replace(partial, path)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from None
        self.stderr.write(f"exported the audit events of gaming day {day.isoformat()} to {output}")
