"""Helpers for the table-money and shift-report tests: a controllable clock, a supervisor pair,
and the calls a terminal and a supervisor make."""

import datetime as dt
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from tests.conftest import TableActors, post

CASINO_ZONE = ZoneInfo("America/Los_Angeles")
# 10:00 on 2026-11-20 in the casino: the day shift (06:00-14:00) of gaming day 2026-11-20.
DAY_SHIFT_MORNING = dt.datetime(2026, 11, 20, 10, 0, tzinfo=CASINO_ZONE)


class Clock:
    """`timezone.now()` for the test: fixed until moved, so no test straddles a shift boundary."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now.astimezone(dt.UTC)

    def set(self, moment: dt.datetime) -> None:
        self.now = moment

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"
    fake = Clock(DAY_SHIFT_MORNING)
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture
def supervisors(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[APIClient, APIClient]:
    """Two different supervisors: one requests, the other approves."""
    return make_staff("floor_supervisor")[1], make_staff("pit_boss")[1]


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:2000])
    return dict(response.json())


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:2000])
    assert response["Content-Type"] == "application/problem+json"
    body = dict(response.json())
    assert body["code"] == code, body
    return body


def open_table(client: APIClient, actors: TableActors, chips: dict[str, int], status: int = 201) -> Any:
    total = sum(int(d) * n for d, n in chips.items())
    return post(client, f"/api/v1/tables/{actors.table.pk}/open/", {"total_cents": total, "chips": chips})


def close_table(client: APIClient, actors: TableActors, chips: dict[str, int]) -> Any:
    total = sum(int(d) * n for d, n in chips.items())
    return post(client, f"/api/v1/tables/{actors.table.pk}/close/", {"total_cents": total, "chips": chips})


def buy_in(
    actors: TableActors, seat: int, cents: int, method: str = "cash", player: str | None = None
) -> Any:
    return post(
        actors.terminal,
        "/api/v1/buy-ins/",
        {"seat": seat, "amount_cents": cents, "method": method, "player": player},
    )


def request_slip(client: APIClient, kind: str, chips: dict[str, int], **extra: Any) -> Any:
    total = sum(int(d) * n for d, n in chips.items())
    return post(client, f"/api/v1/{kind}s/", {"amount_cents": total, "chips": chips, **extra})


# --- rounds, as a terminal plays them (API.md, Rounds) ---------------------------------------------


def play_round(
    actors: TableActors,
    seats: list[dict[str, Any]],
    cards: list[str],
    actions: list[dict[str, Any]] | None = None,
    more_cards: list[str] | None = None,
) -> dict[str, Any]:
    """Open a round, deal `cards`, apply `actions` (then deal `more_cards`), and settle it."""
    opened = ok(post(actors.terminal, "/api/v1/rounds/", {"seats": seats}), 201)
    for card in cards:
        ok(post(actors.terminal, f"/api/v1/rounds/{opened['id']}/cards/", {"card": card}))
    for action in actions or []:
        ok(post(actors.terminal, f"/api/v1/rounds/{opened['id']}/actions/", action))
    for card in more_cards or []:
        ok(post(actors.terminal, f"/api/v1/rounds/{opened['id']}/cards/", {"card": card}))
    return ok(post(actors.terminal, f"/api/v1/rounds/{opened['id']}/settle/"))


def wager(kind: str, cents: int) -> dict[str, Any]:
    return {"kind": kind, "amount_cents": cents}
