"""The Reports page of the console: a shift's report, a gaming day's and month to date, each
with its status (PROVISIONAL with its reasons, or Final: `reports.status`, the one rule the API,
the CSV and the PDF follow), its figures in dollars and its filing CSV and PDF; a shift's page
carries the end-of-shift checklist (tables still open, closed but not counted, slips pending).

Every console role that reads reports (floor supervisors, pit bosses, compliance, admins): a floor
supervisor or pit boss sees the tables of their pits, their roll-ups and status, and downloads the
documents of those tables only; compliance and admins the whole casino.
"""

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from floor.access import CASINO_WIDE_ROLES, console_view, role_of, visible_tables
from floor.days import gaming_day_in_url, neighbour_days
from kernel.gaming_day import gaming_day_and_shift, shift_bounds
from reports.export import report_document, shift_report_csv, shift_report_pdf
from reports.figures import expected_hold_bp, hold_percent_text
from reports.period import period_figures
from reports.read import SHIFT_ORDER, shift_report_payload
from reports.status import Status, period_status

_DOCUMENTS = {
    "csv": ("text/csv; charset=utf-8", shift_report_csv),
    "pdf": ("application/pdf", shift_report_pdf),
}


def _table_ids(user: Any) -> set[int] | None:
    """The tables whose reports this user reads: None for every table (casino-wide roles)."""
    if role_of(user) in CASINO_WIDE_ROLES:
        return None
    return set(visible_tables(user).values_list("pk", flat=True))


def _shift(shift: str) -> str:
    if shift not in SHIFT_ORDER:
        raise Http404("A shift is day, swing or grave.")
    return shift


def _neighbour_shifts(day: dt.date, shift: str) -> tuple[tuple[dt.date, str] | None, tuple[dt.date, str]]:
    start, end = shift_bounds(day, shift)
    previous = gaming_day_and_shift(start - dt.timedelta(minutes=1))
    return previous, gaming_day_and_shift(end)


def checklist(tables: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """What stands between a shift and its final report, table by table, from the flags of its
    figures: tables still open (or played with no opener), tables closed whose drop is not
    counted, and tables with slips pending approval."""
    items: dict[str, list[dict[str, Any]]] = {"open": [], "not_counted": [], "slips_pending": []}
    for table in tables:
        flags = set(table["flags"])
        entry = {"table": table["table"], "pit": table["pit"], "shift": table["shift"]}
        if "no_opener" in flags:
            items["open"].append({**entry, "what": "played with no opener recorded"})
        elif "no_closer" in flags:
            items["open"].append({**entry, "what": "still open: no closer"})
        if "no_soft_count" in flags and "no_closer" not in flags:
            items["not_counted"].append({**entry, "what": "closed, drop not counted"})
        if "slips_pending" in flags:
            items["slips_pending"].append({**entry, "what": "fill or credit slips pending approval"})
    return items


def _links(day: dt.date, shift: str | None) -> dict[str, str]:
    if shift is None:
        return {
            ext: reverse(
                "floor:report_day_document", kwargs={"gaming_day": day.isoformat(), "extension": ext}
            )
            for ext in _DOCUMENTS
        }
    return {
        ext: reverse(
            "floor:report_shift_document",
            kwargs={"gaming_day": day.isoformat(), "shift": shift, "extension": ext},
        )
        for ext in _DOCUMENTS
    }


def _context(request: HttpRequest, day: dt.date) -> dict[str, Any]:
    current_day, current_shift = gaming_day_and_shift(timezone.now())
    previous_day, next_day = neighbour_days(day)
    return {
        "day": day,
        "current_day": current_day,
        "current_shift": current_shift,
        "shifts": SHIFT_ORDER,
        "previous_day": previous_day,
        "next_day": next_day,
        "scoped": _table_ids(request.user) is not None,
        "expected_hold": tuple(hold_percent_text(bp) for bp in expected_hold_bp()),
    }


@require_safe
@console_view()
def today(request: HttpRequest) -> HttpResponse:
    """The shift under way, or the day, shift or month the picker asks for."""
    day_text, shift = request.GET.get("gaming_day"), request.GET.get("shift", "")
    if day_text:
        if shift == "day-all":
            return redirect("floor:report_day", gaming_day=day_text)
        if shift == "month":
            return redirect("floor:report_month", gaming_day=day_text)
        return redirect("floor:report_shift", gaming_day=day_text, shift=shift or "day")
    day, current = gaming_day_and_shift(timezone.now())
    return redirect("floor:report_shift", gaming_day=day.isoformat(), shift=current)


@require_safe
@console_view()
@gaming_day_in_url
def shift_page(request: HttpRequest, gaming_day: dt.date, shift: str) -> HttpResponse:
    shift = _shift(shift)
    payload = shift_report_payload(gaming_day=gaming_day, shifts=[shift], table_ids=_table_ids(request.user))
    previous, following = _neighbour_shifts(gaming_day, shift)
    start, end = shift_bounds(gaming_day, shift)
    return render(
        request,
        "floor/reports/page.html",
        {
            **_context(request, gaming_day),
            "kind": "shift",
            "shift": shift,
            "shift_start": start,
            "shift_end": end,
            "report": payload,
            "checklist": checklist(payload["tables"]),
            "previous_shift": previous,
            "next_shift": following,
            "documents": _links(gaming_day, shift),
        },
    )


@require_safe
@console_view()
@gaming_day_in_url
def day_page(request: HttpRequest, gaming_day: dt.date) -> HttpResponse:
    payload = shift_report_payload(
        gaming_day=gaming_day, shifts=list(SHIFT_ORDER), table_ids=_table_ids(request.user)
    )
    return render(
        request,
        "floor/reports/page.html",
        {
            **_context(request, gaming_day),
            "kind": "day",
            "report": payload,
            "daily": payload.get("daily"),
            "documents": _links(gaming_day, None),
        },
    )


@require_safe
@console_view()
@gaming_day_in_url
def month_page(request: HttpRequest, gaming_day: dt.date) -> HttpResponse:
    """Month to date through the gaming day, from the stored shift reports; provisional while
    that day is."""
    table_ids = _table_ids(request.user)
    day = shift_report_payload(gaming_day=gaming_day, shifts=list(SHIFT_ORDER), table_ids=table_ids)
    last_day = Status(provisional=day["provisional"], reasons=tuple(day["provisional_reasons"]))
    status = period_status(last_day=last_day, through=gaming_day.isoformat())
    return render(
        request,
        "floor/reports/page.html",
        {
            **_context(request, gaming_day),
            "kind": "month",
            "report": {"provisional": status.provisional, "provisional_reasons": list(status.reasons)},
            "period": period_figures(gaming_day=gaming_day, shifts=list(SHIFT_ORDER), table_ids=table_ids),
            "documents": _links(gaming_day, None),
        },
    )


def _document(request: HttpRequest, gaming_day: dt.date, shifts: list[str], extension: str) -> HttpResponse:
    if extension not in _DOCUMENTS:
        raise Http404("A report is a .csv or a .pdf.")
    table_ids = _table_ids(request.user)
    payload = shift_report_payload(gaming_day=gaming_day, shifts=shifts, table_ids=table_ids)
    user = request.user
    document = report_document(
        payload,
        generated_by=str(user.get_username()),
        generated_at=timezone.now(),
        table_ids=table_ids,
    )
    content_type, render_document = _DOCUMENTS[extension]
    body = render_document(document)
    response = HttpResponse(body, content_type=content_type)
    suffix = f"-{shifts[0]}" if len(shifts) == 1 else ""
    response["Content-Disposition"] = (
        f'attachment; filename="shift-report-{gaming_day.isoformat()}{suffix}.{extension}"'
    )
    return response


@require_safe
@console_view()
@gaming_day_in_url
def shift_document(request: HttpRequest, gaming_day: dt.date, shift: str, extension: str) -> HttpResponse:
    return _document(request, gaming_day, [_shift(shift)], extension)


@require_safe
@console_view()
@gaming_day_in_url
def day_document(request: HttpRequest, gaming_day: dt.date, extension: str) -> HttpResponse:
    return _document(request, gaming_day, list(SHIFT_ORDER), extension)
