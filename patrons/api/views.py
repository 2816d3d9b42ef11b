"""Patrons (API.md, Patrons): staff create them and look them up; terminals and the cage quote
their numbers (`patron` on buy-ins, round seats and redemptions).

| call | who | answer |
|---|---|---|
| `POST /api/v1/patrons/` `{name, and optionally the identification's fields}` | supervisor roles, cage cashier, compliance | 201 patron, its number issued by the casino |
| `GET /api/v1/patrons/?q=` | the same | patrons whose number is `q` or whose name contains it (50 at most) |
| `POST /api/v1/patrons/{number}/identify/` `{last_name, first_name, ..., identification_type, identification_reference, ...}` | the same | 200 patron, identified (a new revision: a correction when already identified) |
"""

from dataclasses import fields as dataclass_fields
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
from patrons.identification import (
    IdentificationDetails,
    details_of,
    identification_values,
    masked_number,
    missing_for_filing,
)
from patrons.models import IdentificationType, Patron, TinType

PATRON_ROLES = (*SUPERVISOR_ROLES, StaffRole.CAGE_CASHIER, StaffRole.COMPLIANCE)


class PatronStaff(BasePermission):
    message = "Only floor supervisors, pit bosses, cage cashiers, compliance or admins may make this call."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(*PATRON_ROLES)


class IdentificationOutput(serializers.Serializer):
    revision = serializers.IntegerField()
    last_name = serializers.CharField()
    first_name = serializers.CharField()
    middle_name = serializers.CharField()
    street = serializers.CharField()
    city = serializers.CharField()
    state = serializers.CharField()
    zip_code = serializers.CharField()
    country = serializers.CharField()
    date_of_birth = serializers.DateField(allow_null=True)
    tin = serializers.CharField(help_text="Masked (its last four characters) except to compliance.")
    tin_type = serializers.CharField()
    occupation = serializers.CharField()
    id_type = serializers.CharField()
    id_number = serializers.CharField()
    id_issuer_state = serializers.CharField()
    id_issuer_country = serializers.CharField()
    id_expires_on = serializers.DateField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    missing_for_filing = serializers.ListField(
        child=serializers.CharField(), help_text="What a CTR (FinCEN Form 112) still needs of the person."
    )


class PatronOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    identification_type = serializers.CharField(allow_null=True)
    identification_reference = serializers.CharField(allow_null=True)
    is_identified = serializers.BooleanField()
    identification = IdentificationOutput(allow_null=True, help_text="The current revision, or null.")
    excluded = serializers.BooleanField()
    created_at = serializers.DateTimeField()


def _optional_text(max_length: int, help_text: str = "") -> serializers.CharField:
    return serializers.CharField(
        max_length=max_length, required=False, allow_blank=True, default="", help_text=help_text
    )


class IdentificationInput(serializers.Serializer):
    """Form 112 Part I. `last_name`, `identification_type` and `identification_reference` identify;
    a CTR is filed only once every other field but the middle name and the expiry is given too."""

    last_name = _optional_text(150)
    first_name = _optional_text(35)
    middle_name = _optional_text(35)
    street = _optional_text(100)
    city = _optional_text(50)
    state = _optional_text(2, "USPS code, for a US address.")
    zip_code = _optional_text(10)
    country = _optional_text(2, "ISO 3166 two-letter code.")
    date_of_birth = serializers.DateField(required=False, allow_null=True, default=None)
    tin = _optional_text(25, "SSN or ITIN (9 digits), or a foreign TIN.")
    tin_type = serializers.ChoiceField(choices=TinType.values, required=False, allow_blank=True, default="")
    occupation = _optional_text(50)
    identification_type = serializers.ChoiceField(
        choices=IdentificationType.values, required=False, allow_blank=True, default=""
    )
    identification_reference = _optional_text(25, "The identification's number.")
    id_issuer_state = _optional_text(2)
    id_issuer_country = _optional_text(2)
    id_expires_on = serializers.DateField(required=False, allow_null=True, default=None)


class PatronInput(IdentificationInput):
    name = serializers.CharField(
        max_length=150, help_text="The patron's name, or a description of one not yet identified."
    )


def _details(data: dict[str, Any]) -> IdentificationDetails:
    values = {name: data[name] for name in IDENTIFICATION_INPUT_FIELDS}
    return IdentificationDetails(
        **values, id_type=data["identification_type"], id_number=data["identification_reference"]
    )


IDENTIFICATION_INPUT_FIELDS = tuple(
    field.name
    for field in dataclass_fields(IdentificationDetails)
    if field.name not in ("id_type", "id_number")
)


def _identification_payload(patron: Patron, *, sees_tin: bool) -> dict[str, Any] | None:
    identification = patron.current_identification
    if identification is None:
        return None
    details = details_of(identification)
    return {
        **identification_values(details),
        "tin": identification.tin if sees_tin else masked_number(identification.tin),
        "revision": identification.revision,
        "recorded_at": identification.recorded_at,
        "missing_for_filing": missing_for_filing(details),
    }


def patron_payload(patron: Patron, *, sees_tin: bool = False) -> dict[str, Any]:
    identification = patron.current_identification
    return {
        "number": patron.number,
        "name": patron.name,
        "identification_type": identification.id_type if identification else None,
        "identification_reference": identification.id_number if identification else None,
        "is_identified": patron.is_identified,
        "identification": _identification_payload(patron, sees_tin=sees_tin),
        "excluded": patron.excluded,
        "created_at": patron.created_at,
    }


def _validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _sees_tin(request: Request) -> bool:
    return principal_of(request).has_role(StaffRole.COMPLIANCE)


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
        sees_tin = _sees_tin(request)
        return Response(PatronOutput([patron_payload(p, sees_tin=sees_tin) for p in found], many=True).data)

    @extend_schema(
        request=PatronInput,
        responses={201: PatronOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="patron_create",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = _validated(PatronInput, request.data)
        identifies = any(
            data[name]
            for name in (*IDENTIFICATION_INPUT_FIELDS, "identification_type", "identification_reference")
        )
        patron = patrons.create_patron(
            name=data["name"],
            identification=_details(data) if identifies else None,
            user=_user(request),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(
            PatronOutput(patron_payload(patron, sees_tin=_sees_tin(request))).data,
            status=status.HTTP_201_CREATED,
        )


class PatronIdentifyApi(APIView):
    permission_classes = [PatronStaff]

    @extend_schema(
        request=IdentificationInput,
        responses={200: PatronOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="patron_identify",
    )
    @idempotent
    def post(self, request: Request, number: int) -> Response:
        data = _validated(IdentificationInput, request.data)
        patron = patrons.identify_patron(
            number=number,
            details=_details(data),
            user=_user(request),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(PatronOutput(patron_payload(patron, sees_tin=_sees_tin(request))).data)


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
        return Response(PatronOutput(patron_payload(patron, sees_tin=_sees_tin(request))).data)


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
        return Response(PatronOutput(patron_payload(patron, sees_tin=_sees_tin(request))).data)
