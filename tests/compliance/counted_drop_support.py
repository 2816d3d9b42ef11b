"""Shared steps of the counted-drop and report-figure tests: count-team members and the soft-count
calls (paytable reports with known edges and the fixed clock: tests/support/gaming_day.py)."""

from collections.abc import Callable, Mapping
from typing import Any

from rest_framework.test import APIClient

from casino.models import Table
from casino.services.provisioning import ProvisionedStaff
from table_money.models import SoftCountTally
from tests.support.api import post

SOFT_COUNTS = "/api/v1/soft-counts/"


def two_supervisors(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[APIClient, APIClient]:
    return make_staff("floor_supervisor")[1], make_staff("pit_boss")[1]


def count_team(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[APIClient, APIClient]:
    return make_staff("count_team")[1], make_staff("count_team")[1]


def record_count(
    client: APIClient,
    table: Table,
    *,
    gaming_day: str,
    shift: str | None = "day",
    currency: Mapping[str, int],
    markers_cents: int = 0,
    **extra: Any,
) -> Any:
    body: dict[str, Any] = {
        **extra,
        "table": table.pk,
        "gaming_day": gaming_day,
        "currency": dict(currency),
        "markers_cents": markers_cents,
    }
    if shift is not None:
        body["shift"] = shift
    return post(client, SOFT_COUNTS, body)


def record_tally(
    client: APIClient, count_id: int, *, currency: Mapping[str, int], markers_cents: int = 0
) -> Any:
    """A member's own (blind) tally of a count: its second, or a recount."""
    return post(
        client,
        f"{SOFT_COUNTS}{count_id}/tallies/",
        {"currency": dict(currency), "markers_cents": markers_cents},
    )


def second_count_agreeing(client: APIClient, count_id: int) -> Any:
    """The second member's blind tally, finding in the box what the first member found."""
    first = SoftCountTally.objects.get(count_id=count_id, round=1, place=1)
    return record_tally(client, count_id, currency=first.currency, markers_cents=first.markers_cents)
