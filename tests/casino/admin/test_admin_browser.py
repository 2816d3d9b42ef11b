"""The admin site in a real headless Chromium: the admin sees limits read-only there; a pit boss is
refused it and asks for a change on the floor console; compliance opens no table there."""

import base64
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
from tests.floor.conftest import SCREENSHOTS, sign_in

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


def screenshot(chrome: Any, name: str) -> None:
    """The whole page, not only the window, for review."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = chrome.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 4_000), "scale": 1}
    shot = chrome.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    (SCREENSHOTS / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))


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
    create_staff(username="configurer", role="admin", password="admin-pass-2026", now=timezone.now())
    boss = create_staff(username="boss", role="pit_boss", password="boss-pass-2026", now=timezone.now())
    other = create_staff(username="other-boss", role="pit_boss", now=timezone.now())
    StaffProfile.objects.get(user_id=boss.user.pk).pits.set([made.table.pit])
    log_in(browser, live_server.url, "configurer", "admin-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/table/{made.table.pk}/change/")
    WebDriverWait(browser, 30).until(lambda b: "BJ-ADMIN" in b.page_source)
    page = browser.page_source  # read once the page is in: no waiting for what must be absent
    for name in ("limits-0-min_cents", "limits-0-max_cents", "surrender", "aggregate_limit_cents", "decks"):
        assert f'name="{name}"' not in page
    assert 'name="name"' in page  # the table itself is still configured here

    # The pit boss of the table's pit asks on the console; another pit boss approves.
    sign_in(browser, live_server.url, "boss", "boss-pass-2026")
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


def test_a_pit_boss_signed_in_on_the_console_is_refused_the_admins_table_page(
    browser: WebDriver, live_server: Any
) -> None:
    made = provision_table(name="BJ-THEIRS", decks=6, pit_name="Pit 1", now=timezone.now())
    provision_table(name="BJ-MINE", decks=6, pit_name="Pit B", now=timezone.now())
    create_staff(
        username="boss-b", role="pit_boss", password="boss-b-pass-2026", pits=["Pit B"], now=timezone.now()
    )
    sign_in(browser, live_server.url, "boss-b", "boss-b-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/table/{made.table.pk}/change/")

    # The admin's sign-in page, saying this account may not enter: no table, no form to change it.
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda b: "not authorized to access this page" in b.page_source
    )
    page = browser.page_source
    assert "/admin/login/" in browser.current_url
    for name in ("BJ-THEIRS", "BJ-MINE", "Pit 1", "Pit B"):
        assert name not in page
    assert browser.find_elements(By.NAME, "pit") == []
    screenshot(browser, "admin-refused-pit_boss")


def test_a_pit_boss_cannot_sign_in_at_the_admin_site(browser: WebDriver, live_server: Any) -> None:
    create_staff(username="boss-c", role="pit_boss", password="boss-c-pass-2026", now=timezone.now())
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/admin/login/")
    browser.find_element(By.NAME, "username").send_keys("boss-c")
    browser.find_element(By.NAME, "password").send_keys("boss-c-pass-2026")
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()

    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda b: "correct username and password for a staff account" in b.page_source
    )
    assert "/admin/login/" in browser.current_url
    browser.get(f"{live_server.url}/admin/")
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: "/admin/login/" in b.current_url)


def test_compliance_opens_no_table_in_the_admin_but_reads_the_audit_trail(
    browser: WebDriver, live_server: Any
) -> None:
    made = provision_table(name="BJ-READ", decks=8, now=timezone.now())
    create_staff(username="auditor", role="compliance", password="auditor-pass-2026", now=timezone.now())
    log_in(browser, live_server.url, "auditor", "auditor-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/table/{made.table.pk}/change/")
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: "Not allowed" in b.page_source)
    assert "BJ-READ" not in browser.page_source
    assert browser.find_elements(By.NAME, "_save") == []

    browser.get(f"{live_server.url}/admin/audit/auditevent/")
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: "casino.table.provisioned" in b.page_source)
    assert "BJ-READ" in browser.page_source  # the table's provisioning, on the record
