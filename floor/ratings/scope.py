"""Which sessions a console user sees, and the settings the ratings pages explain."""

from collections.abc import Collection
from typing import Any

from floor.access import CASINO_WIDE_ROLES, CONSOLE_ROLES, role_of, visible_tables
from reports.ratings import break_minutes, break_rounds


def how_ratings_are_cut() -> dict[str, int]:
    """What the page's note says about where sessions end (the settings in force)."""
    return {"break_rounds": break_rounds(), "break_minutes": break_minutes()}


def rated_table_ids(user: Any) -> Collection[int] | None:
    """The tables whose sessions this user sees: None for every table (casino-wide roles)."""
    if role_of(user) in CASINO_WIDE_ROLES:
        return None
    return set(visible_tables(user).values_list("pk", flat=True))


def may_read_ratings(user: Any) -> bool:
    """Compliance, admins, floor supervisors and pit bosses read ratings; the cage and the count
    team do not (the patron page, which cashiers see too, leaves the section out for them)."""
    return role_of(user) in CONSOLE_ROLES
