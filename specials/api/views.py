"""The special-card game's endpoints (API.md, "Special-card points game"). Each view validates
its input, makes one service or selector call and renders the result (STYLE.md §10)."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.permissions import DealerSignedIn, IsTerminal, IsTerminalOrStaff
from casino.api.views import (
    IDEMPOTENCY_HEADER,
    TerminalApiView,
    actor_of,
    principal_of,
    step_of_round,
    terminal_of,
    validated,
)
from kernel.errors import ForbiddenError, NotFoundError
from kernel.idempotency import idempotent
from specials import services
from specials.api import serializers as s
from specials.api.presenters import match_payload, round_payload
from specials.selectors import get_match, get_round, match_snapshot, round_snapshot


def _check_own_table(request: Request, table_id: int) -> None:
    terminal = principal_of(request).terminal
    if terminal is not None and terminal.table_id != table_id:
        raise ForbiddenError("other_table", "A terminal may only read its own table's matches and rounds.")


class MatchStartApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=s.MatchStartInput, responses={201: s.MatchOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(s.MatchStartInput, request.data)
        snapshot = services.start_match(
            terminal=terminal_of(request),
            players=[
                services.PlayerSeat(seat=p["seat"], player=p.get("player") or "", special=p.get("special"))
                for p in data["players"]
            ],
            start_points=data["start_points"],
            win_points=data["win_points"],
            lose_points=data["lose_points"],
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(match_payload(snapshot), status=status.HTTP_201_CREATED)


class MatchDetailApi(TerminalApiView):
    permission_classes = [IsTerminalOrStaff]

    @extend_schema(responses={200: s.MatchOutput}, operation_id="specials_match_detail")
    def get(self, request: Request, match_id: int) -> Response:
        match = get_match(match_id=match_id)
        if match is None:
            raise NotFoundError("not_found", f"No match {match_id}.")
        _check_own_table(request, match.table_id)
        return Response(match_payload(match_snapshot(match)))


class MatchRoundOpenApi(TerminalApiView):
    permission_classes = [IsTerminal, DealerSignedIn]

    @extend_schema(request=None, responses={201: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, match_id: int) -> Response:
        snapshot = services.open_round(
            terminal=terminal_of(request), match_id=match_id, actor=actor_of(request), now=timezone.now()
        )
        return Response(round_payload(snapshot), status=status.HTTP_201_CREATED)


class RoundDetailApi(TerminalApiView):
    permission_classes = [IsTerminalOrStaff]

    @extend_schema(responses={200: s.RoundOutput}, operation_id="specials_round_detail")
    def get(self, request: Request, round_id: int) -> Response:
        round_ = get_round(round_id=round_id)
        if round_ is None:
            raise NotFoundError("not_found", f"No round {round_id}.")
        _check_own_table(request, round_.match.table_id)
        return Response(round_payload(round_snapshot(round_)))


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
            service=services.take_action,
            present=round_payload,
        )
