"""Staff read times in the casino's own time zone: the admin site's and the floor console's pages render and take dates
in `CASINO_TIME_ZONE`. The API keeps UTC (ISO 8601 with its offset), as terminals expect."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from kernel.gaming_day import casino_zone

STAFF_PAGES = ("/admin/", "/floor/")


class CasinoLocalTimeForStaffPages:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(STAFF_PAGES):
            return self.get_response(request)
        timezone.activate(casino_zone())
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
