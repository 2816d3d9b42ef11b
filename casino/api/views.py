"""Terminal, shoe and round endpoints (API.md). Each view validates its input,
makes one service or selector call and renders the result (STYLE.md §10)."""

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.context import AuditActor, actor_from_principal
from casino.api import serializers as s
from casino.api.authentication import Principal
from casino.api.permissions import DealerSignedIn, IsSupervisor, IsTerminal, IsTerminalOrStaff
from casino.api.presenters import (
    dealer_payload,
    round_payload,
    shoe_closed_payload,
    shoe_payload,
    table_payload,
)
from casino.api.refusals import refused_sign_in
from casino.engine.wagers import SeatRequest, WagerRequest
from casino.models import ShoeMode, Terminal
from casino.selectors import get_open_round, get_open_shoe, get_round_snapshot, snapshot_of
from casino.services import rounds, shoes, terminals
from kernel.errors import ForbiddenError, NotFoundError
from kernel.idempotency import idempotent
from kernel.postgresql.base import prepared_statements

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": r"^[\x21-\x7e][\x20-\x7e]*$"},
    OpenApiParameter.HEADER,
    required=True,
    description="Any printable string up to 255 characters, new for each request (a UUID is a good choice).",
)


def principal_of(request: Request) -> Principal:
    principal = request.user
    if not isinstance(principal, Principal):  # the permission classes let no one else through
        raise ForbiddenError("permission_denied", "Authentication is required.")
    return principal


def terminal_of(request: Request) -> Terminal:
    terminal = principal_of(request).terminal
    if terminal is None:
        raise ForbiddenError("terminal_only", "Only a dealer terminal may make this call.")
    return terminal


def actor_of(request: Request) -> AuditActor:
    return actor_from_principal(principal_of(request))


def _validated(serializer_class: type[s.serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# A dealer terminal's endpoint changes no configuration, so the request runs without the
# configuration-history context (see audit.middleware), and with prepared statements
# (kernel.postgresql).
class TerminalApiView(APIView):
    records_configuration_history = False

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        with prepared_statements():
            return super().dispatch(request, *args, **kwargs)


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


class TerminalSignInApi(APIView):
    permission_classes = [IsTerminal]

    @extend_schema(request=s.SignInInput, responses={200: s.SignInOutput}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request) -> HttpResponse:
        try:
            return self.sign_in(request)
        except terminals.SignInRefusedError as refused:
            raise refused_sign_in(refused, terminal=terminal_of(request), actor=actor_of(request)) from None

    @idempotent
    def sign_in(self, request: Request) -> Response:
        data = _validated(s.SignInInput, request.data)
        terminal = terminals.sign_in_dealer(
            terminal=terminal_of(request),
            badge=data["badge"],
            pin=data["pin"],
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response({"terminal": terminal.name, "dealer": dealer_payload(terminal)})


class TerminalSignOutApi(APIView):
    permission_classes = [IsTerminal]

    @extend_schema(request=None, responses={200: s.SignOutOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request) -> Response:
        terminal = terminals.sign_out_dealer(
            terminal=terminal_of(request), actor=actor_of(request), now=timezone.now()
        )
        return Response({"terminal": terminal.name, "dealer": None})


class ShoeOpenApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.ShoeOpenInput, responses={201: s.ShoeOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request) -> Response:
        data = _validated(s.ShoeOpenInput, request.data)
        shoe = shoes.open_shoe(
            table=terminal_of(request).table,
            mode=ShoeMode(data["mode"]),
            decks=data.get("decks"),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(shoe_payload(shoe), status=status.HTTP_201_CREATED)


class ShoeCloseApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=None, responses={200: s.ShoeClosedOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, shoe_id: int) -> Response:
        shoe = shoes.close_shoe(
            table=terminal_of(request).table,
            shoe_id=shoe_id,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(shoe_closed_payload(shoe))


class RoundOpenApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.RoundOpenInput, responses={201: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request) -> Response:
        data = _validated(s.RoundOpenInput, request.data)
        seats = [
            SeatRequest(
                seat=seat["seat"],
                wagers=[WagerRequest(kind=w["kind"], amount_cents=w["amount_cents"]) for w in seat["wagers"]],
            )
            for seat in data["seats"]
        ]
        players = {seat["seat"]: seat.get("player") or "" for seat in data["seats"]}
        patrons = {seat["seat"]: seat["patron"] for seat in data["seats"] if seat.get("patron") is not None}
        snapshot = rounds.open_round(
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
            raise ForbiddenError("other_table", "A terminal may only read its own table's rounds.")
        return Response(round_payload(snapshot))


class RoundCardApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.CardInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        data = _validated(s.CardInput, request.data)
        snapshot = rounds.report_card(
            terminal=terminal_of(request),
            round_id=round_id,
            card=data["card"],
            expected_seq=data.get("expected_seq"),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(round_payload(snapshot))


class RoundActionApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.ActionInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        data = _validated(s.ActionInput, request.data)
        snapshot = rounds.apply_action(
            terminal=terminal_of(request),
            round_id=round_id,
            seat=data["seat"],
            hand=data["hand"],
            action=data["action"],
            amount_cents=data.get("amount_cents"),
            expected_seq=data.get("expected_seq"),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(round_payload(snapshot))


class RoundSettleApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.SettleInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        data = _validated(s.SettleInput, request.data)
        snapshot = rounds.settle_round(
            terminal=terminal_of(request),
            round_id=round_id,
            expected_seq=data.get("expected_seq"),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(round_payload(snapshot))


class RoundVoidApi(TerminalApiView):
    permission_classes = [IsSupervisor]

    @extend_schema(request=s.VoidInput, responses={200: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, round_id: int) -> Response:
        data = _validated(s.VoidInput, request.data)
        snapshot = rounds.void_round(
            round_id=round_id,
            reason=data["reason"],
            user=principal_of(request).user,
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(round_payload(snapshot))
