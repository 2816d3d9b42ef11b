"""The count variance report (backoffice-anchors §2.4: an unresolved discrepancy goes on a drop
variance report): per gaming day, and shift if one is chosen, each table's counts, every round
with its two tallies, their totals and the variance per denomination and in total, on the console
and as CSV. The count team, pit bosses (their pits' tables), compliance and admins read it.

A round whose second count is not in yet shows who counted and no figure: the report is read by
the count team too, and the second count is blind."""

import csv
import datetime as dt
import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from floor.access import COUNT_READING_ROLES, console_view, count_visible_tables
from floor.count.forms import BILLS_CENTS, offered_periods
from kernel.documents import spreadsheet_text
from kernel.formatting import decimal_dollars, dollars, local_time
from kernel.gaming_day import DayOutOfBoundsError, parse_gaming_day
from table_money.engine.count import CountRound, CountStatus, Variance
from table_money.models import SoftCountTally
from table_money.selectors import CountRecord, list_count_records
from table_money.services.soft_counts import SHIFT_NAMES, counts_per_shift, variance_payload

CSV_UNITS = "dollars; times in casino local time; variance = second count - first count"
STATUS_TEXT = {
    CountStatus.AWAITING_SECOND_COUNT: "awaiting the second count",
    CountStatus.VARIANCE: "variance: to be recounted",
    CountStatus.COMPLETE: "complete",
}


@dataclass(frozen=True, slots=True)
class VarianceLine:
    """One round of one count, as the report shows it."""

    record: CountRecord
    round: CountRound
    first: SoftCountTally
    second: SoftCountTally | None
    variance: Variance | None

    @property
    def count_status(self) -> str:
        if self.record.superseded_by is not None:
            return f"superseded by count {self.record.superseded_by.pk}"
        if self.round is not self.record.rounds[-1]:
            return "recounted"
        return STATUS_TEXT[self.record.result.status]

    @property
    def differences(self) -> dict[int, int]:
        """The variance in cents of each bill denomination (in cents) whose two counts differ."""
        if self.variance is None:
            return {}
        return {int(d): cents for d, cents in variance_payload(self.variance)["denominations"].items()}

    @property
    def differences_text(self) -> str:
        """`$20 bills: -$20.00; markers: $100.00`."""
        parts = [f"${d // 100} bills: {dollars(cents)}" for d, cents in self.differences.items()]
        if self.variance is not None and self.variance.markers_cents:
            parts.append(f"markers: {dollars(self.variance.markers_cents)}")
        return "; ".join(parts)


def variance_lines(*, gaming_day: dt.date, shift: str | None, user: Any) -> list[VarianceLine]:
    table_ids = set(count_visible_tables(user).values_list("pk", flat=True))
    records = list_count_records(
        gaming_day=gaming_day, shifts=[shift] if shift is not None else None, table_ids=table_ids
    )
    lines = []
    for record in records:
        for counted in record.rounds:
            tallies = record.tallies_of_round(counted.number)
            lines.append(
                VarianceLine(
                    record=record,
                    round=counted,
                    first=tallies[0],
                    second=tallies[1] if len(tallies) > 1 else None,
                    variance=counted.variance,
                )
            )
    return lines


def _member(tally: SoftCountTally | None) -> str:
    if tally is None:
        return ""
    return str(tally.member.get_full_name() or tally.member.get_username())


def variance_csv(
    lines: list[VarianceLine], *, title: str, generated_at: dt.datetime, generated_by: str
) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Count variance report", title])
    writer.writerow(
        ["Generated", local_time(generated_at, seconds=True), "by", spreadsheet_text(generated_by)]
    )
    writer.writerow(["Units", CSV_UNITS])
    writer.writerow([])
    writer.writerow(
        [
            "gaming_day",
            "shift",
            "pit",
            "table",
            "count",
            "round",
            "status",
            "counts_as_drop",
            "first_counter",
            "first_total",
            "second_counter",
            "second_total",
            "variance_total",
            "variance_markers",
            *(f"variance_{cents // 100}_bills" for cents in BILLS_CENTS),
            "correction_of",
            "correction_reason",
        ]
    )
    for line in lines:
        count = line.record.count
        shown = line.variance is not None
        by_denomination = line.differences
        writer.writerow(
            [
                count.gaming_day.isoformat(),
                count.shift or "whole day",
                spreadsheet_text(count.table.pit.name),
                spreadsheet_text(count.table.name),
                count.pk,
                line.round.number,
                line.count_status,
                "yes" if line.record.result.counts and line.round is line.record.rounds[-1] else "no",
                spreadsheet_text(_member(line.first)),
                decimal_dollars(line.first.total_cents if shown else None),
                spreadsheet_text(_member(line.second)),
                decimal_dollars(line.second.total_cents if shown and line.second is not None else None),
                decimal_dollars(line.variance.total_cents if line.variance is not None else None),
                decimal_dollars(line.variance.markers_cents if line.variance is not None else None),
                *(decimal_dollars(by_denomination.get(cents, 0) if shown else None) for cents in BILLS_CENTS),
                count.supersedes_id or "",
                spreadsheet_text(count.correction_reason),
            ]
        )
    return out.getvalue()


def with_asked_period(view: Callable[..., HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Call `view` with the gaming day and shift asked for (`?gaming_day=&shift=`; by default the
    last ended period's day, every shift), or answer 400 with what to ask for instead."""

    @wraps(view)
    def wrapper(request: HttpRequest) -> HttpResponse:
        default_day, _ = offered_periods(per_shift=counts_per_shift())[0]
        day_text = request.GET.get("gaming_day", "")
        shift = request.GET.get("shift", "") or None
        try:
            day = parse_gaming_day(day_text) if day_text else default_day
        except DayOutOfBoundsError as refused:
            return render(request, "floor/bad_day.html", {"error": refused.message}, status=400)
        if shift is not None and shift not in SHIFT_NAMES:
            error = f"A shift is {', '.join(SHIFT_NAMES)}, or none for the whole gaming day."
            return render(request, "floor/bad_day.html", {"error": error}, status=400)
        return view(request, gaming_day=day, shift=shift)

    return wrapper


def _title(day: dt.date, shift: str | None) -> str:
    return f"gaming day {day.isoformat()}" + (f", {shift} shift" if shift else ", every shift")


@require_safe
@console_view(*COUNT_READING_ROLES)
@with_asked_period
def variance_report(request: HttpRequest, *, gaming_day: dt.date, shift: str | None) -> HttpResponse:
    day = gaming_day
    lines = variance_lines(gaming_day=day, shift=shift, user=request.user)
    return render(
        request,
        "floor/count/variances.html",
        {
            "lines": lines,
            "gaming_day": day,
            "shift": shift or "",
            "shifts": SHIFT_NAMES,
            "title": _title(day, shift),
            "variances": sum(1 for line in lines if line.variance is not None and not line.variance.agrees),
        },
    )


@require_safe
@console_view(*COUNT_READING_ROLES)
@with_asked_period
def variance_report_csv(request: HttpRequest, *, gaming_day: dt.date, shift: str | None) -> HttpResponse:
    day = gaming_day
    user: Any = request.user
    body = variance_csv(
        variance_lines(gaming_day=day, shift=shift, user=user),
        title=_title(day, shift),
        generated_at=timezone.now(),
        generated_by=str(user.get_full_name() or user.get_username()),
    )
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    name = f"count-variances-{day.isoformat()}{'-' + shift if shift else ''}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
