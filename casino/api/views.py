"""Terminal, shoe and round endpoints (API.md). Each view validates its input,
makes one service or selector call and renders the result (STYLE.md §10)."""

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.context import AuditActor, actor_from_principal
from casino.api import serializers as s
from casino.api.authentication import Principal
from casino.api.permissions import DealerSignedIn, IsTerminal
from casino.api.presenters import dealer_payload, shoe_closed_payload, shoe_payload
from casino.api.refusals import refused_sign_in
from casino.models import ShoeMode, Terminal
from casino.services import shoes, terminals
from kernel.errors import ForbiddenError
from kernel.idempotency import idempotent
from kernel.postgresql.base import prepared_statements

Snapshot = TypeVar("Snapshot")

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


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def step_of_round(
    request: Request,
    *,
    round_id: int,
    body: type[serializers.Serializer],
    service: Callable[..., Snapshot],
    present: Callable[[Snapshot], dict[str, Any]],
) -> Response:
    """One step of a round at the terminal's table, for any table game (a card, an action, the
    settlement): the body's fields (None for those left out), the terminal, the actor and the
    time go to the game's service; the answer is the round as the game presents it."""
    fields = validated(body, request.data)
    snapshot = service(
        terminal=terminal_of(request),
        round_id=round_id,
        actor=actor_of(request),
        now=timezone.now(),
        **{name: fields.get(name) for name in body().get_fields()},
    )
    return Response(present(snapshot))


# A dealer terminal's endpoint changes no configuration, so the request runs without the
# configuration-history context (see audit.middleware), and with prepared statements
# (kernel.postgresql).
class TerminalApiView(APIView):
    records_configuration_history = False

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        with prepared_statements():
            return super().dispatch(request, *args, **kwargs)


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
        data = validated(s.SignInInput, request.data)
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
        data = validated(s.ShoeOpenInput, request.data)
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
