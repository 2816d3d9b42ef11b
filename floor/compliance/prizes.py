"""The prizes for the tax forms (RULES.md §4): every tournament prize paid at or over
`CASINO_PRIZE_REPORTING_THRESHOLD_CENTS` in a year or a date range (casino local dates), with the
tournament, when it was paid, the patron and their identification, the amount and how it was
paid; as a page and as CSV. Compliance and admins only; the TIN shows in full to compliance
alone, masked (its last four characters) to an admin, as on the patron's page."""

import csv
import datetime as dt
import io
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from casino.models import StaffRole
from floor.access import console_view, role_of
from floor.compliance.day import identification_text
from kernel.documents import spreadsheet_text
from kernel.formatting import local_time
from kernel.gaming_day import FIRST_GAMING_DAY, casino_zone
from patrons.identification import masked_number
from reports.documents.wording import decimal_dollars
from reports.tournaments import reportable_prizes
from tournaments.models import Prize

COMPLIANCE_ROLES = (StaffRole.COMPLIANCE, StaffRole.ADMIN)


@dataclass(frozen=True)
class PrizeLine:
    prize: Prize
    tin: str  # in full to compliance, masked to anyone else; "" when none is on file

    @property
    def patron(self) -> str:
        patron = self.prize.entry.patron
        return f"Patron {patron.number} {patron.name}"

    @property
    def identification(self) -> str:
        return identification_text(self.prize.entry.patron)


@dataclass(frozen=True)
class Period:
    first_day: dt.date
    last_day: dt.date
    problem: str  # why the dates asked for were not taken ("" when they were)

    @property
    def label(self) -> str:
        if (
            self.first_day.month == 1
            and self.first_day.day == 1
            and self.last_day == self.first_day.replace(month=12, day=31)
        ):
            return f"year {self.first_day.year}"
        return f"{self.first_day.isoformat()} to {self.last_day.isoformat()}"


def _period(request: HttpRequest) -> Period:
    """`?year=2026`, or `?from=2026-01-01&to=2026-03-31`; the current year otherwise."""
    today = timezone.now().astimezone(casino_zone()).date()
    this_year = Period(dt.date(today.year, 1, 1), dt.date(today.year, 12, 31), "")
    first, last, year = request.GET.get("from"), request.GET.get("to"), request.GET.get("year")
    try:
        if first or last:
            period = Period(dt.date.fromisoformat(first or ""), dt.date.fromisoformat(last or ""), "")
        elif year:
            number = int(year)
            period = Period(dt.date(number, 1, 1), dt.date(number, 12, 31), "")
        else:
            return this_year
    except ValueError:
        return Period(this_year.first_day, this_year.last_day, "Dates are YYYY-MM-DD and a year four digits.")
    if (
        period.first_day > period.last_day
        or period.first_day < FIRST_GAMING_DAY
        or period.last_day.year > 9998
    ):
        return Period(this_year.first_day, this_year.last_day, "The range runs forward, from 2000 on.")
    return period


def _lines(request: HttpRequest, period: Period) -> list[PrizeLine]:
    full = role_of(request.user) == StaffRole.COMPLIANCE
    lines = []
    for prize in reportable_prizes(
        first_day=period.first_day,
        last_day=period.last_day,
        threshold_cents=settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS,
    ):
        current = prize.entry.patron.current_identification
        tin = current.tin if current is not None else ""
        lines.append(PrizeLine(prize=prize, tin=tin if full else masked_number(tin)))
    return lines


@require_GET
@console_view(*COMPLIANCE_ROLES)
def prize_list(request: HttpRequest) -> HttpResponse:
    period = _period(request)
    lines = _lines(request, period)
    return render(
        request,
        "floor/compliance/prizes.html",
        {
            "period": period,
            "lines": lines,
            "total_cents": sum(line.prize.amount_cents for line in lines),
            "threshold_cents": settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS,
            "query": request.GET.urlencode(),
        },
    )


@require_GET
@console_view(*COMPLIANCE_ROLES)
def prize_csv(request: HttpRequest) -> HttpResponse:
    period = _period(request)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Tournament prizes for the tax forms", period.label])
    writer.writerow(["Reporting threshold", decimal_dollars(settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS)])
    writer.writerow(["Units", "dollars; times in casino local time"])
    writer.writerow([])
    writer.writerow(
        [
            "tournament",
            "name",
            "paid_at",
            "patron",
            "identification",
            "tin",
            "amount",
            "paid_with",
            "entry",
            "place",
        ]
    )
    for line in _lines(request, period):
        prize = line.prize
        writer.writerow(
            [
                prize.tournament_id,
                spreadsheet_text(prize.tournament.name),
                local_time(prize.paid_at, seconds=True),
                spreadsheet_text(line.patron),
                spreadsheet_text(line.identification),
                spreadsheet_text(line.tin),
                decimal_dollars(prize.amount_cents),
                prize.paid_with,
                prize.entry.number,
                prize.place,
            ]
        )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    name = period.label.replace(" ", "-")
    response["Content-Disposition"] = f'attachment; filename="tournament-prizes-{name}.csv"'
    return response
