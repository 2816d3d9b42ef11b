"""Shared steps of the counted-drop and report-figure tests: a paytable report with known edges,
count-team members, and the soft-count calls."""

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from blackjack.mappers import house_rules_for, rules_to_json
from bonus_tie.models import PaytableVersion
from casino.models import Table
from casino.services.provisioning import ProvisionedStaff
from tests.casino.accounting.conftest import DAY_SHIFT_MORNING, Clock
from tests.conftest import post

SOFT_COUNTS = "/api/v1/soft-counts/"

# The edges the pre-report figures were checked with (the former documented constants).
KNOWN_EDGES: Mapping[str, float] = {
    "T17": 0.20676,
    "T18": 0.26198,
    "T19": 0.25432,
    "T20": 0.2051,
    "T21": 0.44788,
    "TBJ": 0.23956,
    "LS": 0.20802,
    "RS": 0.23569,
}
KNOWN_PRIMARY_EDGE = 0.0041


def price_paytable(
    *,
    version: int,
    table: Table,
    edges: Mapping[str, float] = KNOWN_EDGES,
    primary: float = KNOWN_PRIMARY_EDGE,
) -> None:
    """Store a report on a paytable version giving these edges, for `table`'s house rules (the
    figures only: the report's other parts are not read by the shift report)."""
    PaytableVersion.objects.filter(version=version).update(
        report={
            "format": 2,
            "paytable_version": version,
            "rules": rules_to_json(house_rules_for(table)),
            "house_edge": {"rows": [{"kind": kind, "house_edge": edge} for kind, edge in edges.items()]},
            "primary": {"basic_strategy_house_edge": primary},
        }
    )


def fixed_clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    """`timezone.now()` fixed at 10:00 of the day shift of gaming day 2026-11-20, casino time."""
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"
    fake = Clock(DAY_SHIFT_MORNING)
    monkeypatch.setattr(timezone, "now", fake)
    return fake


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
) -> Any:
    body: dict[str, Any] = {
        "table": table.pk,
        "gaming_day": gaming_day,
        "currency": dict(currency),
        "markers_cents": markers_cents,
    }
    if shift is not None:
        body["shift"] = shift
    return post(client, SOFT_COUNTS, body)


def sign_count(client: APIClient, count_id: int) -> Any:
    return post(client, f"{SOFT_COUNTS}{count_id}/sign/", {})
