"""The admin site in a real headless Chromium: limits are read-only there, compliance only reads."""

import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from audit.context import AuditActor
from casino.models import StaffProfile, TableLimit, TableRuleChange
from casino.services.provisioning import create_staff, provision_table
from casino.services.rule_changes import approve_rule_change

pytestmark = pytest.mark.django_db(transaction=True)

# Generous: a loaded machine can take seconds to answer; each wait ends as soon as the page shows
# what the test waits for. Admin browser tests wait for what they check, never for a fixed time.
WAIT_SECONDS = 30


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.fail("chromium and chromedriver are required: `make test` installs them (Debian packages)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1280,900"):  # fmt: skip
        options.add_argument(flag)
    # A profile of its own: Chromium refuses a profile another run (another checkout) has open.
    profile = tempfile.mkdtemp(prefix="casino-admin-test-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    chrome = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    chrome.implicitly_wait(5)
    yield chrome
    chrome.quit()
    shutil.rmtree(profile, ignore_errors=True)


def log_in(browser: WebDriver, base: str, username: str, password: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{base}/admin/login/")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    # Wait for the login to land before navigating on, or the two page loads race.
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: "/admin/login/" not in b.current_url)


def test_the_admin_shows_a_tables_limits_read_only_and_they_change_through_the_console(
    browser: WebDriver, live_server: Any
) -> None:
    """An existing table's limits and house rules change only with maker-checker (floor console)."""
    made = provision_table(name="BJ-ADMIN", decks=6, now=timezone.now())
    boss = create_staff(username="boss", role="pit_boss", password="boss-pass-2026", now=timezone.now())
    other = create_staff(username="other-boss", role="pit_boss", now=timezone.now())
    StaffProfile.objects.get(user_id=boss.user.pk).pits.set([made.table.pit])
    log_in(browser, live_server.url, "boss", "boss-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/table/{made.table.pk}/change/")
    WebDriverWait(browser, 30).until(lambda b: "BJ-ADMIN" in b.page_source)
    page = browser.page_source  # read once the page is in: no waiting for what must be absent
    for name in ("limits-0-min_cents", "limits-0-max_cents", "surrender", "aggregate_limit_cents", "decks"):
        assert f'name="{name}"' not in page
    assert 'name="name"' in page  # the table itself is still configured here

    # The same pit boss asks on the console; another pit boss approves.
    browser.get(f"{live_server.url}/floor/rule-changes/new/?table={made.table.pk}")
    field = WebDriverWait(browser, 30).until(lambda b: b.find_element(By.NAME, "limit_primary_max"))
    field.clear()
    field.send_keys("2,500.00")
    browser.find_element(By.NAME, "reason").send_keys("High-limit weekend")
    browser.find_element(By.CSS_SELECTOR, "form.rule-change-form button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda b: "Awaiting approval" in b.page_source)
    change = TableRuleChange.objects.get(table=made.table)
    approve_rule_change(
        change_id=change.pk,
        user=other.user,
        actor=AuditActor(kind="user", user_id=other.user.pk, username="other-boss", role="pit_boss"),
        now=timezone.now(),
    )

    assert TableLimit.objects.get(table=made.table, kind="primary").max_cents == 250_000


def test_compliance_reads_tables_but_cannot_change_them(browser: WebDriver, live_server: Any) -> None:
    made = provision_table(name="BJ-READ", decks=8, now=timezone.now())
    create_staff(username="auditor", role="compliance", password="auditor-pass-2026", now=timezone.now())
    log_in(browser, live_server.url, "auditor", "auditor-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/table/{made.table.pk}/change/")

    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: "BJ-READ" in b.page_source)
    assert browser.find_elements(By.NAME, "_save") == []
    assert browser.find_elements(By.NAME, "limits-0-max_cents") == []
