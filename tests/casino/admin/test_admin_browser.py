"""The admin site in a real headless Chromium: limits are read-only there, compliance only reads."""

from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from audit.context import AuditActor
from casino.models import StaffProfile, TableLimit, TableRuleChange
from casino.services.provisioning import create_staff, provision_table
from casino.services.rule_changes import approve_rule_change
from tests.support.browser import WAIT_SECONDS
from tests.support.console import admin_log_in

pytestmark = pytest.mark.django_db(transaction=True)

__all__ = [
    "WAIT_SECONDS",
    "browser",
    "log_in",
]  # what admin browser tests written before tests/support import


@pytest.fixture
def browser(chromium: WebDriver) -> WebDriver:
    """The plugin's Chromium, by the name the admin browser tests first gave it."""
    return chromium


def log_in(browser: WebDriver, base: str, username: str, password: str) -> None:
    admin_log_in(browser, base, username, password)


def test_the_admin_shows_a_tables_limits_read_only_and_they_change_through_the_console(
    chromium: WebDriver, live_server: Any
) -> None:
    """An existing table's limits and house rules change only with maker-checker (floor console)."""
    made = provision_table(name="BJ-ADMIN", decks=6, now=timezone.now())
    boss = create_staff(username="boss", role="pit_boss", password="boss-pass-2026", now=timezone.now())
    other = create_staff(username="other-boss", role="pit_boss", now=timezone.now())
    StaffProfile.objects.get(user_id=boss.user.pk).pits.set([made.table.pit])
    boss_page = admin_log_in(chromium, live_server.url, "boss", "boss-pass-2026")

    boss_page.open(f"/admin/casino/table/{made.table.pk}/change/")
    boss_page.wait_for(lambda b: "BJ-ADMIN" in b.page_source)
    page = chromium.page_source  # read once the page is in: no waiting for what must be absent
    for name in ("limits-0-min_cents", "limits-0-max_cents", "surrender", "aggregate_limit_cents", "decks"):
        assert f'name="{name}"' not in page
    assert 'name="name"' in page  # the table itself is still configured here

    # The same pit boss asks on the console; another pit boss approves.
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


def test_compliance_reads_tables_but_cannot_change_them(chromium: WebDriver, live_server: Any) -> None:
    made = provision_table(name="BJ-READ", decks=8, now=timezone.now())
    create_staff(username="auditor", role="compliance", password="auditor-pass-2026", now=timezone.now())
    auditor = admin_log_in(chromium, live_server.url, "auditor", "auditor-pass-2026")

    auditor.open(f"/admin/casino/table/{made.table.pk}/change/")

    auditor.wait_for(lambda b: "BJ-READ" in b.page_source)
    assert chromium.find_elements(By.NAME, "_save") == []
    assert chromium.find_elements(By.NAME, "limits-0-max_cents") == []
