"""Days and times people type are bounded in one place (`kernel.gaming_day`): a gaming day from
2000-01-01 to a week ahead, a rule change's effective time from now (the minute being typed) to a
year ahead. Outside, the answer is a clear 400 (problem+json on the API, a sentence on the console)
that stores nothing; never a 500 and never a row that cannot be read back (year 10000 once moved
to UTC)."""

import datetime as dt
from collections.abc import Callable
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.models import Pit, StaffProfile, TableRuleChange
from casino.services.provisioning import ProvisionedStaff
from casino.services.rule_changes import current_settings
from floor.rule_changes.forms import RuleChangeForm
from kernel.gaming_day import (
    DayOutOfBoundsError,
    casino_zone,
    check_effective_time,
    check_gaming_day,
    gaming_day_window,
    parse_gaming_day,
)
from table_money.models import SoftCount
from tests.support.api import post
from tests.support.factories import ProvisionedTableFactory, StaffFactory
from tests.support.gaming_day import DAY_SHIFT_MORNING, Clock, day_shift_clock

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
NOW = DAY_SHIFT_MORNING  # 10:00 of gaming day 2026-11-20, casino time
ABSURD_DAYS = ["0001-01-01", "9999-12-31", "1999-12-31", "2026-12-28"]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings, at=NOW)


def console_client(role: str, *, pits: tuple[Pit, ...] = ()) -> Client:
    staff = StaffFactory.create(username=f"{role}-{len(pits)}-days", role=role)
    StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
    client = Client()
    client.force_login(cast(User, staff.user))
    return client


# --- the bound itself --------------------------------------------------------------------------------


def test_the_gaming_day_window_runs_from_2000_to_a_week_after_the_current_day() -> None:
    assert gaming_day_window() == (dt.date(2000, 1, 1), dt.date(2026, 11, 27))
    assert check_gaming_day(dt.date(2000, 1, 1)) == dt.date(2000, 1, 1)
    assert check_gaming_day(dt.date(2026, 11, 27)) == dt.date(2026, 11, 27)
    for day in (dt.date.min, dt.date(1999, 12, 31), dt.date(2026, 11, 28), dt.date.max):
        with pytest.raises(DayOutOfBoundsError) as refused:
            check_gaming_day(day)
        assert refused.value.code == "gaming_day_out_of_range"
        assert "give a day from 2000-01-01 to 2026-11-27" in refused.value.message


@pytest.mark.parametrize("text", ["", "2026-11-2", "20261120", "2026-13-01", "2026-11-20\x00", "9" * 200])
def test_a_gaming_day_that_is_no_date_says_how_to_write_one(text: str) -> None:
    with pytest.raises(DayOutOfBoundsError) as refused:
        parse_gaming_day(text)
    assert refused.value.code == "invalid_gaming_day"
    assert "write it as YYYY-MM-DD" in refused.value.message
    assert "\x00" not in refused.value.message


def test_an_effective_time_runs_from_the_minute_being_typed_to_a_year_ahead() -> None:
    assert check_effective_time(NOW - dt.timedelta(minutes=2), now=NOW) == NOW
    assert check_effective_time(NOW + dt.timedelta(days=365), now=NOW) == NOW + dt.timedelta(days=365)
    far = dt.datetime(9999, 12, 31, 23, 59, tzinfo=casino_zone())  # year 10000 in UTC
    early = dt.datetime(1, 1, 1, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=5)))  # year 0 in UTC
    cases = [
        (NOW - dt.timedelta(hours=1), "effective_time_past"),
        (NOW + dt.timedelta(days=366), "effective_time_too_far"),
        (far, "effective_time_too_far"),
        (early, "effective_time_past"),
    ]
    for moment, code in cases:
        with pytest.raises(DayOutOfBoundsError) as refused:
            check_effective_time(moment, now=NOW)
        assert refused.value.code == code


# --- rule changes ------------------------------------------------------------------------------------


def _request_form(table_pk: int) -> dict[str, Any]:
    """The request form as the console fills it in, with a higher primary maximum."""
    from casino.models import Table

    table = Table.objects.get(pk=table_pk)
    form = RuleChangeForm(table=table, current=current_settings(table))
    data = {name: field.initial for name, field in form.fields.items() if field.initial is not None}
    data["limit_primary_max"] = "2,000.00"
    data["reason"] = "High-limit weekend"
    return data


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("9999-12-31T23:59", "A change takes effect within a year: at the latest 2027-11-20 10:00."),
        ("2027-11-21T10:00", "A change takes effect within a year: at the latest 2027-11-20 10:00."),
        ("2026-11-20T09:00", "The change takes effect now or at a later time."),
        ("0001-01-01T00:00", "The change takes effect now or at a later time."),
    ],
)
def test_a_rule_change_dated_beyond_a_year_or_in_the_past_is_refused_and_the_list_still_reads(
    typed: str, message: str
) -> None:
    made = ProvisionedTableFactory.create(name="BJ-DAYS", pit_name="Pit D")
    boss = console_client("pit_boss", pits=(made.table.pit,))
    data = {**_request_form(made.table.pk), "effective": "later", "effective_at_local": typed}

    answer = boss.post(f"/floor/rule-changes/new/?table={made.table.pk}", data)

    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not TableRuleChange.objects.exists()
    assert boss.get("/floor/rule-changes/").status_code == 200


def test_a_rule_change_typed_for_the_current_minute_takes_effect_now() -> None:
    made = ProvisionedTableFactory.create(name="BJ-NOW", pit_name="Pit N")
    boss = console_client("pit_boss", pits=(made.table.pit,))
    typed = (NOW - dt.timedelta(minutes=1)).astimezone(casino_zone()).strftime("%Y-%m-%dT%H:%M")
    data = {**_request_form(made.table.pk), "effective": "later", "effective_at_local": typed}

    answer = boss.post(f"/floor/rule-changes/new/?table={made.table.pk}", data)

    assert answer.status_code == 302, answer.content[:2000]
    assert TableRuleChange.objects.get().effective_at == NOW
    assert boss.get("/floor/rule-changes/").status_code == 200


def test_the_rule_change_service_refuses_a_time_more_than_a_year_ahead() -> None:
    from audit.context import AuditActor
    from casino.services.rule_changes import request_rule_change
    from kernel.errors import ServiceError

    made = ProvisionedTableFactory.create(name="BJ-SVC", pit_name="Pit S")
    staff = StaffFactory.create(username="boss-svc", role="pit_boss", pits=["Pit S"])
    with pytest.raises(ServiceError) as refused:
        request_rule_change(
            table_id=made.table.pk,
            limits={"primary": (500, 200_000)},
            rules={},
            reason="far ahead",
            effective_at=dt.datetime(9999, 12, 31, 23, 59, tzinfo=casino_zone()),
            user=cast(User, staff.user),
            actor=AuditActor(kind="user", user_id=staff.user.pk, username="boss-svc", role="pit_boss"),
            now=NOW,
        )
    assert refused.value.code == "effective_time_too_far"
    assert not TableRuleChange.objects.exists()


# --- gaming days in console URLs ---------------------------------------------------------------------


@pytest.mark.parametrize("day", ABSURD_DAYS)
@pytest.mark.parametrize("suffix", ["", "title31.csv", "title31.pdf"])
def test_the_compliance_pages_of_a_day_outside_the_window_are_a_clear_400(day: str, suffix: str) -> None:
    answer = console_client("compliance").get(f"/floor/compliance/{day}/{suffix}")

    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("text/html")
    assert f"{day} is not a gaming day this casino keeps: give a day from 2000-01-01 to 2026-11-27." in (
        answer.content.decode()
    )


def test_the_compliance_page_links_no_day_beyond_the_window() -> None:
    client = console_client("compliance")
    first = client.get("/floor/compliance/2000-01-01/").content.decode()
    last = client.get("/floor/compliance/2026-11-27/").content.decode()

    assert "/floor/compliance/1999-12-31/" not in first
    assert "/floor/compliance/2000-01-02/" in first
    assert "/floor/compliance/2026-11-28/" not in last
    assert "/floor/compliance/2026-11-26/" in last


@pytest.mark.parametrize("day", ABSURD_DAYS)
def test_the_ratings_page_of_a_day_outside_the_window_is_a_clear_400(day: str) -> None:
    client = console_client("compliance")
    for path in (f"/floor/ratings/{day}/", f"/floor/ratings/?gaming_day={day}"):
        answer = client.get(path)
        assert answer.status_code == 400, path
        assert f"{day} is not a gaming day this casino keeps" in answer.content.decode(), path


# --- gaming days in API filters ----------------------------------------------------------------------


@pytest.fixture
def staff_api(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> APIClient:
    return make_staff("compliance")[1]


@pytest.mark.parametrize("day", ABSURD_DAYS)
@pytest.mark.parametrize(
    ("path", "accept"),
    [
        ("/api/v1/reports/shifts/", "application/json"),
        ("/api/v1/reports/shifts/", "text/csv"),
        ("/api/v1/reports/shifts/", "application/pdf"),
        ("/api/v1/ratings/", "application/json"),
    ],
)
def test_an_api_filter_on_a_day_outside_the_window_is_a_400_problem(
    staff_api: APIClient, day: str, accept: str, path: str
) -> None:
    answer = staff_api.get(path, {"gaming_day": day}, HTTP_ACCEPT=accept)

    assert answer.status_code == 400
    assert answer["Content-Type"] == PROBLEM
    body = answer.json()
    assert body["code"] == "gaming_day_out_of_range"
    assert body["errors"] == [
        {
            "field": "gaming_day",
            "code": "gaming_day_out_of_range",
            "message": f"{day} is not a gaming day this casino keeps: give a day from 2000-01-01 to 2026-11-27.",
        }
    ]


# --- soft counts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("day", ["0001-01-01", "1999-12-31"])
def test_a_soft_count_for_a_day_before_2000_is_refused_on_the_api_and_stores_nothing(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]], day: str
) -> None:
    made = ProvisionedTableFactory.create(name="BJ-COUNT", pit_name="Pit C")
    team = make_staff("count_team")[1]
    events = AuditEvent.objects.count()

    answer = post(
        team,
        "/api/v1/soft-counts/",
        {"table": made.table.pk, "gaming_day": day, "shift": "day", "currency": {"10000": 3}},
    )

    assert answer.status_code == 400
    assert answer.json()["errors"][0]["code"] == "gaming_day_out_of_range"
    assert not SoftCount.objects.exists()
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize("day", ["0001-01-01", "1999-12-31"])
def test_a_soft_count_for_a_day_before_2000_is_refused_on_the_console_and_stores_nothing(day: str) -> None:
    made = ProvisionedTableFactory.create(name="BJ-SHEET", pit_name="Pit K")
    client = console_client("count_team")

    answer = client.post(
        "/floor/count/",
        {"table": made.table.pk, "period": f"{day}/day", "bills_10000": "3"},
    )

    assert answer.status_code == 400
    assert f"{day} is not a gaming day this casino keeps" in answer.content.decode()
    assert not SoftCount.objects.exists()


def test_the_soft_count_service_refuses_a_day_before_2000_whoever_calls_it() -> None:
    from audit.context import AuditActor
    from kernel.errors import ServiceError
    from table_money.services.soft_counts import record_soft_count

    made = ProvisionedTableFactory.create(name="BJ-SERVICE", pit_name="Pit V")
    staff = StaffFactory.create(username="counter-svc", role="count_team")
    with pytest.raises(ServiceError) as refused:
        record_soft_count(
            table_id=made.table.pk,
            gaming_day=dt.date(1, 1, 1),
            shift="day",
            currency={"10000": 3},
            markers_cents=0,
            user=cast(User, staff.user),
            actor=AuditActor(kind="user", user_id=staff.user.pk, username="counter-svc", role="count_team"),
            now=NOW,
        )
    assert (refused.value.code, refused.value.field) == ("gaming_day_out_of_range", "gaming_day")
    assert not SoftCount.objects.exists()
