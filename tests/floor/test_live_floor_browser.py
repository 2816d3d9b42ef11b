"""The live floor in a real headless Chromium, as each role sees it: the pit boss's tables with
their figures, which change by themselves when the terminal plays a round; another pit's
supervisor sees none of them; compliance sees every table and no action. The styled error pages."""

from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from casino.models import StaffRole
from tests.support.api import TableActors
from tests.support.console import Console, sign_in
from tests.support.factories import UserFactory
from tests.support.live_floor import open_for_play, play_a_losing_hand, staff
from tests.support.rounds import open_shoe

pytestmark = pytest.mark.django_db(transaction=True)


def card_text(console: Console, table_id: int) -> str:
    # Read in one retrying step: the page replaces its pit map every 5 s.
    return console.read(f"#table-{table_id}")


def test_the_pit_boss_watches_their_tables_figures_change_without_reloading(
    console: Callable[..., Console], make_table: Callable[..., TableActors], settings: Any
) -> None:
    settings.CASINO_HOLD_ALERT_MIN_DROP_CENTS = 50_000  # the table's $500 drop is enough for an alert
    actors = make_table("BJ-LIVE", signed_in=False, pit_name="Pit 1")
    make_table("BJ-OTHER-PIT", signed_in=False, pit_name="Pit 2")
    open_for_play(actors, supervisor=staff(StaffRole.PIT_BOSS, pits=("Pit 1",)), buy_in_cents=50_000)
    open_shoe(actors)
    boss = console(StaffRole.PIT_BOSS, pits=(actors.table.pit,))

    boss.open("/floor/")
    boss.wait_for_text("BJ-LIVE")
    assert "BJ-OTHER-PIT" not in boss.text()
    assert "$500.00" in card_text(boss, actors.table.pk)  # the drop
    assert "Hold 0.00% is outside the expected 10.00-20.00%." in card_text(boss, actors.table.pk)
    assert boss.read(f"#table-{actors.table.pk} .actions a") == "Open, close, slips…"

    play_a_losing_hand(actors, stake_cents=10_000)

    # The page refreshes its pit map by itself: win so far $100.00, hold 20.00 %, alert gone.
    boss.wait_for(lambda b: "$100.00" in b.find_element(By.ID, f"table-{actors.table.pk}").text)
    assert "20.00%" in card_text(boss, actors.table.pk)
    assert "outside the expected" not in card_text(boss, actors.table.pk)
    boss.screenshot("floor-home-pit_boss")


def test_a_supervisor_of_another_pit_sees_none_of_them_and_compliance_sees_all_without_actions(
    console: Callable[..., Console], make_table: Callable[..., TableActors]
) -> None:
    first = make_table("BJ-A", signed_in=False, pit_name="Pit 1")
    second = make_table("BJ-B", signed_in=False, pit_name="Pit 2")
    make_table("BJ-C", signed_in=False, pit_name="High limit")

    elsewhere = console(StaffRole.FLOOR_SUPERVISOR, pits=(second.table.pit,))
    elsewhere.open("/floor/")
    elsewhere.wait_for_text("BJ-B")
    assert "BJ-A" not in elsewhere.text()
    assert "BJ-C" not in elsewhere.text()

    compliance = console(StaffRole.COMPLIANCE)
    compliance.open("/floor/")
    compliance.wait_for_text("BJ-C")
    assert "BJ-A" in compliance.text()
    assert "BJ-B" in compliance.text()
    assert compliance.browser.find_elements(By.CSS_SELECTOR, ".actions") == []
    assert compliance.read(".topbar .role") == "Compliance"
    assert first.table.name in compliance.read(f"#table-{first.table.pk} h3")
    compliance.screenshot("floor-home-compliance")


def test_the_styled_error_pages(
    console: Callable[..., Console], chromium: WebDriver, live_server: Any
) -> None:
    boss = console(StaffRole.PIT_BOSS)
    boss.open("/floor/no-such-page/")
    boss.wait_for_text("Page not found")
    assert boss.attribute(".error-page a.button", "href") == f"{live_server.url}/floor/"
    boss.screenshot("error-404")

    UserFactory.create(username="visitor", password="visitor-pass-2026")
    visitor = sign_in(chromium, live_server.url, "visitor", "visitor-pass-2026")  # no staff role
    visitor.open("/floor/")
    visitor.wait_for_text("Not allowed")
    assert "Your role does not include this page." in visitor.text()
    assert visitor.read(".error-page a.button") == "Back to the floor"
    visitor.screenshot("error-403")
