"""Table money endpoints (API.md, Table money): buy-ins, fills and credits, and the supervisor's
opener and closer. Each view validates its input, makes one service call and renders the result
(STYLE.md §10); every POST is idempotent.

| call | who | answer |
|---|---|---|
| `POST /api/v1/buy-ins/` `{seat, amount_cents, method, player}` | terminal, dealer signed in | 201 buy-in |
| `POST /api/v1/fills/`, `/credits/` `{amount_cents, chips, table?}` | terminal with a dealer (its own table), or a supervisor role (`table` required) | 201 slip, `pending` |
| `POST /api/v1/fills/{id}/approve/`, `/credits/{id}/approve/` | supervisor roles, not the requester | 200 slip, `approved` |
| `POST /api/v1/fills/{id}/void/`, `/credits/{id}/void/` `{reason}` | supervisor roles | 200 slip, `void` |
| `POST /api/v1/tables/{id}/open/`, `/close/` `{total_cents, chips}` | supervisor roles | 201 inventory slip |
"""

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Sum
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import SUPERVISOR_ROLES, Principal
from casino.api.fields import SeatField
from casino.api.permissions import DealerSignedIn, IsSupervisor, IsTerminal
from casino.api.views import IDEMPOTENCY_HEADER, actor_of, principal_of, terminal_of
from casino.models import AccountKind, TableInventory
from casino.selectors import get_inventory
from kernel.errors import ForbiddenError
from kernel.fields import CentsField, StrictIntegerField
from kernel.idempotency import idempotent
from kernel.problems import ProblemError
from kernel.schema import NarrowedField
from table_money.models import BuyIn, BuyInMethod, ChipSlip, SlipKind
from table_money.selectors import get_slip
from table_money.services import accounting

MAX_DENOMINATIONS = 20
MAX_CHIP_COUNT = 1_000_000


# --- shapes ------------------------------------------------------------------------------------


class ChipsField(NarrowedField, serializers.DictField):
    """{"<denomination in cents>": count}; the service checks the denominations
    (`unknown_denomination`) and the sum (`chips_do_not_add_up`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", StrictIntegerField(min_value=0, max_value=MAX_CHIP_COUNT))
        kwargs.setdefault(
            "help_text", 'Chips by denomination in cents, e.g. {"500": 20, "2500": 8}; they must add up.'
        )
        super().__init__(**kwargs)

    def narrowed_schema(self) -> dict[str, Any]:
        count = {"type": "integer", "minimum": 0, "maximum": MAX_CHIP_COUNT}
        denominations = sorted(accounting.CHIP_DENOMINATIONS_CENTS)
        return {"properties": {str(cents): count for cents in denominations}, "additionalProperties": False}

    def to_internal_value(self, data: Any) -> dict[str, int]:
        if isinstance(data, dict) and len(data) > MAX_DENOMINATIONS:
            raise serializers.ValidationError(f"At most {MAX_DENOMINATIONS} denominations.")
        return dict(super().to_internal_value(data))


class PersonOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["terminal", "dealer", "user"])
    id = serializers.IntegerField()
    name = serializers.CharField()


class SlipVoidOutput(serializers.Serializer):
    reason = serializers.CharField()
    voided_at = serializers.DateTimeField()
    voided_by = PersonOutput()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()


class SlipOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SlipKind.values)
    number = serializers.IntegerField()
    table = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    chips = serializers.DictField(child=serializers.IntegerField())
    status = serializers.ChoiceField(choices=["pending", "approved", "void"])
    requested_at = serializers.DateTimeField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    requested_by = PersonOutput(many=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    approved_by = PersonOutput(allow_null=True)
    void = SlipVoidOutput(allow_null=True)


class InventoryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["opener", "closer"])
    total_cents = serializers.IntegerField()
    chips = serializers.DictField(child=serializers.IntegerField())
    dealer = PersonOutput()
    supervisor = PersonOutput()
    counted_at = serializers.DateTimeField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    previous_closer_cents = serializers.IntegerField(allow_null=True)
    transfer_cents = serializers.IntegerField(
        help_text="Moved from the cage to the tray's ledger balance (opener)."
    )


class BuyInOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    method = serializers.ChoiceField(choices=BuyInMethod.values)
    player = serializers.CharField(allow_null=True)
    patron = serializers.IntegerField(allow_null=True, help_text="The patron's number, if on file.")
    created_at = serializers.DateTimeField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()


def _user(user: Any) -> dict[str, Any]:
    return {"kind": "user", "id": user.pk, "name": user.get_username()}


def slip_payload(slip: ChipSlip) -> dict[str, Any]:
    requested_by: list[dict[str, Any]] = []
    if slip.requested_by_terminal is not None:
        requested_by.append(
            {"kind": "terminal", "id": slip.requested_by_terminal.pk, "name": slip.requested_by_terminal.name}
        )
    if slip.requested_by_dealer is not None:
        requested_by.append(
            {"kind": "dealer", "id": slip.requested_by_dealer.pk, "name": slip.requested_by_dealer.badge}
        )
    if slip.requested_by_user is not None:
        requested_by.append(_user(slip.requested_by_user))
    void = getattr(slip, "void", None) if slip.status == "void" else None
    return {
        "id": slip.pk,
        "kind": slip.kind,
        "number": slip.number,
        "table": slip.table_id,
        "amount_cents": slip.amount_cents,
        "chips": slip.chips,
        "status": slip.status,
        "requested_at": slip.requested_at,
        "gaming_day": slip.gaming_day,
        "shift": slip.shift,
        "requested_by": requested_by,
        "approved_at": slip.approved_at,
        "approved_by": _user(slip.approved_by) if slip.approved_by is not None else None,
        "void": {
            "reason": void.reason,
            "voided_at": void.voided_at,
            "voided_by": _user(void.voided_by),
            "gaming_day": void.gaming_day,
            "shift": void.shift,
        }
        if void is not None
        else None,
    }


def inventory_payload(inventory: TableInventory) -> dict[str, Any]:
    transfer = 0
    if inventory.transfer is not None:
        tray = inventory.transfer.entries.filter(account__kind=AccountKind.TRAY).aggregate(
            s=Sum("amount_cents")
        )
        transfer = int(tray["s"] or 0)
    return {
        "id": inventory.pk,
        "table": inventory.table_id,
        "kind": inventory.kind,
        "total_cents": inventory.total_cents,
        "chips": inventory.chips,
        "dealer": {"kind": "dealer", "id": inventory.dealer.pk, "name": inventory.dealer.badge},
        "supervisor": _user(inventory.supervisor),
        "counted_at": inventory.counted_at,
        "gaming_day": inventory.gaming_day,
        "shift": inventory.shift,
        "previous_closer_cents": inventory.previous_closer_cents,
        "transfer_cents": transfer,
    }


def buy_in_payload(buy_in: BuyIn) -> dict[str, Any]:
    return {
        "id": buy_in.pk,
        "table": buy_in.table_id,
        "seat": buy_in.seat,
        "amount_cents": buy_in.amount_cents,
        "method": buy_in.method,
        "player": buy_in.player or None,
        "patron": buy_in.patron.number if buy_in.patron else None,
        "created_at": buy_in.created_at,
        "gaming_day": buy_in.gaming_day,
        "shift": buy_in.shift,
    }


def _staff_user(request: Request) -> AbstractBaseUser:
    user = principal_of(request).user
    if user is None:  # the supervisor permission lets only staff users through
        raise ForbiddenError(
            "role_not_allowed", "Only a floor supervisor, pit boss or admin may make this call."
        )
    return user


def _rendered(serializer_class: type[serializers.Serializer], payload: dict[str, Any]) -> Any:
    return serializer_class(payload).data


def _validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class TerminalWithDealerOrSupervisor(BasePermission):
    message = "Only a dealer terminal or a floor supervisor, pit boss or admin may make this call."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and (
            principal.is_terminal or principal.has_role(*SUPERVISOR_ROLES)
        )


# --- buy-ins -----------------------------------------------------------------------------------


class BuyInCreateApi(APIView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema_serializer(component_name="BuyInInput")
    class InputSerializer(serializers.Serializer):
        seat = SeatField(help_text="1 to 7; others are `invalid_seat`.")
        amount_cents = CentsField()
        method = serializers.ChoiceField(choices=BuyInMethod.values)
        player = serializers.CharField(max_length=100, allow_null=True, allow_blank=True, required=False)
        patron = StrictIntegerField(
            min_value=1,
            max_value=2**31 - 1,
            allow_null=True,
            required=False,
            help_text="The patron's number, if they are on file (`unknown_patron` otherwise).",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: BuyInOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="buy_in_create",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = _validated(self.InputSerializer, request.data)
        buy_in = accounting.record_buy_in(
            terminal=terminal_of(request),
            seat=data["seat"],
            amount_cents=data["amount_cents"],
            method=data["method"],
            player=data.get("player") or "",
            patron_number=data.get("patron"),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(_rendered(BuyInOutput, buy_in_payload(buy_in)), status=status.HTTP_201_CREATED)


# --- fills and credits -------------------------------------------------------------------------


def _slip_response(slip_id: int, *, status_code: int = status.HTTP_200_OK) -> Response:
    slip = get_slip(slip_id=slip_id)
    return Response(_rendered(SlipOutput, slip_payload(slip)), status=status_code)


class SlipRequestInput(serializers.Serializer):
    amount_cents = CentsField()
    chips = ChipsField()
    table = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        help_text="The table: required when staff request (`400` otherwise); a terminal may leave it out "
        "or name its own table (`403` `other_table` otherwise).",
    )


class SlipVoidInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class _SlipRequestApi(APIView):
    permission_classes = [TerminalWithDealerOrSupervisor]
    kind: ClassVar[SlipKind]

    def post(self, request: Request) -> Response:
        data = _validated(SlipRequestInput, request.data)
        principal = principal_of(request)
        terminal = principal.terminal
        if terminal is not None:
            if data.get("table") not in (None, terminal.table_id):
                raise ForbiddenError(
                    "other_table", "A terminal requests fills and credits for its own table only."
                )
            table_id = terminal.table_id
        elif data.get("table") is None:
            raise ProblemError(
                status_code=400,
                code="validation_error",
                detail="The request is invalid.",
                errors=[{"field": "table", "code": "required", "message": "Staff name the table."}],
            )
        else:
            table_id = data["table"]
        slip = accounting.request_slip(
            kind=self.kind,
            table_id=table_id,
            amount_cents=data["amount_cents"],
            chips=data["chips"],
            terminal=terminal,
            user=principal.user,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return _slip_response(slip.pk, status_code=status.HTTP_201_CREATED)


class _SlipApproveApi(APIView):
    permission_classes = [IsSupervisor]
    kind: ClassVar[SlipKind]

    def post(self, request: Request, slip_id: int) -> Response:
        user = _staff_user(request)
        slip = accounting.approve_slip(
            kind=self.kind, slip_id=slip_id, user=user, actor=actor_of(request), now=timezone.now()
        )
        return _slip_response(slip.pk)


class _SlipVoidApi(APIView):
    permission_classes = [IsSupervisor]
    kind: ClassVar[SlipKind]

    def post(self, request: Request, slip_id: int) -> Response:
        data = _validated(SlipVoidInput, request.data)
        user = _staff_user(request)
        slip = accounting.void_slip(
            kind=self.kind,
            slip_id=slip_id,
            reason=data["reason"],
            user=user,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return _slip_response(slip.pk)


def _slip_schema(kind: str, verb: str, request: Any, status_code: int) -> Any:
    return extend_schema(
        request=request,
        # A supervisor's request names its table, which may not exist.
        responses={status_code: SlipOutput, **({404: None} if verb == "request" else {})},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id=f"{kind}_{verb}",
    )


class FillRequestApi(_SlipRequestApi):
    kind = SlipKind.FILL

    @_slip_schema("fill", "request", SlipRequestInput, 201)
    @idempotent
    def post(self, request: Request) -> Response:
        return super().post(request)


class CreditRequestApi(_SlipRequestApi):
    kind = SlipKind.CREDIT

    @_slip_schema("credit", "request", SlipRequestInput, 201)
    @idempotent
    def post(self, request: Request) -> Response:
        return super().post(request)


class FillApproveApi(_SlipApproveApi):
    kind = SlipKind.FILL

    @_slip_schema("fill", "approve", None, 200)
    @idempotent
    def post(self, request: Request, slip_id: int) -> Response:
        return super().post(request, slip_id)


class CreditApproveApi(_SlipApproveApi):
    kind = SlipKind.CREDIT

    @_slip_schema("credit", "approve", None, 200)
    @idempotent
    def post(self, request: Request, slip_id: int) -> Response:
        return super().post(request, slip_id)


class FillVoidApi(_SlipVoidApi):
    kind = SlipKind.FILL

    @_slip_schema("fill", "void", SlipVoidInput, 200)
    @idempotent
    def post(self, request: Request, slip_id: int) -> Response:
        return super().post(request, slip_id)


class CreditVoidApi(_SlipVoidApi):
    kind = SlipKind.CREDIT

    @_slip_schema("credit", "void", SlipVoidInput, 200)
    @idempotent
    def post(self, request: Request, slip_id: int) -> Response:
        return super().post(request, slip_id)


# --- opener and closer -------------------------------------------------------------------------


class InventoryInput(serializers.Serializer):
    total_cents = CentsField(min_value=0)
    chips = ChipsField()


def _inventory_response(inventory_id: int) -> Response:
    inventory = get_inventory(inventory_id=inventory_id)
    return Response(_rendered(InventoryOutput, inventory_payload(inventory)), status=status.HTTP_201_CREATED)


class TableOpenApi(APIView):
    permission_classes = [IsSupervisor]

    @extend_schema(
        request=InventoryInput,
        responses={201: InventoryOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="table_open",
    )
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        data = _validated(InventoryInput, request.data)
        user = _staff_user(request)
        opener = accounting.open_table(
            table_id=table_id,
            total_cents=data["total_cents"],
            chips=data["chips"],
            supervisor=user,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return _inventory_response(opener.pk)


class TableCloseApi(APIView):
    permission_classes = [IsSupervisor]

    @extend_schema(
        request=InventoryInput,
        responses={201: InventoryOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="table_close",
    )
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        data = _validated(InventoryInput, request.data)
        user = _staff_user(request)
        closer = accounting.close_table(
            table_id=table_id,
            total_cents=data["total_cents"],
            chips=data["chips"],
            supervisor=user,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return _inventory_response(closer.pk)
