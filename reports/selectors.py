"""Reads of the stored reports that the house asks for (`casino.services.report_refresh`)."""

import datetime as dt

from reports.models import ShiftReport


def stored_shifts(table_id: int, gaming_day: dt.date, shifts: list[str]) -> set[str]:
    """Which of the table's `shifts` of `gaming_day` have a stored report."""
    rows = ShiftReport.objects.filter(table_id=table_id, gaming_day=gaming_day, shift__in=shifts)
    return set(rows.values_list("shift", flat=True))
