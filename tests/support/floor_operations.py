"""The console's table operations as the floor tests set them up: a fixed day-shift clock,
tables open for play, slips, staff signed in."""

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.utils import timezone

from audit.context import AuditActor
from casino.models import Pit, StaffProfile
from table_money.models import ChipSlip, SlipKind
from table_money.services import accounting
from tests.support.api import TableActors, post
from tests.support.factories import StaffFactory

CASINO_ZONE = ZoneInfo("America/Los_Angeles")


# Mid-morning of a day shift (06:00-14:00 of gaming day 2026-11-20), so no test straddles a shift
# change; the previous shift (grave, gaming day 2026-11-19) ended at 06:00.
DAY_SHIFT = dt.datetime(2026, 11, 20, 10, 0, tzinfo=CASINO_ZONE)


PREVIOUS_SHIFT = dt.datetime(2026, 11, 20, 5, 0, tzinfo=CASINO_ZONE)


SYSTEM = AuditActor(kind="system", username="tests")


CLOSER_CHIPS = {"10000": 20, "2500": 40, "500": 100}  # $2,000 + $1,000 + $500 = $3,500


class FixedClock:
    def __init__(self, moment: dt.datetime) -> None:
        self.moment = moment

    def __call__(self) -> dt.datetime:
        return self.moment.astimezone(dt.UTC)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> FixedClock:
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"
    fixed = FixedClock(DAY_SHIFT)
    monkeypatch.setattr(timezone, "now", fixed)
    return fixed


def staff_user(role: str, *, pits: tuple[Pit, ...] = ()) -> AbstractBaseUser:
    counter = StaffProfile.objects.count()
    staff = StaffFactory.create(username=f"{role}-ops-{counter}", role=role)
    StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
    return staff.user


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_now(actors: TableActors, *, by: AbstractBaseUser, chips: dict[str, int] | None = None) -> None:
    chips = chips or CLOSER_CHIPS
    accounting.open_table(
        table_id=actors.table.pk,
        total_cents=accounting.chips_total_cents(chips),
        chips=chips,
        supervisor=by,
        actor=SYSTEM,
        now=timezone.now(),
    )


def closed_in_previous_shift(actors: TableActors, *, by: AbstractBaseUser) -> None:
    """An opener and a closer ($3,500 as CLOSER_CHIPS) in the shift before this one."""
    total = accounting.chips_total_cents(CLOSER_CHIPS)
    for service, minutes in ((accounting.open_table, 0), (accounting.close_table, 30)):
        service(
            table_id=actors.table.pk,
            total_cents=total,
            chips=CLOSER_CHIPS,
            supervisor=by,
            actor=SYSTEM,
            now=PREVIOUS_SHIFT + dt.timedelta(minutes=minutes),
        )


def requested_fill(actors: TableActors, *, by: AbstractBaseUser, chips: dict[str, int]) -> ChipSlip:
    return accounting.request_slip(
        kind=SlipKind.FILL,
        table_id=actors.table.pk,
        amount_cents=accounting.chips_total_cents(chips),
        chips=chips,
        terminal=None,
        user=by,
        actor=SYSTEM,
        now=timezone.now(),
    )


def open_round_at(actors: TableActors) -> int:
    """A round dealt from a new shoe at the table's terminal, left open (waiting for cards)."""
    shoe = post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"})
    assert shoe.status_code == 201, shoe.json()
    opened = post(
        actors.terminal,
        "/api/v1/rounds/",
        {"seats": [{"seat": 2, "player": None, "wagers": [{"kind": "primary", "amount_cents": 5_000}]}]},
    )
    assert opened.status_code == 201, opened.json()
    return int(opened.json()["id"])


def count_form(chips: Mapping[str, object], *, total: str, **extra: str) -> dict[str, str]:
    return {**{f"count_{key}": str(count) for key, count in chips.items()}, "total": total, **extra}


def page_messages(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


Tables = Callable[..., TableActors]
