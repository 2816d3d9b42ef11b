"""Who may see and do what on the floor console (DESIGN.md, Roles).

A floor supervisor or pit boss sees and acts on the tables of the pits they are assigned to;
compliance, surveillance and admins see every table but act on none of them from here (admins
configure through the admin site). Every view asks this module, never `request.user` directly.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import resolve_url

from casino.models import Pit, StaffProfile, StaffRole, Table

# Roles that act on tables from the console (open, close, slips, voids, rule changes).
FLOOR_ACTING_ROLES = frozenset({StaffRole.FLOOR_SUPERVISOR, StaffRole.PIT_BOSS})
# Roles that see every pit: they read, they do not act.
CASINO_WIDE_ROLES = frozenset({StaffRole.COMPLIANCE, StaffRole.ADMIN})
CONSOLE_ROLES = FLOOR_ACTING_ROLES | CASINO_WIDE_ROLES
# Roles that read the soft counts and their variances: the count team and the casino-wide roles
# every table's, a pit boss their pits' (the count team alone enters counts).
COUNT_READING_ROLES = frozenset({StaffRole.COUNT_TEAM, StaffRole.PIT_BOSS}) | CASINO_WIDE_ROLES
# The tournament pages (RULES.md §4): the director runs them, the cage takes entries and pays prizes,
# a pit boss or compliance is the second person who approves results and cancellations. The
# director reaches no other console page.
TOURNAMENT_SECOND_PERSON_ROLES = frozenset({StaffRole.PIT_BOSS, StaffRole.COMPLIANCE})
TOURNAMENT_ROLES = (
    frozenset({StaffRole.TOURNAMENT_DIRECTOR, StaffRole.CAGE_CASHIER}) | TOURNAMENT_SECOND_PERSON_ROLES
)

View = TypeVar("View", bound=Callable[..., HttpResponse])


def role_of(user: Any) -> str | None:
    """The staff role of a signed-in user, or None (a user without a staff profile has no role)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return None
    profile: StaffProfile | None = getattr(user, "staff", None)
    return profile.role if profile is not None else None


def visible_tables(user: Any) -> QuerySet[Table]:
    """The tables this user's floor pages show: their pits' tables, or all for casino-wide roles."""
    role = role_of(user)
    tables = Table.objects.select_related("pit", "pit__casino").order_by("pit__name", "name")
    if role in CASINO_WIDE_ROLES:
        return tables
    if role in FLOOR_ACTING_ROLES:
        return tables.filter(pit__in=user.staff.pits.all())
    return tables.none()


def visible_table(user: Any, table_id: int) -> Table:
    """One table this user may see; 404 (not 403) for any other, so table ids do not leak."""
    table = visible_tables(user).filter(pk=table_id).first()
    if table is None:
        raise Http404("No such table on your floor.")
    return table


def count_visible_tables(user: Any) -> QuerySet[Table]:
    """The tables whose soft counts this user reads: every table for the count team (it counts
    every box), else the tables their floor pages show."""
    if role_of(user) == StaffRole.COUNT_TEAM:
        return Table.objects.select_related("pit", "pit__casino").order_by("pit__name", "name")
    if role_of(user) not in COUNT_READING_ROLES:
        return Table.objects.none()
    return visible_tables(user)


def may_act_on_tables(user: Any) -> bool:
    """Whether this user's role acts on the tables it sees (the others only read them)."""
    return role_of(user) in FLOOR_ACTING_ROLES


def pits_run_by(user: Any) -> list[Pit]:
    """The pits a floor supervisor or pit boss is assigned to (none for other roles)."""
    if role_of(user) not in FLOOR_ACTING_ROLES:
        return []
    return list(user.staff.pits.select_related("casino").order_by("name"))


def may_act_on(user: Any, table: Table) -> bool:
    return role_of(user) in FLOOR_ACTING_ROLES and visible_tables(user).filter(pk=table.pk).exists()


def actable_table(user: Any, table_id: int) -> Table:
    """A table this user may act on: 404 if they cannot see it, 403 if they only read it."""
    table = visible_table(user, table_id)
    if not may_act_on(user, table):
        raise PermissionDenied("Your role reads this table; it does not act on it.")
    return table


# Where each role's work is, and so where signing in lands it (the others: the floor). The cage and
# the count team (and the tournament director) reach no floor page; compliance reaches the floor too, from the navigation.
LANDING_PAGES: dict[str, str] = {
    StaffRole.COMPLIANCE: "floor:compliance",
    StaffRole.CAGE_CASHIER: "floor:cage",
    StaffRole.COUNT_TEAM: "floor:count",
    StaffRole.TOURNAMENT_DIRECTOR: "floor:tournaments",
}


def landing_page(user: Any) -> str:
    """The URL name of the page this user's role works on: where signing in takes them."""
    return LANDING_PAGES.get(role_of(user) or "", "floor:home")


def console_view(*roles: str) -> Callable[[View], View]:
    """Require a signed-in staff member with one of `roles` (default: any console role).

    Anonymous users go to the sign-in page (a page part fetched by htmx, e.g. the floor's
    refresh after the session ended, sends the whole page there); a signed-in user of another
    role gets the styled 403.
    """
    allowed = frozenset(roles) if roles else CONSOLE_ROLES

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                htmx = getattr(request, "htmx", None)
                if htmx:
                    back_to = htmx.current_url_abs_path or resolve_url("floor:home")
                    return HttpResponse(status=204, headers={"HX-Redirect": redirect_to_login(back_to).url})
                return redirect_to_login(request.get_full_path())
            if role_of(request.user) not in allowed:
                raise PermissionDenied("Your role does not include this page.")
            return view(request, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
