"""Paytable endpoints (RULES.md §1.4): staff read, pit bosses propose, compliance decides.

Each view checks the caller's role, validates its input, makes one service or selector call and
renders the result (STYLE.md §10). The services check the same roles again and every other rule
(maker-checker, pending report, steering flags), so the admin site applies the same rules.
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

from audit.context import actor_from_principal
from bonus_tie import services
from bonus_tie.api import serializers as s
from bonus_tie.api.presenters import paytable_payload
from bonus_tie.models import PaytableVersion
from bonus_tie.selectors import get_paytable_version, get_version_in_force, list_paytable_versions
from casino.api.authentication import Principal
from casino.api.views import IDEMPOTENCY_HEADER, principal_of
from casino.models import StaffRole
from kernel.errors import ForbiddenError, NotFoundError
from kernel.idempotency import idempotent


class _HasRole(BasePermission):
    roles: tuple[str, ...] = ()
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return (
            isinstance(principal, Principal)
            and principal.terminal is None
            and principal.has_role(*self.roles)
        )


class IsStaff(_HasRole):
    message = "Only staff may read paytables."
    roles = tuple(StaffRole.values)


class IsPaytableProposer(_HasRole):
    message = "Only a pit boss or an admin may propose a paytable."
    roles = tuple(services.PROPOSER_ROLES)


class IsCompliance(_HasRole):
    message = "Only compliance may approve or reject a paytable."
    roles = tuple(services.APPROVER_ROLES)


def _validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _user_of(principal: Principal) -> AbstractBaseUser:
    if principal.user is None:  # the role permissions let only staff users through
        raise ForbiddenError("role_not_allowed", "Only staff may make this call.")
    return principal.user


def _payload(row: PaytableVersion) -> dict[str, Any]:
    return paytable_payload(row, in_force=get_version_in_force())


def _response(version: int, *, status_code: int = status.HTTP_200_OK) -> Response:
    """The version as stored now (with its proposal and names loaded by the selector)."""
    row = get_paytable_version(version=version)
    if row is None:
        raise NotFoundError("not_found", f"No paytable version {version}.")
    return Response(_payload(row), status=status_code)


class PaytablesApi(APIView):
    """`GET`: every version, newest first (staff). `POST`: propose a new version (pit boss, admin)."""

    def get_permissions(self) -> list[BasePermission]:
        return [IsPaytableProposer()] if self.request.method == "POST" else [IsStaff()]

    @extend_schema(responses={200: s.PaytableOutput(many=True)}, operation_id="paytable_list")
    def get(self, request: Request) -> Response:
        in_force = get_version_in_force()
        return Response([paytable_payload(row, in_force=in_force) for row in list_paytable_versions()])

    @extend_schema(
        request=s.PaytableProposeInput,
        responses={201: s.PaytableOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="paytable_propose",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = _validated(s.PaytableProposeInput, request.data)
        principal = principal_of(request)
        row = services.propose_paytable(
            pays=data["pays"],
            decks=data["decks"],
            h17=data["h17"],
            surrender=data["surrender"],
            blackjack_pays=data["blackjack_pays"],
            user=_user_of(principal),
            role=principal.role,
            actor=actor_from_principal(principal),
            now=timezone.now(),
        )
        return _response(row.version, status_code=status.HTTP_201_CREATED)


class PaytableDetailApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(responses={200: s.PaytableOutput}, operation_id="paytable_detail")
    def get(self, request: Request, version: int) -> Response:
        return _response(version)


class PaytableApproveApi(APIView):
    permission_classes = [IsCompliance]

    @extend_schema(
        request=s.PaytableApproveInput,
        responses={200: s.PaytableOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="paytable_approve",
    )
    @idempotent
    def post(self, request: Request, version: int) -> Response:
        data = _validated(s.PaytableApproveInput, request.data)
        principal = principal_of(request)
        services.approve_paytable(
            version=version,
            override_reason=data["override_reason"],
            user=_user_of(principal),
            role=principal.role,
            actor=actor_from_principal(principal),
            now=timezone.now(),
        )
        return _response(version)


class PaytableRejectApi(APIView):
    permission_classes = [IsCompliance]

    @extend_schema(
        request=s.PaytableRejectInput,
        responses={200: s.PaytableOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="paytable_reject",
    )
    @idempotent
    def post(self, request: Request, version: int) -> Response:
        data = _validated(s.PaytableRejectInput, request.data)
        principal = principal_of(request)
        services.reject_paytable(
            version=version,
            reason=data["reason"],
            user=_user_of(principal),
            role=principal.role,
            actor=actor_from_principal(principal),
            now=timezone.now(),
        )
        return _response(version)
