"""The admin site in a real headless Chromium: the admin sees limits read-only there; a pit boss is
refused it and asks for a change on the floor console; compliance opens no table there."""

from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from audit.context import AuditActor
from casino.models import StaffProfile, TableLimit, TableRuleChange
from casino.services.rule_changes import approve_rule_change
from tests.support.console import Console, admin_log_in, sign_in
from tests.support.factories import ProvisionedTableFactory, StaffFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_admin_shows_a_tables_limits_read_only_and_they_change_through_the_console(
    chromium: WebDriver, live_server: Any
) -> None:
    """An existing table's limits and house rules change only with maker-checker (floor console)."""
    made = ProvisionedTableFactory.create(name="BJ-ADMIN")
    StaffFactory.create(username="configurer", role="admin", password="admin-pass-2026")
    boss = StaffFactory.create(username="boss", role="pit_boss", password="boss-pass-2026")
    other = StaffFactory.create(username="other-boss", role="pit_boss")
    StaffProfile.objects.get(user_id=boss.user.pk).pits.set([made.table.pit])
    admin = admin_log_in(chromium, live_server.url, "configurer", "admin-pass-2026")

    admin.open(f"/admin/casino/table/{made.table.pk}/change/")
    admin.wait_for(lambda b: "BJ-ADMIN" in b.page_source)
    page = chromium.page_source  # read once the page is in: no waiting for what must be absent
    for name in ("limits-0-min_cents", "limits-0-max_cents", "surrender", "aggregate_limit_cents", "decks"):
        assert f'name="{name}"' not in page
    assert 'name="name"' in page  # the table itself is still configured here

    # The pit boss of the table's pit asks on the console; another pit boss approves.
    boss_page = sign_in(chromium, live_server.url, "boss", "boss-pass-2026")
    boss_page.open(f"/floor/rule-changes/new/?table={made.table.pk}")
    boss_page.type_into("[name=limit_primary_max]", "2,500.00")
    boss_page.type_into("[name=reason]", "High-limit weekend")
    boss_page.follow("form.rule-change-form button[type=submit]")
    boss_page.wait_for_text("Awaiting approval")
    change = TableRuleChange.objects.get(table=made.table)
    approve_rule_change(
        change_id=change.pk,
        user=other.user,
        actor=AuditActor(kind="user", user_id=other.user.pk, username="other-boss", role="pit_boss"),
        now=timezone.now(),
    )

    assert TableLimit.objects.get(table=made.table, kind="primary").max_cents == 250_000


def test_a_pit_boss_signed_in_on_the_console_is_refused_the_admins_table_page(
    chromium: WebDriver, live_server: Any
) -> None:
    made = ProvisionedTableFactory.create(name="BJ-THEIRS", pit_name="Pit 1")
    ProvisionedTableFactory.create(name="BJ-MINE", pit_name="Pit B")
    StaffFactory.create(username="boss-b", role="pit_boss", password="boss-b-pass-2026", pits=["Pit B"])
    boss = sign_in(chromium, live_server.url, "boss-b", "boss-b-pass-2026")

    boss.open(f"/admin/casino/table/{made.table.pk}/change/")

    # The admin's sign-in page, saying this account may not enter: no table, no form to change it.
    boss.wait_for(lambda b: "not authorized to access this page" in b.page_source)
    page = chromium.page_source
    assert "/admin/login/" in chromium.current_url
    for name in ("BJ-THEIRS", "BJ-MINE", "Pit 1", "Pit B"):
        assert name not in page
    assert chromium.find_elements(By.NAME, "pit") == []
    boss.screenshot("admin-refused-pit_boss")


def test_a_pit_boss_cannot_sign_in_at_the_admin_site(chromium: WebDriver, live_server: Any) -> None:
    StaffFactory.create(username="boss-c", role="pit_boss", password="boss-c-pass-2026")
    chromium.delete_all_cookies()
    page = Console(browser=chromium, base_url=live_server.url, username="boss-c")
    page.open("/admin/login/")
    page.type_into("[name=username]", "boss-c")
    page.type_into("[name=password]", "boss-c-pass-2026")
    page.follow("input[type=submit]")

    page.wait_for(lambda b: "correct username and password for a staff account" in b.page_source)
    assert "/admin/login/" in chromium.current_url
    page.open("/admin/")
    page.wait_for(lambda b: "/admin/login/" in b.current_url)


def test_compliance_opens_no_table_in_the_admin_but_reads_the_audit_trail(
    chromium: WebDriver, live_server: Any
) -> None:
    made = ProvisionedTableFactory.create(name="BJ-READ", decks=8)
    StaffFactory.create(username="auditor", role="compliance", password="auditor-pass-2026")
    auditor = admin_log_in(chromium, live_server.url, "auditor", "auditor-pass-2026")

    auditor.open(f"/admin/casino/table/{made.table.pk}/change/")
    auditor.wait_for_text("Not allowed")
    assert "BJ-READ" not in chromium.page_source
    assert chromium.find_elements(By.NAME, "_save") == []

    auditor.open("/admin/audit/auditevent/")
    auditor.wait_for(lambda b: "casino.table.provisioned" in b.page_source)
    assert "BJ-READ" in chromium.page_source  # the table's provisioning, on the record
