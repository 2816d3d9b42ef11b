from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from casino.models import StaffRole
from floor.access import pits_run_by, role_of
from kernel.gaming_day import casino_zone


def casino_time_zone(request: HttpRequest) -> dict[str, str]:
    """The zone staff pages show their times in, e.g. `America/Los_Angeles (PST)`."""
    zone = casino_zone()
    return {"casino_time_zone": f"{zone.key} ({timezone.now().astimezone(zone).strftime('%Z')})"}


def console_staff(request: HttpRequest) -> dict[str, object]:
    """Who is signed in, for the console's header: role, the pits they run, whether they configure.

    Read only when a page shows them (the admin site's pages never do)."""
    user = getattr(request, "user", None)
    return {
        "console_role": SimpleLazyObject(lambda: StaffRole(role).label if (role := role_of(user)) else ""),
        "console_pits": SimpleLazyObject(lambda: ", ".join(pit.name for pit in pits_run_by(user))),
        "console_configures": SimpleLazyObject(lambda: role_of(user) == StaffRole.ADMIN),
    }
