"""`GET /api/v1/reports/shifts/?gaming_day=2026-11-20&shift=day` (API.md, Staff and compliance).

Staff roles only (floor supervisor, pit boss, compliance, admin); terminals get 403. JSON by
default; `Accept: text/csv` gives one CSV line per table, pit and casino; `Accept: application/pdf`
the PDF with the chart (the admin offers the same download). `shift` may be left out for the
whole gaming day. Bad query parameters are 400 problem+json.
"""

from abc import ABC, abstractmethod
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import Principal
from casino.models import StaffRole
from casino.reports.export import shift_report_csv, shift_report_pdf
from casino.reports.read import SHIFT_ORDER, shift_report_payload

STAFF_ROLES = tuple(StaffRole.values)


class IsStaff(BasePermission):
    message = "Only staff (floor supervisor, pit boss, compliance, admin) may read the reports."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(*STAFF_ROLES)


class _ReportRenderer(BaseRenderer, ABC):
    """Renders a report payload; an error (problem+json) is rendered as JSON whatever was asked."""

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        response = (renderer_context or {}).get("response")
        if (
            (response is not None and response.status_code >= 400)
            or not isinstance(data, dict)
            or "tables" not in data
        ):
            return JSONRenderer().render(data)
        return self.render_report(data)

    @abstractmethod
    def render_report(self, data: dict[str, Any]) -> bytes:
        """The report in this renderer's format (CSV or PDF)."""


class ShiftReportCsvRenderer(_ReportRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render_report(self, data: dict[str, Any]) -> bytes:
        return shift_report_csv(data).encode("utf-8")


class ShiftReportPdfRenderer(_ReportRenderer):
    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render_report(self, data: dict[str, Any]) -> bytes:
        return shift_report_pdf(data)


# --- shapes ------------------------------------------------------------------------------------


class RefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class KindOutput(serializers.Serializer):
    kind = serializers.CharField()
    wagers = serializers.IntegerField()
    handle_cents = serializers.IntegerField()
    payouts_cents = serializers.IntegerField()
    house_net_cents = serializers.IntegerField()
    theo_win_cents = serializers.IntegerField()
    house_edge = serializers.CharField(required=False, help_text="Per unit of handle (tables only).")


class FiguresOutput(serializers.Serializer):
    gaming_day = serializers.DateField()
    shift = serializers.CharField(help_text="day, swing or grave")
    casino = RefOutput()
    opener_cents = serializers.IntegerField(allow_null=True)
    closer_cents = serializers.IntegerField(allow_null=True)
    drop_cents = serializers.IntegerField()
    markers_cents = serializers.IntegerField()
    fills_cents = serializers.IntegerField()
    credits_cents = serializers.IntegerField()
    win_cents = serializers.IntegerField(allow_null=True)
    hold_bp = serializers.IntegerField(allow_null=True, help_text="win / drop in basis points, half to even.")
    hold_percent = serializers.CharField(allow_null=True)
    hold_outside_range = serializers.BooleanField()
    rounds_settled = serializers.IntegerField()
    rounds_voided = serializers.IntegerField()
    hands_dealt = serializers.IntegerField()
    handle_cents = serializers.IntegerField()
    payouts_cents = serializers.IntegerField()
    house_net_cents = serializers.IntegerField()
    win_minus_house_net_cents = serializers.IntegerField(allow_null=True)
    theo_win_cents = serializers.IntegerField()
    by_kind = KindOutput(many=True)


class TableReportOutput(FiguresOutput):
    level = serializers.ChoiceField(choices=["table"])
    pit = RefOutput()
    table = RefOutput()
    flags = serializers.ListField(child=serializers.CharField())
    generated_at = serializers.DateTimeField()


class CasinoRollupOutput(FiguresOutput):
    level = serializers.ChoiceField(choices=["casino"])
    tables = serializers.IntegerField()
    tables_incomplete = serializers.IntegerField()


class PitRollupOutput(CasinoRollupOutput):
    level = serializers.ChoiceField(choices=["pit"])
    pit = RefOutput()


class HoldRangeOutput(serializers.Serializer):
    low = serializers.IntegerField()
    high = serializers.IntegerField()


class HoldOutlierOutput(serializers.Serializer):
    shift = serializers.CharField()
    table = RefOutput()
    pit = RefOutput()
    hold_bp = serializers.IntegerField()
    hold_percent = serializers.CharField()


class ShiftReportsOutput(serializers.Serializer):
    gaming_day = serializers.DateField()
    shifts = serializers.ListField(child=serializers.CharField(help_text="day, swing or grave"))
    expected_hold_bp = HoldRangeOutput()
    tables = TableReportOutput(many=True)
    pits = PitRollupOutput(many=True)
    casinos = CasinoRollupOutput(many=True)
    hold_outliers = HoldOutlierOutput(many=True)


class ShiftReportQuery(serializers.Serializer):
    gaming_day = serializers.DateField(input_formats=["iso-8601"])
    shift = serializers.ChoiceField(choices=list(SHIFT_ORDER), required=False)


class ShiftReportListApi(APIView):
    permission_classes = [IsStaff]
    renderer_classes = [JSONRenderer, ShiftReportCsvRenderer, ShiftReportPdfRenderer]

    @extend_schema(
        operation_id="shift_reports",
        parameters=[
            OpenApiParameter("gaming_day", OpenApiTypes.DATE, OpenApiParameter.QUERY, required=True),
            OpenApiParameter("shift", str, OpenApiParameter.QUERY, enum=list(SHIFT_ORDER)),
        ],
        responses={
            (200, "application/json"): ShiftReportsOutput,
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/pdf"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request: Request) -> Response:
        query = ShiftReportQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        gaming_day = query.validated_data["gaming_day"]
        shift = query.validated_data.get("shift")
        shifts = [shift] if shift else list(SHIFT_ORDER)
        payload = shift_report_payload(gaming_day=gaming_day, shifts=shifts)
        response = Response(payload)
        renderer = getattr(request, "accepted_renderer", None)
        if renderer is not None and renderer.format in ("csv", "pdf"):
            name = f"shift-report-{gaming_day.isoformat()}{'-' + shift if shift else ''}.{renderer.format}"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
