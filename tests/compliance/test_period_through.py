"""The last shift the month- and year-to-date figures hold: the last requested one that had begun."""

import datetime as dt
from typing import Any

import pytest

from reports.period import last_shift_begun
from tests.support.gaming_day import CASINO_ZONE

DAY = dt.date(2026, 11, 20)
ALL = ["day", "swing", "grave"]


def at(day: int, hour: int, minute: int) -> dt.datetime:
    """A moment of November 2026 in the casino's time zone."""
    return dt.datetime(2026, 11, day, hour, minute, tzinfo=CASINO_ZONE)


@pytest.mark.parametrize(
    ("shifts", "local_now", "through"),
    [
        (ALL, at(20, 10, 0), (DAY, "day")),  # the day shift runs
        (ALL, at(20, 14, 0), (DAY, "swing")),  # swing begins at 14:00
        (ALL, at(20, 21, 59), (DAY, "swing")),
        (ALL, at(20, 22, 0), (DAY, "grave")),
        (ALL, at(23, 9, 0), (DAY, "grave")),  # days later
        (["swing"], at(20, 10, 0), (DAY, "day")),  # not begun: the one before
        (ALL, at(20, 5, 59), (dt.date(2026, 11, 19), "grave")),  # before the day
    ],
)
def test_the_last_shift_included_is_the_last_requested_that_had_begun(
    settings: Any, shifts: list[str], local_now: dt.datetime, through: tuple[dt.date, str]
) -> None:
    settings.CASINO_TIME_ZONE = "America/Los_Angeles"
    settings.GAMING_DAY_STARTS = "06:00"

    assert last_shift_begun(gaming_day=DAY, shifts=shifts, now=local_now) == through
