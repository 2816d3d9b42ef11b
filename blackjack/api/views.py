"""The blackjack round's endpoints, and the terminal's view of its table and open round (API.md).
Each view validates its input, makes one service or selector call and renders the result
(STYLE.md §10)."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from blackjack import services
from blackjack.api import serializers as s
from blackjack.api.presenters import round_payload, table_payload
from blackjack.engine.wagers import SeatRequest, WagerRequest
from blackjack.selectors import get_open_round, get_round_snapshot, snapshot_of
from casino.api.permissions import DealerSignedIn, IsSupervisor, IsTerminal, IsTerminalOrStaff
from casino.api.presenters import dealer_payload, shoe_payload
from casino.api.views import (
    IDEMPOTENCY_HEADER,
    TerminalApiView,
    actor_of,
    principal_of,
    step_of_round,
    terminal_of,
    validated,
)
from casino.selectors import get_open_shoe
from kernel.errors import ForbiddenError, NotFoundError
from kernel.idempotency import idempotent


class TerminalApi(TerminalApiView):
    permission_classes = [IsTerminal]

    @extend_schema(responses={200: s.TerminalOutput}, operation_id="terminal_detail")
    def get(self, request: Request) -> Response:
        terminal = terminal_of(request)
        table = terminal.table
        shoe = get_open_shoe(table=table)
        open_round = get_open_round(table=table)
        return Response(
            {
                "terminal": {"id": terminal.pk, "name": terminal.name},
                "table": table_payload(table),
                "dealer": dealer_payload(terminal),
                "shoe": shoe_payload(shoe) if shoe else None,
                "round": round_payload(snapshot_of(open_round)) if open_round else None,
            }
        )


class RoundOpenApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.RoundOpenInput, responses={201: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(s.RoundOpenInput, request.data)
        seats = [
            SeatRequest(
                seat=seat["seat"],
                wagers=[WagerRequest(kind=w["kind"], amount_cents=w["amount_cents"]) for w in seat["wagers"]],
            )
            for seat in data["seats"]
        ]
        players = {seat["seat"]: seat.get("player") or "" for seat in data["seats"]}
        patrons = {seat["seat"]: seat["patron"] for seat in data["seats"] if seat.get("patron") is not None}
        snapshot = services.open_round(
            terminal=terminal_of(request),
            seats=seats,
            players=players,
            patrons=patrons,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(round_payload(snapshot), status=status.HTTP_201_CREATED)


class RoundDetailApi(TerminalApiView):
    permission_classes = [IsTerminalOrStaff]

    @extend_schema(responses={200: s.RoundOutput}, operation_id="round_detail")
    def get(self, request: Request, round_id: int) -> Response:
        snapshot = get_round_snapshot(round_id=round_id)
        if snapshot is None:
            raise NotFoundError("not_found", f"No round {round_id}.")
        principal = principal_of(request)
        if principal.terminal is not None and principal.terminal.table_id != snapshot.round.table_id:
            raise ForbiddenError("other_table", "A terminal may only read its own table's services.")
        return Response(round_payload(snapshot))


class RoundCardApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.CardInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        return step_of_round(
            request, round_id=round_id, body=s.CardInput, service=services.report_card, present=round_payload
        )


class RoundActionApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.ActionInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        return step_of_round(
            request,
            round_id=round_id,
            body=s.ActionInput,
            service=services.apply_action,
            present=round_payload,
        )


class RoundSettleApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.SettleInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        return step_of_round(
            request,
            round_id=round_id,
            body=s.SettleInput,
            service=services.settle_round,
            present=round_payload,
        )


class RoundVoidApi(TerminalApiView):
    permission_classes = [IsSupervisor]

    @extend_schema(request=s.VoidInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        data = validated(s.VoidInput, request.data)
        snapshot = services.void_round(
            round_id=round_id,
            reason=data["reason"],
            user=principal_of(request).user,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(round_payload(snapshot))
