"""The compliance page of a gaming day: the MTL, the CTR worksheets and the patrons they wait on
to be identified, with CSV and PDF exports. Compliance (and admins) only: pit bosses see the CTR
alerts of their own tables on the live floor."""

import datetime as dt

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from casino.models import StaffRole
from floor.access import console_view
from floor.compliance.day import compliance_day
from floor.compliance.export import compliance_csv, compliance_pdf
from floor.days import gaming_day_in_url, neighbour_days
from kernel.gaming_day import gaming_day_and_shift
from table_money.models import CashDirection

COMPLIANCE_ROLES = (StaffRole.COMPLIANCE, StaffRole.ADMIN)


def _generated_by(request: HttpRequest) -> str:
    user = request.user
    return str(user.get_full_name() or user.get_username())  # type: ignore[union-attr]


@require_GET
@console_view(*COMPLIANCE_ROLES)
def today(request: HttpRequest) -> HttpResponse:
    gaming_day, _ = gaming_day_and_shift(timezone.now())
    return redirect("floor:compliance_day", gaming_day=gaming_day.isoformat())


@require_GET
@console_view(*COMPLIANCE_ROLES)
@gaming_day_in_url
def day_page(request: HttpRequest, gaming_day: dt.date) -> HttpResponse:
    day = gaming_day
    previous_day, next_day = neighbour_days(day)
    records = compliance_day(gaming_day=day)
    return render(
        request,
        "floor/compliance/day.html",
        {
            "day": records,
            "previous_day": previous_day,
            "next_day": next_day,
            "cash_in_total": records.mtl_total_cents(CashDirection.CASH_IN),
            "cash_out_total": records.mtl_total_cents(CashDirection.CASH_OUT),
        },
    )


@require_GET
@console_view(*COMPLIANCE_ROLES)
@gaming_day_in_url
def day_csv(request: HttpRequest, gaming_day: dt.date) -> HttpResponse:
    day = gaming_day
    body = compliance_csv(
        compliance_day(gaming_day=day), generated_at=timezone.now(), generated_by=_generated_by(request)
    )
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="title31-{day.isoformat()}.csv"'
    return response


@require_GET
@console_view(*COMPLIANCE_ROLES)
@gaming_day_in_url
def day_pdf(request: HttpRequest, gaming_day: dt.date) -> HttpResponse:
    day = gaming_day
    body = compliance_pdf(
        compliance_day(gaming_day=day), generated_at=timezone.now(), generated_by=_generated_by(request)
    )
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="title31-{day.isoformat()}.pdf"'
    return response
