"""The cage (API.md, Cage): chip redemptions by a cage cashier.

| call | who | answer |
|---|---|---|
| `POST /api/v1/cage/redemptions/` `{amount_cents, chips?, patron?, description?}` | cage cashier | 201 redemption; `patron` (a number on file) or a `description` of the patron |
"""

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import Principal
from casino.api.views import IDEMPOTENCY_HEADER, actor_of, principal_of
from casino.models import StaffRole
from kernel.errors import ForbiddenError
from kernel.fields import CentsField, StrictIntegerField
from kernel.idempotency import idempotent
from table_money.api.accounting_views import ChipsField
from table_money.models import ChipRedemption
from table_money.services import cage

CASHIER_ONLY = "Only a cage cashier may make this call."


class IsCageCashier(BasePermission):
    message = CASHIER_ONLY
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(StaffRole.CAGE_CASHIER)


class RedemptionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    chips = serializers.DictField(child=serializers.IntegerField())
    patron = serializers.IntegerField(allow_null=True, help_text="The patron's number, if on file.")
    description = serializers.CharField(allow_null=True)
    cashier = serializers.CharField()
    created_at = serializers.DateTimeField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    mtl_logged = serializers.BooleanField(help_text="Whether it went on the multiple transaction log.")


def redemption_payload(redemption: ChipRedemption, *, mtl_logged: bool) -> dict[str, Any]:
    return {
        "id": redemption.pk,
        "amount_cents": redemption.amount_cents,
        "chips": redemption.chips,
        "patron": redemption.patron.number if redemption.patron else None,
        "description": redemption.description or None,
        "cashier": redemption.cashier.get_username(),
        "created_at": redemption.created_at,
        "gaming_day": redemption.gaming_day,
        "shift": redemption.shift,
        "mtl_logged": mtl_logged,
    }


class RedemptionCreateApi(APIView):
    permission_classes = [IsCageCashier]

    class InputSerializer(serializers.Serializer):
        amount_cents = CentsField()
        chips = ChipsField(required=False, allow_null=True)
        patron = StrictIntegerField(
            min_value=1,
            max_value=2**31 - 1,
            required=False,
            allow_null=True,
            help_text="The patron's number, if on file (`unknown_patron` otherwise).",
        )
        description = serializers.CharField(
            max_length=150,
            required=False,
            allow_blank=True,
            allow_null=True,
            help_text="A patron not on file, described (required without `patron`).",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: RedemptionOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="cage_redemption_create",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        cashier = principal_of(request).user
        if cashier is None:
            raise ForbiddenError("role_not_allowed", CASHIER_ONLY)
        redemption = cage.redeem_chips(
            amount_cents=data["amount_cents"],
            chips=data.get("chips") or None,
            patron_number=data.get("patron"),
            description=data.get("description") or "",
            cashier=cashier,
            actor=actor_of(request),
            now=timezone.now(),
        )
        logged = hasattr(redemption, "mtl_entry")
        return Response(
            RedemptionOutput(redemption_payload(redemption, mtl_logged=logged)).data,
            status=status.HTTP_201_CREATED,
        )
