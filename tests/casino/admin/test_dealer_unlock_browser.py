"""The admin unlocks a dealer locked after wrong PINs, in the admin site in a real headless
Chromium; compliance does not even see the dealers there. (A floor supervisor unlocks through the
API, `POST /api/v1/dealers/{id}/unlock/`: the admin site admits no floor role.)"""

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from audit.models import AuditEvent
from casino.models import Dealer
from casino.services.provisioning import ProvisionedTable
from tests.support.api import client_with_token, post
from tests.support.console import admin_log_in
from tests.support.factories import ProvisionedTableFactory, StaffFactory, restore_migrated_rows

pytestmark = pytest.mark.django_db(transaction=True)


def locked_dealer(name: str) -> ProvisionedTable:
    restore_migrated_rows()
    made = ProvisionedTableFactory.create(name=name)
    terminal = client_with_token(made.terminal_token)
    for _ in range(5):
        post(terminal, "/api/v1/terminal/sign-in/", {"badge": made.dealer.badge, "pin": "wrong-pin"})
    assert Dealer.objects.get(pk=made.dealer.pk).locked_at is not None
    return made


def test_the_admin_unlocks_a_locked_dealer(chromium: WebDriver, live_server: Any) -> None:
    made = locked_dealer("BJ-LOCK")
    StaffFactory.create(username="configurer", role="admin", password="admin-pass-2026")
    page = admin_log_in(chromium, live_server.url, "configurer", "admin-pass-2026")

    page.open(f"/admin/casino/dealer/?q={made.dealer.badge}")
    page.click(f"input.action-select[value='{made.dealer.pk}']")
    page.select_value("select[name=action]", "unlock")
    page.follow("[name=index]")

    assert f"Dealer {made.dealer.badge} unlocked." in page.read("ul.messagelist")
    dealer = Dealer.objects.get(pk=made.dealer.pk)
    assert (dealer.locked_at, dealer.sign_in_failures) == (None, 0)
    (event,) = AuditEvent.objects.filter(event_type="casino.dealer.unlocked")
    assert (event.username, event.role, event.subject_label) == ("configurer", "admin", made.dealer.badge)
    terminal = client_with_token(made.terminal_token)
    signed_in = post(
        terminal, "/api/v1/terminal/sign-in/", {"badge": made.dealer.badge, "pin": made.dealer_pin}
    )
    assert signed_in.status_code == 200, signed_in.content


def test_compliance_is_refused_the_dealers(chromium: WebDriver, live_server: Any) -> None:
    made = locked_dealer("BJ-LOCK2")
    StaffFactory.create(username="reader", role="compliance", password="reader-pass-2026")
    page = admin_log_in(chromium, live_server.url, "reader", "reader-pass-2026")

    page.open(f"/admin/casino/dealer/?q={made.dealer.badge}")

    page.wait_for_text("Not allowed")
    assert chromium.find_elements(By.ID, "result_list") == []
    assert chromium.find_elements(By.CSS_SELECTOR, "select[name=action]") == []
    assert made.dealer.badge not in chromium.page_source
    assert Dealer.objects.get(pk=made.dealer.pk).locked_at is not None
