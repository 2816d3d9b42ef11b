"""The tournaments' endpoints (API.md "Tournaments"). Each view validates its input, makes one
service or selector call and renders the result (STYLE.md §10)."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.context import AuditActor, actor_from_principal
from casino.api.views import IDEMPOTENCY_HEADER, principal_of, validated
from kernel.errors import ForbiddenError, NotFoundError
from kernel.idempotency import idempotent
from skill_games.api.presenters import game_payload
from skill_games.registry import Caller
from tournaments import selectors, services
from tournaments.api import presenters
from tournaments.api.authentication import DisplayKeyAuthentication, EntryPrincipal, EntryTokenAuthentication
from tournaments.api.permissions import CageCashier, Director, EntryOnly, Staff, StaffEntryOrDisplay
from tournaments.models import PaidWith, Tournament


def _user(request: Request) -> AbstractBaseUser:
    user = principal_of(request).user
    if user is None:
        raise ForbiddenError("role_not_allowed", "Only staff may make this call.")
    return user


def _actor(request: Request) -> AuditActor:
    principal = principal_of(request)
    if isinstance(principal, EntryPrincipal):
        return AuditActor(kind="system", username=str(principal))
    return actor_from_principal(principal)


def _tournament(tournament_id: int) -> Tournament:
    tournament = selectors.get_tournament(tournament_id=tournament_id)
    if tournament is None:
        raise NotFoundError("not_found", f"No tournament {tournament_id}.")
    return tournament


class TournamentApiView(APIView):
    authentication_classes = [EntryTokenAuthentication]


class TournamentListCreateApi(TournamentApiView):
    def get_permissions(self) -> list[Any]:
        return [Director() if self.request.method == "POST" else Staff()]

    @extend_schema(responses={200: presenters.TournamentOutput(many=True)}, operation_id="tournament_list")
    def get(self, request: Request) -> Response:
        return Response([presenters.tournament_payload(t) for t in selectors.list_tournaments()])

    @extend_schema(
        request=presenters.TournamentInput,
        responses={201: presenters.TournamentOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="tournament_create",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        tournament = services.create_tournament(
            body=request.data, user=_user(request), actor=_actor(request), now=timezone.now()
        )
        return Response(presenters.tournament_payload(tournament), status=status.HTTP_201_CREATED)


class TournamentDetailApi(TournamentApiView):
    permission_classes = [Staff]

    @extend_schema(responses={200: presenters.TournamentOutput}, operation_id="tournament_detail")
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(presenters.tournament_payload(_tournament(tournament_id), detail=True))


class FilingInput(serializers.Serializer):
    reference = serializers.CharField(max_length=100)
    filed_on = serializers.DateField()


class TournamentFileApi(TournamentApiView):
    permission_classes = [Director]

    @extend_schema(
        request=FilingInput,
        responses={200: presenters.TournamentOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="tournament_file",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(FilingInput, request.data)
        tournament = services.file_tournament(
            tournament_id=tournament_id,
            reference=data["reference"],
            filed_on=data["filed_on"],
            actor=_actor(request),
            now=timezone.now(),
        )
        return Response(presenters.tournament_payload(tournament, detail=True))


class EntryInput(serializers.Serializer):
    patron = serializers.IntegerField(min_value=1, max_value=2_147_483_647)
    paid_with = serializers.ChoiceField(choices=PaidWith.values)
    nickname = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")


class EntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    patron = serializers.IntegerField()
    reentry = serializers.IntegerField()
    paid_with = serializers.CharField()
    rules_version = serializers.IntegerField()
    token = serializers.CharField()


class TournamentEntriesApi(TournamentApiView):
    permission_classes = [CageCashier]

    @extend_schema(
        request=EntryInput,
        responses={201: EntryOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="tournament_entry",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(EntryInput, request.data)
        entry, token = services.register_entry(
            tournament_id=tournament_id,
            patron_number=data["patron"],
            paid_with=data["paid_with"],
            nickname=data["nickname"],
            cashier=_user(request),
            actor=_actor(request),
            now=timezone.now(),
        )
        return Response(presenters.entry_payload(entry, token=token), status=status.HTTP_201_CREATED)


class ReasonInput(serializers.Serializer):
    reason = serializers.CharField(max_length=services.REASON_MAX_LENGTH)


class TournamentCancelApi(TournamentApiView):
    permission_classes = [Director]

    @extend_schema(
        request=ReasonInput,
        responses={200: presenters.TournamentOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="tournament_cancel",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(ReasonInput, request.data)
        cancellation = services.request_cancellation(
            tournament_id=tournament_id,
            reason=data["reason"],
            user=_user(request),
            actor=_actor(request),
            now=timezone.now(),
        )
        return Response(presenters.tournament_payload(cancellation.tournament, detail=True))


class TournamentCancelApproveApi(TournamentApiView):
    permission_classes = [Staff]  # the service checks who requested it first, then the role

    @extend_schema(
        request=None,
        responses={200: presenters.TournamentOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="tournament_cancel_approve",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        cancellation = services.approve_cancellation(
            tournament_id=tournament_id,
            user=_user(request),
            role=principal_of(request).role,
            actor=_actor(request),
            now=timezone.now(),
        )
        return Response(presenters.tournament_payload(cancellation.tournament, detail=True))


class TournamentLeaderboardApi(TournamentApiView):
    authentication_classes = [EntryTokenAuthentication, DisplayKeyAuthentication]
    permission_classes = [StaffEntryOrDisplay]

    @extend_schema(
        responses={200: presenters.LeaderboardRow(many=True)}, operation_id="tournament_leaderboard"
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        rows = selectors.leaderboard(_tournament(tournament_id), now=timezone.now())
        return Response([presenters.leaderboard_row(row) for row in rows])


class TournamentGamesApi(TournamentApiView):
    permission_classes = [EntryOnly]

    @extend_schema(
        request=None, responses={201: dict}, parameters=[IDEMPOTENCY_HEADER], operation_id="tournament_game"
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        principal = principal_of(request)
        if not isinstance(principal, EntryPrincipal):  # EntryOnly lets only entries through
            raise ForbiddenError("entry_only", EntryOnly.message)
        snapshot, seat = services.start_heat_game(
            tournament_id=tournament_id,
            entry_id=principal.entry_id,
            actor=_actor(request),
            now=timezone.now(),
        )
        return Response(game_payload(snapshot, Caller(seat=seat)), status=status.HTTP_201_CREATED)


class TournamentResultsApi(TournamentApiView):
    permission_classes = [Director]

    @extend_schema(
        request=None,
        responses={201: presenters.ResultsOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="tournament_results",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        results = services.propose_results(
            tournament_id=tournament_id, user=_user(request), actor=_actor(request), now=timezone.now()
        )
        return Response(presenters.results_payload(results), status=status.HTTP_201_CREATED)


class TournamentResultsApproveApi(TournamentApiView):
    permission_classes = [Staff]  # API.md: `approver_is_proposer` is checked before the role

    @extend_schema(
        request=None,
        responses={200: presenters.ResultsOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="tournament_results_approve",
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        results = services.approve_results(
            tournament_id=tournament_id,
            user=_user(request),
            role=principal_of(request).role,
            actor=_actor(request),
            now=timezone.now(),
        )
        return Response(presenters.results_payload(results))


class PrizePayInput(serializers.Serializer):
    paid_with = serializers.ChoiceField(choices=PaidWith.values)


class PrizePayApi(TournamentApiView):
    permission_classes = [CageCashier]

    @extend_schema(
        request=PrizePayInput,
        responses={200: presenters.PrizeOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="prize_pay",
    )
    @idempotent
    def post(self, request: Request, prize_id: int) -> Response:
        data = validated(PrizePayInput, request.data)
        prize = services.pay_prize(
            prize_id=prize_id,
            paid_with=data["paid_with"],
            cashier=_user(request),
            actor=_actor(request),
            now=timezone.now(),
        )
        return Response(presenters.prize_payload(prize))
