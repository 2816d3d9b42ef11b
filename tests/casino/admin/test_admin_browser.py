"""The admin site in a real headless Chromium: pit bosses change limits, compliance only reads."""

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from casino.models import TableLimit
from casino.services.provisioning import create_staff, provision_table

pytestmark = pytest.mark.django_db(transaction=True)


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
    options.add_argument("--user-data-dir=/tmp/casino-admin-test-chromium")
    chrome = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    chrome.implicitly_wait(5)
    yield chrome
    chrome.quit()


def log_in(browser: WebDriver, base: str, username: str, password: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{base}/admin/login/")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    # Wait for the login to land before navigating on, or the two page loads race.
    WebDriverWait(browser, 10).until(lambda b: "/admin/login/" not in b.current_url)


def test_a_pit_boss_changes_a_table_limit_in_the_admin(browser: WebDriver, live_server: Any) -> None:
    made = provision_table(name="BJ-ADMIN", decks=6, now=timezone.now())
    create_staff(username="boss", role="pit_boss", password="boss-pass-2026", now=timezone.now())
    log_in(browser, live_server.url, "boss", "boss-pass-2026")
    assert (
        "Site administration" in browser.page_source
        or "Tables, rounds, money and audit" in browser.page_source
    )

    browser.get(f"{live_server.url}/admin/casino/table/{made.table.pk}/change/")
    primary_row = TableLimit.objects.get(table=made.table, kind="primary")
    index = list(
        TableLimit.objects.filter(table=made.table).order_by("pk").values_list("pk", flat=True)
    ).index(primary_row.pk)
    field = browser.find_element(By.NAME, f"limits-{index}-max_cents")
    field.clear()
    field.send_keys("250000")
    browser.find_element(By.NAME, "_save").click()

    assert "was changed successfully" in browser.page_source
    primary_row.refresh_from_db()
    assert primary_row.max_cents == 250_000


def test_compliance_reads_tables_but_cannot_change_them(browser: WebDriver, live_server: Any) -> None:
    made = provision_table(name="BJ-READ", decks=8, now=timezone.now())
    create_staff(username="auditor", role="compliance", password="auditor-pass-2026", now=timezone.now())
    log_in(browser, live_server.url, "auditor", "auditor-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/table/{made.table.pk}/change/")

    assert "BJ-READ" in browser.page_source
    assert browser.find_elements(By.NAME, "_save") == []
    assert browser.find_elements(By.NAME, "limits-0-max_cents") == []
