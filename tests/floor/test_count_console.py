"""The count team's console pages and the count variance report, with hostile input: a running
shift, a table not open in the shift, malformed figures, the same member twice, a correction
without its reason; each is a clear form error and stores nothing. The variance report is read
by the count team, pit bosses (their pits' tables), compliance and admins."""

import datetime as dt
from collections.abc import Callable
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.context import AuditActor
from casino.models import Pit, StaffProfile, Table
from table_money.models import SoftCount, SoftCountTally
from table_money.services import accounting, soft_counts
from tests.floor.form_keys import post_form
from tests.support.api import TableActors
from tests.support.factories import ProvisionedTableFactory, StaffFactory
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock

pytestmark = pytest.mark.django_db

SYSTEM = AuditActor(kind="system", username="test")
AFTER_DAY_SHIFT = dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE)
CHIPS = {"10000": 10}


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings, at=AFTER_DAY_SHIFT)


def member(name: str, role: str = "count_team", *, pits: tuple[Pit, ...] = ()) -> tuple[User, Client]:
    staff = StaffFactory.create(username=name, role=role)
    StaffProfile.objects.get(user_id=staff.user.pk).pits.set(pits)
    client = Client()
    client.force_login(cast(User, staff.user))
    return cast(User, staff.user), client


@pytest.fixture
def opened_in_day_shift(make_table: Callable[..., TableActors], clock: Clock) -> Callable[..., Table]:
    """A table opened and closed at 10:00 in the day shift of 2026-11-20 (it had a drop box then),
    the clock back at 14:30 after."""

    def opened(name: str, pit_name: str = "Main pit") -> Table:
        clock.set(dt.datetime(2026, 11, 20, 10, 0, tzinfo=CASINO_ZONE))
        table = make_table(name, pit_name=pit_name).table
        supervisor = StaffFactory.create(username=f"supervisor-of-{name}", role="floor_supervisor").user
        for service in (accounting.open_table, accounting.close_table):
            service(
                table_id=table.pk,
                total_cents=accounting.chips_total_cents(CHIPS),
                chips=CHIPS,
                supervisor=supervisor,
                actor=SYSTEM,
                now=clock(),
            )
        clock.set(AFTER_DAY_SHIFT)
        return table

    return opened


def started(
    table: Table, user: User, bills: dict[str, int], *, day: dt.date = GAMING_DAY, shift: str = "day"
) -> SoftCount:
    return soft_counts.record_soft_count(
        table_id=table.pk,
        gaming_day=day,
        shift=shift,
        currency=bills,
        markers_cents=0,
        user=user,
        actor=SYSTEM,
        now=dt.datetime.now(dt.UTC),
        not_open_confirmed=True,
    )


def test_the_page_opens_on_the_last_ended_shift_and_refuses_a_running_one() -> None:
    _, client = member("count-a")

    page = client.get("/floor/count/").content.decode()
    assert '<option value="2026-11-20/day" selected>2026-11-20 day shift (06:00-14:00 PST)</option>' in page
    assert "2026-11-20/swing" not in page  # the running shift is not offered

    running = client.get("/floor/count/", {"period": "2026-11-20/swing"}).content.decode()
    assert "The swing shift of 2026-11-20 is still running (it ends at 2026-11-20 22:00 PST)" in running
    assert "Counts of the 2026-11-20 day shift" in running


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"period": "2026-11-20/swing"}, "The swing shift of 2026-11-20 is still running"),
        ({"period": "2026-11-21/day"}, "The day shift of 2026-11-21 has not begun"),
        ({"period": "2026-11-20/night"}, "A shift is day, swing, grave"),
        ({"period": "yesterday"}, "is not a gaming day"),
        ({"period": "2026-11-20"}, "The casino counts each shift: name the shift"),
        ({"table": "999999"}, "Select a valid choice"),
        ({"table": "BJ-01"}, "Select a valid choice"),
        ({"bills_10000": "-1"}, "greater than or equal to 0"),
        ({"bills_10000": "1.5"}, "Enter a whole number"),
        ({"bills_10000": "9" * 30}, "less than or equal to 1000000"),
        ({"markers": "12.345"}, "fraction of a cent"),
        ({"markers": "-5"}, "cannot be negative"),
    ],
)
def test_bad_input_on_the_count_form_is_a_form_error_and_stores_nothing(
    opened_in_day_shift: Callable[..., Table], body: dict[str, str], says: str
) -> None:
    table = opened_in_day_shift("BJ-01")
    _, client = member("count-b")
    form = {"period": "2026-11-20/day", "table": str(table.pk), "bills_10000": "3", **body}

    answer = post_form(client, "/floor/count/", form)

    assert answer.status_code == 400
    assert says in answer.content.decode()
    assert not SoftCount.objects.exists()


def test_a_table_not_open_in_the_shift_is_warned_and_counted_only_once_confirmed(
    opened_in_day_shift: Callable[..., Table],
) -> None:
    opened_in_day_shift("BJ-01")
    idle = ProvisionedTableFactory.create(name="BJ-09", pit_name="Main pit").table
    _, client = member("count-c")
    page = client.get("/floor/count/").content.decode()
    assert '<optgroup label="Not open in this period">' in page

    form = {"period": "2026-11-20/day", "table": str(idle.pk), "bills_10000": "3"}
    warned = post_form(client, "/floor/count/", form)
    assert warned.status_code == 400
    assert "BJ-09 was not open in the day shift of 2026-11-20" in warned.content.decode()
    assert 'id="not-open-warning"' in warned.content.decode()
    assert not SoftCount.objects.exists()

    confirmed = post_form(client, "/floor/count/", {**form, "not_open_confirmed": "on"})
    assert confirmed.status_code == 302
    assert SoftCount.objects.get().table == idle


def test_the_second_count_form_is_blind_and_refuses_the_first_member(
    opened_in_day_shift: Callable[..., Table],
) -> None:
    table = opened_in_day_shift("BJ-01")
    first_user, first_client = member("count-d")
    _, second_client = member("count-e")
    count = started(table, first_user, {"10000": 7, "500": 3})

    page = second_client.get(f"/floor/count/{count.pk}/tally/").content.decode()
    assert "Second count: BJ-01" in page
    assert "$715.00" not in page
    assert 'value="7"' not in page

    refused = post_form(
        first_client, f"/floor/count/{count.pk}/tally/", {"bills_10000": "7", "bills_500": "3"}
    )
    assert refused.status_code == 400
    assert "a second, different member of the count team counts it" in refused.content.decode()
    assert SoftCountTally.objects.count() == 1

    done = post_form(second_client, f"/floor/count/{count.pk}/tally/", {"bills_10000": "7", "bills_500": "3"})
    assert (done.status_code, done["Location"]) == (302, f"/floor/count/{count.pk}/")
    detail = second_client.get(done["Location"]).content.decode()
    assert "$715.00 is the counted drop" in detail


def test_a_correction_needs_its_reason_and_moves_the_count_to_the_right_shift(
    opened_in_day_shift: Callable[..., Table],
) -> None:
    table = opened_in_day_shift("BJ-01")
    user, client = member("count-f")
    wrong = started(table, user, {"10000": 2}, day=dt.date(2026, 11, 19), shift="grave")

    no_reason = post_form(
        client, f"/floor/count/{wrong.pk}/correct/", {"period": "2026-11-20/day", "bills_10000": "2"}
    )
    assert no_reason.status_code == 400
    assert "This field is required" in no_reason.content.decode()
    assert SoftCount.objects.count() == 1

    corrected = post_form(
        client,
        f"/floor/count/{wrong.pk}/correct/",
        {"period": "2026-11-20/day", "bills_10000": "2", "reason": "Entered for the grave shift by mistake"},
    )

    assert corrected.status_code == 302
    correction = SoftCount.objects.get(supersedes=wrong)
    assert (correction.gaming_day, correction.shift, correction.correction_reason) == (
        GAMING_DAY,
        "day",
        "Entered for the grave shift by mistake",
    )
    grave = client.get("/floor/count/", {"period": "2026-11-19/grave"}).content.decode()
    assert f'Superseded</strong> by <a href="/floor/count/{correction.pk}/">#{correction.pk}</a>' in grave
    day = client.get("/floor/count/", {"period": "2026-11-20/day"}).content.decode()
    assert f"corrects count #{wrong.pk} (2026-11-19 grave shift)" in day


def test_the_variance_report_is_read_by_its_roles_each_over_their_tables(
    opened_in_day_shift: Callable[..., Table],
) -> None:
    main = opened_in_day_shift("BJ-01", "Main pit")
    high = opened_in_day_shift("BJ-02", "High limit")
    first, _ = member("count-g")
    second, team_client = member("count-h")
    for table, found in ((main, {"10000": 5}), (high, {"10000": 3})):
        count = started(table, first, {"10000": 4})
        soft_counts.record_soft_count_tally(
            count_id=count.pk,
            currency=found,
            markers_cents=0,
            user=second,
            actor=SYSTEM,
            now=dt.datetime.now(dt.UTC),
        )
    _, boss = member("boss-1", "pit_boss", pits=(Pit.objects.get(name="Main pit"),))
    _, compliance = member("compliance-1", "compliance")
    _, supervisor = member("supervisor-1", "floor_supervisor")
    query = {"gaming_day": "2026-11-20", "shift": "day"}

    for client, tables in (
        (team_client, ["BJ-02", "BJ-01"]),
        (compliance, ["BJ-02", "BJ-01"]),
        (boss, ["BJ-01"]),
    ):
        page = client.get("/floor/count/variances/", query).content.decode()
        assert [name for name in ("BJ-01", "BJ-02") if f"<td>{name} " in page] == sorted(tables)
    assert supervisor.get("/floor/count/variances/", query).status_code == 403
    assert team_client.get("/floor/count/variances/", {"gaming_day": "1999-12-31"}).status_code == 400
    assert team_client.get("/floor/count/variances/", {"shift": "night"}).status_code == 400

    csv = boss.get("/floor/count/variances.csv", query)
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    lines = csv.content.decode().splitlines()
    assert lines[4].startswith(
        "gaming_day,shift,pit,table,count,round,status,counts_as_drop,first_counter,first_total"
    )
    (row,) = [line.split(",") for line in lines[5:]]
    assert row[:4] == ["2026-11-20", "day", "Main pit", "BJ-01"]
    assert row[6:8] == ["variance: to be recounted", "no"]
    assert row[9] == "400.00"
    assert row[11:14] == ["500.00", "100.00", "0.00"]
    assert row[14] == "100.00"  # the $100 bills: one more in the second count


def test_a_casino_counting_once_a_day_counts_an_ended_gaming_day(
    opened_in_day_shift: Callable[..., Table], settings: Any, clock: Clock
) -> None:
    settings.CASINO_SOFT_COUNT_PER = "day"
    table = opened_in_day_shift("BJ-01")
    user, client = member("count-i")

    page = client.get("/floor/count/").content.decode()
    assert '<option value="2026-11-19" selected>gaming day 2026-11-19</option>' in page
    running = post_form(
        client, "/floor/count/", {"period": "2026-11-20", "table": str(table.pk), "bills_10000": "3"}
    )
    assert running.status_code == 400
    assert (
        "Gaming day 2026-11-20 is still running (it ends at 2026-11-21 06:00 PST)" in running.content.decode()
    )
    assert not SoftCount.objects.exists()

    clock.set(dt.datetime(2026, 11, 21, 6, 30, tzinfo=CASINO_ZONE))
    client.force_login(user)  # the next morning: the idle session has ended
    counted = post_form(
        client, "/floor/count/", {"period": "2026-11-20", "table": str(table.pk), "bills_10000": "3"}
    )
    assert counted.status_code == 302
    assert (SoftCount.objects.get().gaming_day, SoftCount.objects.get().shift) == (GAMING_DAY, "")


def test_a_count_page_is_read_by_the_count_readers_of_its_table_only(
    opened_in_day_shift: Callable[..., Table],
) -> None:
    table = opened_in_day_shift("BJ-01", "Main pit")
    ProvisionedTableFactory.create(name="BJ-05", pit_name="High limit")
    counter, _ = member("count-j")
    count = started(table, counter, {"10000": 2})
    _, own_boss = member("boss-2", "pit_boss", pits=(Pit.objects.get(name="Main pit"),))
    _, other_boss = member("boss-3", "pit_boss", pits=(Pit.objects.get(name="High limit"),))
    _, compliance = member("compliance-2", "compliance")
    _, supervisor = member("supervisor-2", "floor_supervisor")
    path = f"/floor/count/{count.pk}/"

    answers = {
        name: client.get(path).status_code
        for name, client in (
            ("own", own_boss),
            ("other", other_boss),
            ("compliance", compliance),
            ("sup", supervisor),
        )
    }

    assert answers == {"own": 200, "other": 404, "compliance": 200, "sup": 403}
    assert "awaiting the second count" in own_boss.get(path).content.decode()
    # Reading is all they do: the count team alone enters a count.
    assert own_boss.get(f"/floor/count/{count.pk}/tally/").status_code == 403
