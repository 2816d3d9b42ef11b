from django.http import HttpRequest
from django.utils import timezone

from kernel.gaming_day import casino_zone


def casino_time_zone(request: HttpRequest) -> dict[str, str]:
    """The zone staff pages show their times in, e.g. `America/Los_Angeles (PST)`."""
    zone = casino_zone()
    return {"casino_time_zone": f"{zone.key} ({timezone.now().astimezone(zone).strftime('%Z')})"}
