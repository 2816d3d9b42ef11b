"""Player ratings on the console: the ratings of a gaming day (`/floor/ratings/<gaming day>/`)
and the ratings section of a patron's page (`floor.templatetags.floor_ratings`).

Every console role reads them; a floor supervisor or pit boss sees the sessions at the tables of
their pits, compliance and admins every table (`floor.access.visible_tables`). Sessions are cut
over all tables first (`reports.ratings`), so a scoped page shows the same sessions, only
fewer of them.
"""

import datetime as dt

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from floor.access import console_view
from floor.ratings.scope import how_ratings_are_cut, rated_table_ids
from kernel.gaming_day import gaming_day_and_shift
from reports.ratings import get_day_ratings


class GamingDayForm(forms.Form):
    gaming_day = forms.DateField(
        label="Gaming day",
        input_formats=["%Y-%m-%d"],
        error_messages={"invalid": "Enter the gaming day as a date, such as 2026-11-20."},
        widget=forms.DateInput(attrs={"type": "date"}),
    )


def _parse_gaming_day(text: str) -> dt.date | None:
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    # The calendar's first and last days have no neighbour for the page's previous/next links.
    return day if len(text) == len("2026-11-20") and dt.date.min < day < dt.date.max else None


@console_view()
def today(request: HttpRequest) -> HttpResponse:
    """The current gaming day's ratings, or the day the date picker asks for."""
    picked = GamingDayForm(request.GET if "gaming_day" in request.GET else None)
    if picked.is_bound and picked.is_valid():
        return redirect("floor:ratings_day", picked.cleaned_data["gaming_day"].isoformat())
    if picked.is_bound:
        return _bad_day(request, request.GET.get("gaming_day", ""))
    return redirect("floor:ratings_day", gaming_day_and_shift(timezone.now())[0].isoformat())


def _bad_day(request: HttpRequest, text: str) -> HttpResponse:
    current = gaming_day_and_shift(timezone.now())[0]
    return render(
        request,
        "floor/ratings/day.html",
        {"error": f"“{text[:40]}” is not a gaming day: enter a date such as {current.isoformat()}.",
         "picker": GamingDayForm(initial={"gaming_day": current})},
        status=400,
    )  # fmt: skip


@console_view()
def day(request: HttpRequest, gaming_day: str) -> HttpResponse:
    """Every rating session of the gaming day at the tables this user sees, by patron."""
    parsed = _parse_gaming_day(gaming_day)
    if parsed is None:
        return _bad_day(request, gaming_day)
    table_ids = rated_table_ids(request.user)
    ratings = get_day_ratings(gaming_day=parsed, table_ids=table_ids)
    return render(
        request,
        "floor/ratings/day.html",
        {
            "ratings": ratings,
            "picker": GamingDayForm(initial={"gaming_day": parsed}),
            "previous_day": (parsed - dt.timedelta(days=1)).isoformat(),
            "next_day": (parsed + dt.timedelta(days=1)).isoformat(),
            "scoped": table_ids is not None,
            "patron_url": "floor:patron",
            **how_ratings_are_cut(),
        },
    )
