"""The blind count's rules through the API and the services: only an ended shift is counted, a
table not open in it only when confirmed, one count per period, the second member counts without
the first's figures, a variance keeps the count out of the reports until a recount agrees, and a
count entered for the wrong shift is corrected onto the right one with both kept on the record."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from audit.context import AuditActor
from audit.models import AuditEvent
from casino.services.provisioning import ProvisionedStaff
from kernel.errors import ServiceError
from reports.read import shift_report_payload
from table_money.models import SoftCount, SoftCountTally
from table_money.selectors import counted_drops
from table_money.services import soft_counts
from tests.compliance.counted_drop_support import record_count, record_tally
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, problem
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock

pytestmark = pytest.mark.django_db

AFTER_DAY_SHIFT = dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE)
BILLS = {"10000": 4, "2000": 2}  # 44,000 cents
SYSTEM = AuditActor(kind="system", username="test")
MakeStaff = Callable[[str], tuple[ProvisionedStaff, APIClient]]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def played(make_table: Callable[..., TableActors], make_staff: MakeStaff) -> TableActors:
    """BJ-01 opened, bought into and closed in the day shift of 2026-11-20 (still running: 10:00)."""
    table = make_table("BJ-01", pit_name="Main pit")
    supervisor = make_staff("floor_supervisor")[1]
    ok(open_table(supervisor, table, {"10000": 100}), 201)
    ok(buy_in(table, 1, 44_000), 201)
    ok(close_table(supervisor, table, {"10000": 100}), 201)
    return table


@pytest.fixture
def team(make_staff: MakeStaff) -> tuple[ProvisionedStaff, ProvisionedStaff, APIClient, APIClient]:
    (first, first_client), (second, second_client) = make_staff("count_team"), make_staff("count_team")
    return first, second, first_client, second_client


def nothing_stored() -> None:
    assert not SoftCount.objects.exists()
    assert not SoftCountTally.objects.exists()
    assert not AuditEvent.objects.filter(subject_type="soft_count").exists()


def test_a_running_shift_is_refused_with_when_it_ends(played: TableActors, team: Any) -> None:
    body = problem(
        record_count(team[2], played.table, gaming_day="2026-11-20", currency=BILLS),
        422,
        "count_period_running",
    )

    assert body["detail"] == (
        "The day shift of 2026-11-20 is still running (it ends at 2026-11-20 14:00 PST): its drop box is "
        "counted once it has ended. Choose an ended shift."
    )
    nothing_stored()


def test_a_shift_not_begun_is_refused(played: TableActors, team: Any) -> None:
    problem(
        record_count(team[2], played.table, gaming_day="2026-11-20", shift="grave", currency=BILLS),
        422,
        "count_period_in_future",
    )
    nothing_stored()


def test_the_last_ended_shift_is_the_one_before_the_running_one(clock: Clock) -> None:
    assert soft_counts.ended_periods(now=clock(), count=3) == [
        (dt.date(2026, 11, 19), "grave"),
        (dt.date(2026, 11, 19), "swing"),
        (dt.date(2026, 11, 19), "day"),
    ]
    clock.set(AFTER_DAY_SHIFT)
    assert soft_counts.ended_periods(now=clock(), count=1) == [(GAMING_DAY, "day")]


def test_a_table_not_open_in_the_shift_is_counted_only_once_confirmed(
    played: TableActors, team: Any, clock: Clock
) -> None:
    clock.set(AFTER_DAY_SHIFT)
    # BJ-01 was open in the day shift of 2026-11-20, not in the swing of 2026-11-19.
    body = problem(
        record_count(team[2], played.table, gaming_day="2026-11-19", shift="swing", currency=BILLS),
        422,
        "table_not_open_in_shift",
    )
    assert body["detail"].startswith("BJ-01 was not open in the swing shift of 2026-11-19")
    nothing_stored()

    confirmed = ok(
        record_count(
            team[2],
            played.table,
            gaming_day="2026-11-19",
            shift="swing",
            currency=BILLS,
            not_open_confirmed=True,
        ),
        201,
    )
    assert (confirmed["gaming_day"], confirmed["shift"], confirmed["status"]) == (
        "2026-11-19",
        "swing",
        "awaiting_second_count",
    )


def test_a_period_has_one_count_at_a_time(played: TableActors, team: Any, clock: Clock) -> None:
    clock.set(AFTER_DAY_SHIFT)
    entered = ok(record_count(team[2], played.table, gaming_day="2026-11-20", currency=BILLS), 201)

    body = problem(
        record_count(team[3], played.table, gaming_day="2026-11-20", currency=BILLS),
        409,
        "period_already_counted",
    )

    assert body["detail"] == (
        f"BJ-01 already has a count of the day shift of 2026-11-20 (soft count {entered['id']}); it awaits "
        "its second count: enter yours on it."
    )
    assert SoftCount.objects.count() == 1


def test_the_second_member_never_reads_the_first_count_before_entering_theirs(
    played: TableActors, team: Any, clock: Clock, client: Any
) -> None:
    clock.set(AFTER_DAY_SHIFT)
    entered = ok(
        record_count(
            team[2],
            played.table,
            gaming_day="2026-11-20",
            currency={"10000": 7, "500": 3},
            markers_cents=12_300,
        ),
        201,
    )
    # The first member's own answer withholds the figures too.
    assert entered["rounds"] == [
        {
            "round": 1,
            "tallies": [
                {
                    "place": 1,
                    "member": team[0].user.get_username(),
                    "counted_at": entered["rounds"][0]["tallies"][0]["counted_at"],
                    "currency": None,
                    "currency_cents": None,
                    "markers_cents": None,
                    "total_cents": None,
                }
            ],
            "variance": None,
        }
    ]
    client.force_login(team[1].user)
    for path in ("/floor/count/", f"/floor/count/{entered['id']}/tally/", f"/floor/count/{entered['id']}/"):
        page = client.get(path).content.decode()
        for figure in ("$715.00", "715.00", "$838.00", "838.00", "$123.00", "123.00", "$700.00"):
            assert figure not in page, (path, figure)
    csv = client.get(
        "/floor/count/variances.csv", {"gaming_day": "2026-11-20", "shift": "day"}
    ).content.decode()
    row = csv.splitlines()[-1].split(",")
    assert row[9] == row[11] == row[12] == ""  # the first total, the second total, the variance


def test_a_variance_keeps_the_count_out_of_the_reports_until_a_recount_agrees(
    played: TableActors, team: Any, clock: Clock
) -> None:
    clock.set(AFTER_DAY_SHIFT)
    first_client, second_client = team[2], team[3]
    entered = ok(
        record_count(
            first_client, played.table, gaming_day="2026-11-20", currency=BILLS, markers_cents=5_000
        ),
        201,
    )

    differs = ok(record_tally(second_client, entered["id"], currency={"10000": 4, "2000": 1, "500": 2}), 201)

    assert (differs["status"], differs["total_cents"], differs["counts"]) == ("variance", None, False)
    assert differs["rounds"][0]["variance"] == {
        "denominations": {"2000": -2_000, "500": 1_000},
        "markers_cents": -5_000,
        "total_cents": -6_000,
    }
    assert [t["total_cents"] for t in differs["rounds"][0]["tallies"]] == [49_000, 43_000]
    assert counted_drops(gaming_day=GAMING_DAY, shift="day") == {}
    report = shift_report_payload(gaming_day=GAMING_DAY, shifts=["day"], now=clock())
    assert report["provisional_reasons"] == ["BJ-01 day: no soft count"]
    after = AuditEvent.objects.get(event_type="casino.soft_count.tally_recorded").after or {}
    assert (after["status"], after["variance"]["total_cents"]) == ("variance", -6_000)
    # A variance is resolved by a recount of two different members.
    recount = ok(record_tally(second_client, entered["id"], currency=BILLS, markers_cents=5_000), 201)
    assert (recount["status"], recount["rounds"][1]["tallies"][0]["total_cents"]) == (
        "awaiting_second_count",
        None,
    )
    problem(
        record_tally(second_client, entered["id"], currency=BILLS, markers_cents=5_000),
        403,
        "same_member_twice",
    )

    agreed = ok(record_tally(first_client, entered["id"], currency=BILLS, markers_cents=5_000), 201)

    assert (agreed["status"], agreed["total_cents"], agreed["counts"]) == ("complete", 49_000, True)
    assert counted_drops(gaming_day=GAMING_DAY, shift="day") == {played.table.pk: 49_000}
    report = shift_report_payload(gaming_day=GAMING_DAY, shifts=["day"], now=clock())
    assert (report["provisional"], report["tables"][0]["counted_drop_cents"]) == (False, 49_000)
    problem(record_tally(second_client, entered["id"], currency=BILLS), 409, "count_complete")
    assert SoftCountTally.objects.count() == 4


def test_a_count_entered_for_the_wrong_shift_is_corrected_onto_the_right_one_and_both_are_kept(
    played: TableActors, team: Any, clock: Clock
) -> None:
    clock.set(AFTER_DAY_SHIFT)
    first_client, second_client = team[2], team[3]
    wrong = ok(
        record_count(
            first_client,
            played.table,
            gaming_day="2026-11-19",
            shift="grave",
            currency=BILLS,
            not_open_confirmed=True,
        ),
        201,
    )
    ok(record_tally(second_client, wrong["id"], currency=BILLS), 201)
    assert counted_drops(gaming_day=dt.date(2026, 11, 19), shift="grave") == {played.table.pk: 44_000}

    problem(
        record_count(
            first_client, played.table, gaming_day="2026-11-20", currency=BILLS, corrects=wrong["id"]
        ),
        422,
        "correction_reason_required",
    )
    right = ok(
        record_count(
            second_client,
            played.table,
            gaming_day="2026-11-20",
            currency=BILLS,
            corrects=wrong["id"],
            reason="Entered for the grave shift; the box is the day shift's",
        ),
        201,
    )
    ok(record_tally(first_client, right["id"], currency=BILLS), 201)

    # The wrong count is kept, superseded: it no longer counts, and its shift has no counted drop.
    assert counted_drops(gaming_day=dt.date(2026, 11, 19), shift="grave") == {}
    assert counted_drops(gaming_day=GAMING_DAY, shift="day") == {played.table.pk: 44_000}
    grave = shift_report_payload(gaming_day=dt.date(2026, 11, 19), shifts=["grave"], now=clock())
    assert [(t["table"]["name"], t["counted_drop_cents"], t["flags"]) for t in grave["tables"]] == [
        ("BJ-01", None, ["idle"])
    ]
    kept = SoftCount.objects.get(pk=wrong["id"])
    assert (kept.gaming_day, kept.shift, kept.superseded_by.pk) == (
        dt.date(2026, 11, 19),
        "grave",
        right["id"],
    )
    assert SoftCountTally.objects.filter(count=kept).count() == 2
    assert (right["supersedes"], right["correction_reason"]) == (
        wrong["id"],
        "Entered for the grave shift; the box is the day shift's",
    )
    # A superseded count takes no tally and no second correction.
    problem(record_tally(first_client, wrong["id"], currency=BILLS), 409, "count_superseded")
    problem(
        record_count(
            first_client,
            played.table,
            gaming_day="2026-11-20",
            currency=BILLS,
            corrects=wrong["id"],
            reason="again",
        ),
        409,
        "count_superseded",
    )


def test_a_correction_names_a_count_of_the_same_table(
    played: TableActors, make_table: Callable[..., TableActors], team: Any, clock: Clock
) -> None:
    clock.set(AFTER_DAY_SHIFT)
    other = make_table("BJ-02", pit_name="Main pit")
    theirs = ok(
        record_count(team[2], other.table, gaming_day="2026-11-20", currency=BILLS, not_open_confirmed=True),
        201,
    )

    problem(
        record_count(
            team[2],
            played.table,
            gaming_day="2026-11-20",
            currency=BILLS,
            corrects=theirs["id"],
            reason="wrong box",
        ),
        422,
        "correction_of_another_table",
    )
    assert SoftCount.objects.count() == 1


def test_the_service_refuses_the_same_member_twice_whoever_calls_it(
    played: TableActors, team: Any, clock: Clock
) -> None:
    clock.set(AFTER_DAY_SHIFT)
    count = soft_counts.record_soft_count(
        table_id=played.table.pk,
        gaming_day=GAMING_DAY,
        shift="day",
        currency=BILLS,
        markers_cents=0,
        user=team[0].user,
        actor=SYSTEM,
        now=clock(),
    )

    with pytest.raises(ServiceError) as refused:
        soft_counts.record_soft_count_tally(
            count_id=count.pk, currency=BILLS, markers_cents=0, user=team[0].user, actor=SYSTEM, now=clock()
        )

    assert refused.value.code == "same_member_twice"
    assert SoftCountTally.objects.count() == 1
