"""Helpers for the Title 31 tests (patrons, cage, MTL and CTR): a fixed casino clock, tables open
for play, patrons, and the calls a terminal and a cage cashier make. Nothing here is autouse: the
other tests of this folder keep their own clocks; the Title 31 tests ask for `title31_clock`."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from tests.casino.accounting.conftest import DAY_SHIFT_MORNING, Clock, ok, open_table
from tests.conftest import TableActors, post

BANK = {"100000": 60}  # $60,000 in $1,000 chips

Staff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


@pytest.fixture
def title31_clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"
    settings.CASINO_MTL_THRESHOLD_CENTS = 300_000
    settings.CASINO_CTR_THRESHOLD_CENTS = 1_000_000
    fake = Clock(DAY_SHIFT_MORNING)
    monkeypatch.setattr(timezone, "now", fake)
    return fake


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


def new_patron(client: APIClient, name: str, **identification: str) -> int:
    return int(ok(post(client, "/api/v1/patrons/", {"name": name, **identification}), 201)["number"])


def cash_buy_in(
    actors: TableActors, cents: int, *, patron: int | None, method: str = "cash", seat: int = 1
) -> Any:
    return post(
        actors.terminal,
        "/api/v1/buy-ins/",
        {"seat": seat, "amount_cents": cents, "method": method, "patron": patron},
    )


def redeem(client: APIClient, cents: int, **fields: Any) -> Any:
    return post(client, "/api/v1/cage/redemptions/", {"amount_cents": cents, **fields})


GAMING_DAY = dt.date(2026, 11, 20)


def listed(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, (response.status_code, response.content[:2000])
    return list(response.json())
