"""The big-screen board of the tournament area: a read-only page for a TV on the wall.

`GET /board/<tournament id>/?key=<display key>` is the page; it shows the tournament's name and
state, the heat in play or the next one with its clock, and the standings (place, entry number
and the entry's chosen nickname or "Entry N", never a patron's name or number; score; games
played; the prize once the results are approved). Its script (`static/play/board.js`) polls
`GET /board/<tournament id>/standings/` once a second with `Authorization: Display <key>` (or
`?key=<key>`) and `If-None-Match`: while nothing that the board shows has changed the answer is a
bodiless `304`, decided from a few counts (`tournaments.selectors.board_version`) without building
the standings, so a TV costs almost nothing. The standings' rows are the API's leaderboard rows
(`GET /api/v1/tournaments/{id}/leaderboard/`, which also takes `Authorization: Display <key>`).

The display key (`tournaments.services.new_display_key`, shown once to the director) opens its own
tournament's board only. A missing, malformed, wrong or other tournament's key is `403`: a plain
page for the HTML, `application/problem+json` with the code `display_key_required` (no key) or
`display_key_invalid` for the JSON. The key travels in the page's URL because a TV is set up
once with a bookmark; the page sends no Referer, and its script sends the key in a header.
"""

import datetime as dt
from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from kernel.problems import PROBLEM_CONTENT_TYPE
from play.templatetags.play_format import casino_hhmm
from skill_games import services as skill_games
from skill_games.api.views import CLOCK, not_modified
from tournaments import selectors
from tournaments.api.presenters import leaderboard_row
from tournaments.models import Heat, Tournament, TournamentState

KEY_MAX_LENGTH = 128
POLL_MS = 1000
RESULTS_SHOWN = (TournamentState.RESULTS_APPROVED, TournamentState.PAID)


def _well_formed(key: str) -> bool:
    return 0 < len(key) <= KEY_MAX_LENGTH and key.isascii() and key.isprintable()


def _displayed(tournament_id: int, key: str) -> Tournament | None:
    """The tournament whose display key `key` is, if it is the one in the path."""
    found = selectors.tournament_for_display_key(key=key) if _well_formed(key) else None
    return found if found is not None and found.pk == tournament_id else None


def _heat(heat: Heat | None) -> dict[str, Any] | None:
    if heat is None:
        return None
    return {
        "number": heat.number,
        "starts_at": heat.starts_at.isoformat(),
        "starts_at_local": casino_hhmm(heat.starts_at),
        "window_closes_at": heat.window_closes_at.isoformat(),
        "window_closes_at_local": casino_hhmm(heat.window_closes_at),
        "closed": heat.closed_at is not None,
    }


def board_payload(tournament: Tournament, *, now: dt.datetime) -> dict[str, Any]:
    current = selectors.current_heat(tournament_id=tournament.pk, now=now)
    return {
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "state": tournament.state,
            "state_label": TournamentState(tournament.state).label,
            "entries": tournament.entries_taken,
        },
        "heats": selectors.list_heats(tournament_id=tournament.pk).count(),
        "current_heat": _heat(current),
        "next_heat": _heat(selectors.next_heat(tournament_id=tournament.pk, now=now)),
        "results_approved": tournament.state in RESULTS_SHOWN,
        "server_time": now.isoformat(),
        "standings": [leaderboard_row(row) for row in selectors.leaderboard(tournament, now=now)],
    }


def _refused_page(request: HttpRequest) -> HttpResponse:
    return render(request, "play/board_refused.html", status=403)


@never_cache
@require_GET
def board_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    key = request.GET.get("key", "")
    tournament = _displayed(tournament_id, key)
    if tournament is None:
        return _refused_page(request)
    board = board_payload(tournament, now=timezone.now())
    context = {"board": board, "key": key, "poll_ms": POLL_MS, "tournament_id": tournament.pk}
    return render(request, "play/board.html", context)


def _problem(code: str, detail: str) -> JsonResponse:
    body = {
        "type": "about:blank",
        "title": "Forbidden",
        "status": 403,
        "detail": detail,
        "code": code,
        "errors": [],
    }
    return JsonResponse(body, status=403, content_type=PROBLEM_CONTENT_TYPE)


def _sent_key(request: HttpRequest) -> str | None:
    """The key in `Authorization: Display <key>`, else in `?key=`; None when neither is sent."""
    scheme, _, given = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() == "display":
        return given.strip()
    return request.GET.get("key")


def _let_clocks_act(tournament: Tournament, *, now: dt.datetime) -> None:
    """A game whose deadline has come ends now (RULES.md §3: a deadline acts without a request),
    not at the deadline beat's next run: the board shows it at this read. A game another request
    holds is left to it."""
    for game_id in selectors.due_game_ids(tournament_id=tournament.pk, now=now):
        with transaction.atomic(durable=True):
            skill_games.apply_due_deadline(game_id=game_id, now=now, actor=CLOCK, skip_locked=True)


@require_GET
def board_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The board's JSON; `304` while the page's `If-None-Match` still names it."""
    key = _sent_key(request)
    if not key:
        return _problem("display_key_required", "The board reads with its display key.")
    tournament = _displayed(tournament_id, key)
    if tournament is None:
        return _problem("display_key_invalid", "The display key is not this tournament's.")
    now = timezone.now()
    _let_clocks_act(tournament, now=now)
    tag = f'"{selectors.board_version(tournament=tournament, now=now)}"'
    response: HttpResponse
    if not_modified(request.headers.get("If-None-Match", ""), tag):
        response = HttpResponseNotModified()
    else:
        response = JsonResponse(board_payload(tournament, now=now))
    response["ETag"] = tag
    # The browser asks again every time (the page's poll), a shared cache never keeps it.
    response["Cache-Control"] = "private, no-cache"
    return response
