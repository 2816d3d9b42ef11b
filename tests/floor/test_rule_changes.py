"""Limit and house-rule changes in a real headless Chromium: requested by one person, approved by
a pit boss who is not the requester, in force from the table's next round."""

from collections.abc import Callable

import pytest
from selenium.webdriver.common.by import By

from blackjack.models import Round
from casino.models import RuleChangeStatus, Table, TableLimit, TableRuleChange
from tests.support.api import client_with_token, post
from tests.support.console import Console
from tests.support.factories import ProvisionedTableFactory, restore_migrated_rows

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_supervisor_requests_a_limit_change_and_a_pit_boss_approves_it(
    console: Callable[..., Console],
) -> None:
    restore_migrated_rows()  # the approved paytable the next round opens under
    made = ProvisionedTableFactory.create(name="BJ-LIMITS", pit_name="Pit 1")
    pit = made.table.pit

    supervisor = console("floor_supervisor", pits=(pit,))
    supervisor.open("/floor/rule-changes/")
    supervisor.follow("form.request-change button[type=submit]")
    supervisor.wait_for_text("Request a limit or house-rule change: BJ-LIMITS")
    supervisor.type_into("[name=limit_primary_min]", "25.00")
    supervisor.type_into("[name=limit_primary_max]", "2,500.00")
    supervisor.type_into("[name=reason]", "High-limit weekend: players asked for $2,500 hands")
    supervisor.browser.execute_script("window.scrollTo(0, 0)")
    supervisor.screenshot("rule-changes-request-floor_supervisor")
    supervisor.follow("form.rule-change-form button[type=submit]")
    page = supervisor.wait_for_text("Awaiting approval")
    assert "$5.00 to $1,000.00" in page
    assert "$25.00 to $2,500.00" in page
    assert TableLimit.objects.get(table=made.table, kind="primary").max_cents == 100_000

    boss = console("pit_boss", pits=(pit,))
    change = TableRuleChange.objects.get(table=made.table)
    boss.open(f"/floor/rule-changes/{change.pk}/")
    boss.wait_for_text("High-limit weekend")
    boss.screenshot("rule-changes-approve-pit_boss")
    boss.follow("#approve")
    boss.wait_for_text("In effect since")
    change.refresh_from_db()
    assert change.status == RuleChangeStatus.APPLIED
    boss.open("/floor/rule-changes/")
    boss.wait_for_text("Recent changes")
    boss.screenshot("rule-changes-list")

    # The table's next round is held to the new limits.
    terminal = client_with_token(made.terminal_token)
    signed = post(terminal, "/api/v1/terminal/sign-in/", {"badge": made.dealer.badge, "pin": made.dealer_pin})
    assert signed.status_code == 200
    assert post(terminal, "/api/v1/shoes/", {"mode": "reported"}).status_code == 201
    below = post(
        terminal,
        "/api/v1/rounds/",
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]},
    )
    assert below.json()["code"] == "below_table_minimum"
    opened = post(
        terminal,
        "/api/v1/rounds/",
        {"seats": [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 250_000}]}]},
    )
    assert opened.status_code == 201
    assert Round.objects.get(pk=opened.json()["id"]).opening[0]["primary_cents"] == 250_000


def test_a_pit_boss_requests_a_house_rule_change_that_only_another_pit_boss_approves(
    console: Callable[..., Console],
) -> None:
    made = ProvisionedTableFactory.create(name="BJ-RULES", pit_name="Pit 1")
    pit = made.table.pit

    requester = console("pit_boss", pits=(pit,))
    requester.open(f"/floor/rule-changes/new/?table={made.table.pk}")
    requester.click("[name=rule_dealer_hits_soft_17][value=yes]")
    requester.click("[name=rule_blackjack_pays] option[value='6:5']")
    requester.type_into("[name=reason]", "Match the other tables of the pit")
    requester.follow("form.rule-change-form button[type=submit]")
    requester.wait_for_text("You requested this change: another pit boss approves or rejects it.")
    assert requester.browser.find_elements(By.ID, "approve") == []
    change = TableRuleChange.objects.get(table=made.table)
    assert change.changes == {"limits": {}, "rules": {"dealer_hits_soft_17": True, "blackjack_pays": "6:5"}}

    second = console("pit_boss", pits=(pit,))
    second.open(f"/floor/rule-changes/{change.pk}/")
    second.follow("#approve")
    assert "Dealer hits soft 17 (H17)" in second.wait_for_text("In effect since")
    table = Table.objects.get(pk=made.table.pk)
    assert (table.dealer_hits_soft_17, table.blackjack_pays_num, table.blackjack_pays_den) == (True, 6, 5)
