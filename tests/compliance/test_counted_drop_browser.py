"""The count team's page in a real Chromium: one member enters a table's soft count, a second
member checks and signs it, and it takes effect."""

from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from table_money.models import SoftCount
from tests.support.api import TableActors
from tests.support.console import Console
from tests.support.gaming_day import Clock, day_shift_clock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    """10:00 of the day shift; the live server runs in this process and reads the same clock."""
    return day_shift_clock(monkeypatch, settings)


def test_two_members_of_the_count_team_enter_and_sign_a_count(
    console: Callable[..., Console],
    make_table: Callable[..., TableActors],
) -> None:
    table = make_table("BJ-01", pit_name="Main pit")
    counter = console("count_team")
    counter.open("/floor/count/")
    counter.select("#id_table", f"{table.table}")
    counter.type_into("#id_bills_10000", "4")
    counter.type_into("#id_bills_2000", "2")
    counter.type_into("#id_markers", "200.00")
    counter.follow("#soft-count button[type=submit]")
    counter.wait_for_text("$640.00 entered")  # 4 x $100 + 2 x $20 + a $200 marker

    assert "Awaiting a second signature" in counter.read("#counts tbody tr")
    # The one who entered it cannot sign it.
    assert counter.browser.find_elements(By.CSS_SELECTOR, "#counts tbody tr button") == []

    checker = console("count_team")
    checker.open("/floor/count/")
    checker.follow("#counts tbody tr button[type=submit]")
    checker.wait_for_text("is its counted drop")

    row = checker.read("#counts tbody tr")
    assert "In effect" in row
    assert "$640.00" in row
    checker.screenshot("soft-count-count_team")
    count = SoftCount.objects.get()
    assert (count.total_cents, count.markers_cents, count.shift) == (64_000, 20_000, "day")
    assert count.witnessed_by is not None
    assert count.witnessed_by.get_username() == checker.username
