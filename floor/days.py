"""Gaming days in console URLs (`/floor/compliance/<gaming day>/...`): written YYYY-MM-DD and
inside the days the casino keeps (`kernel.gaming_day.parse_gaming_day`, the one bound for every
day a person types). A day that is no date is not a page (404); a date outside the window is a
400 page that says which days there are, never a 500 from a day at the calendar's ends."""

import datetime as dt
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from kernel.gaming_day import DayOutOfBoundsError, gaming_day_window, parse_gaming_day

View = TypeVar("View", bound=Callable[..., HttpResponse])


def gaming_day_in_url(view: View) -> View:
    """Call `view` with its `gaming_day` URL argument as a date inside the window."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, gaming_day: str, **kwargs: Any) -> HttpResponse:
        try:
            day = parse_gaming_day(gaming_day)
        except DayOutOfBoundsError as refused:
            if refused.code == "invalid_gaming_day":
                raise Http404(refused.message) from None
            return render(request, "floor/bad_day.html", {"error": refused.message}, status=400)
        return view(request, *args, gaming_day=day, **kwargs)

    return wrapper  # type: ignore[return-value]


def neighbour_days(day: dt.date) -> tuple[dt.date | None, dt.date | None]:
    """The previous and next gaming days a page links to, None beyond the window."""
    first, last = gaming_day_window()
    previous, following = day - dt.timedelta(days=1), day + dt.timedelta(days=1)
    return (previous if previous >= first else None, following if following <= last else None)
