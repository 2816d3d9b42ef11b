"""The tournaments' fixtures: the clock fixed (and moved by the test), the staff who run a
tournament, patrons, and the calls the director, the cage and an entry's device make."""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from audit.context import AuditActor
from casino.services.provisioning import ProvisionedStaff
from skill_games import selectors as game_selectors
from skill_games import services as game_services
from tests.support.api import client_with_token, new_patron, ok, post
from tests.support.gaming_day import Clock, day_shift_clock
from tournaments import services

TOURNAMENTS = "/api/v1/tournaments/"
CLOCK = AuditActor(kind="system", username="test:clock")
MakeStaff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@dataclass
class Staff:
    director: APIClient
    cashier: APIClient
    pit_boss: APIClient
    compliance: APIClient
    make: MakeStaff


@pytest.fixture
def staff(make_staff: MakeStaff) -> Staff:
    return Staff(
        director=make_staff("tournament_director")[1],
        cashier=make_staff("cage_cashier")[1],
        pit_boss=make_staff("pit_boss")[1],
        compliance=make_staff("compliance")[1],
        make=make_staff,
    )


def at(clock: Clock, minutes: float) -> str:
    return (clock() + dt.timedelta(minutes=minutes)).isoformat()


def settings_body(clock: Clock, **changes: Any) -> dict[str, Any]:
    """A duplicate Attack tournament: registration closes in an hour, two heats after it."""
    body: dict[str, Any] = {
        "name": "Friday Attack",
        "game": "attack",
        "buy_in_cents": 2000,
        "fee_cents": 500,
        "added_cents": 5000,
        "guarantee_cents": 25000,
        "max_entries": 8,
        "reentries": 1,
        "registration_closes_at": at(clock, 60),
        "heats": [{"starts_at": at(clock, 65)}, {"starts_at": at(clock, 80)}],
        "deal": "duplicate",
        "prizes_bp": [5000, 3000, 2000],
    }
    body.update(changes)
    return body


@dataclass
class Entered:
    id: int
    number: int
    token: str

    @property
    def device(self) -> APIClient:
        return client_with_token(self.token)


@dataclass
class Run:
    """One tournament as the test drives it through the API."""

    id: int
    staff: Staff
    clock: Clock

    @property
    def url(self) -> str:
        return f"{TOURNAMENTS}{self.id}/"

    def read(self) -> dict[str, Any]:
        return ok(self.staff.director.get(self.url))

    def file(self) -> dict[str, Any]:
        return ok(
            post(
                self.staff.director,
                f"{self.url}file/",
                {"reference": "NGC-2026-118", "filed_on": "2026-11-18"},
            )
        )

    def enter(self, patron: int, paid_with: str = "cash", **extra: Any) -> Any:
        return post(
            self.staff.cashier, f"{self.url}entries/", {"patron": patron, "paid_with": paid_with, **extra}
        )

    def entered(self, patron: int, paid_with: str = "cash", **extra: Any) -> Entered:
        body = ok(self.enter(patron, paid_with, **extra), 201)
        return Entered(id=body["id"], number=body["number"], token=body["token"])

    def advance(self, *, minutes: float = 0) -> bool:
        """The clock moved on, the games' deadlines and then the tournament's clock acting."""
        self.clock.advance(minutes=minutes)
        now = self.clock()
        with transaction.atomic():
            for game_id in game_selectors.due_game_ids(now=now):
                game_services.apply_due_deadline(game_id=game_id, now=now, actor=CLOCK)
            return services.advance_tournament(tournament_id=self.id, actor=CLOCK, now=now)

    def leaderboard(self, client: APIClient | None = None) -> list[dict[str, Any]]:
        response = (client or self.staff.director).get(f"{self.url}leaderboard/")
        assert response.status_code == 200, response.content
        return list(response.json())


@pytest.fixture
def create(staff: Staff, clock: Clock) -> Callable[..., Run]:
    def create(**changes: Any) -> Run:
        body = ok(post(staff.director, TOURNAMENTS, settings_body(clock, **changes)), 201)
        return Run(id=body["id"], staff=staff, clock=clock)

    return create


@pytest.fixture
def patron(staff: Staff) -> Callable[..., int]:
    counter = iter(range(1000))

    def patron(**identification: str) -> int:
        return new_patron(staff.cashier, f"Patron {next(counter)}", **identification)

    return patron
