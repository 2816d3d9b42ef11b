"""The Content-Security-Policy in a real Chromium: every console page of each role and the admin
site's pages load with no violation reported, and the console still works under it (the count
form's running total, htmx's refresh of the floor).

A `securitypolicyviolation` listener is installed in every document before any of the page's own
scripts run (Chromium's DevTools `Page.addScriptToEvaluateOnNewDocument`; the policy does not
apply to it); each page's violations are read once it has loaded. A control page breaks the
policy on purpose, to show the listener hears violations."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from casino.models import StaffRole
from tests.floor.conftest import Console
from tests.support.api import TableActors

pytestmark = pytest.mark.django_db(transaction=True)

LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture
def hears_violations(chromium: WebDriver) -> Iterator[None]:
    added = chromium.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LISTENER})
    yield
    chromium.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def violations_on(console: Console, path: str) -> list[str]:
    console.open(path)
    # Wait for the page to finish loading (deferred scripts and styles included).
    console.wait_for(lambda b: b.execute_script("return document.readyState") == "complete")
    heard = console.browser.execute_script(
        "return window.__cspViolations === undefined ? null : window.__cspViolations"
    )
    return ["no listener on the page"] if heard is None else list(heard)


def test_the_console_pages_of_every_role_report_no_violation(
    hears_violations: None, console: Callable[..., Console], make_table: Callable[..., TableActors]
) -> None:
    actors = make_table("BJ-CSP", signed_in=False, pit_name="Pit 1")
    table_id = actors.table.pk
    boss = console(StaffRole.PIT_BOSS, pits=(actors.table.pit,))
    found: dict[str, list[str]] = {}
    for path in ["/floor/", f"/floor/tables/{table_id}/", f"/floor/tables/{table_id}/open/",
                 "/floor/rounds/", "/floor/rule-changes/", "/floor/patrons/",
                 "/floor/ratings/", "/floor/password/"]:  # fmt: skip
        found[path] = violations_on(boss, path)

    # The count form's running total is console.js at work under the policy.
    boss.open(f"/floor/tables/{table_id}/open/")
    boss.wait_for(
        lambda b: "The chips entered come to $0.00" in b.find_element(By.CSS_SELECTOR, ".chips-value").text
    )
    # htmx is loaded and refreshes the floor by itself (no inline script, no eval).
    boss.open("/floor/")
    first = boss.find("#pit-map .refreshed").text
    boss.wait_for(lambda b: b.find_element(By.CSS_SELECTOR, "#pit-map .refreshed").text != first)
    found["/floor/ after a refresh"] = list(boss.browser.execute_script("return window.__cspViolations"))

    for role, paths in [(StaffRole.COMPLIANCE, ["/floor/", "/floor/compliance/", "/floor/rounds/"]),
                        (StaffRole.CAGE_CASHIER, ["/floor/cage/", "/floor/patrons/"]),
                        (StaffRole.COUNT_TEAM, ["/floor/count/"])]:  # fmt: skip
        staff = console(role)
        for path in paths:
            found[f"{role} {path}"] = violations_on(staff, path)

    assert found == {page: [] for page in found}


def test_the_admin_site_and_the_sign_in_pages_report_no_violation(
    hears_violations: None, console: Callable[..., Console], live_server: Any
) -> None:
    admin = console(StaffRole.ADMIN)
    paths = ["/admin/", "/admin/casino/table/", "/admin/casino/table/add/", "/admin/casino/dealer/",
             "/admin/casino/staffsigninlock/", "/admin/audit/auditevent/", "/admin/auth/user/",
             "/admin/password_change/"]  # fmt: skip
    found = {path: violations_on(admin, path) for path in paths}
    admin.browser.delete_all_cookies()
    for path in ["/admin/login/", "/floor/login/"]:
        admin.browser.get(f"{live_server.url}{path}")
        admin.wait_for(lambda b: b.execute_script("return document.readyState") == "complete")
        found[path] = list(admin.browser.execute_script("return window.__cspViolations"))

    assert found == {path: [] for path in found}


def test_the_listener_hears_a_violation(hears_violations: None, console: Callable[..., Console]) -> None:
    boss = console(StaffRole.PIT_BOSS)
    assert violations_on(boss, "/floor/") == []

    boss.browser.execute_script(
        "document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">inline</p>');"
    )

    boss.wait_for(lambda b: b.execute_script("return window.__cspViolations.length") > 0)
    assert boss.browser.execute_script("return window.__cspViolations")[0].startswith("style-src-attr")
