"""Members of the count team at the same moment, each on their own connection: one count per
period, one second count per round, whoever comes first; the others are told (409) and nothing
is recorded twice."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from table_money.models import SoftCount, SoftCountTally
from table_money.selectors import counted_drops
from tests.compliance.counted_drop_support import record_count, record_tally
from tests.support.api import TableActors, buy_in, close_table, ok, open_table
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock
from tests.support.races import race

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = 4
BILLS = {"10000": 4}


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def counted_shift(
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
    clock: Clock,
) -> tuple[TableActors, list[APIClient]]:
    table = make_table("BJ-01", pit_name="Main pit")
    supervisor = make_staff("floor_supervisor")[1]
    ok(open_table(supervisor, table, {"10000": 100}), 201)
    ok(buy_in(table, 1, 40_000), 201)
    ok(close_table(supervisor, table, {"10000": 100}), 201)
    clock.set(dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE))
    return table, [make_staff("count_team")[1] for _ in range(MEMBERS)]


def test_members_starting_the_same_box_at_once_make_one_count(
    counted_shift: tuple[TableActors, list[APIClient]],
) -> None:
    table, members = counted_shift

    answers = race(
        lambda i: record_count(members[i], table.table, gaming_day="2026-11-20", currency=BILLS),
        threads=MEMBERS,
    )

    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201] + [409] * (MEMBERS - 1)
    assert {a.json()["code"] for a in answers if a.status_code == 409} <= {
        "table_busy",
        "period_already_counted",
    }
    assert (SoftCount.objects.count(), SoftCountTally.objects.count()) == (1, 1)


def test_second_counts_at_once_record_one_and_complete_the_count_once(
    counted_shift: tuple[TableActors, list[APIClient]],
) -> None:
    table, members = counted_shift
    first = ok(record_count(members[0], table.table, gaming_day="2026-11-20", currency=BILLS), 201)
    seconds = members[1:]

    answers = race(lambda i: record_tally(seconds[i], first["id"], currency=BILLS), threads=len(seconds))

    assert sorted(answer.status_code for answer in answers) == [201] + [409] * (len(seconds) - 1)
    assert {a.json()["code"] for a in answers if a.status_code == 409} <= {"table_busy", "count_complete"}
    assert list(SoftCountTally.objects.order_by("place").values_list("round", "place")) == [(1, 1), (1, 2)]
    assert counted_drops(gaming_day=GAMING_DAY, shift="day") == {table.table.pk: 40_000}
