"""A floor supervisor unlocks a dealer locked after wrong PINs, in the admin site in a real
headless Chromium; compliance is not offered the action."""

from typing import Any

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from audit.models import AuditEvent
from casino.models import Dealer
from casino.services.provisioning import ProvisionedTable, create_staff, provision_table
from tests.casino.admin.test_admin_browser import (  # noqa: F401  (the browser fixture)
    WAIT_SECONDS,
    browser,
    log_in,
)
from tests.conftest import client_with_token, post, restore_migrated_rows

pytestmark = pytest.mark.django_db(transaction=True)


def locked_dealer(name: str) -> ProvisionedTable:
    restore_migrated_rows()
    made = provision_table(name=name, decks=6, now=timezone.now())
    terminal = client_with_token(made.terminal_token)
    for _ in range(5):
        post(terminal, "/api/v1/terminal/sign-in/", {"badge": made.dealer.badge, "pin": "wrong-pin"})
    assert Dealer.objects.get(pk=made.dealer.pk).locked_at is not None
    return made


def test_a_floor_supervisor_unlocks_a_locked_dealer(browser: WebDriver, live_server: Any) -> None:  # noqa: F811
    made = locked_dealer("BJ-LOCK")
    create_staff(username="floor", role="floor_supervisor", password="floor-pass-2026", now=timezone.now())
    log_in(browser, live_server.url, "floor", "floor-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/dealer/?q={made.dealer.badge}")
    browser.find_element(By.CSS_SELECTOR, f"input.action-select[value='{made.dealer.pk}']").click()
    Select(browser.find_element(By.NAME, "action")).select_by_value("unlock")
    browser.find_element(By.NAME, "index").click()

    WebDriverWait(browser, WAIT_SECONDS).until(
        expected_conditions.text_to_be_present_in_element(
            (By.CSS_SELECTOR, "ul.messagelist"), f"Dealer {made.dealer.badge} unlocked."
        )
    )
    dealer = Dealer.objects.get(pk=made.dealer.pk)
    assert (dealer.locked_at, dealer.sign_in_failures) == (None, 0)
    (event,) = AuditEvent.objects.filter(event_type="casino.dealer.unlocked")
    assert (event.username, event.role, event.subject_label) == (
        "floor",
        "floor_supervisor",
        made.dealer.badge,
    )
    terminal = client_with_token(made.terminal_token)
    signed_in = post(
        terminal, "/api/v1/terminal/sign-in/", {"badge": made.dealer.badge, "pin": made.dealer_pin}
    )
    assert signed_in.status_code == 200, signed_in.content


def test_compliance_is_not_offered_the_unlock(browser: WebDriver, live_server: Any) -> None:  # noqa: F811
    made = locked_dealer("BJ-LOCK2")
    create_staff(username="reader", role="compliance", password="reader-pass-2026", now=timezone.now())
    log_in(browser, live_server.url, "reader", "reader-pass-2026")

    browser.get(f"{live_server.url}/admin/casino/dealer/?q={made.dealer.badge}")

    WebDriverWait(browser, WAIT_SECONDS).until(
        expected_conditions.presence_of_element_located((By.ID, "result_list"))
    )
    actions = browser.find_elements(By.CSS_SELECTOR, "select[name=action] option")
    assert "unlock" not in [option.get_attribute("value") for option in actions]
    assert made.dealer.badge in browser.page_source
    assert Dealer.objects.get(pk=made.dealer.pk).locked_at is not None
