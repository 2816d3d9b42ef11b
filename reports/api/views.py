"""`GET /api/v1/reports/shifts/?gaming_day=2026-11-20&shift=day` (API.md, Staff and compliance).

Staff roles only (floor supervisor, pit boss, compliance, admin); terminals get 403. JSON by
default; `Accept: text/csv` (or `?format=csv`) gives the filing CSV (header, units row, dollars
as decimals); `?format=csv-machine` the machine CSV, one line per table, pit and casino in cents
and basis points, as before; `Accept: application/pdf` the filing PDF (the admin offers the same
download). `shift` may be left out for the whole gaming day. Bad query parameters are 400 problem+json.
"""

from abc import ABC, abstractmethod
from dataclasses import replace
from typing import Any

from django.utils import timezone
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
from kernel.fields import GamingDayField
from reports.definition import FIGURE, KIND_FIGURES, Figure, RollUp, Unit
from reports.export import (
    report_document,
    shift_report_csv,
    shift_report_machine_csv,
    shift_report_pdf,
)
from reports.read import API_ORDER, SHIFT_ORDER, SUMMED, shift_report_payload

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
        request = (renderer_context or {}).get("request")
        return self.render_report(data, generated_by=_reader(request))

    @abstractmethod
    def render_report(self, data: dict[str, Any], *, generated_by: str | None) -> bytes:
        """The report in this renderer's format (CSV or PDF)."""


def _reader(request: Request | None) -> str | None:
    principal = getattr(request, "user", None)
    if isinstance(principal, Principal) and principal.user is not None:
        return str(principal.user.get_username())
    return None


class ShiftReportCsvRenderer(_ReportRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render_report(self, data: dict[str, Any], *, generated_by: str | None) -> bytes:
        document = report_document(data, generated_by=generated_by, generated_at=timezone.now())
        return shift_report_csv(document).encode("utf-8")


class ShiftReportMachineCsvRenderer(_ReportRenderer):
    # Chosen by `?format=csv-machine` only: `Accept: text/csv` finds the filing CSV first.
    media_type = "text/csv"
    format = "csv-machine"
    charset = "utf-8"

    def render_report(self, data: dict[str, Any], *, generated_by: str | None) -> bytes:
        return shift_report_machine_csv(data).encode("utf-8")


class ShiftReportPdfRenderer(_ReportRenderer):
    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render_report(self, data: dict[str, Any], *, generated_by: str | None) -> bytes:
        document = report_document(data, generated_by=generated_by, generated_at=timezone.now())
        return shift_report_pdf(document)


# --- shapes ------------------------------------------------------------------------------------


class RefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


def _figure_field(figure: Figure) -> serializers.Field:
    help_text = figure.help or None
    if figure.unit in (Unit.CENTS, Unit.BASIS_POINTS, Unit.COUNT):
        return serializers.IntegerField(allow_null=figure.nullable, help_text=help_text)
    if figure.unit is Unit.YES_NO:
        return serializers.BooleanField(help_text=help_text)
    if figure.choices:
        return serializers.ChoiceField(choices=list(figure.choices), help_text=help_text)
    if figure.rolls_up is RollUp.NONE:  # a row's own: not in the roll-ups' lines
        return serializers.CharField(required=False, help_text=help_text)
    return serializers.CharField(allow_null=figure.nullable, help_text=help_text)


class KindOutput(serializers.Serializer):
    kind = serializers.CharField()

    def get_fields(self) -> dict[str, serializers.Field]:
        """The kind, then the figures of a wager kind (reports.definition)."""
        return {
            **super().get_fields(),
            **{f.key: _figure_field(f) for f in KIND_FIGURES},
            "priced": serializers.BooleanField(
                required=False,
                help_text="Tables only: false when none of the kind's handle is priced (house_edge null).",
            ),
        }


# The figures every level has: the definition's that roll up, in the API's order.
class FiguresOutput(serializers.Serializer):
    gaming_day = serializers.DateField()
    shift = serializers.CharField(help_text="day, swing or grave")
    casino = RefOutput()
    by_kind = KindOutput(many=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        declared = super().get_fields()
        head = ("gaming_day", "shift", "casino")
        return {
            **{name: declared.pop(name) for name in head},
            **{
                key: _figure_field(FIGURE[key])
                for key in API_ORDER
                if FIGURE[key].rolls_up is not RollUp.NONE
            },
            **declared,
        }


class TableReportOutput(FiguresOutput):
    level = serializers.ChoiceField(choices=["table"])
    pit = RefOutput()
    table = RefOutput()
    flags = serializers.ListField(child=serializers.CharField())
    generated_at = serializers.DateTimeField()
    complete = serializers.BooleanField(
        help_text="Opener, closer and (counted per shift) soft count present."
    )
    shift_ended = serializers.BooleanField()


class IncompleteTableOutput(serializers.Serializer):
    table = RefOutput()
    pit = RefOutput()
    reasons = serializers.ListField(child=serializers.CharField())


class CasinoRollupOutput(FiguresOutput):
    level = serializers.ChoiceField(choices=["casino"])
    tables = serializers.IntegerField()
    tables_incomplete = serializers.IntegerField()
    incomplete_tables = IncompleteTableOutput(
        many=True, help_text="Listed apart: every figure of the rollup is over its complete tables only."
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        """A roll-up with no complete table knows none of its sums: they are null, never 0."""
        fields = super().get_fields()
        for key in SUMMED:
            fields[key] = _figure_field(replace(FIGURE[key], nullable=True))
        return fields


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


class DailyTableOutput(FiguresOutput):
    level = serializers.ChoiceField(choices=["table"])
    shifts = serializers.ListField(child=serializers.CharField())
    pit = RefOutput()
    table = RefOutput()
    flags = serializers.ListField(child=serializers.CharField())
    complete = serializers.BooleanField()


class DailyReportOutput(serializers.Serializer):
    gaming_day = serializers.DateField()
    tables = DailyTableOutput(many=True)
    pits = PitRollupOutput(many=True)
    casinos = CasinoRollupOutput(many=True)
    provisional = serializers.BooleanField()


class ShiftReportsOutput(serializers.Serializer):
    gaming_day = serializers.DateField()
    shifts = serializers.ListField(child=serializers.CharField(help_text="day, swing or grave"))
    expected_hold_bp = HoldRangeOutput()
    soft_count_per = serializers.ChoiceField(choices=["shift", "day"])
    provisional = serializers.BooleanField()
    provisional_reasons = serializers.ListField(child=serializers.CharField())
    tables = TableReportOutput(many=True)
    pits = PitRollupOutput(many=True)
    casinos = CasinoRollupOutput(many=True)
    hold_outliers = HoldOutlierOutput(many=True)
    daily = DailyReportOutput(
        required=False, help_text="The gaming day per table, pit and casino (all three shifts asked for)."
    )


class ShiftReportQuery(serializers.Serializer):
    gaming_day = GamingDayField()
    shift = serializers.ChoiceField(choices=list(SHIFT_ORDER), required=False)


class ShiftReportListApi(APIView):
    permission_classes = [IsStaff]
    renderer_classes = [
        JSONRenderer,
        ShiftReportCsvRenderer,
        ShiftReportMachineCsvRenderer,
        ShiftReportPdfRenderer,
    ]

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
        if renderer is not None and renderer.format in ("csv", "csv-machine", "pdf"):
            extension = {"csv-machine": "machine.csv"}.get(renderer.format, renderer.format)
            name = f"shift-report-{gaming_day.isoformat()}{'-' + shift if shift else ''}.{extension}"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
