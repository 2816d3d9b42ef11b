"""The shift reports' admin pages: read-only, with the filing PDF of a shift (a link on each report
row, or the action), for the admin (casino.admin_site)."""

import datetime as dt

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseForbidden
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from casino.admin_display import ReadOnlyAdmin, alarm_label, is_admin
from kernel.formatting import dollars
from kernel.gaming_day import DayOutOfBoundsError, parse_gaming_day
from reports.definition import FIGURES, Section, Unit
from reports.export import report_document, shift_report_pdf
from reports.figures import expected_hold_bp, hold_percent_text
from reports.models import ShiftReport
from reports.read import SHIFT_ORDER, shift_report_payload


def pdf_response(*, gaming_day: dt.date, shifts: list[str], reader: str) -> HttpResponse:
    payload = shift_report_payload(gaming_day=gaming_day, shifts=shifts)
    pdf = shift_report_pdf(report_document(payload, generated_by=reader, generated_at=timezone.now()))
    name = f"shift-report-{gaming_day.isoformat()}-{'-'.join(shifts)}.pdf"
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _stored(section: Section, unit: Unit | None = None) -> list[str]:
    """The stored figures of a section of the definition (of one unit), in its order."""
    return [f.key for f in FIGURES if f.stored and f.section is section and unit in (None, f.unit)]


@admin.register(ShiftReport)
class ShiftReportAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "pit",
        "gaming_day",
        "shift",
        "drop",
        "win",
        "hold",
        "hold_alarm",
        "flag_list",
        "generated_at",
        "pdf_link",
    ]
    list_filter = ["gaming_day", "shift", "hold_outside_range", "pit"]
    date_hierarchy = "gaming_day"
    list_select_related = ["table", "pit"]
    actions = ["download_pdf"]
    fieldsets = [
        (None, {"fields": ["table", "pit", "gaming_day", "shift", "generated_at"]}),
        # The counted money, then the hold and the flags as the admin shows them.
        ("Count", {"fields": [*_stored(Section.COUNT, Unit.CENTS), "hold", "hold_alarm", "flag_list"]}),
        ("Play", {"fields": [*_stored(Section.PLAY)]}),
    ]

    @admin.display(description="Drop")
    def drop(self, report: ShiftReport) -> str:
        return dollars(report.drop_cents)

    @admin.display(description="Win")
    def win(self, report: ShiftReport) -> str:
        return dollars(report.win_cents)

    @admin.display(description="Hold %")
    def hold(self, report: ShiftReport) -> str:
        return hold_percent_text(report.hold_bp) or "-"

    @admin.display(description="Hold check", ordering="hold_outside_range")
    def hold_alarm(self, report: ShiftReport) -> SafeString | str:
        if not report.hold_outside_range:
            return "within range" if report.hold_bp is not None else "-"
        low, high = (hold_percent_text(bound) for bound in expected_hold_bp())
        return alarm_label(f"Hold outside the expected {low}-{high} %")

    @admin.display(description="Flags")
    def flag_list(self, report: ShiftReport) -> SafeString | str:
        return alarm_label(", ".join(report.flags)) if report.flags else "-"

    @admin.display(description="PDF")
    def pdf_link(self, report: ShiftReport) -> str:
        url = reverse("admin:reports_shiftreport_pdf", args=[report.gaming_day.isoformat(), report.shift])
        return format_html('<a href="{}">PDF of the shift</a>', url)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "pdf/<str:gaming_day>/<str:shift>/",
                self.admin_site.admin_view(self.pdf_view),
                name="reports_shiftreport_pdf",
            )
        ]
        return own + super().get_urls()

    def pdf_view(self, request: HttpRequest, gaming_day: str, shift: str) -> HttpResponseBase:
        if not is_admin(request):
            return HttpResponseForbidden("Admins only.")
        try:
            day = parse_gaming_day(gaming_day)
        except DayOutOfBoundsError as refused:
            return HttpResponse(refused.message, status=400, content_type="text/plain; charset=utf-8")
        if shift not in SHIFT_ORDER:
            return HttpResponse("Not a shift.", status=400, content_type="text/plain")
        return pdf_response(gaming_day=day, shifts=[shift], reader=request.user.get_username())

    @admin.action(description="Download the PDF of the selected shifts (one gaming day)")
    def download_pdf(self, request: HttpRequest, queryset: QuerySet[ShiftReport]) -> HttpResponse | None:
        days = sorted(set(queryset.values_list("gaming_day", flat=True)))
        if len(days) != 1:
            self.message_user(request, "Select the reports of one gaming day.", messages.ERROR)
            return None
        shifts = [s for s in SHIFT_ORDER if queryset.filter(shift=s).exists()]
        return pdf_response(gaming_day=days[0], shifts=shifts, reader=request.user.get_username())
