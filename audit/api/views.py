"""Compliance reads of the audit trail: the events, and the chain's verification."""

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.generics import ListAPIView
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import selectors, services
from audit.api.permissions import IsCompliance
from audit.api.serializers import (
    MAX_BIGINT,
    AuditEventOutputSerializer,
    EventFilterSerializer,
    EventQuerySerializer,
    VerifyOutputSerializer,
)
from audit.models import AuditEvent
from kernel.problems import ProblemError


class AuditEventPagination(CursorPagination):
    """Keyset pagination on the event id, across all chains: stable while events keep arriving.

    Within a chain, id order is seq order and commit order. Across chains, ids are
    drawn as appends start, so at the live end an event of one chain may commit
    after a higher id of another was listed: to tail the trail without missing an
    event, page through each chain (`chain=`).
    """

    ordering = "id"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000

    def decode_cursor(self, request: Request) -> Cursor | None:
        try:
            cursor = super().decode_cursor(request)
        except NotFound as exc:
            raise _invalid_cursor() from exc
        if cursor is not None and cursor.position is not None:
            position = str(cursor.position)
            if not position.isdigit() or int(position) > MAX_BIGINT:
                raise _invalid_cursor()
        return cursor


def _invalid_cursor() -> ProblemError:
    return ProblemError(
        status_code=400,
        code="invalid_cursor",
        detail="The cursor is not valid: follow the next and previous links as given.",
        errors=[{"field": "cursor", "code": "invalid", "message": "Not a cursor this API issued."}],
    )


def _invalid_filters(errors: dict[str, Any]) -> ProblemError:
    items = [
        {"field": field, "code": str(getattr(message, "code", "invalid")), "message": str(message)}
        for field, messages in errors.items()
        for message in (messages if isinstance(messages, list) else [messages])
    ]
    return ProblemError(
        status_code=400,
        code="invalid_filter",
        detail="; ".join(f"{item['field']}: {item['message']}" for item in items),
        errors=items,
    )


class AuditEventListApi(ListAPIView[AuditEvent]):
    """Audit events, oldest first, filtered and paginated (compliance only)."""

    permission_classes = [IsCompliance]
    serializer_class = AuditEventOutputSerializer
    pagination_class = AuditEventPagination

    @extend_schema(
        parameters=[
            EventFilterSerializer,
            OpenApiParameter(
                "cursor",
                {"type": "string", "minLength": 1, "maxLength": 1000},
                OpenApiParameter.QUERY,
                description="From a page's `next` or `previous` link, as given (`400` `invalid_cursor` otherwise).",
            ),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1, "maximum": AuditEventPagination.max_page_size},
                OpenApiParameter.QUERY,
                description=f"Events per page (default {AuditEventPagination.page_size}).",
            ),
        ],
        responses=AuditEventOutputSerializer(many=True),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[AuditEvent]:
        query = EventQuerySerializer(data=self.request.query_params)
        if not query.is_valid():
            raise _invalid_filters(query.errors)
        filters = query.validated_data
        return selectors.list_events(
            since=filters.get("since"),
            until=filters.get("until"),
            table_id=filters.get("table"),
            chain=filters.get("chain"),
            actor=filters.get("actor"),
            event_type=filters.get("event_type"),
        )


class AuditVerifyApi(APIView):
    """Walk every hash chain and check the anchors: intact (event count and the digest of all chain
    heads), or the first broken link; and each chain's own result."""

    permission_classes = [IsCompliance]

    @extend_schema(responses=VerifyOutputSerializer)
    def get(self, request: Request) -> Response:
        return Response(services.verify_chain().as_dict())
