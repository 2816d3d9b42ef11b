"""The soft count: counted blind by two different members of the count team, never edited, and
once the two agree the counted drop the shift report bases win on (with the estimated drop and the
difference)."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import DatabaseError, transaction
from rest_framework.test import APIClient

from audit.context import AuditActor
from audit.models import AuditEvent
from casino.services.provisioning import ProvisionedStaff
from kernel.errors import ServiceError
from reports import services as reports
from reports.models import ShiftReport
from table_money.models import SoftCount, SoftCountTally
from table_money.services import soft_counts
from tests.compliance.counted_drop_support import (
    SOFT_COUNTS,
    count_team,
    record_count,
    record_tally,
    two_supervisors,
)
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, problem
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock

pytestmark = pytest.mark.django_db

SYSTEM = AuditActor(kind="system", username="test")
OPENER = {"10000": 100}  # 1,000,000 cents
CLOSER = {"10000": 93}  # 930,000: the 70,000 of chips bought in left the tray
# The box: $450 in bills and a $200 marker, $50 short of the $700 typed at the terminal.
BILLS = {"10000": 4, "2000": 2, "500": 2}  # 45,000 cents


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def supervisors(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[APIClient, APIClient]:
    return two_supervisors(make_staff)


def played_day_shift(
    make_table: Callable[..., TableActors], supervisor: APIClient, clock: Clock
) -> TableActors:
    """Opened at 10:00, 50,000 cash and 20,000 marker bought in, closed; then the swing shift."""
    table = make_table("BJ-01", pit_name="Main pit")
    ok(open_table(supervisor, table, OPENER), 201)
    ok(buy_in(table, 1, 50_000), 201)
    ok(buy_in(table, 2, 20_000, method="marker"), 201)
    ok(close_table(supervisor, table, CLOSER), 201)
    clock.set(dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE))  # the day shift is over
    return table


def produce(table: TableActors) -> ShiftReport:
    (row,) = reports.produce_shift_reports(
        gaming_day=GAMING_DAY,
        shift="day",
        table_ids=[table.table.pk],
        actor=SYSTEM,
        now=dt.datetime.now(dt.UTC),
    )
    return ShiftReport.objects.get(pk=row.pk)


@pytest.fixture
def team(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> tuple[APIClient, APIClient]:
    return count_team(make_staff)


def test_a_count_both_members_agree_on_is_the_drop_the_win_is_based_on(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    counter, checker = team
    before = produce(table)
    # Without a count: the estimated drop, the table incomplete and the report provisional.
    assert (before.drop_cents, before.estimated_drop_cents, before.counted_drop_cents) == (
        70_000,
        70_000,
        None,
    )
    assert (before.drop_basis, before.win_cents, before.complete, before.provisional) == (
        "estimated",
        0,
        False,
        True,
    )
    assert "no_soft_count" in before.flags

    entered = ok(
        record_count(counter, table.table, gaming_day="2026-11-20", currency=BILLS, markers_cents=20_000), 201
    )
    assert (entered["status"], entered["total_cents"], entered["counts"]) == (
        "awaiting_second_count",
        None,
        False,
    )
    # The figures of a round are withheld until both tallies are in.
    (tally,) = entered["rounds"][0]["tallies"]
    assert (tally["currency"], tally["total_cents"], entered["rounds"][0]["variance"]) == (None, None, None)
    # Entered by one member only: not yet the counted drop.
    assert produce(table).counted_drop_cents is None

    agreed = ok(record_tally(checker, entered["id"], currency=BILLS, markers_cents=20_000), 201)
    assert (agreed["status"], agreed["total_cents"], agreed["counts"]) == ("complete", 65_000, True)
    first, second = agreed["rounds"][0]["tallies"]
    assert (first["currency"], first["currency_cents"], first["markers_cents"]) == (
        {"500": 2, "2000": 2, "10000": 4},
        45_000,
        20_000,
    )
    assert second["member"] != first["member"]
    assert agreed["rounds"][0]["variance"] == {"denominations": {}, "markers_cents": 0, "total_cents": 0}

    after = produce(table)
    assert (after.drop_cents, after.estimated_drop_cents, after.counted_drop_cents) == (
        65_000,
        70_000,
        65_000,
    )
    assert after.drop_basis == "counted"
    # win = counted drop + credits - fills + (closer - opener) = 65,000 - 70,000 = -5,000
    assert after.win_cents == -5_000
    assert after.hold_bp == -769  # -5,000 / 65,000 = -769.23 bp
    assert (after.complete, after.provisional) == (True, False)
    assert after.flags == []
    events = list(
        AuditEvent.objects.filter(subject_type="soft_count")
        .order_by("pk")
        .values_list("event_type", flat=True)
    )
    assert events == ["casino.soft_count.recorded", "casino.soft_count.tally_recorded"]


def test_the_api_payload_shows_both_drops_their_difference_and_the_basis(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    entered = ok(
        record_count(team[0], table.table, gaming_day="2026-11-20", currency=BILLS, markers_cents=20_000), 201
    )
    ok(record_tally(team[1], entered["id"], currency=BILLS, markers_cents=20_000), 201)
    produce(table)

    body = ok(supervisors[0].get("/api/v1/reports/shifts/", {"gaming_day": "2026-11-20", "shift": "day"}))

    (row,) = body["tables"]
    assert {k: row[k] for k in ("drop_cents", "estimated_drop_cents", "counted_drop_cents")} == {
        "drop_cents": 65_000,
        "estimated_drop_cents": 70_000,
        "counted_drop_cents": 65_000,
    }
    assert (row["drop_difference_cents"], row["drop_basis"], row["win_cents"]) == (-5_000, "counted", -5_000)
    (casino,) = body["casinos"]
    assert (casino["drop_cents"], casino["counted_drop_cents"], casino["drop_difference_cents"]) == (
        65_000,
        65_000,
        -5_000,
    )
    assert (casino["drop_basis"], body["provisional"]) == ("counted", False)


def test_a_correction_supersedes_the_count_at_once_and_counts_once_complete(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    counter, checker = team
    first = ok(
        record_count(counter, table.table, gaming_day="2026-11-20", currency=BILLS, markers_cents=20_000), 201
    )
    ok(record_tally(checker, first["id"], currency=BILLS, markers_cents=20_000), 201)
    assert produce(table).counted_drop_cents == 65_000

    # A $100 bill found stuck in the box: a new count, started by the other member this time.
    corrected = {**BILLS, "10000": 5}
    second = ok(
        record_count(
            checker,
            table.table,
            gaming_day="2026-11-20",
            currency=corrected,
            markers_cents=20_000,
            corrects=first["id"],
            reason="A $100 bill was stuck in the box",
        ),
        201,
    )
    assert (second["supersedes"], second["correction_reason"]) == (
        first["id"],
        "A $100 bill was stuck in the box",
    )
    # The corrected count no longer counts; the correction does once both members agree on it.
    assert produce(table).counted_drop_cents is None
    ok(record_tally(counter, second["id"], currency=corrected, markers_cents=20_000), 201)

    assert produce(table).counted_drop_cents == 75_000
    assert SoftCountTally.objects.filter(count_id=first["id"]).count() == 2  # kept, never edited
    problem(record_tally(counter, first["id"], currency=BILLS), 409, "count_superseded")


def test_the_database_refuses_to_edit_or_delete_a_count_or_a_tally(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    entered = ok(record_count(team[0], table.table, gaming_day="2026-11-20", currency=BILLS), 201)
    ok(record_tally(team[1], entered["id"], currency=BILLS), 201)

    for change in (
        lambda: SoftCountTally.objects.filter(count_id=entered["id"]).update(currency_cents=0, total_cents=0),
        lambda: SoftCountTally.objects.filter(count_id=entered["id"]).delete(),
        lambda: SoftCount.objects.filter(pk=entered["id"]).update(shift="swing"),
        # Past the ORM's own protection of the tallies: the database's.
        lambda: SoftCount.objects.filter(pk=entered["id"])._raw_delete(using="default"),
    ):
        with pytest.raises(DatabaseError, match="not allowed"), transaction.atomic():
            change()
    assert list(SoftCountTally.objects.values_list("total_cents", flat=True)) == [45_000, 45_000]
    assert SoftCount.objects.get(pk=entered["id"]).shift == "day"


def test_one_member_cannot_count_a_box_twice(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    entered = ok(record_count(team[0], table.table, gaming_day="2026-11-20", currency=BILLS), 201)

    body = problem(record_tally(team[0], entered["id"], currency=BILLS), 403, "same_member_twice")

    assert "second, different member" in body["detail"]
    assert SoftCountTally.objects.count() == 1
    assert not AuditEvent.objects.filter(event_type="casino.soft_count.tally_recorded").exists()


def test_only_the_count_team_enters_a_count(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
    clock: Clock,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    entered = ok(record_count(team[0], table.table, gaming_day="2026-11-20", currency=BILLS), 201)
    compliance_staff, compliance = make_staff("compliance")

    problem(
        record_count(supervisors[0], table.table, gaming_day="2026-11-20", currency=BILLS),
        403,
        "role_not_allowed",
    )
    problem(record_tally(compliance, entered["id"], currency=BILLS), 403, "role_not_allowed")
    problem(record_tally(table.terminal, entered["id"], currency=BILLS), 403, "role_not_allowed")
    # The service refuses too, whatever calls it.
    with pytest.raises(ServiceError) as refused:
        soft_counts.record_soft_count_tally(
            count_id=entered["id"],
            currency=BILLS,
            markers_cents=0,
            user=compliance_staff.user,
            actor=SYSTEM,
            now=dt.datetime.now(dt.UTC),
        )
    assert refused.value.code == "role_not_allowed"
    assert SoftCount.objects.count() == 1
    assert SoftCountTally.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"currency": {"3000": 1}}, 422, "unknown_denomination"),
        ({"currency": {"10000": -1}}, 400, "validation_error"),
        ({"currency": {"10000": "4"}}, 400, "validation_error"),
        ({"currency": ["10000"]}, 400, "validation_error"),
        ({"markers_cents": True}, 400, "validation_error"),
        ({"markers_cents": -5}, 400, "validation_error"),
        ({"shift": "night"}, 422, "invalid_shift"),
        ({"shift": None}, 422, "invalid_shift"),
        ({"gaming_day": "2026-11-21"}, 422, "count_period_in_future"),
        ({"shift": "swing"}, 422, "count_period_running"),
        ({"corrects": 999_999, "reason": "wrong shift"}, 404, "not_found"),
        ({"reason": "wrong shift"}, 422, "reason_without_correction"),
        ({"reason": "x" * 301}, 400, "validation_error"),
        ({"not_open_confirmed": "maybe"}, 400, "validation_error"),
        ({"gaming_day": "20-11-2026"}, 400, "validation_error"),
        ({"table": 999_999}, 404, "not_found"),
        ({"table": "1"}, 400, "validation_error"),
    ],
)
def test_bad_input_is_a_clear_error_and_stores_nothing(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
    body: dict[str, Any],
    status: int,
    code: str,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    request = {"table": table.table.pk, "gaming_day": "2026-11-20", "shift": "day", "currency": BILLS, **body}
    events = AuditEvent.objects.count()

    problem(post(team[0], SOFT_COUNTS, request), status, code)

    assert SoftCount.objects.count() == 0
    assert AuditEvent.objects.count() == events


def test_a_post_without_an_idempotency_key_is_refused_and_a_replay_changes_nothing(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    body = {"table": table.table.pk, "gaming_day": "2026-11-20", "shift": "day", "currency": BILLS}

    problem(team[0].post(SOFT_COUNTS, body, format="json"), 400, "idempotency_key_required")
    first = team[0].post(SOFT_COUNTS, body, format="json", HTTP_IDEMPOTENCY_KEY="count-1")
    again = team[0].post(SOFT_COUNTS, body, format="json", HTTP_IDEMPOTENCY_KEY="count-1")

    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert SoftCount.objects.count() == 1


def test_a_casino_counting_once_a_day_counts_without_a_shift(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
    settings: Any,
) -> None:
    settings.CASINO_SOFT_COUNT_PER = "day"
    table = played_day_shift(make_table, supervisors[0], clock)
    # The gaming day runs until 06:00 the next morning: counted once it has ended.
    problem(
        record_count(team[0], table.table, gaming_day="2026-11-20", shift=None, currency=BILLS),
        422,
        "count_period_running",
    )
    clock.set(dt.datetime(2026, 11, 21, 6, 30, tzinfo=CASINO_ZONE))

    problem(record_count(team[0], table.table, gaming_day="2026-11-20", currency=BILLS), 422, "invalid_shift")
    entered = ok(record_count(team[0], table.table, gaming_day="2026-11-20", shift=None, currency=BILLS), 201)

    assert entered["shift"] is None
    assert SoftCount.objects.get(pk=entered["id"]).shift == ""


def test_completing_a_count_of_an_ended_shift_enqueues_its_report_regeneration(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = played_day_shift(make_table, supervisors[0], clock)
    entered = ok(record_count(team[0], table.table, gaming_day="2026-11-20", currency=BILLS), 201)
    sent: list[tuple[str, dict[str, Any]]] = []
    from config.celery import app

    monkeypatch.setattr(app, "send_task", lambda name, kwargs: sent.append((name, kwargs)))

    with django_capture_on_commit_callbacks(execute=True):
        ok(record_tally(team[1], entered["id"], currency=BILLS), 201)

    assert sent == [
        (
            "casino.tasks.regenerate_shift_report",
            {"table_id": table.table.pk, "gaming_day": "2026-11-20", "shift": "day"},
        )
    ]
