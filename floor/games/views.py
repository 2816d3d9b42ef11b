"""The skill games on the console (RULES.md §3; API.md "Skill games"): the games of a gaming day,
a game's story replayed from its log, its re-scoring and its deck's verification.

Read-only pages for the roles that read play on the console: floor supervisors, pit bosses,
compliance and admins (`console_view()`); the cage and the count team do not reach them. Skill
games are not dealt at a table, so every one of these roles sees every game of the casino, as the
API lets staff (API.md: "Staff see every game of their casino"), and no one, staff included, sees
a card the rules keep hidden before the game ends.
"""

import datetime as dt
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from floor.access import console_view
from floor.days import gaming_day_in_url, neighbour_days
from floor.games.day import games_of_day
from floor.games.rescore import check_decks, rescore
from floor.games.story import build_game_story
from kernel.forms import GamingDayField
from kernel.gaming_day import gaming_day_and_shift
from skill_games.models import Game
from skill_games.selectors import get_game


class GamingDayForm(forms.Form):
    gaming_day = GamingDayField(label="Gaming day")


def _game(game_id: int) -> Game:
    game = get_game(game_id=game_id)
    if game is None:
        raise Http404("No such game.")
    return game


def _day_page(request: HttpRequest, *, day: dt.date | None, error: str = "") -> HttpResponse:
    """The games of `day`, or (no day) the 400 page that says what to enter, with the picker."""
    shown = day or gaming_day_and_shift(timezone.now())[0]
    context: dict[str, Any] = {"error": error, "picker": GamingDayForm(initial={"gaming_day": shown})}
    if day is not None:
        previous_day, next_day = neighbour_days(day)
        context |= {
            "day": day,
            "games": games_of_day(day=day, now=timezone.now()),
            "previous_day": previous_day.isoformat() if previous_day else None,
            "next_day": next_day.isoformat() if next_day else None,
        }
    return render(request, "floor/games/day.html", context, status=400 if day is None else 200)


@require_safe
@console_view()
def today(request: HttpRequest) -> HttpResponse:
    """The current gaming day's games (casino local time), or the day the date picker asks for."""
    if "gaming_day" not in request.GET:
        return redirect("floor:games_day", gaming_day_and_shift(timezone.now())[0].isoformat())
    picked = GamingDayForm(request.GET)
    if not picked.is_valid():
        return _day_page(request, day=None, error=str(picked.errors["gaming_day"][0]))
    return redirect("floor:games_day", picked.cleaned_data["gaming_day"].isoformat())


@require_safe
@console_view()
@gaming_day_in_url
def day(request: HttpRequest, gaming_day: dt.date) -> HttpResponse:
    """Every skill game started on the gaming day, in the order they started."""
    return _day_page(request, day=gaming_day)


@require_safe
@console_view()
def game_story(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    return render(request, "floor/games/game.html", {"story": build_game_story(game, now=timezone.now())})


@require_safe
@console_view()
def game_rescore(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    return render(
        request, "floor/games/rescore.html", {"game": game, "verdict": rescore(game, now=timezone.now())}
    )


@require_safe
@console_view()
def game_deck(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    checks = {check.game_no: check for check in check_decks(game)}
    deal = [
        (number, commitment, checks.get(number))
        for number, commitment in enumerate(game.commitments, start=1)
    ]
    return render(request, "floor/games/deck.html", {"game": game, "deal": deal})
