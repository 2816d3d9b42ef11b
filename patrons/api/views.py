"""Patrons (API.md, Patrons): staff create them and look them up; terminals and the cage quote
their numbers (`patron` on buy-ins, round seats and redemptions).

| call | who | answer |
|---|---|---|
| `POST /api/v1/patrons/` `{name, identification_type?, identification_reference?}` | supervisor roles, cage cashier, compliance | 201 patron, its number issued by the casino |
| `GET /api/v1/patrons/?q=` | the same | patrons whose number is `q` or whose name contains it (50 at most) |
| `POST /api/v1/patrons/{number}/identify/` `{name, identification_type, identification_reference}` | the same | 200 patron, now identified |
"""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import SUPERVISOR_ROLES, Principal
from casino.api.views import IDEMPOTENCY_HEADER, actor_of, principal_of, validated
from casino.models import StaffRole
from kernel.errors import ForbiddenError
from kernel.idempotency import idempotent
from patrons import services as patrons
from patrons.models import IdentificationType, Patron

PATRON_ROLES = (*SUPERVISOR_ROLES, StaffRole.CAGE_CASHIER, StaffRole.COMPLIANCE)


class PatronStaff(BasePermission):
    message = "Only floor supervisors, pit bosses, cage cashiers, compliance or admins may make this call."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(*PATRON_ROLES)


class PatronOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    identification_type = serializers.CharField(allow_null=True)
    identification_reference = serializers.CharField(allow_null=True)
    is_identified = serializers.BooleanField()
    excluded = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class PatronInput(serializers.Serializer):
    name = serializers.CharField(
        max_length=150, help_text="The patron's name, or a description of one not yet identified."
    )
    identification_type = serializers.ChoiceField(
        choices=IdentificationType.values, required=False, allow_null=True, allow_blank=True
    )
    identification_reference = serializers.CharField(
        max_length=100, required=False, allow_null=True, allow_blank=True
    )


def patron_payload(patron: Patron) -> dict[str, Any]:
    return {
        "number": patron.number,
        "name": patron.name,
        "identification_type": patron.identification_type or None,
        "identification_reference": patron.identification_reference or None,
        "is_identified": patron.is_identified,
        "excluded": patron.excluded,
        "created_at": patron.created_at,
    }


def _validated(data: Any) -> dict[str, Any]:
    serializer = PatronInput(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _user(request: Request) -> AbstractBaseUser:
    user = principal_of(request).user
    if user is None:
        raise ForbiddenError("role_not_allowed", PatronStaff.message)
    return user


class PatronSearchInput(serializers.Serializer):
    # DRF's CharField refuses a NUL, which PostgreSQL text cannot hold: a 400, not a 500.
    q = serializers.CharField(required=False, allow_blank=True, max_length=150, default="")


class PatronListCreateApi(APIView):
    permission_classes = [PatronStaff]

    @extend_schema(
        parameters=[PatronSearchInput],
        responses={200: PatronOutput(many=True)},
        operation_id="patron_list",
    )
    def get(self, request: Request) -> Response:
        search = PatronSearchInput(data=request.query_params)
        search.is_valid(raise_exception=True)
        found = patrons.find_patrons(query=search.validated_data["q"])
        return Response(PatronOutput([patron_payload(p) for p in found], many=True).data)

    @extend_schema(
        request=PatronInput,
        responses={201: PatronOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="patron_create",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = _validated(request.data)
        patron = patrons.create_patron(
            name=data["name"],
            identification_type=data.get("identification_type") or "",
            identification_reference=data.get("identification_reference") or "",
            user=_user(request),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(PatronOutput(patron_payload(patron)).data, status=status.HTTP_201_CREATED)


class PatronIdentifyApi(APIView):
    permission_classes = [PatronStaff]

    @extend_schema(
        request=PatronInput,
        responses={200: PatronOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="patron_identify",
    )
    @idempotent
    def post(self, request: Request, number: int) -> Response:
        data = _validated(request.data)
        patron = patrons.identify_patron(
            number=number,
            name=data["name"],
            identification_type=data.get("identification_type") or "",
            identification_reference=data.get("identification_reference") or "",
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(PatronOutput(patron_payload(patron)).data)


class Compliance(BasePermission):
    message = "Only compliance may exclude or reinstate a patron."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(StaffRole.COMPLIANCE)


class ExclusionInput(serializers.Serializer):
    reason = serializers.CharField(max_length=patrons.EXCLUSION_REASON_MAX_LENGTH)


class PatronExcludeApi(APIView):
    permission_classes = [Compliance]

    @extend_schema(
        request=ExclusionInput,
        responses={200: PatronOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="patron_exclude",
    )
    @idempotent
    def post(self, request: Request, number: int) -> Response:
        data = validated(ExclusionInput, request.data)
        patron = patrons.exclude_patron(
            number=number, reason=data["reason"], actor=actor_of(request), now=timezone.now()
        )
        return Response(PatronOutput(patron_payload(patron)).data)


class PatronReinstateApi(APIView):
    permission_classes = [Compliance]

    @extend_schema(
        request=ExclusionInput,
        responses={200: PatronOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="patron_reinstate",
    )
    @idempotent
    def post(self, request: Request, number: int) -> Response:
        data = validated(ExclusionInput, request.data)
        patron = patrons.reinstate_patron(
            number=number, reason=data["reason"], actor=actor_of(request), now=timezone.now()
        )
        return Response(PatronOutput(patron_payload(patron)).data)
