"""Dealers: a supervisor unlocks a dealer locked after too many wrong PINs (README, Dealer
sign-in and sessions)."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.permissions import IsSupervisor
from casino.api.views import IDEMPOTENCY_HEADER, actor_of
from casino.services import terminals
from kernel.idempotency import idempotent


class DealerUnlockApi(APIView):
    permission_classes = [IsSupervisor]

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        badge = serializers.CharField()
        name = serializers.CharField()
        locked = serializers.BooleanField()

    @extend_schema(
        request=None,
        responses={200: OutputSerializer},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="dealer_unlock",
        description="Unlock a dealer locked after too many wrong PINs (floor supervisor, pit boss or admin). "
        "`409 dealer_not_locked` when the dealer is not locked.",
    )
    @idempotent
    def post(self, request: Request, dealer_id: int) -> Response:
        dealer = terminals.unlock_dealer(dealer_id=dealer_id, actor=actor_of(request), now=timezone.now())
        return Response({"id": dealer.pk, "badge": dealer.badge, "name": dealer.name, "locked": False})
