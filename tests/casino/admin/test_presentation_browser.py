"""The admin site as the admin sees it in a real headless Chromium (the only role that opens these
pages: a pit boss reads rounds and slips on the floor console): readable names and plurals on the
index with the way to the floor console, a round's wagers, cards and settlement in dollars, a chip
slip's chips as a denomination table. Saves a screenshot of each page for review."""

import base64
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.support.api import TableActors, client_with_token, ok, open_table, post, request_slip
from tests.support.console import SCREENSHOTS, admin_log_in
from tests.support.factories import ProvisionedTableFactory, StaffFactory, restore_migrated_rows
from tests.support.rounds import play_round, wager

pytestmark = pytest.mark.django_db(transaction=True)


def screenshot(chrome: Any, name: str) -> None:
    """The whole page, not only the window, for review."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = chrome.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 4_000), "scale": 1}
    shot = chrome.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    (SCREENSHOTS / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))


def test_the_admin_reads_the_admin_site_in_dollars_local_time_and_proper_names(
    chromium: WebDriver,
    live_server: Any,
) -> None:
    restore_migrated_rows()
    made = ProvisionedTableFactory.create(name="BJ-SHOW")
    actors = TableActors(provisioned=made, terminal=client_with_token(made.terminal_token))
    actors.sign_in()
    supervisor = StaffFactory.create(username="floor-show", role="floor_supervisor")
    ok(open_table(client_with_token(supervisor.token), actors, {"100000": 2}), 201)
    fill = ok(request_slip(actors.terminal, "fill", {"10000": 2, "2500": 4}), 201)
    ok(post(actors.terminal, "/api/v1/shoes/", {"mode": "reported"}), 201)
    played = play_round(
        actors,
        [{"seat": 2, "wagers": [wager("primary", 10_000), wager("T18", 200)]}],
        ["TS", "9H", "8C", "9D"],
        [{"seat": 2, "hand": 0, "action": "stand"}],
    )
    StaffFactory.create(username="admin-show", role="admin", password="admin-show-2026")
    admin = admin_log_in(chromium, live_server.url, "admin-show", "admin-show-2026")

    admin.open("/admin/")
    index = admin.wait_for_text("Table inventories")
    for label in ("Buy-ins", "Chip slips", "Ledger accounts", "Staff members", "Specials rounds", "Matches",
                  "Paytable versions"):  # fmt: skip
        assert label in index
    for app in ("Casino floor", "Tie bonus", "Specials"):  # captions are shown in capitals
        assert app.upper() in index
    assert "inventorys" not in index.lower()
    floor_link = chromium.find_element(By.CSS_SELECTOR, "#site-name a.floor-console")
    assert (floor_link.text, floor_link.get_attribute("href")) == (
        "Floor console",
        f"{live_server.url}/floor/",
    )
    assert "object (" not in index
    screenshot(chromium, "admin-index-admin")

    admin.open(f"/admin/blackjack/round/{played['id']}/change/")
    page = admin.wait_for_text("House net -$90.00")
    wagers = chromium.find_element(By.ID, "wagers-group").text
    assert "$100.00" in wagers
    assert "$2.00" in wagers
    cards = chromium.find_element(By.ID, "events-group").text
    assert "CARDS AND ACTIONS, IN DEALING ORDER" in cards.upper()
    dealt = [cell.text for cell in chromium.find_elements(By.CSS_SELECTOR, "#events-group td.field-card")]
    assert [card for card in dealt if card not in ("", "-")] == ["TS", "9H", "8C", "9D"]  # in dealing order
    settlement = chromium.find_element(By.CSS_SELECTOR, "table.settlement").text
    assert "$92.00" in settlement
    assert "Paid $192.00" in settlement
    assert f"Round {played['id']} at BJ-SHOW (settled)" in page
    assert "object (" not in page
    screenshot(chromium, "admin-round-admin")

    admin.open(f"/admin/table_money/chipslip/{fill['id']}/change/")
    page = admin.wait_for_text(f"Fill #{fill['number']} BJ-SHOW $300.00")
    chips = chromium.find_element(By.CSS_SELECTOR, "table.chips")
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in chips.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]
    assert rows == [["$100.00", "2", "$200.00"], ["$25.00", "4", "$100.00"]]
    assert "$300.00" in chips.find_element(By.TAG_NAME, "tfoot").text
    assert "object (" not in page
    assert '"10000"' not in page
    screenshot(chromium, "admin-slip-admin")
