"""In a real Chromium: the Reports page as a pit boss during a shift (PROVISIONAL, its reasons and
the end-of-shift checklist) and after the shift is closed and counted (Final); the page as every
other role that reads reports. Screenshots go to .local/screenshots/ for review."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.services.provisioning import ProvisionedStaff
from tests.compliance.counted_drop_support import (
    count_team,
    record_count,
    second_count_agreeing,
    two_supervisors,
)
from tests.support.api import TableActors, buy_in, close_table, ok, open_table, post, request_slip
from tests.support.console import Console, sign_in
from tests.support.gaming_day import CASINO_ZONE, Clock, day_shift_clock

pytestmark = pytest.mark.django_db(transaction=True)

DAY = "2026-11-20"
AFTER_DAY_SHIFT = dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    return day_shift_clock(monkeypatch, settings)


def test_a_pit_boss_reads_the_running_shift_as_provisional_and_the_closed_and_counted_one_as_final(
    console: Callable[..., Console],
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
    clock: Clock,
) -> None:
    requester, approver = two_supervisors(make_staff)
    counter, witness = count_team(make_staff)
    main = make_table("BJ-01", pit_name="Main pit")
    side = make_table("BJ-02", pit_name="Main pit")
    elsewhere = make_table("BJ-77", pit_name="High limit")
    ok(open_table(requester, main, {"100000": 10}), 201)
    ok(buy_in(main, 1, 50_000), 201)
    fill = ok(request_slip(main.terminal, "fill", {"10000": 5}), 201)  # waits for approval
    ok(open_table(requester, side, {"100000": 5}), 201)
    ok(buy_in(side, 2, 20_000), 201)
    ok(close_table(requester, side, {"100000": 5}), 201)  # closed, its box not counted yet
    ok(open_table(requester, elsewhere, {"100000": 5}), 201)  # another pit's table
    boss = console("pit_boss", pits=(main.table.pit,))

    # --- 10:00, the day shift under way ---------------------------------------------------------
    boss.open("/floor/")
    boss.follow(".mainnav a[href='/floor/reports/']")
    boss.wait_for_text("PROVISIONAL")
    assert boss.heading() == "Reports · day shift of gaming day Friday, 2026-11-20"
    reasons = boss.read("#provisional-reasons")
    assert "the day shift has not ended" in reasons
    assert "BJ-01 day: no closer and no soft count and slips pending" in reasons
    assert "BJ-02 day: no soft count" in reasons
    assert "BJ-77" not in boss.text()  # another pit's table
    assert "BJ-01" in boss.read("#checklist-open")
    assert "BJ-02" in boss.read("#checklist-not-counted")
    assert "BJ-01" in boss.read("#checklist-slips")
    bj01 = boss.read("#report-figures tr[data-table='BJ-01']")
    assert "$10,000.00" in bj01
    assert "$500.00 estimated" in bj01
    assert "—" in bj01
    assert "$0.00" not in boss.read("#report-figures tbody.rollups")
    assert str(boss.attribute("#download-pdf", "href")).endswith(f"/floor/reports/{DAY}/day/report.pdf")
    boss.screenshot("reports-pit_boss-during-the-shift")

    # --- the table is put right, closed and counted; the shift ends -----------------------------
    ok(post(approver, f"/api/v1/fills/{fill['id']}/approve/"))
    ok(close_table(requester, main, {"100000": 10, "10000": 5}), 201)
    ok(close_table(requester, elsewhere, {"100000": 5}), 201)
    clock.set(AFTER_DAY_SHIFT)
    for table, bills in ((main, {"10000": 5}), (side, {"10000": 2})):
        entered = ok(record_count(counter, table.table, gaming_day=DAY, currency=bills), 201)
        ok(second_count_agreeing(witness, entered["id"]), 201)
    # Hours later: the console signed the idle pit boss out; they sign in again.
    boss = sign_in(boss.browser, boss.base_url, boss.username, "pit_boss-pass-2026")

    boss.open(f"/floor/reports/{DAY}/day/")
    boss.wait_for_text("Final")
    assert "PROVISIONAL" not in boss.text()
    assert "Nothing left" in boss.read("#checklist")
    bj01 = boss.read("#report-figures tr[data-table='BJ-01']")
    assert "$500.00 counted" in bj01
    assert "closed and counted" in bj01
    boss.screenshot("reports-pit_boss-after-the-shift")

    # The whole gaming day is still provisional: two of its shifts are to come or under way.
    boss.follow("nav.report-kinds a[href$='/2026-11-20/']")
    boss.wait_for_text("PROVISIONAL")
    reasons = boss.read("#provisional-reasons")
    assert "the swing shift has not ended" in reasons
    assert "the grave shift has not begun" in reasons
    boss.screenshot("reports-pit_boss-gaming-day")


@pytest.mark.parametrize("role", ["floor_supervisor", "compliance", "admin"])
def test_every_role_that_reads_reports_has_the_page(
    console: Callable[..., Console],
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
    clock: Clock,
    role: str,
) -> None:
    requester = make_staff("pit_boss")[1]
    table = make_table("BJ-01", pit_name="Main pit")
    ok(open_table(requester, table, {"100000": 10}), 201)
    reader = console(role, pits=(table.table.pit,) if role == "floor_supervisor" else ())

    reader.open("/floor/")
    reader.follow(".mainnav a[href='/floor/reports/']")
    reader.wait_for_text("PROVISIONAL")
    assert "BJ-01" in reader.read("#checklist-open")
    reader.screenshot(f"reports-{role}-during-the-shift")
    reader.follow("nav.report-kinds a[href$='/month/']")
    reader.wait_for_text("Month to date from 2026-11-01")
    reader.screenshot(f"reports-{role}-month-to-date")
