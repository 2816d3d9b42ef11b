"""The skill games' endpoints (API.md "Skill games"). Each view validates its input, makes one
service or selector call and renders the result (STYLE.md §10). Before any of them, a request on
a game lets the game's clock act if a deadline has come (`SkillGameApiView.initial`), in its own
transaction: the deadline acted first, whatever the request then gets.

A device polls its game about once a second. The game's answer carries a weak `ETag` naming what
it shows (the game's `seq`, state and reveal, and the caller); a poll that sends it back in
`If-None-Match` while nothing has changed is answered `304 Not Modified` from the game's row
alone, without reading the log or replaying it. A client that does not send it always gets the
whole game."""

import datetime as dt
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_etags
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.context import AuditActor, actor_from_principal
from casino.api.views import IDEMPOTENCY_HEADER, principal_of, validated
from kernel.errors import NotFoundError
from kernel.idempotency import idempotent
from skill_games import selectors, services
from skill_games.api import serializers as s
from skill_games.api.authentication import SeatPrincipal, SeatTokenAuthentication
from skill_games.api.permissions import CreatesPracticeGames, SeatOfTheGame, SeatOfTheGameOrStaff
from skill_games.api.presenters import game_payload, log_payload, version_tag
from skill_games.models import Game
from skill_games.registry import STAFF, Caller

# A deadline acts by itself: the clock is its actor, whoever's request came first.
CLOCK = AuditActor(kind="system", username="skill_games:clock")


def caller_of(request: Request) -> Caller:
    principal = principal_of(request)
    return Caller(seat=principal.seat) if isinstance(principal, SeatPrincipal) else STAFF


def actor_of(request: Request) -> AuditActor:
    principal = principal_of(request)
    if isinstance(principal, SeatPrincipal):
        return AuditActor(kind="system", username=f"seat {principal.seat} of game {principal.game_id}")
    return actor_from_principal(principal)


def game_after_the_clock(*, game_id: int, now: dt.datetime) -> Game | None:
    """The game's row once a deadline that has come by `now` has acted (in its own transaction,
    so it stands whatever the request then gets); None if there is no such game."""
    game = selectors.get_game(game_id=game_id)
    if game is None or not selectors.is_due(game, now):
        return game
    with transaction.atomic(durable=True):
        services.apply_due_deadline(game_id=game_id, now=now, actor=CLOCK)
    return selectors.get_game(game_id=game_id)


def not_modified(if_none_match: str, tag: str) -> bool:
    """Whether a conditional GET's `If-None-Match` names the answer it would get (weak comparison)."""
    sent = parse_etags(if_none_match)
    return sent == ["*"] or tag in sent


class SkillGameApiView(APIView):
    authentication_classes = [SeatTokenAuthentication]
    records_configuration_history = False  # a game changes no configuration (audit.middleware)
    game: Game | None = None  # the game in the path, read once its clock has acted
    now: dt.datetime

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authenticated and allowed by now
        self.now = timezone.now()
        game_id = kwargs.get("game_id")
        if game_id is not None:
            self.game = game_after_the_clock(game_id=game_id, now=self.now)


def game_path(game_id: int) -> str:
    return reverse("skill-game-detail", kwargs={"game_id": game_id})


def _not_found(game_id: int) -> NotFoundError:
    return NotFoundError("not_found", f"No game {game_id}.")


class GameCreateApi(SkillGameApiView):
    permission_classes = [CreatesPracticeGames]

    @extend_schema(request=s.GameCreateInput, responses={201: s.GameOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(s.GameCreateInput, request.data)
        kind = data.pop("game")
        snapshot = services.create_game(
            kind=kind,
            body=data,
            user_id=getattr(principal_of(request).user, "pk", None),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return Response(game_payload(snapshot, STAFF), status=status.HTTP_201_CREATED)


class GameDetailApi(SkillGameApiView):
    permission_classes = [SeatOfTheGameOrStaff]

    @extend_schema(responses={200: s.GameOutput, 304: None}, operation_id="skill_game_detail")
    def get(self, request: Request, game_id: int) -> Response:
        if self.game is None:
            raise _not_found(game_id)
        caller = caller_of(request)
        tag = version_tag(self.game, caller)
        headers = {"ETag": tag}
        if not_modified(request.headers.get("If-None-Match", ""), tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        moves = selectors.logged_moves(game_id=game_id)
        snapshot = selectors.game_snapshot(game=self.game, moves=moves, now=self.now)
        return Response(game_payload(snapshot, caller), headers=headers)


class GameMovesApi(SkillGameApiView):
    def get_permissions(self) -> list[Any]:
        return [SeatOfTheGame() if self.request.method == "POST" else SeatOfTheGameOrStaff()]

    @extend_schema(responses={200: s.MoveOutput(many=True)}, operation_id="skill_game_moves")
    def get(self, request: Request, game_id: int) -> Response:
        if self.game is None:
            raise _not_found(game_id)
        return Response(log_payload(self.game, selectors.list_moves(game_id=game_id)))

    @extend_schema(request=s.MoveInput, responses={200: s.GameOutput}, parameters=[IDEMPOTENCY_HEADER])
    @idempotent
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(s.MoveInput, request.data)
        caller = caller_of(request)
        snapshot = services.play_move(
            game_id=game_id,
            seat=caller.seat or 0,
            body={name: data[name] for name in s.MoveInput.MOVE_FIELDS if data.get(name) is not None},
            expected_seq=data.get("expected_seq"),
            actor=actor_of(request),
            now=self.now,
        )
        # The answer is the game as its seat now sees it: the game's own ETag, so the device's next
        # poll is a 304 while nothing else happens.
        headers = {"ETag": version_tag(snapshot.game, caller), "Content-Location": game_path(game_id)}
        return Response(game_payload(snapshot, caller), headers=headers)
