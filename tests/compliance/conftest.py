"""Fixtures of the Title 31 tests (patrons, cage, MTL and CTR): a fixed casino clock, tables open
for play, a supervisor and a cashier (the calls a terminal and a cage cashier make: tests/support/api.py).
Nothing here is autouse: the other tests of this folder keep their own clocks; the Title 31 tests
ask for `title31_clock`."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from tests.support.api import TableActors, ok, open_table
from tests.support.gaming_day import Clock, day_shift_clock

BANK = {"100000": 60}  # $60,000 in $1,000 chips

Staff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


@pytest.fixture
def title31_clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.CASINO_MTL_THRESHOLD_CENTS = 300_000
    settings.CASINO_CTR_THRESHOLD_CENTS = 1_000_000
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def supervisor_client(make_staff: Staff) -> APIClient:
    return make_staff("floor_supervisor")[1]


@pytest.fixture
def cashier(make_staff: Staff) -> APIClient:
    return make_staff("cage_cashier")[1]


@pytest.fixture
def open_tables(
    title31_clock: Clock, make_table: Callable[..., TableActors], supervisor_client: APIClient
) -> list[TableActors]:
    tables = [make_table("BJ-T31-A"), make_table("BJ-T31-B")]
    for actors in tables:
        ok(open_table(supervisor_client, actors, BANK), 201)
    return tables
