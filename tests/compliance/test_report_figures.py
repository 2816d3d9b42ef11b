"""Filing-grade figures: rollups over complete tables only, provisional marks, reports kept current
by their corrections, theo from each round's paytable report, and the daily report."""

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import AuditActor
from bonus_tie.engine.paytable import DEFAULT_PAYS
from bonus_tie.models import PaytableVersion, RulesReport
from bonus_tie.tasks import compute_rules_report
from casino.services.provisioning import ProvisionedStaff
from reports import services as reports
from reports import tasks
from reports.models import ShiftReport, ShiftReportLine
from reports.read import shift_report_payload
from tests.compliance.counted_drop_support import (
    count_team,
    record_count,
    second_count_agreeing,
    two_supervisors,
)
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, request_slip
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock, price_paytable
from tests.support.rounds import play_round, wager

pytestmark = pytest.mark.django_db

SYSTEM = AuditActor(kind="system", username="test")
AFTER_DAY_SHIFT = dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE)
TIE_ON_18 = (["TS", "9H", "8C", "9D"], [{"seat": 2, "hand": 0, "action": "stand"}])


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


@pytest.fixture
def supervisors(
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> tuple[APIClient, APIClient]:
    return two_supervisors(make_staff)


def produce(shift: str = "day", day: dt.date = GAMING_DAY) -> dict[int, ShiftReport]:
    rows = reports.produce_shift_reports(gaming_day=day, shift=shift, actor=SYSTEM, now=timezone.now())
    return {row.table_id: ShiftReport.objects.get(pk=row.pk) for row in rows}


@pytest.fixture
def team(make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]) -> tuple[APIClient, APIClient]:
    return count_team(make_staff)


def counted(
    team: tuple[APIClient, APIClient], table: TableActors, bills: dict[str, int], **extra: Any
) -> None:
    entered = ok(record_count(team[0], table.table, gaming_day="2026-11-20", currency=bills, **extra), 201)
    ok(second_count_agreeing(team[1], entered["id"]), 201)


def test_a_table_still_open_is_listed_apart_and_the_totals_are_over_the_closed_one(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    supervisor = supervisors[0]
    closed = make_table("BJ-01", pit_name="Main pit")
    still_open = make_table("BJ-02", pit_name="Main pit")
    ok(open_table(supervisor, closed, {"100000": 57, "50000": 1}), 201)  # $57,500
    ok(buy_in(closed, 1, 100_000), 201)
    ok(close_table(supervisor, closed, {"100000": 56, "50000": 1, "10000": 3}), 201)  # $56,800
    ok(open_table(supervisor, still_open, {"100000": 20}), 201)  # $20,000, never closed
    ok(buy_in(still_open, 1, 40_000), 201)
    clock.set(AFTER_DAY_SHIFT)
    counted(team, closed, {"10000": 10})  # the box held the $1,000 bought in
    produce()

    payload = shift_report_payload(gaming_day=GAMING_DAY, shifts=["day"], now=timezone.now())

    (pit,) = payload["pits"]
    (casino,) = payload["casinos"]
    for rollup in (pit, casino):
        assert (rollup["tables"], rollup["tables_incomplete"]) == (2, 1)
        assert rollup["incomplete_tables"] == [
            {
                "table": {"id": still_open.table.pk, "name": "BJ-02"},
                "pit": {"id": still_open.table.pit_id, "name": "Main pit"},
                "reasons": ["no closer", "no soft count"],
            }
        ]
        # Only the closed table: 100,000 + (5,680,000 - 5,750,000) = 30,000 on 100,000.
        assert (rollup["opener_cents"], rollup["closer_cents"]) == (5_750_000, 5_680_000)
        assert (rollup["drop_cents"], rollup["estimated_drop_cents"]) == (100_000, 100_000)
        assert (rollup["win_cents"], rollup["hold_bp"], rollup["hold_percent"]) == (30_000, 3_000, "30.00")
        assert rollup["provisional"] is True
    assert payload["provisional"] is True
    assert payload["provisional_reasons"] == ["BJ-02 day: no closer and no soft count"]
    open_row = next(t for t in payload["tables"] if t["table"]["name"] == "BJ-02")
    assert (open_row["complete"], open_row["win_cents"], open_row["estimated_drop_cents"]) == (
        False,
        None,
        40_000,
    )


def test_a_running_shift_is_provisional_until_its_report_is_regenerated_after_it_ends(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(buy_in(table, 1, 10_000), 201)
    ok(close_table(supervisors[0], table, {"100000": 9, "10000": 9}), 201)
    # Closed at 10:00, while the shift still runs: its box is counted once the shift has ended.

    running = produce()[table.table.pk]
    assert (running.complete, running.provisional) == (False, True)
    payload = shift_report_payload(gaming_day=GAMING_DAY, shifts=["day"], now=timezone.now())
    assert payload["provisional"] is True
    assert payload["provisional_reasons"] == ["the day shift has not ended", "BJ-01 day: no soft count"]
    assert payload["tables"][0]["provisional"] is True

    clock.set(AFTER_DAY_SHIFT)
    counted(team, table, {"10000": 1})
    final = produce()[table.table.pk]

    assert (final.complete, final.provisional, final.win_cents) == (True, False, 0)
    payload = shift_report_payload(gaming_day=GAMING_DAY, shifts=["day"], now=timezone.now())
    assert (payload["provisional"], payload["provisional_reasons"]) == (False, [])


def test_a_stored_report_of_the_running_shift_follows_two_voided_fills(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    approver = supervisors[1]
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    fills = [ok(request_slip(table.terminal, "fill", {"10000": n}), 201)["id"] for n in (2, 3)]
    for fill in fills:
        ok(post(approver, f"/api/v1/fills/{fill}/approve/"))
    assert produce()[table.table.pk].fills_cents == 50_000  # stored while the shift runs
    from config.celery import app

    # The broker hands the regeneration to the task at once, as a worker would.
    monkeypatch.setattr(
        app, "send_task", lambda name, kwargs: getattr(tasks, name.rsplit(".", 1)[-1]).apply(kwargs=kwargs)
    )

    with django_capture_on_commit_callbacks(execute=True):
        ok(post(approver, f"/api/v1/fills/{fills[0]}/void/", {"reason": "wrong table"}))
    assert ShiftReport.objects.get(table=table.table).fills_cents == 30_000
    with django_capture_on_commit_callbacks(execute=True):
        ok(post(approver, f"/api/v1/fills/{fills[1]}/void/", {"reason": "never delivered"}))

    report = ShiftReport.objects.get(table=table.table)
    assert (report.fills_cents, report.provisional) == (0, True)


def test_theo_is_priced_from_the_report_of_the_paytable_each_round_used(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = make_table("BJ-01")
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    seats = [{"seat": 2, "wagers": [wager("primary", 10_000), wager("T18", 200)]}]
    play_round(table, seats, *TIE_ON_18)  # under paytable v1, which has no report yet

    unpriced = produce()[table.table.pk]
    assert (unpriced.theo_win_cents, "theo_incomplete" in unpriced.flags) == (0, True)

    price_paytable(version=1, table=table.table)  # primary 0.41 %, T18 26.198 %
    now = timezone.now()
    PaytableVersion.objects.create(
        version=2,
        pays={str(k): v for k, v in DEFAULT_PAYS.items()},
        status="approved",
        proposed_at=now,
        approved_at=now,
    )
    price_paytable(version=2, table=table.table, edges={"T18": 0.3}, primary=0.005)
    second = play_round(table, seats, *TIE_ON_18)
    assert second["paytable_version"] == 2

    report = produce()[table.table.pk]

    lines = {line.kind: line for line in ShiftReportLine.objects.filter(report=report)}
    # primary: 10,000 x 0.0041 + 10,000 x 0.005 = 41 + 50 = 91
    assert (lines["primary"].handle_cents, lines["primary"].theo_win_cents) == (20_000, 91)
    assert str(lines["primary"].house_edge) == "0.004550"  # 91 / 20,000: two edges, the effective one
    # T18: 200 x 0.26198 + 200 x 0.3 = 52.396 + 60 = 112.396 -> 112 (rounded once, half to even)
    assert (lines["T18"].handle_cents, lines["T18"].theo_win_cents) == (400, 112)
    assert report.theo_win_cents == 91 + 112
    assert "theo_incomplete" not in report.flags


def test_the_daily_report_sums_a_tables_shifts_and_uses_the_days_count(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    team: tuple[APIClient, APIClient],
    clock: Clock,
    settings: Any,
) -> None:
    settings.CASINO_SOFT_COUNT_PER = "day"
    table = make_table("BJ-01", pit_name="Main pit")
    ok(open_table(supervisors[0], table, {"10000": 100}), 201)
    ok(buy_in(table, 1, 50_000), 201)
    ok(buy_in(table, 2, 20_000, method="marker"), 201)
    ok(close_table(supervisors[0], table, {"10000": 93}), 201)
    clock.set(dt.datetime(2026, 11, 21, 6, 30, tzinfo=CASINO_ZONE))  # the gaming day is over
    counted(team, table, {"10000": 4, "2000": 2, "500": 2}, shift=None, markers_cents=20_000)  # 65,000
    for shift in ("day", "swing", "grave"):
        produce(shift)

    payload = shift_report_payload(
        gaming_day=GAMING_DAY, shifts=["day", "swing", "grave"], now=timezone.now()
    )

    day_row = next(t for t in payload["tables"] if t["shift"] == "day")
    assert (day_row["drop_cents"], day_row["drop_basis"], day_row["win_cents"]) == (70_000, "estimated", 0)
    (daily,) = payload["daily"]["tables"]
    assert daily["shifts"] == ["day", "swing", "grave"]
    assert (daily["estimated_drop_cents"], daily["counted_drop_cents"], daily["drop_cents"]) == (
        70_000,
        65_000,
        65_000,
    )
    assert (daily["drop_difference_cents"], daily["drop_basis"]) == (-5_000, "counted")
    # 65,000 + 0 - 0 + (930,000 - 1,000,000) = -5,000
    assert (daily["win_cents"], daily["hold_bp"]) == (-5_000, -769)
    assert (daily["complete"], daily["provisional"]) == (True, False)
    (casino,) = payload["daily"]["casinos"]
    assert (casino["shift"], casino["win_cents"], casino["drop_cents"], casino["tables_incomplete"]) == (
        "daily",
        -5_000,
        65_000,
        0,
    )
    assert payload["daily"]["provisional"] is False


def test_beat_refreshes_a_stored_report_of_the_running_shift_after_rounds_settle(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    table = make_table("BJ-01")
    price_paytable(version=1, table=table.table)
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    assert produce()[table.table.pk].rounds_settled == 0  # stored early, while the shift runs
    play_round(table, [{"seat": 2, "wagers": [wager("primary", 10_000)]}], *TIE_ON_18)
    assert ShiftReport.objects.get(table=table.table).rounds_settled == 0

    result = tasks.refresh_running_shift_reports.apply().get()

    report = ShiftReport.objects.get(table=table.table)
    assert result == {"reports": [report.pk]}
    assert (report.rounds_settled, report.handle_cents, report.theo_win_cents) == (1, 10_000, 41)
    assert report.provisional is True
    clock.set(AFTER_DAY_SHIFT)
    assert tasks.refresh_running_shift_reports.apply().get() == {"reports": []}  # the swing shift has none


SMALL_SHOE = [4, 0, 0, 0, 0, 0, 4, 4, 4, 16]  # a quick report; its rules are the table's


def test_a_day_on_eight_decks_h17_surrender_is_unpriced_apart_until_its_own_report_prices_it(
    make_table: Callable[..., TableActors],
    supervisors: tuple[APIClient, APIClient],
    clock: Clock,
) -> None:
    main = make_table("BJ-01")
    price_paytable(version=1, table=main.table)  # v1's own report: 6 decks, S17, no surrender
    table = make_table("BJ-02", decks=8, h17=True, surrender=True)
    # Provisioning recorded the report v1 lacks for BJ-02's rules (queued once it commits).
    [missing] = RulesReport.objects.filter(paytable__version=1, report__isnull=True)
    assert (missing.rules["decks"], missing.rules["dealer"], missing.rules["surrender"]) == (8, "H17", True)
    ok(open_table(supervisors[0], table, {"100000": 10}), 201)
    ok(post(table.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    seats = [{"seat": 2, "wagers": [wager("primary", 10_000), wager("T18", 200)]}]
    play_round(table, seats, *TIE_ON_18)

    unpriced = produce()[table.table.pk]

    lines = {line.kind: line for line in ShiftReportLine.objects.filter(report=unpriced)}
    assert (unpriced.theo_win_cents, unpriced.unpriced_handle_cents) == (0, 10_200)
    assert "theo_incomplete" in unpriced.flags
    assert [(k, lines[k].house_edge, lines[k].unpriced_handle_cents) for k in ("primary", "T18")] == [
        ("primary", None, 10_000),
        ("T18", None, 200),
    ]
    payload = shift_report_payload(gaming_day=GAMING_DAY, shifts=["day"], now=timezone.now())
    [row] = [t for t in payload["tables"] if t["table"]["name"] == "BJ-02"]
    primary = row["by_kind"][0]
    assert (primary["house_edge"], primary["priced"], primary["unpriced_handle_cents"]) == (
        None,
        False,
        10_000,
    )

    compute_rules_report.run(report_id=missing.pk, composition=SMALL_SHOE, workers=0)
    priced = produce()[table.table.pk]

    report = RulesReport.objects.get(pk=missing.pk).report
    assert report is not None
    edge = Fraction(Decimal(repr(report["primary"]["basic_strategy_house_edge"])))
    lines = {line.kind: line for line in ShiftReportLine.objects.filter(report=priced)}
    assert lines["primary"].theo_win_cents == round(10_000 * edge) != 0
    assert priced.theo_win_cents != 0
    assert (priced.unpriced_handle_cents, lines["primary"].unpriced_handle_cents) == (0, 0)
    assert "theo_incomplete" not in priced.flags
