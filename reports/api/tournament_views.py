"""`GET /api/v1/tournaments/{id}/report/` (API.md, Tournaments): the tournament report
(`reports.tournaments.tournament_report`) for staff, any role. JSON by default; `Accept: text/csv`
(or `?format=csv`) the filing CSV, `Accept: application/pdf` (or `?format=pdf`) the filing PDF. An
entry's token is refused (403), as is anything the service does not answer with (406); an
unknown tournament is 404. Routed here, beside the other reports: the reports read the
tournaments, never the other way round."""

import abc
from typing import Any

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import Principal
from kernel.errors import NotFoundError
from reports.export import tournament_report_csv, tournament_report_pdf
from reports.tournaments import tournament_report
from tournaments.api.authentication import EntryTokenAuthentication
from tournaments.api.permissions import Staff


def _reader(request: Any) -> str:
    principal = getattr(request, "user", None)
    if isinstance(principal, Principal) and principal.user is not None:
        user = principal.user
        full_name = getattr(user, "get_full_name", lambda: "")()
        return str(full_name or user.get_username())
    return "unknown"


class _TournamentReportRenderer(BaseRenderer, abc.ABC):
    """A report payload as a document; a problem (an error) as JSON, whatever was asked."""

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        context = renderer_context or {}
        response = context.get("response")
        if (response is not None and response.status_code >= 400) or not isinstance(data, dict):
            return JSONRenderer().render(data)
        if "tournament" not in data:
            return JSONRenderer().render(data)
        return self.document(data, generated_by=_reader(context.get("request")))

    @abc.abstractmethod
    def document(self, data: dict[str, Any], *, generated_by: str) -> bytes:
        """The report as this renderer's document (each subclass one format)."""


class TournamentReportCsvRenderer(_TournamentReportRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def document(self, data: dict[str, Any], *, generated_by: str) -> bytes:
        return tournament_report_csv(data, generated_at=timezone.now(), generated_by=generated_by).encode(
            "utf-8"
        )


class TournamentReportPdfRenderer(_TournamentReportRenderer):
    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def document(self, data: dict[str, Any], *, generated_by: str) -> bytes:
        return tournament_report_pdf(data, generated_at=timezone.now(), generated_by=generated_by)


class TournamentReportApi(APIView):
    authentication_classes = [EntryTokenAuthentication]
    permission_classes = [Staff]
    renderer_classes = [JSONRenderer, TournamentReportCsvRenderer, TournamentReportPdfRenderer]

    @extend_schema(
        operation_id="tournament_report",
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/pdf"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        report = tournament_report(tournament_id=tournament_id, now=timezone.now())
        if report is None:
            raise NotFoundError("not_found", f"No tournament {tournament_id}.")
        response = Response(report)
        renderer = getattr(request, "accepted_renderer", None)
        if renderer is not None and renderer.format in ("csv", "pdf"):
            response["Content-Disposition"] = (
                f'attachment; filename="tournament-{tournament_id}-report.{renderer.format}"'
            )
        return response
