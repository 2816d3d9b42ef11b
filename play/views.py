"""The player page (API.md "Skill games": the device that holds a seat token).

Design: the page's script (`static/play/play.js`) talks to two small JSON views here, which call
the skill-game services themselves, rather than to `/api/v1/games/` with the token. The seat
token is then entered once, kept in a signed HttpOnly cookie scoped to `/play/`, and never handed
to the page's script: a script that got into the page, an extension or a shoulder-surfed devtools
panel on a shared kiosk cannot carry the token away. The moves are still the API's: the same
services, the same checks in the same order, the same answer (`game_payload`, as the seat sees
it) and the same codes (`kernel.problems.status_of`). A move carries `expected_seq`, so a resent
move (a double tap, a retry after a lost answer) is refused `stale_game` instead of playing twice:
that is the page's idempotency, without an Idempotency-Key store. POSTs are same-origin with the
CSRF token and the cookie is SameSite=Strict.

No staff session reaches the game: only the seat cookie opens it, and a staff member without one
gets the token form.

A tournament entry's token (the slip's, `play.seats`) is kept the same way. The page then shows
where the entry stands (`play.entries`): the heat it waits for (and looks again by itself), a
Start button in a heat's start window (`tournaments.services.start_heat_game`, the API's checks
and codes), the entry's game in play (the same game views and moves as a seat's), its heats'
scores and its place; and a form for the nickname the board shows."""

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from audit.context import AuditActor
from kernel.errors import CodedError
from kernel.problems import status_of
from play.entries import Phase, entry_standing
from play.seats import PlayerEntry, PlayerSeat, forget_token, holder_for_token, holder_of, keep_token, seat_of
from skill_games import selectors, services
from skill_games.api.presenters import game_payload, version_tag
from skill_games.api.views import game_after_the_clock, not_modified
from skill_games.models import Game
from skill_games.registry import Caller
from tournaments import services as tournaments

MAX_BODY_BYTES = 1024
MOVES = {"place", "undo", "swap", "cash_in", "play", "double", "extend", "take"}
MAX_CARDS = 10  # three or more (more than a hand holds) the rules refuse, with the API's code
UNKNOWN_SEAT = (
    "That is not a seat token or a tournament entry's token. Check it and type it again, or ask the cashier."
)


def _problem(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def play_page(request: HttpRequest) -> HttpResponse:
    """The game of the seat this device holds, where its entry stands, or the token form
    (prefilled by a `?token=` link)."""
    if request.method == "POST":
        token = request.POST.get("token", "")
        if holder_for_token(token) is None:
            context = {"error": UNKNOWN_SEAT}
            return render(request, "play/entry.html", context, status=400)
        response = redirect("play:page")  # the token leaves the URL and the form
        keep_token(response, request, token)
        return response
    holder = holder_of(request)
    if holder is None:
        prefill = request.GET.get("token", "")
        context = {"prefill": prefill if holder_for_token(prefill) else ""}
        return render(request, "play/entry.html", context)
    if isinstance(holder, PlayerEntry):
        return _entry_page(request, holder)
    return render(request, "play/game.html", {"seat": holder})


def _entry_page(
    request: HttpRequest,
    holder: PlayerEntry,
    *,
    error: str = "",
    status: int = 200,
    nickname: str | None = None,
) -> HttpResponse:
    standing = entry_standing(entry_id=holder.entry_id, now=timezone.now())
    if standing is None:
        response = render(request, "play/entry.html", {"error": UNKNOWN_SEAT}, status=400)
        forget_token(response)
        return response
    if standing.phase is Phase.PLAYING and standing.game is not None and not error:
        seat = PlayerSeat(game_id=standing.game.game_id, seat=standing.game.seat)
        return render(request, "play/game.html", {"seat": seat, "standing": standing})
    context = {
        "standing": standing,
        "error": error,
        "nickname": standing.entry.nickname if nickname is None else nickname,
        "nickname_max": tournaments.NICKNAME_MAX_LENGTH,
    }
    return render(request, "play/tournament.html", context, status=status)


def _entry_actor(holder: PlayerEntry) -> AuditActor:
    return AuditActor(kind="system", username=f"entry {holder.number} of tournament {holder.tournament_id}")


@never_cache
@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """The entry starts its game of the heat (a table's entry takes its seat): the API's call."""
    holder = holder_of(request)
    if not isinstance(holder, PlayerEntry):
        return redirect("play:page")
    try:
        with transaction.atomic(durable=True):
            tournaments.start_heat_game(
                tournament_id=holder.tournament_id,
                entry_id=holder.entry_id,
                actor=_entry_actor(holder),
                now=timezone.now(),
            )
    except CodedError as error:
        return _entry_page(request, holder, error=error.detail, status=status_of(error))
    return redirect("play:page")


@never_cache
@require_POST
def nickname(request: HttpRequest) -> HttpResponse:
    """The entry's nickname, as the board shows it."""
    holder = holder_of(request)
    if not isinstance(holder, PlayerEntry):
        return redirect("play:page")
    chosen = request.POST.get("nickname", "")
    try:
        with transaction.atomic(durable=True):
            tournaments.set_nickname(
                entry_id=holder.entry_id, nickname=chosen, actor=_entry_actor(holder), now=timezone.now()
            )
    except CodedError as error:
        shown = chosen[: tournaments.NICKNAME_MAX_LENGTH * 2]
        return _entry_page(request, holder, error=error.detail, status=status_of(error), nickname=shown)
    return redirect("play:page")


@never_cache
@require_POST
def leave(request: HttpRequest) -> HttpResponse:
    """The device forgets its seat token (the next player enters theirs)."""
    response = redirect("play:page")
    forget_token(response)
    return response


def seat_view(
    view: Callable[[HttpRequest, PlayerSeat, Game], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """A JSON view of the seat this device holds (403 `seat_token_required` without one), after
    the game's clock has acted; never cached."""

    @never_cache
    @wraps(view)
    def with_seat(request: HttpRequest) -> HttpResponse:
        seat = seat_of(request)
        if seat is None:
            return _problem(403, "seat_token_required", "Enter your seat token to play.")
        # A deadline acts by itself (RULES.md §3), before the request reads or moves.
        game = game_after_the_clock(game_id=seat.game_id, now=timezone.now())
        if game is None:
            return _problem(404, "not_found", "This game no longer exists.")
        return view(request, seat, game)

    return with_seat


@require_GET
@seat_view
def game_state(request: HttpRequest, seat: PlayerSeat, game: Game) -> HttpResponse:
    """The game as its seat sees it (polled by the page about once a second; `304` while the
    page's `If-None-Match` still names it, as on the API)."""
    caller = Caller(seat=seat.seat)
    tag = version_tag(game, caller)
    response: HttpResponse
    if not_modified(request.headers.get("If-None-Match", ""), tag):
        response = HttpResponseNotModified()
    else:
        moves = selectors.logged_moves(game_id=game.pk)
        snapshot = selectors.game_snapshot(game=game, moves=moves, now=timezone.now())
        response = JsonResponse(game_payload(snapshot, caller))
    response["ETag"] = tag
    return response


def _move_of(raw: bytes) -> tuple[dict[str, Any], int | None] | None:
    """The move's fields and `expected_seq` from a JSON body, or None when it is not a move."""
    if len(raw) > MAX_BODY_BYTES:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("move") not in MOVES:
        return None
    body: dict[str, Any] = {"move": data["move"]}
    for name in ("column", "position"):
        value = data.get(name)
        if value is not None:
            if type(value) is not int:
                return None
            body[name] = value
    cards, pile = data.get("cards"), data.get("pile")
    if cards is not None:
        if not isinstance(cards, list) or len(cards) > MAX_CARDS:
            return None
        if not all(isinstance(card, str) and len(card) <= 3 for card in cards):
            return None
        body["cards"] = cards
    if pile is not None:
        if not isinstance(pile, str) or len(pile) > 3:
            return None
        body["pile"] = pile
    expected = data.get("expected_seq")
    if expected is not None and type(expected) is not int:
        return None
    return body, expected


@require_POST
@seat_view
def move(request: HttpRequest, seat: PlayerSeat, game: Game) -> HttpResponse:
    """One move of the seat: the game as the seat sees it, or the refusal's code and reason."""
    parsed = _move_of(request.body)
    if parsed is None:
        return _problem(400, "malformed_request", "That is not a move of this game.")
    body, expected_seq = parsed
    try:
        with transaction.atomic(durable=True):
            snapshot = services.play_move(
                game_id=seat.game_id,
                seat=seat.seat,
                body=body,
                expected_seq=expected_seq,
                actor=AuditActor(kind="system", username=f"seat {seat.seat} of game {seat.game_id}"),
                now=timezone.now(),
            )
    except CodedError as error:
        return _problem(status_of(error), error.code, error.detail)
    return JsonResponse(game_payload(snapshot, Caller(seat=seat.seat)))
