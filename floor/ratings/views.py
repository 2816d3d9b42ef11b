"""Player ratings on the console: the ratings of a gaming day (`/floor/ratings/<gaming day>/`)
and the ratings section of a patron's page (`floor.templatetags.floor_ratings`).

Every console role reads them; a floor supervisor or pit boss sees the sessions at the tables of
their pits, compliance and admins every table (`floor.access.visible_tables`). Sessions are cut
over all tables first (`reports.ratings`), so a scoped page shows the same sessions, only
fewer of them.
"""

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from floor.access import console_view
from floor.days import neighbour_days
from floor.ratings.scope import how_ratings_are_cut, rated_table_ids
from kernel.forms import GamingDayField
from kernel.gaming_day import DayOutOfBoundsError, gaming_day_and_shift, parse_gaming_day
from reports.ratings import get_day_ratings


class GamingDayForm(forms.Form):
    gaming_day = GamingDayField(label="Gaming day")


@require_safe
@console_view()
def today(request: HttpRequest) -> HttpResponse:
    """The current gaming day's ratings, or the day the date picker asks for."""
    picked = GamingDayForm(request.GET if "gaming_day" in request.GET else None)
    if picked.is_bound and picked.is_valid():
        return redirect("floor:ratings_day", picked.cleaned_data["gaming_day"].isoformat())
    if picked.is_bound:
        return _bad_day(
            request, request.GET.get("gaming_day", ""), str(picked.errors.get("gaming_day", [""])[0])
        )
    return redirect("floor:ratings_day", gaming_day_and_shift(timezone.now())[0].isoformat())


def _bad_day(request: HttpRequest, text: str, why: str = "") -> HttpResponse:
    """The 400 page: what was typed is not a date, or (`why`) a date outside the days kept."""
    current = gaming_day_and_shift(timezone.now())[0]
    error = f"“{text[:40]}” is not a gaming day: enter a date such as {current.isoformat()}."
    if why and why != GamingDayField.default_error_messages["invalid"]:
        error = why
    return render(
        request,
        "floor/ratings/day.html",
        {"error": error, "picker": GamingDayForm(initial={"gaming_day": current})},
        status=400,
    )


@require_safe
@console_view()
def day(request: HttpRequest, gaming_day: str) -> HttpResponse:
    """Every rating session of the gaming day at the tables this user sees, by patron."""
    try:
        parsed = parse_gaming_day(gaming_day)
    except DayOutOfBoundsError as refused:
        return _bad_day(request, gaming_day, "" if refused.code == "invalid_gaming_day" else refused.message)
    previous_day, next_day = neighbour_days(parsed)
    table_ids = rated_table_ids(request.user)
    ratings = get_day_ratings(gaming_day=parsed, table_ids=table_ids)
    return render(
        request,
        "floor/ratings/day.html",
        {
            "ratings": ratings,
            "picker": GamingDayForm(initial={"gaming_day": parsed}),
            "previous_day": previous_day.isoformat() if previous_day else None,
            "next_day": next_day.isoformat() if next_day else None,
            "scoped": table_ids is not None,
            "patron_url": "floor:patron",
            **how_ratings_are_cut(),
        },
    )
