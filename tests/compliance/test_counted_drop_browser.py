"""The count team's pages in a real Chromium: once the day shift has ended, one member counts a
table's drop box; a second member counts it blind (no figure of the first's on the page or in its
source) and finds $20 less; only then is the variance shown, per denomination and in total; a
recount by both agrees and the count is complete."""

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from table_money.selectors import list_count_records
from tests.support.api import TableActors, buy_in, close_table, ok, open_table
from tests.support.console import Console, sign_in
from tests.support.gaming_day import CASINO_ZONE, GAMING_DAY, Clock, day_shift_clock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    """10:00 of the day shift; the live server runs in this process and reads the same clock."""
    return day_shift_clock(monkeypatch, settings)


def without_random_tokens(source: str) -> str:
    """The page source without the values of its hidden fields (the CSRF token and the form's
    one-time key are random text, which may hold any digits)."""
    return re.sub(r'(<input type="hidden"[^>]*?) value="[^"]*"', r"\1", source)


def count_sheet(member: Console, bills: dict[int, str], markers: str) -> None:
    for dollars_per_bill, count in bills.items():
        member.type_into(f"#id_bills_{dollars_per_bill * 100}", count)
    member.type_into("#id_markers", markers)


def test_a_blind_count_by_two_members_shows_its_variance_only_after_the_second_count(
    console: Callable[..., Console],
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], Any],
    clock: Clock,
) -> None:
    table = make_table("BJ-01", pit_name="Main pit")
    supervisor = make_staff("floor_supervisor")[1]
    ok(open_table(supervisor, table, {"10000": 100}), 201)
    ok(buy_in(table, 1, 46_000), 201)
    ok(close_table(supervisor, table, {"10000": 100}), 201)
    clock.set(dt.datetime(2026, 11, 20, 14, 30, tzinfo=CASINO_ZONE))  # the day shift has ended

    counter = console("count_team")
    counter.open("/floor/count/")
    # The last ended shift is the one counted by default, and the table open in it is offered.
    assert counter.read("#id_period option:checked") == "2026-11-20 day shift (06:00-14:00 PST)"
    assert "BJ-01 (Main pit)" in counter.read("#id_table optgroup[label='Open in this period']")
    counter.select("#id_table", "BJ-01 (Main pit)")
    count_sheet(counter, {100: "4", 20: "3"}, "200.00")  # $460 in bills and a $200 marker
    counter.follow("#soft-count button[type=submit]")
    counter.wait_for_text("A second member of the count team now counts the box without seeing yours")
    assert "$660.00" not in counter.text()
    assert "Awaiting the second count" in counter.read("#counts tbody tr")

    checker = console("count_team")
    checker.open("/floor/count/")
    checker.follow("#counts tbody tr a.button.primary")
    checker.wait_for_text("Second count: BJ-01")
    # Blind: nothing of the first count's figures on the page, in its fields or in its source.
    source = without_random_tokens(checker.browser.page_source)
    for figure in ("660", "460", "200.00", "$400", "$60"):
        assert figure not in source, figure
    assert all(
        field.get_attribute("value") == ""
        for field in checker.browser.find_elements(By.CSS_SELECTOR, "#tally input[type=number]")
    )
    checker.screenshot("blind-second-count-form")
    count_sheet(checker, {100: "4", 20: "2"}, "200.00")  # one $20 bill fewer
    checker.follow("#tally button[type=submit]")
    checker.wait_for_text("The two counts of BJ-01 differ by -$20.00")

    variance = checker.read("#round-1")
    assert "$20.00 bills 3 2 -$20.00" in variance
    assert "Total $660.00 $640.00 -$20.00" in variance
    assert "Variance" in checker.read("#count-status")
    checker.screenshot("blind-count-variance")
    (record,) = list_count_records(gaming_day=GAMING_DAY, shifts=["day"])
    assert (record.result.status, record.result.counts) == ("variance", False)

    # The recount: the checker first this time, then the counter; both find $640 and a $200 marker.
    checker.follow("a.button.primary")
    checker.wait_for_text("Recount: BJ-01")
    count_sheet(checker, {100: "4", 20: "2"}, "200.00")
    checker.follow("#tally button[type=submit]")
    checker.wait_for_text("a second member now recounts the box")
    # One browser: the first member signs in again.
    counter = sign_in(counter.browser, counter.base_url, counter.username, "count_team-pass-2026")
    counter.open("/floor/count/")
    counter.follow("#counts tbody tr a.button.primary")
    counter.wait_for_text("Recount: BJ-01")
    assert "640" not in without_random_tokens(counter.browser.page_source)
    count_sheet(counter, {100: "4", 20: "2"}, "200.00")
    counter.follow("#tally button[type=submit]")
    counter.wait_for_text("Both counts of BJ-01 agree: $640.00 is its counted drop")
    assert "Total $640.00 $640.00 agree" in counter.read("#round-2")

    (record,) = list_count_records(gaming_day=GAMING_DAY, shifts=["day"])
    assert (record.result.status, record.result.total_cents, record.result.counts) == (
        "complete",
        64_000,
        True,
    )

    counter.open("/floor/count/")
    assert "Current: complete, the counted drop" in counter.read("#counts tbody tr")
    counter.screenshot("soft-count-page")

    # The variance report keeps both rounds: the variance and the recount that resolved it.
    counter.open("/floor/count/variances/?gaming_day=2026-11-20&shift=day")
    rows = [row.text for row in counter.browser.find_elements(By.CSS_SELECTOR, "#variances tbody tr")]
    assert len(rows) == 2
    assert all(part in rows[0] for part in ("$660.00", "$640.00", "-$20.00", "recounted")), rows[0]
    assert all(part in rows[1] for part in ("$640.00", "agree", "complete")), rows[1]
    counter.screenshot("count-variance-report")
