"""Admin pages for table money and shift reports (imported by casino/admin.py).

Everything here is read-only: money changes only through the services. Two things act:
- a supervisor role (floor supervisor, pit boss, admin) approves pending fills and credits with
  the "Approve" action (the same service as the API: the approver may not be the requester);
- any staff role downloads a shift's PDF (a link on each report row, or the action).
"""

import datetime as dt
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseForbidden
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from audit.context import AuditActor
from casino.admin_display import StaffPresentation, alarm_label
from casino.models import (
    BuyIn,
    ChipSlip,
    ShiftReport,
    SlipKind,
    SlipStatus,
    SlipVoid,
    StaffRole,
    TableInventory,
)
from casino.reports.export import report_document, shift_report_pdf
from casino.reports.figures import expected_hold_bp, hold_percent_text
from casino.reports.read import SHIFT_ORDER, shift_report_payload
from casino.services import accounting
from kernel.errors import ServiceError
from kernel.formatting import dollars
from kernel.gaming_day import DayOutOfBoundsError, parse_gaming_day

APPROVER_ROLES = (StaffRole.FLOOR_SUPERVISOR, StaffRole.PIT_BOSS, StaffRole.ADMIN)


def _role_of(request: HttpRequest) -> str | None:
    user = request.user
    if getattr(user, "is_superuser", False):
        return StaffRole.ADMIN
    profile = getattr(user, "staff", None)
    return profile.role if profile is not None else None


def _actor(request: HttpRequest) -> AuditActor:
    user = request.user
    return AuditActor(
        kind="user", user_id=user.pk, username=user.get_username(), role=_role_of(request) or ""
    )


class _ReadOnlyAdmin(StaffPresentation, admin.ModelAdmin):
    """Any staff role views; nobody adds, changes or deletes here."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _role_of(request) is not None

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _role_of(request) is not None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def pdf_response(*, gaming_day: dt.date, shifts: list[str], reader: str) -> HttpResponse:
    payload = shift_report_payload(gaming_day=gaming_day, shifts=shifts)
    pdf = shift_report_pdf(report_document(payload, generated_by=reader, generated_at=timezone.now()))
    name = f"shift-report-{gaming_day.isoformat()}-{'-'.join(shifts)}.pdf"
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@admin.register(ShiftReport)
class ShiftReportAdmin(_ReadOnlyAdmin):
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
        ("Count", {"fields": ["opener_cents", "closer_cents", "drop_cents", "markers_cents", "fills_cents",
                              "credits_cents", "win_cents", "hold", "hold_alarm", "flag_list"]}),
        ("Play", {"fields": ["rounds_settled", "rounds_voided", "hands_dealt", "handle_cents", "payouts_cents",
                             "house_net_cents", "win_minus_house_net_cents", "theo_win_cents"]}),
    ]  # fmt: skip

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
        url = reverse("admin:casino_shiftreport_pdf", args=[report.gaming_day.isoformat(), report.shift])
        return format_html('<a href="{}">PDF of the shift</a>', url)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "pdf/<str:gaming_day>/<str:shift>/",
                self.admin_site.admin_view(self.pdf_view),
                name="casino_shiftreport_pdf",
            )
        ]
        return own + super().get_urls()

    def pdf_view(self, request: HttpRequest, gaming_day: str, shift: str) -> HttpResponseBase:
        if _role_of(request) is None:
            return HttpResponseForbidden("Staff only.")
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


class SlipVoidInline(StaffPresentation, admin.StackedInline):
    """A slip's void, if it has one, shown on the slip's page."""

    model = SlipVoid
    fields = readonly_fields = ("reason", "voided_by", "voided_at", "gaming_day", "shift", "reversal")
    extra = 0
    can_delete = False
    verbose_name = verbose_name_plural = "void"

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _role_of(request) is not None

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChipSlip)
class ChipSlipAdmin(_ReadOnlyAdmin):
    list_display = [
        "kind",
        "number",
        "table",
        "amount",
        "status",
        "gaming_day",
        "shift",
        "requested_at",
        "approved_by",
        "approved_at",
    ]
    list_filter = ["kind", "status", "gaming_day", "shift", "table"]
    search_fields = ["number"]
    list_select_related = ["table", "approved_by"]
    actions = ["approve"]
    inlines = [SlipVoidInline]
    fieldsets = [
        (None, {"fields": ["kind", "number", "table", "status", "amount_cents", "chips"]}),
        ("Shift", {"fields": ["gaming_day", "shift"]}),
        ("Requested", {"fields": ["requested_at", "requested_by_terminal", "requested_by_dealer",
                                  "requested_by_user"]}),
        ("Approved", {"fields": ["approved_at", "approved_by", "transaction"]}),
    ]  # fmt: skip

    @admin.display(description="Amount", ordering="amount_cents")
    def amount(self, slip: ChipSlip) -> str:
        return dollars(slip.amount_cents)

    @admin.action(description="Approve the selected pending fills and credits")
    def approve(self, request: HttpRequest, queryset: QuerySet[ChipSlip]) -> None:
        if _role_of(request) not in APPROVER_ROLES:
            self.message_user(request, "Only a floor supervisor, pit boss or admin approves.", messages.ERROR)
            return
        approved = 0
        for slip_id, kind, number in queryset.filter(status=SlipStatus.PENDING).values_list(
            "pk", "kind", "number"
        ):
            try:
                accounting.approve_slip(
                    kind=SlipKind(kind),
                    slip_id=slip_id,
                    user=request.user,  # type: ignore[arg-type]
                    actor=_actor(request),
                    now=timezone.now(),
                )
            except ServiceError as exc:
                self.message_user(request, f"{kind} #{number}: {exc.detail}", messages.ERROR)
            else:
                approved += 1
        skipped = queryset.exclude(status=SlipStatus.PENDING).count()
        if approved:
            self.message_user(request, f"Approved {approved} slip(s).", messages.SUCCESS)
        if skipped:
            self.message_user(request, f"{skipped} selected slip(s) were not pending.", messages.WARNING)


@admin.register(SlipVoid)
class SlipVoidAdmin(_ReadOnlyAdmin):
    list_display = ["slip", "reason", "voided_by", "voided_at", "gaming_day", "shift"]
    list_filter = ["gaming_day", "shift"]
    list_select_related = ["slip__table", "voided_by"]


@admin.register(TableInventory)
class TableInventoryAdmin(_ReadOnlyAdmin):
    list_display = [
        "table",
        "kind",
        "gaming_day",
        "shift",
        "total_cents",
        "dealer",
        "supervisor",
        "counted_at",
    ]
    list_filter = ["kind", "gaming_day", "shift", "table"]
    list_select_related = ["table", "dealer", "supervisor"]


@admin.register(BuyIn)
class BuyInAdmin(_ReadOnlyAdmin):
    list_display = ["table", "seat", "amount_cents", "method", "player", "gaming_day", "shift", "created_at"]
    list_filter = ["method", "gaming_day", "shift", "table"]
    list_select_related = ["table"]
