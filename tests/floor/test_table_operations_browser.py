"""Table operations in a real Chromium, as the floor supervisors and pit bosses run them: open a
table from the previous closer, a fill approved by a second person, a slip voided by a second
person, a round voided with a reason. Refusals and bad input are in test_table_operations.py."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from selenium.webdriver.common.by import By

from blackjack.models import Round
from casino.models import InventoryKind, TableInventory
from table_money.models import ChipSlip, SlipStatus
from tests.support.console import Console
from tests.support.floor_operations import (
    DAY_SHIFT,
    FixedClock,
    Tables,
    closed_in_previous_shift,
    open_now,
    open_round_at,
    requested_fill,
    staff_user,
)

pytestmark = pytest.mark.django_db(transaction=True)

Consoles = Callable[..., Console]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> FixedClock:
    # The live server runs in this process: it reads the same fixed clock.
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"
    fixed = FixedClock(DAY_SHIFT)
    monkeypatch.setattr(timezone, "now", fixed)
    return fixed


def user_of(console: Console) -> AbstractBaseUser:
    return get_user_model().objects.get(username=console.username)


def test_a_supervisor_opens_a_table_proposed_from_the_previous_closer_with_a_difference_flagged(
    console: Consoles, make_table: Tables
) -> None:
    actors = make_table("BJ-OPEN")
    supervisor = console("floor_supervisor", pits=(actors.table.pit,))
    closed_in_previous_shift(actors, by=user_of(supervisor))

    supervisor.open(f"/floor/tables/{actors.table.pk}/")
    supervisor.follow(".actions a[href$='/open/']")
    supervisor.wait_for_text("Proposed from the previous closer")
    assert supervisor.attribute("#id_count_2500", "value") == "40"
    assert supervisor.attribute("#id_total", "value") == "$3,500.00"
    supervisor.type_into("#id_count_2500", "38")
    # Flagged as it is typed, before the form is sent.
    supervisor.wait_for(
        lambda b: "(difference -$50.00)" in b.find_element(By.CSS_SELECTOR, ".chips-value").text
    )
    assert "differs" in (supervisor.attribute("tr[data-denomination='2500']", "class") or "")
    supervisor.type_into("#id_total", "3,450.00")
    supervisor.follow("form.count button[type=submit]")

    supervisor.wait_for_text("1 denomination differs from the previous closer")
    assert [
        row.get_attribute("data-denomination")
        for row in supervisor.browser.find_elements(By.CSS_SELECTOR, "tr.differs")
    ] == ["2500"]
    assert supervisor.read(".review .difference") == "-$50.00"
    supervisor.screenshot("operations-open-floor_supervisor")
    supervisor.follow("form.count button[type=submit]")

    supervisor.wait_for_text("BJ-OPEN is open for the 2026-11-20 day shift with $3,450.00.")
    assert "Open" in supervisor.read("h1 .status")
    assert "Opener of the 2026-11-20 day shift" in supervisor.read(".latest-count")
    supervisor.screenshot("operations-table-floor_supervisor")
    opener = TableInventory.objects.filter(table=actors.table, kind=InventoryKind.OPENER).latest("pk")
    assert (opener.total_cents, opener.previous_closer_cents) == (345_000, 350_000)


def test_a_fill_requested_by_one_supervisor_is_approved_by_a_second(
    console: Consoles, make_table: Tables
) -> None:
    actors = make_table("BJ-FILL")
    requester = console("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=user_of(requester))

    requester.open(f"/floor/tables/{actors.table.pk}/")
    requester.follow(".actions a[href$='?kind=fill']")
    requester.wait_for_text("Request a fill or credit")
    requester.type_into("#id_count_10000", "10")
    requester.type_into("#id_count_2500", "8")
    requester.type_into("#id_total", "1,200.00")
    requester.follow("form.count button[type=submit]")
    requester.wait_for_text("Fill #1 for $1,200.00 is requested: a second supervisor approves it.")
    pending = requester.read("#pending-fill-1")
    assert "You requested this slip" in pending
    # The requester is not offered what would be refused: no Approve, no Void; Print stays.
    assert "Approve" not in pending
    assert "Void" not in pending
    assert "Print" in pending
    assert ChipSlip.objects.get().status == SlipStatus.PENDING

    approver = console("pit_boss", pits=(actors.table.pit,))
    approver.open(f"/floor/tables/{actors.table.pk}/")
    approver.follow("#pending-fill-1 button[type=submit]")
    approver.wait_for_text("Fill #1 for $1,200.00 is approved.")
    assert "Approved" in approver.read("#slip-fill-1")
    assert "No slip waits for approval." in approver.text()

    approver.follow("#slip-fill-1 a[href$='/print/']")
    approver.wait_for_text("No. 000001")
    assert "One thousand two hundred dollars and 00/100" in approver.text()
    # The Print button prints (console.js; the CSP allows no onclick): a stand-in print() counts.
    approver.browser.execute_script("window.printed = 0; window.print = () => { window.printed += 1; };")
    approver.find(".no-print button[data-print]").click()
    assert approver.browser.execute_script("return window.printed") == 1
    approver.screenshot("operations-slip-print")
    slip = ChipSlip.objects.get()
    assert (slip.status, slip.approved_by_id) == (SlipStatus.APPROVED, user_of(approver).pk)


def test_a_slip_is_voided_by_a_second_person_with_a_reason(console: Consoles, make_table: Tables) -> None:
    actors = make_table("BJ-VOID")
    voider = console("floor_supervisor", pits=(actors.table.pit,))
    requester = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=requester)
    slip = requested_fill(actors, by=requester, chips={"50000": 2})

    voider.open(f"/floor/tables/{actors.table.pk}/")
    voider.follow("#pending-fill-1 a[href$='/void/']")
    voider.wait_for_text("Reason for the void")
    voider.type_into("#id_reason", "Runner brought the wrong rack")
    voider.follow("form.stacked button[type=submit]")

    voider.wait_for_text("Fill #1 is void.")
    row = voider.read("#slip-fill-1")
    assert "Void" in row
    assert "Runner brought the wrong rack" in row
    slip.refresh_from_db()
    assert slip.status == SlipStatus.VOID
    assert slip.void.voided_by_id == user_of(voider).pk != slip.requested_by_user_id


def test_a_supervisor_voids_an_open_round_with_a_reason_after_confirming(
    console: Consoles, make_table: Tables
) -> None:
    actors = make_table("BJ-ROUND")
    round_id = open_round_at(actors)
    supervisor = console("floor_supervisor", pits=(actors.table.pit,))

    supervisor.open(f"/floor/tables/{actors.table.pk}/")
    supervisor.follow(f"#round-{round_id} a.button")
    supervisor.wait_for_text("Void a round at BJ-ROUND")
    assert supervisor.attribute("#id_round_id", "value") == str(round_id)
    supervisor.type_into("#id_reason", "Misdeal: two cards stuck together")
    supervisor.follow("form.stacked button[type=submit]")

    supervisor.wait_for_text(f"Void round {round_id} at BJ-ROUND?")
    assert "Misdeal: two cards stuck together" in supervisor.read(".reason")
    supervisor.screenshot("operations-void-round")
    assert Round.objects.get(pk=round_id).state == "dealing"
    supervisor.follow("form button.danger")

    supervisor.wait_for_text(f"Round {round_id} is void: every wager is returned.")
    assert "Misdeal: two cards stuck together" in supervisor.read(f"#round-{round_id}")
    round_ = Round.objects.get(pk=round_id)
    assert (round_.state, round_.voided_by_id) == ("void", user_of(supervisor).pk)
