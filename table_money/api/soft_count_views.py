"""The count team's soft count (DESIGN.md, Roles: count team, two members per count).

| call | who | answer |
|---|---|---|
| `POST /api/v1/soft-counts/` `{table, gaming_day, shift, currency, markers_cents}` | count team | 201 count, signed by the caller; supersedes the period's earlier count |
| `POST /api/v1/soft-counts/{id}/sign/` | count team, not the member who entered it (`403 signer_is_counter`) | 200 count, in effect |

`shift` is required when the casino counts per shift and must be left out when it counts per
gaming day (`CASINO_SOFT_COUNT_PER`); `currency` is bills by denomination in cents
({"10000": 12, "2000": 5}). Every POST carries an Idempotency-Key.
"""

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import Principal
from casino.api.views import IDEMPOTENCY_HEADER, actor_of, principal_of
from casino.models import StaffRole
from kernel.errors import ForbiddenError
from kernel.fields import GamingDayField, StrictIntegerField
from kernel.idempotency import idempotent
from table_money.models import SoftCount
from table_money.services import soft_counts

MAX_DENOMINATIONS = 20


class IsCountTeam(BasePermission):
    message = "Only members of the count team enter and sign soft counts."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(StaffRole.COUNT_TEAM)


class CurrencyField(serializers.DictField):
    """{"<denomination in cents>": count}; the service checks the denominations."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", StrictIntegerField(min_value=0, max_value=soft_counts.MAX_BILLS))
        kwargs.setdefault("help_text", 'Bills by denomination in cents, e.g. {"10000": 12, "2000": 5}.')
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, int]:
        if isinstance(data, dict) and len(data) > MAX_DENOMINATIONS:
            raise serializers.ValidationError(f"At most {MAX_DENOMINATIONS} denominations.")
        return dict(super().to_internal_value(data))


class SignatureOutput(serializers.Serializer):
    user = serializers.CharField()
    signed_at = serializers.DateTimeField()


class SoftCountOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField(allow_null=True, help_text="null: the whole gaming day")
    currency = serializers.DictField(child=serializers.IntegerField())
    currency_cents = serializers.IntegerField()
    markers_cents = serializers.IntegerField()
    total_cents = serializers.IntegerField()
    supersedes = serializers.IntegerField(allow_null=True)
    signatures = SignatureOutput(many=True)
    in_effect = serializers.BooleanField(help_text="Signed by two members: the period's counted drop.")


def soft_count_payload(count: SoftCount) -> dict[str, Any]:
    signatures = [{"user": count.counted_by.get_username(), "signed_at": count.counted_at}]
    if count.witnessed_by is not None:
        signatures.append({"user": count.witnessed_by.get_username(), "signed_at": count.witnessed_at})
    return {
        "id": count.pk,
        "table": count.table_id,
        "gaming_day": count.gaming_day,
        "shift": count.shift or None,
        "currency": count.currency,
        "currency_cents": count.currency_cents,
        "markers_cents": count.markers_cents,
        "total_cents": count.total_cents,
        "supersedes": count.supersedes_id,
        "signatures": signatures,
        "in_effect": count.is_signed
        and not SoftCount.objects.filter(supersedes=count, witnessed_by__isnull=False).exists(),
    }


def _user(request: Request) -> Any:
    user = principal_of(request).user
    if user is None:  # the permission lets only staff users through
        raise ForbiddenError("role_not_allowed", "Only members of the count team enter and sign soft counts.")
    return user


def _answer(count_id: int, status_code: int) -> Response:
    count = SoftCount.objects.select_related("counted_by", "witnessed_by").get(pk=count_id)
    return Response(SoftCountOutput(soft_count_payload(count)).data, status=status_code)


class SoftCountCreateApi(APIView):
    permission_classes = [IsCountTeam]

    @extend_schema_serializer(component_name="SoftCountInput")
    class InputSerializer(serializers.Serializer):
        table = StrictIntegerField(min_value=1, max_value=2**63 - 1)
        gaming_day = GamingDayField()
        shift = serializers.CharField(max_length=8, required=False, allow_null=True, allow_blank=True)
        currency = CurrencyField()
        markers_cents = StrictIntegerField(
            min_value=0, max_value=soft_counts.MAX_MARKERS_CENTS, required=False
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: SoftCountOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="soft_count_create",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        count = soft_counts.record_soft_count(
            table_id=data["table"],
            gaming_day=data["gaming_day"],
            shift=data.get("shift") or None,
            currency=data["currency"],
            markers_cents=data.get("markers_cents", 0),
            user=_user(request),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return _answer(count.pk, status.HTTP_201_CREATED)


class SoftCountSignApi(APIView):
    permission_classes = [IsCountTeam]

    @extend_schema(
        request=None,
        responses={200: SoftCountOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="soft_count_sign",
    )
    @idempotent
    def post(self, request: Request, count_id: int) -> Response:
        count = soft_counts.sign_soft_count(
            count_id=count_id, user=_user(request), actor=actor_of(request), now=timezone.now()
        )
        return _answer(count.pk, status.HTTP_200_OK)
