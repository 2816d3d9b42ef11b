"""A gaming day's Title 31 records for compliance (API.md, Tournaments):
`GET /api/v1/title31/?gaming_day=` answers the MTL and the latest revision of each CTR worksheet,
as JSON or, with `Accept: text/csv` (or `?format=csv`), as CSV.

Beyond the contract's fields, an MTL line carries where, who took the cash and the description it
was taken under; a CTR line its worksheet id, revision, due date, filing state, and the filing's
date and BSA ID once filed.
"""

import csv
import io
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
from kernel.documents import spreadsheet_text
from kernel.fields import GamingDayField
from kernel.gaming_day import casino_zone
from table_money.models import CashDirection, MtlEntry
from table_money.selectors import ctr_filing_line, latest_ctr_worksheets, list_mtl_entries

DIRECTIONS = {CashDirection.CASH_IN: "in", CashDirection.CASH_OUT: "out"}


class IsComplianceStaff(BasePermission):
    message = "Only compliance staff may read the Title 31 records."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(StaffRole.COMPLIANCE)


class Title31Query(serializers.Serializer):
    gaming_day = GamingDayField()


class MtlLineOutput(serializers.Serializer):
    patron = serializers.IntegerField(allow_null=True, help_text="The patron number, or null: not on file.")
    description = serializers.CharField(help_text="Who took part, as written when the cash moved.")
    direction = serializers.ChoiceField(choices=["in", "out"])
    amount_cents = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=["buy_in", "redemption", "cage"],
        help_text="A buy-in at a table, a chip redemption, or other cash at the cage (see `reference`).",
    )
    reference = serializers.CharField(
        allow_null=True, help_text='Other cash at the cage: what it was for, e.g. "Tournament 3 entry 5".'
    )
    at = serializers.DateTimeField()
    location = serializers.CharField()
    employee = serializers.CharField()


class CtrLineOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The worksheet revision's id.")
    patron = serializers.IntegerField(allow_null=True)
    description = serializers.CharField()
    direction = serializers.ChoiceField(choices=["in", "out"])
    total_cents = serializers.IntegerField()
    identified = serializers.BooleanField(help_text="Whether the patron is identified now.")
    revision = serializers.IntegerField()
    due_on = serializers.DateField()
    filing_state = serializers.ChoiceField(choices=["due", "overdue", "filed"])
    filed_on = serializers.DateField(allow_null=True)
    bsa_id = serializers.CharField(allow_null=True)


class Title31Output(serializers.Serializer):
    gaming_day = serializers.DateField()
    mtl = MtlLineOutput(many=True)
    ctr = CtrLineOutput(many=True)


def _mtl_kind(entry: MtlEntry) -> str:
    if entry.buy_in_id is not None:
        return "buy_in"
    return "redemption" if entry.redemption_id is not None else "cage"


def title31_payload(*, gaming_day: Any) -> dict[str, Any]:
    today = timezone.now().astimezone(casino_zone()).date()
    mtl = [
        {
            "patron": entry.patron.number if entry.patron else None,
            "description": entry.description or (entry.patron.name if entry.patron else ""),
            "direction": DIRECTIONS[CashDirection(entry.direction)],
            "amount_cents": entry.amount_cents,
            "kind": _mtl_kind(entry),
            "reference": entry.cage_cash.description if entry.cage_cash is not None else None,
            "at": entry.occurred_at,
            "location": entry.location,
            "employee": entry.employee,
        }
        for entry in list_mtl_entries(gaming_day=gaming_day)
    ]
    ctr = []
    # Sorted here: an order_by on the queryset would replace the one DISTINCT ON picks the latest
    # revision by.
    for worksheet in sorted(
        latest_ctr_worksheets().filter(gaming_day=gaming_day), key=lambda w: (w.direction, w.subject_key)
    ):
        line = ctr_filing_line(worksheet, today=today)
        patron = worksheet.patron
        ctr.append(
            {
                "id": worksheet.pk,
                "patron": patron.number if patron else None,
                "description": worksheet.description or (patron.name if patron else ""),
                "direction": DIRECTIONS[CashDirection(worksheet.direction)],
                "total_cents": worksheet.total_cents,
                "identified": patron is not None and patron.is_identified,
                "revision": worksheet.revision,
                "due_on": line.due_on,
                "filing_state": line.state.value,
                "filed_on": line.filing.filed_on if line.filing else None,
                "bsa_id": line.filing.bsa_id if line.filing else None,
            }
        )
    return {"gaming_day": gaming_day, "mtl": mtl, "ctr": ctr}


class Title31CsvRenderer(BaseRenderer):
    """One row per MTL entry and per CTR worksheet, the JSON's fields as columns, amounts in cents."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"
    COLUMNS = (
        "record",
        "patron",
        "description",
        "direction",
        "amount_cents",
        "kind",
        "reference",
        "at",
        "location",
        "employee",
        "identified",
        "revision",
        "due_on",
        "filing_state",
        "filed_on",
        "bsa_id",
    )

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if not isinstance(data, dict) or "mtl" not in data:  # a problem: as JSON
            return JSONRenderer().render(data)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=self.COLUMNS, lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        for line in data["mtl"]:
            writer.writerow(self._cells({**line, "record": "MTL"}))
        for line in data["ctr"]:
            writer.writerow(self._cells({**line, "record": "CTR", "amount_cents": line["total_cents"]}))
        return out.getvalue().encode("utf-8")

    @staticmethod
    def _cells(line: dict[str, Any]) -> dict[str, str]:
        return {
            name: spreadsheet_text(str(value)) if value is not None else "" for name, value in line.items()
        }


class Title31DayApi(APIView):
    permission_classes = [IsComplianceStaff]
    renderer_classes = [JSONRenderer, Title31CsvRenderer]

    @extend_schema(
        operation_id="title31_day",
        parameters=[OpenApiParameter("gaming_day", OpenApiTypes.DATE, OpenApiParameter.QUERY, required=True)],
        responses={(200, "application/json"): Title31Output, (200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request) -> Response:
        query = Title31Query(data=request.query_params)
        query.is_valid(raise_exception=True)
        gaming_day = query.validated_data["gaming_day"]
        response = Response(Title31Output(title31_payload(gaming_day=gaming_day)).data)
        if getattr(request.accepted_renderer, "format", None) == "csv":
            response["Content-Disposition"] = f'attachment; filename="title31-{gaming_day.isoformat()}.csv"'
        return response
