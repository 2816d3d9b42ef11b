from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from casino.models import StaffRole
from floor.access import (
    CONSOLE_ROLES,
    console_view,
    landing_page,
    may_act_on_tables,
    role_of,
    visible_tables,
)
from floor.live.figures import floor_view

# The roles whose console is not the floor: the console's home sends them to their own page.
ELSEWHERE = (StaffRole.CAGE_CASHIER, StaffRole.COUNT_TEAM, StaffRole.TOURNAMENT_DIRECTOR)


def _pit_map_context(request: HttpRequest) -> dict[str, object]:
    return {
        "floor": floor_view(tables=visible_tables(request.user), now=timezone.now()),
        "may_act": may_act_on_tables(request.user),
    }


@require_safe
@console_view(*CONSOLE_ROLES, *ELSEWHERE)
def home(request: HttpRequest) -> HttpResponse:
    """The floor: the pit map of the tables this user's role and pits show. A cage cashier's
    console is the cage, a count team member's the soft count and a tournament director's the
    tournaments: they go there."""
    if role_of(request.user) in ELSEWHERE:
        return redirect(landing_page(request.user))
    return render(request, "floor/live/floor.html", _pit_map_context(request))


@require_safe
@console_view()
def pit_map(request: HttpRequest) -> HttpResponse:
    """The pit map alone, which the floor page fetches every few seconds to refresh itself."""
    return render(request, "floor/live/_pit_map.html", _pit_map_context(request))
